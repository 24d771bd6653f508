package repoconfig

import (
	"math"
	"strconv"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/greenlight-dev/greenlight/pkg/config"
)

// Resources a repository may ask for; each has a server maximum.
const (
	ResourceCPUs       = "cpus"
	ResourceMemory     = "memory"
	ResourcePids       = "pids"
	ResourceRunTimeout = "run_timeout"
)

// Limits are the sandbox resources a repository asks for with
// greenlight.yaml "limits"; a zero field leaves the server's default.
type Limits struct {
	CPUs        float64
	MemoryBytes int64
	Pids        int64
	// RunTimeout is the configured time budget (greenlight.yaml
	// time_budget, runr's max_verify_time_per_milestone); zero when none
	// is, so the server's default applies.
	RunTimeout time.Duration
}

// Ask is one value a repository's configuration asks of the server's
// resources (a limit, the time budget, a timeout), kept with where it was
// written so that a server whose maximum it exceeds can name the file, line
// and key.
type Ask struct {
	Location
	// Resource is one of the Resource constants; durations are all checked
	// against the maximum run timeout (no step can outlive its run).
	Resource string
	// Value is the amount: CPUs, bytes, processes, or nanoseconds.
	Value float64
	// Text is the value as written ("4GiB", "90m").
	Text string
}

// limits reads {cpus: 2, memory: 4GiB, pids: 1024}.
func (d dec) limits(cfg *Config, n *yaml.Node, key string) error {
	return d.mapping(n, key, map[string]handler{
		ResourceCPUs: func(n *yaml.Node, k string) error {
			v, err := d.positiveNumber(n, k, "a number of CPUs such as 2 or 1.5")
			if err == nil {
				cfg.Limits.CPUs = v
				d.ask(cfg, n, k, ResourceCPUs, v)
			}
			return err
		},
		ResourceMemory: func(n *yaml.Node, k string) error {
			v, err := d.bytes(n, k)
			if err == nil {
				cfg.Limits.MemoryBytes = v
				d.ask(cfg, n, k, ResourceMemory, float64(v))
			}
			return err
		},
		ResourcePids: func(n *yaml.Node, k string) error {
			v, err := d.positiveNumber(n, k, "a whole number of processes such as 1024")
			if err == nil && v != math.Trunc(v) {
				err = d.errf(n, k, "want a whole number of processes such as 1024, got %s", kind(n))
			}
			if err == nil {
				cfg.Limits.Pids = int64(v)
				d.ask(cfg, n, k, ResourcePids, v)
			}
			return err
		},
	}, false)
}

// ask records one value for the server's maxima check.
func (d dec) ask(cfg *Config, n *yaml.Node, key, resource string, v float64) {
	cfg.Asks = append(cfg.Asks, Ask{Location: Location{File: d.file, Line: n.Line, Key: key}, Resource: resource, Value: v, Text: n.Value})
}

// askDuration records a time budget or timeout: each must fit the maximum
// run timeout.
func (d dec) askDuration(cfg *Config, n *yaml.Node, key string, v time.Duration) {
	d.ask(cfg, n, key, ResourceRunTimeout, float64(v))
}

// positiveNumber reads a positive YAML number.
func (d dec) positiveNumber(n *yaml.Node, key, want string) (float64, error) {
	if n.Kind != yaml.ScalarNode || (n.Tag != "!!int" && n.Tag != "!!float") {
		return 0, d.errf(n, key, "want %s, got %s", want, kind(n))
	}
	v, err := strconv.ParseFloat(n.Value, 64)
	if err != nil || v <= 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, d.errf(n, key, "want %s, got %s", want, kind(n))
	}
	return v, nil
}

// bytes reads a byte size: a number of bytes or "512MiB", "4GiB", "2GB".
func (d dec) bytes(n *yaml.Node, key string) (int64, error) {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return 0, d.errf(n, key, "want a size such as 4GiB or 512MiB, got %s", kind(n))
	}
	v, err := config.ParseBytes(n.Value)
	if err != nil {
		return 0, d.errf(n, key, "%v", err)
	}
	if v <= 0 {
		return 0, d.errf(n, key, "must be positive, got %q", n.Value)
	}
	return int64(v), nil
}
