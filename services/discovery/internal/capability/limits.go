package capability

import (
	"fmt"
	"strconv"
	"time"

	"github.com/greenlight-dev/greenlight/services/discovery/internal/repoconfig"
)

// Maxima are the largest resources a repository's configuration may ask
// for: the executor's maxima, which the server configures on both (the
// executor clamps to its own; discovery refuses beyond them, because only
// discovery can say where the value was written).
type Maxima struct {
	CPUs        float64
	MemoryBytes int64
	Pids        int64
	// RunTimeout bounds the time budget and every timeout.
	RunTimeout time.Duration
}

// DefaultMaxima are the executor's default maxima: 4 CPUs, 8 GiB, 4096
// processes, 2 hours.
func DefaultMaxima() Maxima {
	return Maxima{CPUs: 4, MemoryBytes: 8 << 30, Pids: 4096, RunTimeout: 2 * time.Hour}
}

// withDefaults fills zero fields from DefaultMaxima.
func (m Maxima) withDefaults() Maxima {
	d := DefaultMaxima()
	if m.CPUs <= 0 {
		m.CPUs = d.CPUs
	}
	if m.MemoryBytes <= 0 {
		m.MemoryBytes = d.MemoryBytes
	}
	if m.Pids <= 0 {
		m.Pids = d.Pids
	}
	if m.RunTimeout <= 0 {
		m.RunTimeout = d.RunTimeout
	}
	return m
}

// checkLimits refuses the first value the configuration asks for above the
// server's maximum, naming the file, line, key, the value and the maximum.
func checkLimits(cfg *repoconfig.Config, m Maxima) error {
	m = m.withDefaults()
	for _, a := range cfg.Asks {
		max, flag, show := m.of(a.Resource)
		if a.Value <= max {
			continue
		}
		return &repoconfig.Error{File: a.File, Line: a.Line, Key: a.Key, Msg: fmt.Sprintf(
			"asks for %s, above the server's maximum of %s: ask for at most %s, or have the operator raise %s",
			a.Text, show, show, flag)}
	}
	return nil
}

// of returns a resource's maximum, the flag that sets it and the maximum
// as a person would write it.
func (m Maxima) of(resource string) (float64, string, string) {
	switch resource {
	case repoconfig.ResourceCPUs:
		return m.CPUs, "--max-cpus", strconv.FormatFloat(m.CPUs, 'g', -1, 64)
	case repoconfig.ResourceMemory:
		return float64(m.MemoryBytes), "--max-memory", sizeText(m.MemoryBytes)
	case repoconfig.ResourcePids:
		return float64(m.Pids), "--max-pids", strconv.FormatInt(m.Pids, 10)
	}
	return float64(m.RunTimeout), "--max-run-timeout", m.RunTimeout.String()
}

// sizeText writes a byte count in the largest binary unit that divides it.
func sizeText(n int64) string {
	for _, u := range []struct {
		suffix string
		shift  uint
	}{{"GiB", 30}, {"MiB", 20}, {"KiB", 10}} {
		if n >= 1<<u.shift && n%(1<<u.shift) == 0 {
			return strconv.FormatInt(n>>u.shift, 10) + u.suffix
		}
	}
	return strconv.FormatInt(n, 10)
}
