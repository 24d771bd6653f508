package repoconfig

import (
	"fmt"
	"regexp"

	"github.com/greenlight-dev/greenlight/pkg/image"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/command"
	"gopkg.in/yaml.v3"
)

// runtimeName is a key of the images table.
var runtimeName = regexp.MustCompile(`^[a-z][a-z0-9+._-]*$`)

// loadGreenlight reads greenlight.yaml; every key is greenlight's, so every
// unknown key is an error. The schema is documented in CONFIG.md.
func loadGreenlight(cfg *Config, file string, data []byte) ([]command.Command, error) {
	root, err := parseYAML(file, data)
	if err != nil {
		return nil, err
	}
	d := dec{file: file}
	var steps []command.Command
	names := uniqueNamer{}
	err = d.mapping(root, "", map[string]handler{
		"version": func(n *yaml.Node, k string) error {
			if n.Kind != yaml.ScalarNode || n.Value != "1" {
				return d.errf(n, k, "unsupported version %s (want 1)", kind(n))
			}
			return nil
		},
		"mode": func(n *yaml.Node, k string) error {
			s, err := d.str(n, k)
			if err != nil {
				return err
			}
			if s != string(ModeReplace) && s != string(ModeMerge) {
				return d.errf(n, k, "unknown mode %q (want replace or merge)", s)
			}
			cfg.Mode = Mode(s)
			return nil
		},
		"time_budget": func(n *yaml.Node, k string) (err error) {
			cfg.TimeBudget, err = d.duration(n, k)
			d.askDuration(cfg, n, k, cfg.TimeBudget)
			return err
		},
		"timeouts": func(n *yaml.Node, k string) error {
			fields := map[string]handler{}
			for _, p := range []command.Phase{command.PhaseInstall, command.PhaseBuild, command.PhaseTypecheck,
				command.PhaseLint, command.PhaseTest, command.PhaseSmoke, command.PhaseSecurity} {
				fields[p.String()] = func(n *yaml.Node, k string) (err error) {
					cfg.Timeouts[p], err = d.duration(n, k)
					d.askDuration(cfg, n, k, cfg.Timeouts[p])
					return err
				}
			}
			return d.mapping(n, k, fields, false)
		},
		"limits": func(n *yaml.Node, k string) error { return d.limits(cfg, n, k) },
		"images": func(n *yaml.Node, k string) error {
			m, err := d.env(n, k) // same shape: name -> string
			if err != nil {
				return err
			}
			for i := 0; i+1 < len(n.Content); i += 2 {
				rt, val := n.Content[i].Value, n.Content[i+1]
				if !runtimeName.MatchString(rt) {
					return d.errf(n.Content[i], k+"."+rt, "want a lower-case runtime name")
				}
				if err := image.ValidateReference(m[rt]); err != nil {
					return d.errf(val, k+"."+rt, "%v", err)
				}
				cfg.Images[rt] = m[rt]
				cfg.ImageAt[rt] = Location{File: d.file, Line: val.Line, Key: k + "." + rt}
			}
			return nil
		},
		"risk_triggers": func(n *yaml.Node, k string) error { return d.triggers(cfg, n, k) },
		"default_risk_triggers": func(n *yaml.Node, k string) error {
			on, err := d.boolean(n, k)
			cfg.NoDefaultTriggers = !on
			return err
		},
		"patch": func(n *yaml.Node, k string) error {
			return d.mapping(n, k, map[string]handler{
				"allow": func(n *yaml.Node, k string) error {
					pats, err := d.strs(n, k)
					for j, p := range pats {
						if !validPattern(p) {
							return d.errf(n.Content[j], fmt.Sprintf("%s[%d]", k, j), "invalid glob pattern %q", p)
						}
					}
					cfg.PatchAllow = pats
					return err
				},
			}, false)
		},
		"coverage": func(n *yaml.Node, k string) error {
			return d.mapping(n, k, map[string]handler{
				"score": func(n *yaml.Node, k string) (err error) {
					cfg.CoverageScore, err = d.boolean(n, k)
					return err
				},
				"measure": func(n *yaml.Node, k string) error {
					measure, err := d.boolean(n, k)
					cfg.CoverageOff = !measure
					return err
				},
			}, false)
		},
		"security": func(n *yaml.Node, k string) error {
			s, err := d.str(n, k)
			if err != nil {
				return err
			}
			switch s {
			case SecurityAdvisory, SecurityRequired, SecurityOff:
				cfg.Security = s
				return nil
			}
			return d.errf(n, k, "unknown security mode %q (want advisory, required or off)", s)
		},
		"tiers":    func(n *yaml.Node, k string) error { return d.tiers(cfg, n, k) },
		"required": func(n *yaml.Node, k string) error { return d.requirements(cfg, n, k, true) },
		"advisory": func(n *yaml.Node, k string) error { return d.requirements(cfg, n, k, false) },
		"steps": func(n *yaml.Node, k string) error {
			items, err := d.list(n, k)
			if err != nil {
				return err
			}
			for i, it := range items {
				s, err := d.step(cfg, it, fmt.Sprintf("%s[%d]", k, i), names)
				if err != nil {
					return err
				}
				steps = append(steps, s)
			}
			return nil
		},
	}, false)
	if err != nil {
		return nil, err
	}
	cfg.Notes = append(cfg.Notes, unclassified(file, steps)...)
	return steps, nil
}

// tiers reads {tier0: [names], tier1: [...], tier2: [...]}.
func (d dec) tiers(cfg *Config, n *yaml.Node, key string) error {
	fields := map[string]handler{}
	for _, t := range []command.Tier{command.Tier0, command.Tier1, command.Tier2} {
		fields[t.String()] = func(n *yaml.Node, k string) error {
			items, err := d.list(n, k)
			if err != nil {
				return err
			}
			for i, it := range items {
				ik := fmt.Sprintf("%s[%d]", k, i)
				name, err := d.nonEmpty(it, ik)
				if err != nil {
					return err
				}
				if prev, dup := cfg.Tiers[name]; dup {
					return d.errf(it, ik, "step %q is already assigned to %s at line %d", name, prev.Tier, prev.Line)
				}
				cfg.Tiers[name] = TierAssignment{Tier: t, File: d.file, Line: it.Line, Key: ik}
			}
			return nil
		}
	}
	return d.mapping(n, key, fields, false)
}

// requirements reads a "required" or "advisory" list of step names.
func (d dec) requirements(cfg *Config, n *yaml.Node, key string, required bool) error {
	items, err := d.list(n, key)
	if err != nil {
		return err
	}
	for i, it := range items {
		ik := fmt.Sprintf("%s[%d]", key, i)
		name, err := d.nonEmpty(it, ik)
		if err != nil {
			return err
		}
		if prev, dup := cfg.Required[name]; dup {
			return d.errf(it, ik, "step %q is already listed at line %d (%s)", name, prev.Line, prev.Key)
		}
		cfg.Required[name] = Requirement{Required: required, File: d.file, Line: it.Line, Key: ik}
	}
	return nil
}

// step reads one configured step.
func (d dec) step(cfg *Config, n *yaml.Node, key string, names uniqueNamer) (command.Command, error) {
	c := command.Command{Source: command.Source{File: d.file, Key: key, Line: n.Line, Origin: command.OriginGreenlight}}
	var networkNode *yaml.Node
	err := d.mapping(n, key, map[string]handler{
		"name": func(n *yaml.Node, k string) (err error) {
			c.Name, err = d.nonEmpty(n, k)
			if err == nil && !stepName.MatchString(c.Name) {
				err = d.errf(n, k, "invalid step name %q (letters, digits, '.', '_', ':', '-')", c.Name)
			}
			if err == nil && names[c.Name] {
				err = d.errf(n, k, "duplicate step name %q", c.Name)
			}
			return err
		},
		"command": func(n *yaml.Node, k string) (err error) { c.Command, err = d.nonEmpty(n, k); return err },
		"phase": func(n *yaml.Node, k string) error {
			s, err := d.str(n, k)
			if err == nil {
				if c.Phase, err = command.ParsePhase(s); err != nil {
					return d.errf(n, k, "%v", err)
				}
			}
			return err
		},
		"level": func(n *yaml.Node, k string) error {
			s, err := d.str(n, k)
			if err == nil {
				if c.Level, err = command.ParseLevel(s); err != nil {
					return d.errf(n, k, "%v", err)
				}
			}
			return err
		},
		"tier": func(n *yaml.Node, k string) error {
			s, err := d.str(n, k)
			if err == nil {
				if c.Tier, err = command.ParseTier(s); err != nil {
					return d.errf(n, k, "%v", err)
				}
			}
			return err
		},
		"workdir": func(n *yaml.Node, k string) (err error) { c.Workdir, err = d.relPath(n, k); return err },
		"timeout": func(n *yaml.Node, k string) (err error) {
			c.Timeout, err = d.duration(n, k)
			d.askDuration(cfg, n, k, c.Timeout)
			return err
		},
		"network": func(n *yaml.Node, k string) (err error) {
			networkNode = n
			c.Network, err = d.boolean(n, k)
			return err
		},
		"env":                 func(n *yaml.Node, k string) (err error) { c.Env, err = d.env(n, k); return err },
		"continue_on_failure": func(n *yaml.Node, k string) (err error) { c.ContinueOnFailure, err = d.boolean(n, k); return err },
		"optional":            func(n *yaml.Node, k string) (err error) { c.Optional, err = d.boolean(n, k); return err },
		"group":               func(n *yaml.Node, k string) (err error) { c.Group, err = d.str(n, k); return err },
		"cache_key_files":     func(n *yaml.Node, k string) (err error) { c.CacheKeyFiles, err = d.relPaths(n, k); return err },
		"cache_paths":         func(n *yaml.Node, k string) (err error) { c.CachePaths, err = d.relPaths(n, k); return err },
	}, false)
	if err != nil {
		return c, err
	}
	if c.Name == "" {
		return c, d.errf(n, key+".name", "missing: every step needs a name")
	}
	if c.Command == "" {
		return c, d.errf(n, key+".command", "missing: every step needs a command")
	}
	names[c.Name] = true
	explicit, network := networkNode != nil, c.Network
	finishStep(&c)
	if explicit {
		// An install step may opt out of network (vendored dependencies,
		// an offline mirror); no other phase may opt in.
		c.Network = network
	}
	if c.Network && c.Phase != command.PhaseInstall {
		return c, d.errf(networkNode, key+".network", "only install steps may have network (step %q is phase %s)", c.Name, c.Phase)
	}
	return c, nil
}

func (d dec) relPaths(n *yaml.Node, key string) ([]string, error) {
	items, err := d.list(n, key)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(items))
	for i, it := range items {
		p, err := d.relPath(it, fmt.Sprintf("%s[%d]", key, i))
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}
