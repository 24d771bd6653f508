package image

import (
	"errors"
	"strings"
	"testing"
)

func TestValidateReference(t *testing.T) {
	hex64 := strings.Repeat("0123456789abcdef", 4)
	tests := []struct {
		ref string
		ok  bool
	}{
		{"python:3.12-slim", true},
		{"golang:1.26", true},
		{"greenlight/sandbox-go:latest", true},
		{"greenlight/sandbox-go:0123456789ab", true},
		{"ubuntu", true},
		{"registry.example.com:5000/team/img:v1.2_3", true},
		{"localhost/img", true},
		{"img@sha256:" + hex64, true},
		{"img:tag@sha256:" + hex64, true},
		{"a__b/c-d/e.f:1", true},
		{"", false},
		{"-v", false},
		{"--privileged", false},
		{"Python:3", false},
		{"python:3 slim", false},
		{"python:", false},
		{"python:-tag", false},
		{"img@sha256:abc", false},
		{"img/", false},
		{"/img", false},
		{"img::1", false},
		{"img:" + strings.Repeat("t", 129), false},
		{strings.Repeat("a", 256), false},
		{"img\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.ref, func(t *testing.T) {
			err := ValidateReference(tt.ref)
			if tt.ok && err != nil {
				t.Fatalf("ValidateReference(%q) = %v, want nil", tt.ref, err)
			}
			if !tt.ok && !errors.Is(err, ErrInvalidReference) {
				t.Fatalf("ValidateReference(%q) = %v, want ErrInvalidReference", tt.ref, err)
			}
		})
	}
}
