package repoconfig

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestLimits(t *testing.T) {
	cfg, err := load(t, map[string]string{"greenlight.yaml": `limits:
  cpus: 1.5
  memory: 4GiB
  pids: 1024
time_budget: 20m
timeouts: {test: 15m}
steps:
  - name: unit
    command: make test
    timeout: 12m
`})
	if err != nil {
		t.Fatal(err)
	}
	if want := (Limits{CPUs: 1.5, MemoryBytes: 4 << 30, Pids: 1024}); cfg.Limits != want {
		t.Fatalf("limits = %+v, want %+v", cfg.Limits, want)
	}
	want := []Ask{
		{Location{"greenlight.yaml", 2, "limits.cpus"}, ResourceCPUs, 1.5, "1.5"},
		{Location{"greenlight.yaml", 3, "limits.memory"}, ResourceMemory, 4 << 30, "4GiB"},
		{Location{"greenlight.yaml", 4, "limits.pids"}, ResourcePids, 1024, "1024"},
		{Location{"greenlight.yaml", 5, "time_budget"}, ResourceRunTimeout, float64(20 * time.Minute), "20m"},
		{Location{"greenlight.yaml", 6, "timeouts.test"}, ResourceRunTimeout, float64(15 * time.Minute), "15m"},
		{Location{"greenlight.yaml", 10, "steps[0].timeout"}, ResourceRunTimeout, float64(12 * time.Minute), "12m"},
	}
	if len(cfg.Asks) != len(want) {
		t.Fatalf("asks = %+v", cfg.Asks)
	}
	for i := range want {
		if cfg.Asks[i] != want[i] {
			t.Errorf("asks[%d] = %+v, want %+v", i, cfg.Asks[i], want[i])
		}
	}
}

func TestLimitErrors(t *testing.T) {
	tests := []struct{ name, body, key, msg string }{
		{"unknown limit", "limits:\n  disk: 1GiB\n", "limits.disk", "unknown key"},
		{"cpus not a number", "limits:\n  cpus: two\n", "limits.cpus", "want a number of CPUs"},
		{"cpus zero", "limits:\n  cpus: 0\n", "limits.cpus", "want a number of CPUs"},
		{"fractional pids", "limits:\n  pids: 1.5\n", "limits.pids", "whole number"},
		{"bad size", "limits:\n  memory: lots\n", "limits.memory", "not a byte size"},
		{"zero memory", "limits:\n  memory: 0\n", "limits.memory", "must be positive"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := load(t, map[string]string{"greenlight.yaml": tt.body})
			var ce *Error
			if !errors.As(err, &ce) || !errors.Is(err, ErrInvalid) {
				t.Fatalf("err = %v, want *Error", err)
			}
			if ce.Line != 2 || ce.Key != tt.key || !strings.Contains(ce.Msg, tt.msg) {
				t.Fatalf("got %q (line %d key %q), want line 2 key %q msg ~%q", err, ce.Line, ce.Key, tt.key, tt.msg)
			}
		})
	}
}
