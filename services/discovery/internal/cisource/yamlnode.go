package cisource

import (
	"strings"

	"gopkg.in/yaml.v3"
)

// yamlRoot parses a CI file and returns its top-level mapping, or nil with
// a note when it is not readable YAML.
func (r *reader) yamlRoot(file string) *yaml.Node {
	data, err := r.tree.ReadFile(file)
	if err != nil {
		r.note("%s: not read: %v", file, err)
		return nil
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		r.note("%s: not learned from: %v", file, err)
		return nil
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil
	}
	return doc.Content[0]
}

// get returns a mapping's value for key (aliases resolved), or nil.
func get(n *yaml.Node, key string) *yaml.Node {
	for _, p := range pairs(n) {
		if p[0].Value == key {
			return p[1]
		}
	}
	return nil
}

// pairs returns a mapping's key/value nodes; the keys merged in with <<
// come after the mapping's own, which override them.
func pairs(n *yaml.Node) [][2]*yaml.Node {
	n = deref(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	var out, merged [][2]*yaml.Node
	own := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], deref(n.Content[i+1])
		if k.Value == "<<" {
			for _, m := range items(v) {
				merged = append(merged, pairs(m)...)
			}
			continue
		}
		own[k.Value] = true
		out = append(out, [2]*yaml.Node{k, v})
	}
	for _, p := range merged {
		if !own[p[0].Value] {
			own[p[0].Value] = true
			out = append(out, p)
		}
	}
	return out
}

// items returns a sequence's elements (a scalar is a one-element list).
func items(n *yaml.Node) []*yaml.Node {
	n = deref(n)
	switch {
	case n == nil:
		return nil
	case n.Kind == yaml.SequenceNode:
		out := make([]*yaml.Node, 0, len(n.Content))
		for _, c := range n.Content {
			out = append(out, deref(c))
		}
		return out
	case n.Kind == yaml.ScalarNode:
		return []*yaml.Node{n}
	}
	return nil
}

func deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

// scalar returns a scalar's value, "" for anything else.
func scalar(n *yaml.Node) string {
	n = deref(n)
	if n == nil || n.Kind != yaml.ScalarNode {
		return ""
	}
	return n.Value
}

// keys returns a mapping's keys.
func keys(n *yaml.Node) []string {
	var out []string
	for _, p := range pairs(n) {
		out = append(out, p[0].Value)
	}
	return out
}

// nodeText is every scalar under a node, for a secrets check.
func nodeText(n *yaml.Node) string {
	n = deref(n)
	if n == nil {
		return ""
	}
	if n.Kind == yaml.ScalarNode {
		return n.Value
	}
	var b strings.Builder
	for _, c := range n.Content {
		b.WriteString(nodeText(c))
		b.WriteByte('\n')
	}
	return b.String()
}
