package executorsvc

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/greenlight-dev/greenlight/pkg/config"
	"github.com/greenlight-dev/greenlight/pkg/image"
	"github.com/greenlight-dev/greenlight/services/executor/internal/egress"
	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
)

// Default sandbox images per runtime: the offline images `make images`
// builds (no registry is reachable, so upstream images cannot be pulled).
// Every runtime discovery plans by default must be here: a pipeline image
// outside this table and --allowed-images is refused. Images join the warm
// pool only once a run uses them.
var defaultImages = defaultImageList()

// defaultImageList is pkg/image's offline table (toolchain packs included)
// as runtime=image entries, with the JavaScript spellings of Node.
func defaultImageList() []string {
	t := image.Defaults()
	out := []string{"javascript=" + image.OfflineNode, "typescript=" + image.OfflineNode}
	for _, rt := range t.Runtimes() {
		out = append(out, rt+"="+t[rt])
	}
	return out
}

// Config is the executor's configuration. Every field has a flag (and so a
// GREENLIGHT_EXECUTOR_* variable and a config file key).
type Config struct {
	// Runtime is the sandboxes' container runtime: RuntimeDocker or
	// RuntimeKubernetes.
	Runtime string
	// DockerHost is the engine address ("" = DOCKER_HOST or the default
	// socket).
	DockerHost string
	// Kubeconfig is the kubeconfig file of the Kubernetes runtime ("":
	// the in-cluster configuration in a pod, else $KUBECONFIG or
	// ~/.kube/config).
	Kubeconfig string
	// KubeNamespace is where the Kubernetes runtime's sandbox pods live.
	KubeNamespace string
	// Images maps a runtime to its sandbox image, as runtime=image entries.
	// Only these images join the warm pool.
	Images []string
	// AllowedImages are the images a pipeline may name besides those of
	// Images; any other is refused with PermissionDenied.
	AllowedImages []string
	// PoolSize is the number of warm containers per image (0 disables).
	PoolSize int
	// MaxSandboxes is how many executions run at once; more are refused
	// with RESOURCE_EXHAUSTED (the loop queues them).
	MaxSandboxes int
	// ReapEvery is the period of the stale-container reaper.
	ReapEvery time.Duration
	// CacheDir holds the dependency cache ("" disables it).
	CacheDir      string
	CacheMaxBytes int
	CacheMaxEntry int
	CacheMaxAge   time.Duration
	// Owner labels the executor's own (pool) containers.
	Owner string
	// CABundle is a PEM file trusted by install steps.
	CABundle string
	// EgressNetwork is the engine network of install steps when the
	// egress policy is off (or cannot be applied in auto mode).
	EgressNetwork string
	// EgressPolicy is EgressAuto, EgressIptables or EgressOff.
	EgressPolicy string
	// EgressAllow lists IPv4 addresses or CIDRs in blocked ranges that
	// install steps may reach (a registry mirror, a proxy).
	EgressAllow []string
	// EgressInstance names this executor's egress network and chains ("":
	// derived from the process and the policy, so every executor has its
	// own).
	EgressInstance string
	// EgressOnDemand creates the egress instance (network and iptables
	// chains) when the first sandbox needs it rather than at start: a
	// one-shot process whose run has no install step with network then
	// never pays for creating and removing them.
	EgressOnDemand bool
	// Defaults and maxima of the sandbox limits.
	CPUs, MaxCPUs                   float64
	Memory, MaxMemory               int
	Pids, MaxPids                   int
	Tmpfs, MaxTmpfs                 int
	HomeSize, MaxHomeSize           int
	Workspace, MaxWorkspace         int
	LogPerStep, MaxLogPerStep       int
	RunTimeout, MaxRunTimeout       time.Duration
	StepTimeout, InstallStepTimeout time.Duration
	// TempDir holds log spool files ("" = the system temp dir).
	TempDir string
	// StepRunner is sandbox.StepRunnerAuto (use the image's
	// greenlight-runner when it has one), StepRunnerExec (one docker exec
	// per step) or StepRunnerAgent (require the runner).
	StepRunner string
	// Mirrors are package index mirrors install steps use, kind=URL
	// entries (mirrorVars: pip, npm, go), for users whose machines reach
	// a corporate mirror rather than the public indexes.
	Mirrors []string
	// InstallEnv are NAME=VALUE entries added to every install step's
	// environment after the mirrors' (proxy settings, a GONOSUMDB, a
	// PIP_EXTRA_INDEX_URL); a step's own env still wins.
	InstallEnv []string
	// IPv6Loopback gives every sandbox an IPv6 loopback (::1) and no other
	// IPv6, as CI runners have; false for engines booted without IPv6.
	IPv6Loopback bool
}

// DefaultConfig returns the defaults: the offline images, a pool of 2 per
// image, a reaper every minute, a 5 GiB dependency cache under dataDir and
// the sandbox's default limits (1 CPU, 4 GiB, 256 pids, ...).
func DefaultConfig(dataDir string) Config {
	d := sandbox.DefaultConfig()
	cacheDir := ""
	if dataDir != "" {
		cacheDir = filepath.Join(dataDir, "depcache")
	}
	return Config{
		Runtime: RuntimeDocker, KubeNamespace: DefaultKubeNamespace,
		Images: append([]string(nil), defaultImages...), AllowedImages: image.DefaultAllowed(),
		PoolSize: 2, ReapEvery: time.Minute, MaxSandboxes: defaultMaxSandboxes(),
		CacheDir: cacheDir, CacheMaxBytes: 5 << 30, CacheMaxEntry: 1 << 30, CacheMaxAge: 7 * 24 * time.Hour,
		Owner: d.Owner, EgressNetwork: d.EgressNetwork, EgressPolicy: EgressAuto,
		CPUs: d.Defaults.CPUs, MaxCPUs: d.Max.CPUs,
		Memory: int(d.Defaults.MemoryBytes), MaxMemory: int(d.Max.MemoryBytes),
		Pids: int(d.Defaults.Pids), MaxPids: int(d.Max.Pids),
		Tmpfs: int(d.Defaults.TmpfsBytes), MaxTmpfs: int(d.Max.TmpfsBytes),
		HomeSize: int(d.Defaults.HomeBytes), MaxHomeSize: int(d.Max.HomeBytes),
		Workspace: int(d.Defaults.WorkspaceBytes), MaxWorkspace: int(d.Max.WorkspaceBytes),
		LogPerStep: int(d.Defaults.LogBytesPerStep), MaxLogPerStep: int(d.Max.LogBytesPerStep),
		RunTimeout: d.Defaults.RunTimeout, MaxRunTimeout: d.Max.RunTimeout,
		StepTimeout: d.StepTimeout, InstallStepTimeout: d.InstallTimeout,
		StepRunner: sandbox.StepRunnerAuto, IPv6Loopback: true,
	}
}

// RegisterFlags binds the fields to fs.
func (c *Config) RegisterFlags(fs *config.FlagSet) {
	fs.Enum(&c.Runtime, "runtime", []string{RuntimeDocker, RuntimeKubernetes},
		"container runtime of the sandboxes: a Docker engine, or pods of a Kubernetes cluster (whose NetworkPolicies then enforce the network)")
	fs.String(&c.DockerHost, "docker-host", "Docker engine `address` (default: DOCKER_HOST or the local socket)")
	fs.String(&c.Kubeconfig, "kubeconfig", "kubeconfig `file` of --runtime kubernetes (default: the in-cluster configuration in a pod, "+
		"else $KUBECONFIG or ~/.kube/config)")
	fs.String(&c.KubeNamespace, "kube-namespace", "`namespace` of the sandbox pods with --runtime kubernetes")
	fs.Strings(&c.Images, "images", "sandbox image per runtime, `runtime=image` entries, or one image set: "+
		"offline (the images `make images` builds) or upstream (public images such as node:20-slim, pulled when missing)")
	fs.Strings(&c.AllowedImages, "allowed-images", "`images` a pipeline may name besides those of --images; any other is refused (\"\": only --images)")
	fs.Int(&c.PoolSize, "pool-size", "warm containers kept per image (0 disables the pool)")
	fs.Int(&c.MaxSandboxes, "max-sandboxes", "executions run at once (default 4 per CPU); more are refused so the loop places them elsewhere or queues them")
	fs.Duration(&c.ReapEvery, "reap-every", "how often stale sandbox containers are looked for")
	fs.String(&c.CacheDir, "cache-dir", "dependency cache `directory` (empty disables reuse of installs)")
	fs.Bytes(&c.CacheMaxBytes, "cache-max-bytes", "dependency cache total `size`")
	fs.Bytes(&c.CacheMaxEntry, "cache-max-entry", "largest dependency tree kept, a `size`")
	fs.Duration(&c.CacheMaxAge, "cache-max-age", "dependency trees unused for this long are evicted")
	fs.String(&c.Owner, "owner", "owner label `value` of the executor's pool containers")
	fs.String(&c.CABundle, "ca-bundle", "PEM `file` trusted by install steps, e.g. /etc/ssl/certs/ca-certificates.crt")
	fs.String(&c.EgressNetwork, "egress-network", "engine `network` install steps get when the egress policy is off")
	fs.Enum(&c.EgressPolicy, "egress-policy", []string{EgressAuto, EgressIptables, EgressOff},
		"filtering of install steps' egress (iptables: no host, private ranges or metadata address)")
	fs.Strings(&c.EgressAllow, "egress-allow", "IPv4 `addresses or CIDRs` in blocked ranges install steps may reach")
	fs.String(&c.EgressInstance, "egress-instance", "`id` naming this executor's egress network and iptables chains "+
		"(1-11 lower-case letters or digits; default: derived from the process, so executors never share one)")
	fs.Bool(&c.EgressOnDemand, "egress-on-demand", "create the egress network and chains when the first install step needs them "+
		"instead of at start (a host that cannot filter is then found out at that step, not at start)")
	fs.Var(floatValue{&c.CPUs}, "cpus", "default CPUs per run")
	fs.Var(floatValue{&c.MaxCPUs}, "max-cpus", "largest CPUs a request may ask for")
	fs.Bytes(&c.Memory, "memory", "default memory per run (swap is never allowed), a `size`")
	fs.Bytes(&c.MaxMemory, "max-memory", "largest memory a request may ask for, a `size`")
	fs.Int(&c.Pids, "pids", "default process limit per run")
	fs.Int(&c.MaxPids, "max-pids", "largest process limit a request may ask for")
	fs.Bytes(&c.Tmpfs, "tmpfs", "default size of /tmp, a `size`")
	fs.Bytes(&c.MaxTmpfs, "max-tmpfs", "largest /tmp (and home directory) a request may ask for, a `size`")
	fs.Bytes(&c.HomeSize, "home-size", "default size of the home directory, where the tools keep their caches "+
		"(Go modules and build cache, npm, pip, cargo), a `size`; like /tmp and the workspace a tmpfs counted in --memory")
	fs.Bytes(&c.MaxHomeSize, "max-home-size", "largest home directory, a `size`")
	fs.Bytes(&c.Workspace, "workspace", "default workspace size, a `size`")
	fs.Bytes(&c.MaxWorkspace, "max-workspace", "largest workspace a request may ask for, a `size`")
	fs.Bytes(&c.LogPerStep, "log-per-step", "default stored log per step, a `size`")
	fs.Bytes(&c.MaxLogPerStep, "max-log-per-step", "largest stored log per step a request may ask for, a `size`")
	fs.Duration(&c.RunTimeout, "run-timeout", "default budget of a whole run")
	fs.Duration(&c.MaxRunTimeout, "max-run-timeout", "largest run budget a request may ask for")
	fs.Duration(&c.StepTimeout, "step-timeout", "default timeout of a step")
	fs.Duration(&c.InstallStepTimeout, "install-step-timeout", "default timeout of an install step")
	fs.String(&c.TempDir, "temp-dir", "`directory` for log spool files")
	fs.Enum(&c.StepRunner, "step-runner", []string{sandbox.StepRunnerAuto, sandbox.StepRunnerExec, sandbox.StepRunnerAgent},
		"how steps start: the image's greenlight-runner (one docker exec per run) when it has one, "+
			"or one docker exec per step (exec), or the runner required (agent)")
	fs.Strings(&c.Mirrors, "mirror", "package index `mirrors` install steps use, kind=URL entries: pip (PIP_INDEX_URL, uv), "+
		"npm (npm, pnpm and Yarn's registry), go (GOPROXY); e.g. pip=https://pypi.corp.example/simple")
	fs.Strings(&c.InstallEnv, "install-env", "`NAME=VALUE` entries added to install steps' environment (proxies, extra indexes); a step's own env wins")
	fs.Bool(&c.IPv6Loopback, "ipv6-loopback", "give every sandbox an IPv6 loopback (::1, as CI runners have; no other IPv6 address or route); "+
		"false on an engine whose kernel was booted without IPv6")
}

// Validate reports the first unusable setting, naming its flag.
func (c *Config) Validate() error {
	if _, err := c.imageTable(); err != nil {
		return err
	}
	for _, ref := range c.AllowedImages {
		if err := image.ValidateReference(ref); err != nil {
			return fmt.Errorf("allowed-images: %w", err)
		}
	}
	if c.MaxSandboxes < 1 || c.MaxSandboxes > 1024 {
		return fmt.Errorf("max-sandboxes must be between 1 and 1024, got %d", c.MaxSandboxes)
	}
	if c.PoolSize < 0 || c.PoolSize > 32 {
		return fmt.Errorf("pool-size must be between 0 and 32, got %d", c.PoolSize)
	}
	if _, err := c.egressAllow(); err != nil {
		return err
	}
	if _, err := c.installEnv(); err != nil {
		return err
	}
	if c.EgressInstance != "" {
		if err := egress.ValidateInstance(c.EgressInstance); err != nil {
			return fmt.Errorf("egress-instance: %w", err)
		}
	}
	if c.Runtime == RuntimeKubernetes && !namespaceName.MatchString(c.KubeNamespace) {
		return fmt.Errorf("kube-namespace %q is not a Kubernetes namespace name", c.KubeNamespace)
	}
	if c.ReapEvery <= 0 {
		return fmt.Errorf("reap-every must be positive")
	}
	if c.CacheDir != "" && (c.CacheMaxBytes <= 0 || c.CacheMaxEntry <= 0 || c.CacheMaxAge <= 0) {
		return fmt.Errorf("cache-max-bytes, cache-max-entry and cache-max-age must be positive")
	}
	sc := c.sandboxConfig()
	if err := sc.Validate(); err != nil {
		return err
	}
	return nil
}

// imageTable parses Images: runtime=image entries, or one image set name
// (see imageSet).
func (c *Config) imageTable() (map[string]string, error) {
	if set, ok := c.imageSet(); ok {
		t, err := image.Set(set)
		if err != nil {
			return nil, fmt.Errorf("images: %w", err)
		}
		m := map[string]string(t)
		if node, ok := m[image.Node]; ok {
			// Pipelines name their runtime as discovery detected it.
			m["javascript"], m["typescript"] = node, node
		}
		return m, nil
	}
	m := make(map[string]string, len(c.Images))
	for _, e := range c.Images {
		rt, img, ok := strings.Cut(e, "=")
		if !ok || rt == "" || img == "" {
			return nil, fmt.Errorf("images: %q is not runtime=image", e)
		}
		m[rt] = img
	}
	return m, nil
}

// imageSet returns the image set Images names: "--images upstream" (or
// "offline") selects pkg/image's table of that name for every runtime.
func (c *Config) imageSet() (string, bool) {
	if len(c.Images) != 1 || strings.Contains(c.Images[0], "=") {
		return "", false
	}
	return strings.TrimSpace(c.Images[0]), true
}

// pullMissing says whether images the engine lacks are pulled: with the
// upstream set, whose images live in a registry.
func (c *Config) pullMissing() bool {
	set, ok := c.imageSet()
	return ok && set == image.SetUpstream
}

// allowList is the images a pipeline may name: the table's and
// AllowedImages.
func (c *Config) allowList() image.AllowList {
	table, _ := c.imageTable()
	return image.NewAllowList(table, c.AllowedImages...)
}

// sandboxConfig is the domain configuration.
func (c *Config) sandboxConfig() sandbox.Config {
	sc := sandbox.DefaultConfig()
	sc.Owner, sc.EgressNetwork, sc.CABundlePath, sc.TempDir = c.Owner, c.EgressNetwork, c.CABundle, c.TempDir
	sc.StepTimeout, sc.InstallTimeout = c.StepTimeout, c.InstallStepTimeout
	sc.StepRunner = c.StepRunner
	sc.NoLoopbackIPv6 = !c.IPv6Loopback
	// Validate refuses a malformed entry before this runs.
	sc.InstallEnv, _ = c.installEnv()
	sc.PullMissing = c.pullMissing()
	sc.Defaults = sandbox.Limits{
		CPUs: c.CPUs, MemoryBytes: int64(c.Memory), Pids: int64(c.Pids), TmpfsBytes: int64(c.Tmpfs),
		HomeBytes: int64(c.HomeSize), WorkspaceBytes: int64(c.Workspace), LogBytesPerStep: int64(c.LogPerStep),
		RunTimeout: c.RunTimeout,
	}
	sc.Max = sandbox.Limits{
		CPUs: c.MaxCPUs, MemoryBytes: int64(c.MaxMemory), Pids: int64(c.MaxPids), TmpfsBytes: int64(c.MaxTmpfs),
		HomeBytes: int64(c.MaxHomeSize), WorkspaceBytes: int64(c.MaxWorkspace), LogBytesPerStep: int64(c.MaxLogPerStep),
		RunTimeout: c.MaxRunTimeout,
	}
	return sc
}

// floatValue binds a float64 flag.
type floatValue struct{ p *float64 }

func (f floatValue) String() string {
	if f.p == nil {
		return ""
	}
	return fmt.Sprint(*f.p)
}

func (f floatValue) Set(s string) error {
	var v float64
	if _, err := fmt.Sscan(s, &v); err != nil || v <= 0 {
		return fmt.Errorf("%q is not a positive number", s)
	}
	*f.p = v
	return nil
}

// defaultMaxSandboxes is 4 per CPU: sandboxes mostly wait on I/O and
// child processes, and each has its own CPU limit.
func defaultMaxSandboxes() int { return 4 * runtime.NumCPU() }
