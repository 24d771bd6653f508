package repoconfig

import (
	"fmt"

	"github.com/greenlight-dev/greenlight/services/discovery/internal/command"
	"gopkg.in/yaml.v3"
)

// loadAgent reads agent.yaml. Only the "verification" section is
// greenlight's; other top-level keys configure the agent and are ignored.
// Inside it, unknown keys are errors.
func loadAgent(cfg *Config, file string, data []byte) ([]command.Command, error) {
	root, err := parseYAML(file, data)
	if err != nil {
		return nil, err
	}
	d := dec{file: file}
	var steps []command.Command
	names := uniqueNamer{}
	err = d.mapping(root, "", map[string]handler{
		"verification": func(n *yaml.Node, key string) error {
			return d.mapping(n, key, map[string]handler{
				"steps": func(n *yaml.Node, key string) error {
					items, err := d.list(n, key)
					if err != nil {
						return err
					}
					for i, it := range items {
						s, err := agentStep(d, it, fmt.Sprintf("%s[%d]", key, i), names)
						if err != nil {
							return err
						}
						steps = append(steps, s)
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

func agentStep(d dec, n *yaml.Node, key string, names uniqueNamer) (command.Command, error) {
	c := command.Command{Source: command.Source{File: d.file, Key: key, Line: n.Line, Origin: command.OriginAgent}}
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
	}, false)
	if err != nil {
		return c, err
	}
	if c.Command == "" {
		return c, d.errf(n, key+".command", "missing: every step needs a command")
	}
	if c.Name == "" {
		c.Name = slug(c.Command)
	}
	c.Name = names.name(c.Name)
	finishStep(&c)
	return c, nil
}
