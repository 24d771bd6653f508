package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCABundle(t *testing.T) {
	pem := filepath.Join(t.TempDir(), "corp.pem")
	if err := os.WriteFile(pem, []byte("-----BEGIN CERTIFICATE-----\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, hostErr := os.Stat(HostCABundle)
	auto := ""
	if hostErr == nil {
		auto = HostCABundle
	}
	tests := []struct {
		flag, want string
		usage      bool
	}{
		{flag: "auto", want: auto},
		{flag: "", want: auto},
		{flag: "none", want: ""},
		{flag: pem, want: pem},
		{flag: filepath.Join(t.TempDir(), "missing.pem"), usage: true},
	}
	for _, tc := range tests {
		a := &app{caBundleFlag: tc.flag}
		got, err := a.caBundle()
		var ue *usageError
		if tc.usage {
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), "--ca-bundle") {
				t.Errorf("%q: err = %v, want a usage error naming --ca-bundle", tc.flag, err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q: got %q, %v; want %q", tc.flag, got, err, tc.want)
		}
	}
}
