package image

import "strings"

// Runtime names with an offline image.
const (
	// Go is the Go toolchain runtime.
	Go = "go"
	// Python is the CPython runtime.
	Python = "python"
	// Node is the Node.js runtime (also used for TypeScript).
	Node = "node"
)

// aliases maps other spellings a config or a detector may use to the
// canonical runtime name, so "golang" and "go" pick the same image.
var aliases = map[string]string{
	"golang":     Go,
	"python3":    Python,
	"py":         Python,
	"nodejs":     Node,
	"javascript": Node,
	"js":         Node,
	"typescript": Node,
	"ts":         Node,
}

// Canonical returns the canonical name of a runtime: lower case, trimmed,
// with aliases resolved ("Golang" → "go", "nodejs" → "node"). Names without
// an alias are returned lower-cased, so any runtime can be configured.
func Canonical(runtime string) string {
	r := strings.ToLower(strings.TrimSpace(runtime))
	if c, ok := aliases[r]; ok {
		return c
	}
	return r
}
