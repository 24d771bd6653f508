package server_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/pkg/server"
)

func TestNewLoggerFormats(t *testing.T) {
	tests := []struct {
		name     string
		format   string
		level    string
		wantJSON bool
		wantInfo bool // whether an info line is written
	}{
		{"json", server.LogFormatJSON, "info", true, true},
		{"auto off a terminal is json", server.LogFormatAuto, "debug", true, true},
		{"console", server.LogFormatConsole, "info", false, true},
		{"level filters", server.LogFormatJSON, "warn", true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := server.DefaultConfig("demo", "127.0.0.1:0")
			cfg.LogFormat, cfg.LogLevel = tt.format, tt.level
			var buf bytes.Buffer
			log, err := server.NewLoggerTo(cfg, &buf)
			if err != nil {
				t.Fatal(err)
			}
			log.Info("hello")
			log.Warn("careful")
			lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
			if want := map[bool]int{true: 2, false: 1}[tt.wantInfo]; len(lines) != want {
				t.Fatalf("got %d lines, want %d:\n%s", len(lines), want, buf.String())
			}
			var entry map[string]any
			isJSON := json.Unmarshal([]byte(lines[0]), &entry) == nil
			if isJSON != tt.wantJSON {
				t.Fatalf("JSON = %v, want %v: %s", isJSON, tt.wantJSON, lines[0])
			}
			if isJSON && entry["service"] != "demo" {
				t.Errorf("service field = %v, want demo", entry["service"])
			}
		})
	}
}

func TestNewLoggerRejectsBadSettings(t *testing.T) {
	tests := []struct{ format, level, want string }{
		{"xml", "info", "log-format"},
		{"json", "loud", "log-level"},
	}
	for _, tt := range tests {
		cfg := server.DefaultConfig("demo", "127.0.0.1:0")
		cfg.LogFormat, cfg.LogLevel = tt.format, tt.level
		_, err := server.NewLoggerTo(cfg, &bytes.Buffer{})
		if !errors.Is(err, server.ErrConfig) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("NewLoggerTo(%s, %s) = %v, want ErrConfig naming %s", tt.format, tt.level, err, tt.want)
		}
	}
}
