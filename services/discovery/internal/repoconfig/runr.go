package repoconfig

import (
	"fmt"
	"strconv"
	"time"

	"github.com/greenlight-dev/greenlight/services/discovery/internal/command"
	"gopkg.in/yaml.v3"
)

// loadRunr reads runr.config.json. Only "verification" is greenlight's; the
// other top-level keys configure runr and are ignored. Inside it, unknown
// keys are errors.
func loadRunr(cfg *Config, file string, data []byte) ([]command.Command, error) {
	root, err := parseJSON(file, data)
	if err != nil {
		return nil, err
	}
	d := dec{file: file}
	var steps []command.Command
	names := uniqueNamer{}
	tierList := func(tier command.Tier) handler {
		return func(n *yaml.Node, key string) error {
			items, err := d.list(n, key)
			if err != nil {
				return err
			}
			for i, it := range items {
				k := fmt.Sprintf("%s[%d]", key, i)
				cmd, err := d.nonEmpty(it, k)
				if err != nil {
					return err
				}
				c := command.Command{Name: names.name(slug(cmd)), Command: cmd, Tier: tier,
					Source: command.Source{File: file, Key: k, Line: it.Line, Origin: command.OriginRunr}}
				finishStep(&c)
				steps = append(steps, c)
			}
			return nil
		}
	}
	err = d.mapping(root, "", map[string]handler{
		"verification": func(n *yaml.Node, key string) error {
			return d.mapping(n, key, map[string]handler{
				"tier0":         tierList(command.Tier0),
				"tier1":         tierList(command.Tier1),
				"tier2":         tierList(command.Tier2),
				"risk_triggers": func(n *yaml.Node, k string) error { return d.triggers(cfg, n, k) },
				"max_verify_time_per_milestone": func(n *yaml.Node, k string) error {
					if n.Kind != yaml.ScalarNode || n.Tag != "!!int" {
						return d.errf(n, k, "want a whole number of seconds, got %s", kind(n))
					}
					secs, err := strconv.Atoi(n.Value)
					if err != nil || secs <= 0 {
						return d.errf(n, k, "must be a positive number of seconds, got %s", n.Value)
					}
					if cfg.TimeBudget == 0 { // greenlight.yaml's time_budget wins
						cfg.TimeBudget = time.Duration(secs) * time.Second
					}
					return nil
				},
			}, false)
		},
	}, true)
	if err != nil {
		return nil, err
	}
	cfg.Notes = append(cfg.Notes, unclassified(file, steps)...)
	return steps, nil
}

// triggers reads a list of {name, patterns, tier} (shared by
// greenlight.yaml and runr.config.json).
func (d dec) triggers(cfg *Config, n *yaml.Node, key string) error {
	items, err := d.list(n, key)
	if err != nil {
		return err
	}
	for i, it := range items {
		k := fmt.Sprintf("%s[%d]", key, i)
		t := Trigger{Tier: command.Tier1, Source: fmt.Sprintf("%s:%d", d.file, it.Line)}
		err := d.mapping(it, k, map[string]handler{
			"name": func(n *yaml.Node, k string) (err error) { t.Name, err = d.nonEmpty(n, k); return err },
			"patterns": func(n *yaml.Node, k string) error {
				pats, err := d.strs(n, k)
				if err != nil {
					return err
				}
				for j, p := range pats {
					if !validPattern(p) {
						return d.errf(n.Content[j], fmt.Sprintf("%s[%d]", k, j), "invalid glob pattern %q", p)
					}
				}
				t.Patterns = pats
				return nil
			},
			"tier": func(n *yaml.Node, k string) error {
				s, err := d.str(n, k)
				if err != nil {
					return err
				}
				if t.Tier, err = command.ParseTier(s); err != nil {
					return d.errf(n, k, "%v", err)
				}
				if t.Tier == command.Tier0 {
					return d.errf(n, k, "a risk trigger escalates to tier1 or tier2; tier0 always runs")
				}
				return nil
			},
		}, false)
		if err != nil {
			return err
		}
		if t.Name == "" {
			return d.errf(it, k+".name", "missing: every risk trigger needs a name")
		}
		if len(t.Patterns) == 0 {
			return d.errf(it, k+".patterns", "missing: every risk trigger needs at least one pattern")
		}
		cfg.Triggers = append(cfg.Triggers, t)
	}
	return nil
}
