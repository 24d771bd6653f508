package stack

import (
	"fmt"
	"runtime"

	"github.com/greenlight-dev/greenlight/pkg/config"
	"github.com/greenlight-dev/greenlight/pkg/image"
	"github.com/greenlight-dev/greenlight/services/discovery/discoverysvc"
	"github.com/greenlight-dev/greenlight/services/executor/executorsvc"
)

// maxHostCPUs caps the CPUs an embedded run gets by default.
const maxHostCPUs = 4

// hostCPUs is the embedded executor's default and maximum CPUs per run:
// the CPUs this process may use, at most maxHostCPUs. The standalone
// executor's default of 1 makes real suites hit their own timeouts on a
// developer's machine (node-semver's tap suite: 30.9 s and FAIL with 1 CPU,
// 22 s and PASS with 2), and the engine refuses more CPUs than the host has.
func hostCPUs() float64 {
	return float64(max(1, min(runtime.NumCPU(), maxHostCPUs)))
}

// executorConfig is the embedded executor's configuration: the executor's
// defaults with the options' pool and CA bundle, the egress instance on
// demand for one-shot commands, CPUs that fit the host,
// and the sandbox sizes of the environment (sandboxSizesFromEnv).
func (st *Stack) executorConfig() (executorsvc.Config, error) {
	cfg := executorsvc.DefaultConfig(st.opts.Home)
	cfg.PoolSize = st.opts.PoolSize
	// A one-shot command creates the egress network and chains only when
	// its run has an install step with network: creating and removing
	// them took 0.35 s of a 0.6 s one-step verify that never used them.
	cfg.EgressOnDemand = !st.opts.Listen
	cfg.CABundle = st.opts.CABundle
	if st.opts.Images != "" {
		cfg.Images = []string{st.opts.Images}
	}
	cfg.CPUs = hostCPUs()
	cfg.MaxCPUs = max(cfg.CPUs, min(cfg.MaxCPUs, float64(runtime.NumCPU())))
	return cfg, sandboxSizesFromEnv(&cfg)
}

// sandboxSizesFromEnv applies the executor's environment variables for
// the sandbox's memory and tmpfs caps (GREENLIGHT_EXECUTOR_MEMORY, _TMPFS,
// _HOME_SIZE, _WORKSPACE: what the loop's disk-full reason names) and for
// install steps' index mirrors (_MIRROR, _INSTALL_ENV) to the embedded
// executor, raising a maximum a default would pass; nothing else of the
// standalone executor's configuration applies here.
func sandboxSizesFromEnv(cfg *executorsvc.Config) error {
	fs := config.NewFlagSet("executor")
	fs.Bytes(&cfg.Memory, "memory", "default memory per run")
	fs.Bytes(&cfg.Tmpfs, "tmpfs", "default size of /tmp")
	fs.Bytes(&cfg.HomeSize, "home-size", "default size of the home directory")
	fs.Bytes(&cfg.Workspace, "workspace", "default workspace size")
	// Package index mirrors and install-step variables, for machines that
	// reach a corporate mirror rather than the public indexes
	// (GREENLIGHT_EXECUTOR_MIRROR=pip=URL,npm=URL; _INSTALL_ENV=NAME=VALUE,...).
	fs.Strings(&cfg.Mirrors, "mirror", "package index mirrors, kind=URL")
	fs.Strings(&cfg.InstallEnv, "install-env", "NAME=VALUE entries of install steps")
	if err := fs.Parse(nil, nil); err != nil {
		return fmt.Errorf("embedded executor: %w", err)
	}
	cfg.MaxMemory, cfg.MaxTmpfs = max(cfg.MaxMemory, cfg.Memory), max(cfg.MaxTmpfs, cfg.Tmpfs)
	cfg.MaxHomeSize, cfg.MaxWorkspace = max(cfg.MaxHomeSize, cfg.HomeSize), max(cfg.MaxWorkspace, cfg.Workspace)
	return nil
}

// discoveryOptions gives discovery the executor's maxima, so a
// greenlight.yaml that asks for more than the executor grants is refused
// with its file and line instead of silently clamped.
func discoveryOptions(exec executorsvc.Config, images image.Table) discoverysvc.Options {
	return discoverysvc.Options{Images: images, Maxima: discoverysvc.Maxima{
		CPUs: exec.MaxCPUs, MemoryBytes: int64(exec.MaxMemory), Pids: int64(exec.MaxPids), RunTimeout: exec.MaxRunTimeout,
	}}
}
