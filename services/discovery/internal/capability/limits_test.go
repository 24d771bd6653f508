package capability_test

import (
	"errors"
	"testing"
	"time"

	"github.com/greenlight-dev/greenlight/services/discovery/internal/capability"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/repoconfig"
)

func TestLimitsWithinMaxima(t *testing.T) {
	caps, err := build(t, map[string]string{"go.mod": goMod, "greenlight.yaml": "limits: {cpus: 4, memory: 8GiB, pids: 4096}\ntime_budget: 2h\n"},
		capability.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := (repoconfig.Limits{CPUs: 4, MemoryBytes: 8 << 30, Pids: 4096, RunTimeout: 2 * time.Hour}); caps.Limits != want {
		t.Fatalf("limits = %+v, want %+v", caps.Limits, want)
	}
}

func TestLimitsBeyondMaxima(t *testing.T) {
	max := capability.Maxima{CPUs: 2, MemoryBytes: 3 << 30, Pids: 512, RunTimeout: time.Hour}
	tests := []struct{ name, body, want string }{
		{"cpus", "version: 1\nlimits:\n  cpus: 3\n",
			"greenlight.yaml:3: limits.cpus: asks for 3, above the server's maximum of 2: ask for at most 2, or have the operator raise --max-cpus"},
		{"memory", "limits: {memory: 4GiB}\n",
			"greenlight.yaml:1: limits.memory: asks for 4GiB, above the server's maximum of 3GiB: ask for at most 3GiB, or have the operator raise --max-memory"},
		{"pids", "limits:\n  pids: 513\n",
			"greenlight.yaml:2: limits.pids: asks for 513, above the server's maximum of 512: ask for at most 512, or have the operator raise --max-pids"},
		{"time budget", "time_budget: 90m\n",
			"greenlight.yaml:1: time_budget: asks for 90m, above the server's maximum of 1h0m0s: ask for at most 1h0m0s, or have the operator raise --max-run-timeout"},
		{"phase timeout", "timeouts:\n  test: 61m\n",
			"greenlight.yaml:2: timeouts.test: asks for 61m, above the server's maximum of 1h0m0s"},
		{"step timeout", "steps:\n  - name: unit\n    command: go test ./...\n    timeout: 2h\n",
			"greenlight.yaml:4: steps[0].timeout: asks for 2h, above the server's maximum of 1h0m0s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := build(t, map[string]string{"go.mod": goMod, "greenlight.yaml": tt.body}, capability.Options{Maxima: max})
			if !errors.Is(err, repoconfig.ErrInvalid) {
				t.Fatalf("err = %v, want ErrInvalid", err)
			}
			if got := err.Error(); len(got) < len(tt.want) || got[:len(tt.want)] != tt.want {
				t.Fatalf("err = %q\nwant prefix %q", got, tt.want)
			}
		})
	}
}

func TestLimitsDefaultMaxima(t *testing.T) {
	_, err := build(t, map[string]string{"go.mod": goMod, "greenlight.yaml": "limits: {cpus: 5}\n"}, capability.Options{})
	if err == nil || err.Error() != "greenlight.yaml:1: limits.cpus: asks for 5, above the server's maximum of 4: "+
		"ask for at most 4, or have the operator raise --max-cpus" {
		t.Fatalf("err = %v", err)
	}
}
