package cli

import (
	"errors"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// TestParseSecurity: each --security mode reaches VerifyOptions; any other
// word is a usage error (exit 2) naming the three modes.
func TestParseSecurity(t *testing.T) {
	for flag, want := range map[string]glv1.SecurityMode{
		"":         glv1.SecurityMode_SECURITY_MODE_UNSPECIFIED,
		"advisory": glv1.SecurityMode_SECURITY_MODE_ADVISORY,
		"required": glv1.SecurityMode_SECURITY_MODE_REQUIRED,
		"off":      glv1.SecurityMode_SECURITY_MODE_OFF,
	} {
		f := &verifyFlags{security: flag}
		if err := f.parseSecurity(); err != nil {
			t.Fatalf("--security %q: %v", flag, err)
		}
		var o glv1.VerifyOptions
		f.securityOptions(&o)
		if o.GetSecurity() != want {
			t.Errorf("--security %q = %v, want %v", flag, o.GetSecurity(), want)
		}
	}
	err := (&verifyFlags{security: "strict"}).parseSecurity()
	var ue *usageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "want advisory, required or off") {
		t.Errorf("--security strict: %v, want a usage error naming the modes", err)
	}
}
