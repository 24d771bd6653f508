package repoconfig

import (
	"strings"
	"testing"
)

// TestCoverageScore: coverage.score is off unless greenlight.yaml turns it
// on, and a wrong key or value is an error with its line.
func TestCoverageScore(t *testing.T) {
	tests := []struct {
		name, body string
		want       bool
		err        string
	}{
		{name: "absent", body: "version: 1\n", want: false},
		{name: "on", body: "coverage:\n  score: true\n", want: true},
		{name: "off", body: "coverage:\n  score: false\n", want: false},
		{name: "unknown key", body: "coverage:\n  min: 80\n", err: "coverage.min"},
		{name: "not a boolean", body: "coverage:\n  score: often\n", err: "coverage.score"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := load(t, map[string]string{"greenlight.yaml": tt.body})
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want one naming %s", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cfg.CoverageScore != tt.want {
				t.Fatalf("CoverageScore = %v, want %v", cfg.CoverageScore, tt.want)
			}
		})
	}
}

// TestCoverageMeasure: coverage is measured unless greenlight.yaml says
// coverage.measure: false.
func TestCoverageMeasure(t *testing.T) {
	for _, tt := range []struct {
		body string
		off  bool
		err  string
	}{
		{body: "version: 1\n"},
		{body: "coverage:\n  measure: true\n"},
		{body: "coverage:\n  measure: false\n", off: true},
		{body: "coverage:\n  measure: false\n  score: true\n", off: true},
		{body: "coverage:\n  measure: sometimes\n", err: "coverage.measure"},
	} {
		cfg, err := load(t, map[string]string{"greenlight.yaml": tt.body})
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%q: err = %v, want one naming %s", tt.body, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: %v", tt.body, err)
		}
		if cfg.CoverageOff != tt.off {
			t.Errorf("%q: CoverageOff = %v, want %v", tt.body, cfg.CoverageOff, tt.off)
		}
	}
}
