package stack

import (
	"runtime"
	"testing"

	"github.com/greenlight-dev/greenlight/pkg/image"
	"github.com/greenlight-dev/greenlight/services/discovery/discoverysvc"
	"github.com/greenlight-dev/greenlight/services/executor/executorsvc"
)

// TestEmbeddedCPUsFollowTheHost: the embedded executor's default CPUs are
// the host's, at most 4 (not the standalone default of 1), and discovery
// refuses what the executor would not grant.
func TestEmbeddedCPUsFollowTheHost(t *testing.T) {
	st := &Stack{opts: Options{Home: t.TempDir()}}
	cfg := st.executorConfig()
	want := float64(min(runtime.NumCPU(), 4))
	if cfg.CPUs != want {
		t.Fatalf("embedded default CPUs = %g, want %g (the host's, at most 4)", cfg.CPUs, want)
	}
	if cfg.MaxCPUs < cfg.CPUs || cfg.MaxCPUs > float64(runtime.NumCPU()) {
		t.Fatalf("embedded max CPUs = %g: want between the default %g and the host's %d", cfg.MaxCPUs, cfg.CPUs, runtime.NumCPU())
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	m := discoveryOptions(cfg, nil).Maxima
	if m.CPUs != cfg.MaxCPUs || m.MemoryBytes != int64(cfg.MaxMemory) || m.Pids != int64(cfg.MaxPids) || m.RunTimeout != cfg.MaxRunTimeout {
		t.Fatalf("discovery maxima %+v differ from the executor's (cpus %g memory %d pids %d run %s)",
			m, cfg.MaxCPUs, cfg.MaxMemory, cfg.MaxPids, cfg.MaxRunTimeout)
	}
}

// TestStandaloneMaximaAgree: the standalone discovery's default maxima are
// the standalone executor's, so split services refuse exactly what the
// executor would clamp.
func TestStandaloneMaximaAgree(t *testing.T) {
	e := executorsvc.DefaultConfig("")
	d := discoverysvc.DefaultMaxima()
	if d.CPUs != e.MaxCPUs || d.MemoryBytes != int64(e.MaxMemory) || d.Pids != int64(e.MaxPids) || d.RunTimeout != e.MaxRunTimeout {
		t.Fatalf("discovery default maxima %+v, executor's cpus %g memory %d pids %d run %s", d, e.MaxCPUs, e.MaxMemory, e.MaxPids, e.MaxRunTimeout)
	}
	if e.CPUs != 1 {
		t.Fatalf("standalone executor default CPUs = %g, documented as 1", e.CPUs)
	}
}

// TestEmbeddedImageSet: Options.Images selects the set for both the
// executor (which then pulls missing images) and discovery.
func TestEmbeddedImageSet(t *testing.T) {
	st := &Stack{opts: Options{Home: t.TempDir(), Images: image.SetUpstream}}
	cfg := st.executorConfig()
	if len(cfg.Images) != 1 || cfg.Images[0] != image.SetUpstream {
		t.Fatalf("executor images = %v, want the upstream set", cfg.Images)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	if def := (&Stack{opts: Options{Home: t.TempDir()}}).executorConfig(); len(def.Images) < 3 {
		t.Fatalf("default executor images = %v, want the offline table", def.Images)
	}
}
