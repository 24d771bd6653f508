package auth

import (
	"errors"
	"strings"
	"testing"
)

const secret = "s3cret-token-0123456789"

func TestNewRejectsWeakOrUnsendableTokens(t *testing.T) {
	tests := []struct {
		name   string
		secret string
		want   error
	}{
		{"short", "abc", ErrTokenTooShort},
		{"space", "0123456789 abcdef", ErrTokenInvalid},
		{"newline", "0123456789abcdef\n", ErrTokenInvalid},
		{"control", "0123456789abcdef\x7f", ErrTokenInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := New(tt.secret); !errors.Is(err, tt.want) {
				t.Fatalf("New(%q) = %v, want %v", tt.secret, err, tt.want)
			}
		})
	}
}

func TestCheckBearer(t *testing.T) {
	tok, err := New(secret)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		header string
		want   bool
	}{
		{"Bearer " + secret, true},
		{"bearer " + secret, true},
		{"BEARER  " + secret + " ", true},
		{"Bearer " + secret + "x", false},
		{"Bearer " + secret[:len(secret)-1], false},
		{"Basic " + secret, false},
		{secret, false},
		{"Bearer", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := tok.CheckBearer(tt.header); got != tt.want {
			t.Errorf("CheckBearer(%q) = %v, want %v", tt.header, got, tt.want)
		}
	}
}

func TestDisabledTokenAllowsEverything(t *testing.T) {
	for _, tok := range []*Token{nil, {}} {
		if tok.Enabled() || !tok.CheckBearer("") || !tok.CheckCookie("junk") {
			t.Fatalf("disabled token %#v refused a request", tok)
		}
	}
	tok, err := New("")
	if err != nil || tok.Enabled() {
		t.Fatalf("New(\"\") = %v, %v; want a disabled token", tok, err)
	}
}

func TestCookieValueIsDerivedNotTheToken(t *testing.T) {
	tok, _ := New(secret)
	other, _ := New(secret + "-other")
	v := tok.CookieValue()
	switch {
	case strings.Contains(v, secret):
		t.Fatal("cookie value contains the token")
	case tok.Check(v), tok.CheckBearer("Bearer " + v):
		t.Fatal("cookie value works as a bearer token")
	case !tok.CheckCookie(v):
		t.Fatal("cookie value refused by its own token")
	case other.CheckCookie(v):
		t.Fatal("cookie value accepted by another token")
	case tok.CheckCookie(v[:len(v)-2]), tok.CheckCookie("zz" + v[2:]):
		t.Fatal("mangled cookie accepted")
	}
}
