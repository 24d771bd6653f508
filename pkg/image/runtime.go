package image

import (
	"strings"

	"github.com/greenlight-dev/greenlight/pkg/toolchain/packs"
)

// Runtime names with an offline image.
const (
	// Go is the Go toolchain runtime.
	Go = "go"
	// Python is the CPython runtime.
	Python = "python"
	// Node is the Node.js runtime (also used for TypeScript).
	Node = "node"
	// Generic is plain shell: the runtime of a project whose steps need no
	// language toolchain (an agent.yaml of shell steps, no runtime detected).
	Generic = "generic"
	// Cpp is C and C++ (gcc, clang, make, CMake, Ninja).
	Cpp = "cpp"
	// Java is the JVM with Maven and Gradle.
	Java = "java"
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
	"shell":      Generic,
	"sh":         Generic,
	"c":          Cpp,
	"c++":        Cpp,
	"cxx":        Cpp,
	"cmake":      Cpp,
	"maven":      Java,
	"gradle":     Java,
	"jvm":        Java,
}

// Canonical returns the canonical name of a runtime: lower case, trimmed,
// with aliases resolved ("Golang" → "go", "nodejs" → "node", "c++" → "cpp").
// Names without an alias are returned lower-cased, so any runtime can be
// configured.
func Canonical(runtime string) string {
	r := strings.ToLower(strings.TrimSpace(runtime))
	if c, ok := aliases[r]; ok {
		return c
	}
	if p, ok := packs.Registry.Lookup(r); ok {
		return p.Spec().Name
	}
	return r
}
