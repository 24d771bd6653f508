package config_test

import (
	"testing"

	"github.com/greenlight-dev/greenlight/pkg/config"
)

func TestParseBytes(t *testing.T) {
	tests := []struct {
		in      string
		want    int
		wantErr bool
	}{
		{"4096", 4096, false},
		{"64KiB", 64 << 10, false},
		{"16MiB", 16 << 20, false},
		{"16 mib", 16 << 20, false},
		{"2GiB", 2 << 30, false},
		{"1KB", 1000, false},
		{"3MB", 3_000_000, false},
		{"8M", 8 << 20, false},
		{"10B", 10, false},
		{"", 0, true},
		{"MiB", 0, true},
		{"1.5MiB", 0, true},
		{"-1", 0, true},
		{"99999999999GiB", 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := config.ParseBytes(tt.in)
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Fatalf("ParseBytes(%q) = %d, %v; want %d, err %v", tt.in, got, err, tt.want, tt.wantErr)
			}
		})
	}
}

func TestValidateAddr(t *testing.T) {
	tests := []struct {
		in    string
		valid bool
	}{
		{"127.0.0.1:7073", true},
		{":7073", true},
		{"[::1]:0", true},
		{"loop:7073", true},
		{"localhost", false},
		{"127.0.0.1:http", false},
		{"127.0.0.1:70000", false},
	}
	for _, tt := range tests {
		if err := config.ValidateAddr(tt.in); (err == nil) != tt.valid {
			t.Errorf("ValidateAddr(%q) = %v, want valid %v", tt.in, err, tt.valid)
		}
	}
}

func TestDefaultDataDir(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", "/data/xdg")
	if got := config.DefaultDataDir(); got != "/data/xdg/greenlight" {
		t.Errorf("with XDG_DATA_HOME: %q", got)
	}
	t.Setenv("XDG_DATA_HOME", "relative/ignored")
	t.Setenv("HOME", "/home/someone")
	if got := config.DefaultDataDir(); got != "/home/someone/.local/share/greenlight" {
		t.Errorf("with HOME: %q", got)
	}
}
