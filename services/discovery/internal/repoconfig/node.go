package repoconfig

import (
	"fmt"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// dec decodes yaml.Node trees by hand so that every error carries the line
// and the full key path; yaml.v3's own KnownFields errors name neither the
// file nor the path of nested keys.
type dec struct{ file string }

func (d dec) errf(n *yaml.Node, key, format string, args ...any) error {
	line := 0
	if n != nil {
		line = n.Line
	}
	return &Error{File: d.file, Line: line, Key: key, Msg: fmt.Sprintf(format, args...)}
}

// handler decodes the value of one key.
type handler func(n *yaml.Node, key string) error

func resolve(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

func keyPath(parent, key string) string {
	if parent == "" {
		return key
	}
	return parent + "." + key
}

// mapping walks a mapping; unknown keys are errors unless lenient.
func (d dec) mapping(n *yaml.Node, key string, fields map[string]handler, lenient bool) error {
	n = resolve(n)
	if n.Kind != yaml.MappingNode {
		return d.errf(n, key, "want a mapping, got %s", kind(n))
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		p := keyPath(key, k.Value)
		if seen[k.Value] {
			return d.errf(k, p, "duplicate key")
		}
		seen[k.Value] = true
		h, ok := fields[k.Value]
		if !ok {
			if lenient {
				continue
			}
			return d.errf(k, p, "unknown key (known keys: %s)", strings.Join(sortedNames(fields), ", "))
		}
		if err := h(resolve(v), p); err != nil {
			return err
		}
	}
	return nil
}

func sortedNames(m map[string]handler) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func kind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return "null"
		}
		return fmt.Sprintf("%s %q", strings.TrimPrefix(n.Tag, "!!"), n.Value)
	}
	return "something else"
}

func (d dec) str(n *yaml.Node, key string) (string, error) {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return "", d.errf(n, key, "want a string, got %s", kind(n))
	}
	return n.Value, nil
}

func (d dec) nonEmpty(n *yaml.Node, key string) (string, error) {
	s, err := d.str(n, key)
	if err == nil && strings.TrimSpace(s) == "" {
		err = d.errf(n, key, "must not be empty")
	}
	return s, err
}

func (d dec) boolean(n *yaml.Node, key string) (bool, error) {
	if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" {
		return false, d.errf(n, key, "want true or false, got %s", kind(n))
	}
	return n.Value == "true", nil
}

func (d dec) list(n *yaml.Node, key string) ([]*yaml.Node, error) {
	if n.Kind != yaml.SequenceNode {
		return nil, d.errf(n, key, "want a list, got %s", kind(n))
	}
	out := make([]*yaml.Node, len(n.Content))
	for i, c := range n.Content {
		out[i] = resolve(c)
	}
	return out, nil
}

func (d dec) strs(n *yaml.Node, key string) ([]string, error) {
	items, err := d.list(n, key)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(items))
	for i, it := range items {
		s, err := d.nonEmpty(it, fmt.Sprintf("%s[%d]", key, i))
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// duration reads "90s", "5m", "1h30m" or a number of seconds; it must be
// positive.
func (d dec) duration(n *yaml.Node, key string) (time.Duration, error) {
	if n.Kind != yaml.ScalarNode {
		return 0, d.errf(n, key, "want a duration such as 5m or a number of seconds, got %s", kind(n))
	}
	var dur time.Duration
	if n.Tag == "!!int" || n.Tag == "!!float" {
		secs, err := strconv.ParseFloat(n.Value, 64)
		if err != nil {
			return 0, d.errf(n, key, "invalid number %q", n.Value)
		}
		dur = time.Duration(secs * float64(time.Second))
	} else {
		var err error
		if dur, err = time.ParseDuration(n.Value); err != nil {
			return 0, d.errf(n, key, "invalid duration %q (want e.g. 90s, 5m, 1h30m, or seconds)", n.Value)
		}
	}
	if dur <= 0 {
		return 0, d.errf(n, key, "must be positive, got %q", n.Value)
	}
	return dur, nil
}

var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func (d dec) env(n *yaml.Node, key string) (map[string]string, error) {
	if n.Kind != yaml.MappingNode {
		return nil, d.errf(n, key, "want a mapping of variable names to values, got %s", kind(n))
	}
	out := map[string]string{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], resolve(n.Content[i+1])
		p := keyPath(key, k.Value)
		if !envName.MatchString(k.Value) {
			return nil, d.errf(k, p, "invalid environment variable name")
		}
		s, err := d.str(v, p)
		if err != nil {
			return nil, err
		}
		out[k.Value] = s
	}
	return out, nil
}

// relPath validates a workspace-relative path (no absolute paths, no "..").
func (d dec) relPath(n *yaml.Node, key string) (string, error) {
	s, err := d.nonEmpty(n, key)
	if err != nil {
		return "", err
	}
	clean := path.Clean(s)
	if path.IsAbs(s) || clean == ".." || strings.HasPrefix(clean, "../") {
		return "", d.errf(n, key, "%q must be a path inside the workspace", s)
	}
	return clean, nil
}

// parseYAML parses a document; syntax errors carry the line yaml.v3 reports.
func parseYAML(file string, data []byte) (*yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, &Error{File: file, Line: yamlErrLine(err.Error()), Msg: "invalid YAML: " + strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return &yaml.Node{Kind: yaml.MappingNode, Line: 1}, nil
	}
	return resolve(doc.Content[0]), nil
}

var yamlLine = regexp.MustCompile(`line (\d+)`)

func yamlErrLine(msg string) int {
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return 0
}
