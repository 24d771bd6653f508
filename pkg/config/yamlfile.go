package config

import (
	"errors"
	"fmt"
	"io"

	"go.yaml.in/yaml/v3"
)

// parseYAML is the config file parser handed to ff. It reads YAML 1.2 with
// go.yaml.in/yaml/v3 instead of ff's own ffyaml (yaml.v2, YAML 1.1), where
// `tags: [x, y]` turns y into "true" and `mode: off` into "false". Scalars
// reach flag.Value.Set exactly as written, nested mappings become dotted
// keys ("a.b") and a sequence sets its key once per element. Errors name the
// file line.
func parseYAML(r io.Reader, set func(name, value string) error) error {
	var doc yaml.Node
	if err := yaml.NewDecoder(r).Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil // an empty file configures nothing
		}
		return fmt.Errorf("YAML config file: %w", err)
	}
	if len(doc.Content) == 0 {
		return nil
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return fmt.Errorf("YAML config file line %d: top level must map flag names to values", root.Line)
	}
	return walkYAML("", root, set)
}

func walkYAML(key string, n *yaml.Node, set func(name, value string) error) error {
	switch n.Kind {
	case yaml.AliasNode:
		return walkYAML(key, n.Alias, set)
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			name := n.Content[i].Value
			if key != "" {
				name = key + "." + name
			}
			if err := walkYAML(name, n.Content[i+1], set); err != nil {
				return err
			}
		}
		return nil
	case yaml.SequenceNode:
		if len(n.Content) == 0 {
			return setLine(key, "", n.Line, set) // an empty list clears the default
		}
		for _, item := range n.Content {
			if item.Kind != yaml.ScalarNode {
				return fmt.Errorf("YAML config file line %d: %q: list items must be plain values", item.Line, key)
			}
			if err := setLine(key, item.Value, item.Line, set); err != nil {
				return err
			}
		}
		return nil
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return nil // "key:" with no value keeps the default
		}
		return setLine(key, n.Value, n.Line, set)
	default:
		return fmt.Errorf("YAML config file line %d: %q: unsupported value", n.Line, key)
	}
}

func setLine(key, value string, line int, set func(name, value string) error) error {
	if err := set(key, value); err != nil {
		return fmt.Errorf("YAML config file line %d: %w", line, err)
	}
	return nil
}
