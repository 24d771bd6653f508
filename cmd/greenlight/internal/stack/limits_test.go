package stack

import (
	"runtime"
	"strings"
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
	cfg, err := st.executorConfig()
	if err != nil {
		t.Fatal(err)
	}
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
	cfg, err := st.executorConfig()
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Images) != 1 || cfg.Images[0] != image.SetUpstream {
		t.Fatalf("executor images = %v, want the upstream set", cfg.Images)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	if def, _ := (&Stack{opts: Options{Home: t.TempDir()}}).executorConfig(); len(def.Images) < 3 {
		t.Fatalf("default executor images = %v, want the offline table", def.Images)
	}
}

// TestEmbeddedSandboxSizesFromTheEnvironment: the sizes the disk-full
// reason names (GREENLIGHT_EXECUTOR_HOME_SIZE and its siblings) apply to
// the embedded executor too, raising a maximum they pass; a bad value is
// an error naming the variable.
func TestEmbeddedSandboxSizesFromTheEnvironment(t *testing.T) {
	t.Setenv("GREENLIGHT_EXECUTOR_HOME_SIZE", "12GiB")
	t.Setenv("GREENLIGHT_EXECUTOR_MEMORY", "16GiB")
	st := &Stack{opts: Options{Home: t.TempDir()}}
	cfg, err := st.executorConfig()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.HomeSize != 12<<30 || cfg.MaxHomeSize != 12<<30 || cfg.Memory != 16<<30 || cfg.MaxMemory != 16<<30 {
		t.Fatalf("home %d (max %d), memory %d (max %d): the environment was not applied", cfg.HomeSize, cfg.MaxHomeSize, cfg.Memory, cfg.MaxMemory)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GREENLIGHT_EXECUTOR_HOME_SIZE", "lots")
	if _, err := st.executorConfig(); err == nil || !strings.Contains(err.Error(), "GREENLIGHT_EXECUTOR_HOME_SIZE") {
		t.Fatalf("a bad size: %v, want an error naming the variable", err)
	}
}

// Embedded mode takes package index mirrors from the executor's
// environment variables, and a malformed one fails validation naming it.
func TestEmbeddedMirrorsFromTheEnvironment(t *testing.T) {
	t.Setenv("GREENLIGHT_EXECUTOR_MIRROR", "pip=https://pypi.corp.example/simple,npm=https://npm.corp.example/")
	t.Setenv("GREENLIGHT_EXECUTOR_INSTALL_ENV", "GONOSUMDB=corp.example")
	st := &Stack{opts: Options{Home: t.TempDir()}}
	cfg, err := st.executorConfig()
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Mirrors) != 2 || cfg.Mirrors[1] != "npm=https://npm.corp.example/" || len(cfg.InstallEnv) != 1 {
		t.Fatalf("mirrors %q, install env %q", cfg.Mirrors, cfg.InstallEnv)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GREENLIGHT_EXECUTOR_MIRROR", "maven=https://repo.corp.example")
	cfg, err = st.executorConfig()
	if err == nil {
		err = cfg.Validate()
	}
	if err == nil || !strings.Contains(err.Error(), "mirror") {
		t.Fatalf("an unknown kind: %v", err)
	}
}
