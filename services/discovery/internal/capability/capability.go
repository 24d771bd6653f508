// Package capability assembles what discovery knows about a workspace:
// detected subprojects, the whitelist of commands (discovered and
// configured), risk triggers, images, budgets. It is capabilities.json in
// domain form.
package capability

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/greenlight-dev/greenlight/pkg/image"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/cisource"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/command"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/detect"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/repoconfig"
)

// DefaultTimeBudget is the whole-verification budget when no configuration
// sets one (runr's max_verify_time_per_milestone default).
const DefaultTimeBudget = 10 * time.Minute

// Tree is what Build reads.
type Tree interface {
	Files() []string
	ReadFile(name string) ([]byte, error)
}

// Options are server-side settings.
type Options struct {
	// Images overrides DefaultImages (the server's configured table).
	Images map[string]string
	// AllowedImages are the images a repository's configuration or a
	// request may select besides those of the server's table (nil:
	// image.DefaultAllowed; empty: none).
	AllowedImages []string
	// Maxima bound what the configuration may ask for (zero fields:
	// DefaultMaxima).
	Maxima Maxima
}

// Subproject is a detected subproject and its sandbox image.
type Subproject struct {
	detect.Subproject
	Image string
	// ImageRuntime is the runtime the image was chosen for: the
	// subproject's own, or for a bare Makefile the workspace's main one.
	ImageRuntime string
}

// Capabilities is everything discovery found in one workspace.
type Capabilities struct {
	Subprojects []Subproject
	// Commands is the whitelist.
	Commands []command.Command
	// Default names the commands of the default pipeline (before tier
	// selection): the configured steps when a file defines them in replace
	// mode, else everything.
	Default  map[string]bool
	Configs  []repoconfig.File
	Triggers []repoconfig.Trigger
	MaxLevel command.Level
	Notes    []string
	// TimeBudget is configured or DefaultTimeBudget.
	TimeBudget time.Duration
	PatchAllow []string
	// Images is the resolved table (defaults < server < greenlight.yaml).
	Images Images
	// Allowed is the server's image allow-list: its table and
	// Options.AllowedImages.
	Allowed image.AllowList
	// Configured is true when the default pipeline comes from a file.
	Configured bool
	// Limits are the sandbox resources the configuration asks for
	// (within Options.Maxima; zero fields: the server's defaults).
	Limits repoconfig.Limits
	// CoverageScore is greenlight.yaml's coverage.score.
	CoverageScore bool
	// CoverageOff is greenlight.yaml's coverage.measure: false.
	CoverageOff bool
	// Security is greenlight.yaml's security mode (empty when unset).
	Security string
	// SecurityTimeout is the timeout of greenlight's own scans when the
	// plan adds them: greenlight.yaml's timeouts.security or the phase's.
	SecurityTimeout time.Duration
}

// Build detects, extracts and merges configuration.
func Build(t Tree, opts Options) (*Capabilities, error) {
	det, err := detect.Detect(t)
	if err != nil {
		return nil, fmt.Errorf("detect: %w", err)
	}
	cfg, err := repoconfig.Load(t)
	if err != nil {
		return nil, err
	}
	if err := checkLimits(cfg, opts.Maxima); err != nil {
		return nil, err
	}
	c := &Capabilities{Configs: cfg.Files, PatchAllow: cfg.PatchAllow, TimeBudget: cfg.TimeBudget, Default: map[string]bool{}, Limits: cfg.Limits}
	c.Limits.RunTimeout = cfg.TimeBudget
	c.CoverageScore, c.CoverageOff = cfg.CoverageScore, cfg.CoverageOff
	c.Security = cfg.Security
	if c.TimeBudget == 0 {
		c.TimeBudget = DefaultTimeBudget
	}
	server := Images(DefaultImages()).Layer(opts.Images)
	extra := opts.AllowedImages
	if extra == nil {
		extra = image.DefaultAllowed()
	}
	c.Allowed = image.NewAllowList(image.Table(server), extra...)
	if err := checkConfigImages(cfg, c.Allowed); err != nil {
		return nil, err
	}
	c.Images = server.Layer(cfg.Images)
	c.Notes = append(c.Notes, det.Notes...)
	ci := cisource.Read(t)
	ciVersions(&det, ci)
	c.subprojects(det)
	discovered := c.discovered(det, cfg)
	if err := c.whitelist(discovered, cfg, ci); err != nil {
		return nil, err
	}
	c.hardenPythonTools()
	c.needs(t)
	c.Notes = append(c.Notes, cfg.Notes...)
	c.timeouts(cfg)
	c.SecurityTimeout = command.DefaultTimeout(command.PhaseSecurity)
	if t, ok := cfg.Timeouts[command.PhaseSecurity]; ok {
		c.SecurityTimeout = t
	}
	if !cfg.NoDefaultTriggers {
		c.Triggers = DefaultTriggers()
	}
	c.Triggers = append(c.Triggers, cfg.Triggers...)
	c.level()
	return c, nil
}

func (c *Capabilities) subprojects(det detect.Result) {
	noted := map[string]bool{}
	primary := ""
	for _, sp := range det.Subprojects {
		if sp.Runtime != detect.RuntimeMake {
			primary = sp.Runtime
			break
		}
	}
	for _, sp := range det.Subprojects {
		runtime := sp.Runtime
		if runtime == detect.RuntimeMake {
			// A bare Makefile runs in the workspace's main image, or
			// with no other runtime in the plain-shell one.
			runtime = cmp.Or(primary, detect.RuntimeGeneric)
		}
		img, note := c.Images.Resolve(runtime)
		if note != "" && !noted[runtime] {
			noted[runtime] = true
			c.Notes = append(c.Notes, note)
		}
		c.Subprojects = append(c.Subprojects, Subproject{Subproject: sp, Image: img, ImageRuntime: runtime})
	}
}

// discovered extracts every subproject's commands. An opt-in command (a
// security scanner) joins the whitelist only when greenlight.yaml's
// required or advisory list names it, so a repository that does not ask
// for one keeps its capabilities and pipeline as they were.
func (c *Capabilities) discovered(det detect.Result, cfg *repoconfig.Config) []command.Command {
	var out []command.Command
	for _, sp := range det.Subprojects {
		ex := command.Extract(sp)
		out = append(out, ex.Commands...)
		for _, cmd := range command.Security(sp) {
			if _, named := cfg.Required[cmd.Name]; named {
				out = append(out, cmd)
			}
		}
		c.Notes = append(c.Notes, ex.Notes...)
	}
	return out
}

// whitelist merges discovered and configured commands. A configured step
// replaces a discovered command of the same name (and the discovered
// command that Completes it); a later configuration file cannot redefine a
// name an earlier one used.
//
// What the repository's CI runs is applied next (learn), then
// greenlight.yaml's tiers and required/advisory lists, which win over CI.
func (c *Capabilities) whitelist(discovered []command.Command, cfg *repoconfig.Config, ci cisource.Learned) error {
	configured := map[string]bool{}
	var conf []command.Command
	for _, s := range append(append([]command.Command{}, cfg.Steps...), cfg.Extra...) {
		if configured[s.Name] {
			c.Notes = append(c.Notes, fmt.Sprintf("%s:%d: step %q is already defined by another configuration file; this one is ignored", s.Source.File, s.Source.Line, s.Name))
			continue
		}
		configured[s.Name] = true
		s.Subproject, s.Runtime = c.owner(s.Workdir)
		conf = append(conf, s)
	}
	seen := map[string]bool{}
	for _, d := range discovered {
		if configured[d.Name] || seen[d.Name] || (d.Completes != "" && configured[d.Completes]) {
			continue
		}
		seen[d.Name] = true
		c.Commands = append(c.Commands, d)
	}
	borrowCacheKeys(conf, discovered)
	c.Commands = append(c.Commands, conf...)
	c.Configured = len(cfg.Steps) > 0
	primary := map[string]bool{}
	for _, s := range cfg.Steps {
		primary[s.Name] = true
	}
	for _, cmd := range c.Commands {
		if (!c.Configured || cfg.Mode == repoconfig.ModeMerge || primary[cmd.Name]) && !cmd.OptIn {
			c.Default[cmd.Name] = true
		}
	}
	c.learn(ci)
	if err := c.retier(cfg); err != nil {
		return err
	}
	return c.require(cfg)
}

// require applies greenlight.yaml's "required" and "advisory" lists: a
// required command decides the verdict, an advisory one is reported only.
func (c *Capabilities) require(cfg *repoconfig.Config) error {
	for name, r := range cfg.Required {
		found := false
		for i := range c.Commands {
			if c.Commands[i].Name == name {
				// Naming an opt-in command (a security scanner) plans it.
				if c.Commands[i].OptIn {
					c.Default[name] = true
				}
				c.Commands[i].Optional = !r.Required
				c.Commands[i].RequiredBy = nil
				if r.Required {
					c.Commands[i].RequiredBy = &command.Source{File: r.File, Key: r.Key, Line: r.Line, Origin: command.OriginGreenlight}
				}
				found = true
			}
		}
		if !found {
			return &repoconfig.Error{File: r.File, Line: r.Line, Key: r.Key, Msg: fmt.Sprintf("unknown step %q: not a configured step nor a discovered command (see the capabilities' command list)", name)}
		}
	}
	return nil
}

// borrowCacheKeys gives a configured install step without cache settings
// the lockfiles and dependency paths of the discovered install of the same
// subproject, so "npm ci" from agent.yaml is cached like the discovered one.
func borrowCacheKeys(conf, discovered []command.Command) {
	for i := range conf {
		c := &conf[i]
		if c.Phase != command.PhaseInstall || len(c.CacheKeyFiles) > 0 {
			continue
		}
		for _, d := range discovered {
			if d.Phase == command.PhaseInstall && d.Subproject == c.Subproject && d.Workdir == c.Workdir {
				c.CacheKeyFiles = slices.Clone(d.CacheKeyFiles)
				if len(c.CachePaths) == 0 {
					c.CachePaths = slices.Clone(d.CachePaths)
				}
				break
			}
		}
	}
}

// retier applies greenlight.yaml's "tiers" lists.
func (c *Capabilities) retier(cfg *repoconfig.Config) error {
	for name, a := range cfg.Tiers {
		found := false
		for i := range c.Commands {
			if c.Commands[i].Name == name {
				c.Commands[i].Tier = a.Tier
				found = true
			}
		}
		if !found {
			return &repoconfig.Error{File: a.File, Line: a.Line, Key: a.Key, Msg: fmt.Sprintf("unknown step %q: not a configured step nor a discovered command (see the capabilities' command list)", name)}
		}
	}
	return nil
}

// owner returns the root and runtime of the deepest subproject containing
// a workdir (the primary one when several share that root).
func (c *Capabilities) owner(workdir string) (string, string) {
	best := -1
	for i, sp := range c.Subprojects {
		r := sp.Root
		inside := r == "." || workdir == r || strings.HasPrefix(workdir, r+"/")
		if inside && (best < 0 || len(r) > len(c.Subprojects[best].Root)) {
			best = i
		}
	}
	if best < 0 {
		return "", ""
	}
	return c.Subprojects[best].Root, c.Subprojects[best].Runtime
}

func (c *Capabilities) timeouts(cfg *repoconfig.Config) {
	for i := range c.Commands {
		cmd := &c.Commands[i]
		if cmd.Timeout != 0 {
			continue
		}
		if t, ok := cfg.Timeouts[cmd.Phase]; ok {
			cmd.Timeout = t
		} else {
			cmd.Timeout = command.DefaultTimeout(cmd.Phase)
		}
	}
}

func (c *Capabilities) level() {
	for _, cmd := range c.Commands {
		c.MaxLevel = max(c.MaxLevel, cmd.Level)
	}
	if len(c.Commands) > 0 && !c.MaxLevel.Hard() {
		c.Notes = append(c.Notes, fmt.Sprintf("no command reaches L3 (build, compile, startup) or L4 (tests); the strongest is %s, so verification of this workspace cannot fail hard", c.MaxLevel))
	}
}

// Lookup returns a whitelisted command by name.
func (c *Capabilities) Lookup(name string) (command.Command, bool) {
	for _, cmd := range c.Commands {
		if cmd.Name == name {
			return cmd, true
		}
	}
	return command.Command{}, false
}

// SubprojectOf returns the subproject a command belongs to.
func (c *Capabilities) SubprojectOf(cmd command.Command) (Subproject, bool) {
	for _, sp := range c.Subprojects {
		if sp.Root == cmd.Subproject && sp.Runtime == cmd.Runtime {
			return sp, true
		}
	}
	return Subproject{}, false
}
