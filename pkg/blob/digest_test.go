package blob

import (
	"errors"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

const emptyHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

func TestDigestOfKnownVectors(t *testing.T) {
	tests := []struct {
		in   string
		want Digest
	}{
		{"", Digest{Hash: emptyHash, Size: 0}},
		{"abc", Digest{Hash: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", Size: 3}},
	}
	for _, tt := range tests {
		if got := DigestOf([]byte(tt.in)); got != tt.want {
			t.Errorf("DigestOf(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestDigestValidate(t *testing.T) {
	tests := []struct {
		name    string
		d       Digest
		wantErr string // substring; empty means valid
	}{
		{"valid", Digest{Hash: emptyHash, Size: 0}, ""},
		{"empty hash", Digest{Hash: "", Size: 1}, "64 lowercase hex characters, got 0"},
		{"short", Digest{Hash: emptyHash[:63], Size: 1}, "got 63 characters"},
		{"long", Digest{Hash: emptyHash + "0", Size: 1}, "got 65 characters"},
		{"uppercase", Digest{Hash: strings.ToUpper(emptyHash), Size: 1}, "lowercase hex, got 'E' at position 0"},
		{"non hex", Digest{Hash: "g" + emptyHash[1:], Size: 1}, "got 'g' at position 0"},
		{"negative size", Digest{Hash: emptyHash, Size: -1}, "size must not be negative, got -1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.d.Validate()
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("Validate() = %v, want nil", err)
				}
				return
			}
			if !errors.Is(err, ErrInvalidDigest) || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("Validate() = %v, want ErrInvalidDigest containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestDigestStringParseRoundTrip(t *testing.T) {
	d := DigestOf([]byte("hello"))
	s := d.String()
	if want := "sha256:" + d.Hash + "/5"; s != want {
		t.Fatalf("String() = %q, want %q", s, want)
	}
	got, err := ParseDigest(s)
	if err != nil || got != d {
		t.Fatalf("ParseDigest(%q) = %v, %v; want %v", s, got, err, d)
	}
}

func TestParseDigestRejects(t *testing.T) {
	for _, in := range []string{
		"",
		emptyHash + "/0",
		"md5:" + emptyHash + "/0",
		"sha256:" + emptyHash,
		"sha256:" + emptyHash + "/x",
		"sha256:" + emptyHash + "/-1",
		"sha256:abc/0",
	} {
		if _, err := ParseDigest(in); !errors.Is(err, ErrInvalidDigest) {
			t.Errorf("ParseDigest(%q) = %v, want ErrInvalidDigest", in, err)
		}
	}
}

func TestDigestProtoConversion(t *testing.T) {
	d := DigestOf([]byte("proto"))
	back, err := DigestFromProto(d.Proto())
	if err != nil || back != d {
		t.Fatalf("round trip = %v, %v; want %v", back, err, d)
	}
	tests := []struct {
		name string
		in   *glv1.Digest
	}{
		{"nil", nil},
		{"bad hash", &glv1.Digest{Hash: "xyz", SizeBytes: 1}},
		{"negative size", &glv1.Digest{Hash: d.Hash, SizeBytes: -5}},
	}
	for _, tt := range tests {
		if _, err := DigestFromProto(tt.in); !errors.Is(err, ErrInvalidDigest) {
			t.Errorf("%s: DigestFromProto = %v, want ErrInvalidDigest", tt.name, err)
		}
	}
}
