package config_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/pkg/config"
)

func TestYAMLFileValues(t *testing.T) {
	tests := []struct {
		name    string
		file    string
		tags    []string
		workers int
	}{
		{"YAML 1.1 booleans stay strings", "tags: [x, y, no, on, off]\n", []string{"x", "y", "no", "on", "off"}, 2},
		{"block list", "tags:\n  - p\n  - q\n", []string{"p", "q"}, 2},
		{"empty list clears the default", "tags: []\n", nil, 2},
		{"null keeps the default", "tags:\nworkers:\n", []string{"a"}, 2},
		{"number written as is", "workers: 0x10\n", []string{"a"}, 16},
		{"empty file", "", []string{"a"}, 2},
		{"comment only", "# nothing here\n", []string{"a"}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := tt.file
			if file == "" {
				file = "\n"
			}
			d, err := parseDemo(t, file, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(d.Tags, tt.tags) || d.Workers != tt.workers {
				t.Fatalf("tags, workers = %q, %d; want %q, %d", d.Tags, d.Workers, tt.tags, tt.workers)
			}
		})
	}
}

func TestYAMLFileErrorsNameLineAndKey(t *testing.T) {
	tests := []struct {
		name  string
		file  string
		wants []string
	}{
		{"bad value", "mode: fast\nworkers: lots\n", []string{"line 2", `"workers"`}},
		{"nested key not a flag", "server:\n  port: 1\n", []string{`"server.port"`}},
		{"top level list", "- a\n- b\n", []string{"line 1", "top level"}},
		{"list of maps", "tags:\n  - k: v\n", []string{"line 2", `"tags"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseDemo(t, tt.file, nil)
			if !errors.Is(err, config.ErrInvalid) {
				t.Fatalf("error = %v, want ErrInvalid", err)
			}
			for _, w := range tt.wants {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}
