package detect

import "github.com/greenlight-dev/greenlight/pkg/toolchain"

// Runtime names.
const (
	RuntimeGo         = "go"
	RuntimePython     = "python"
	RuntimeNode       = "node"
	RuntimeTypeScript = "typescript"
	RuntimeJava       = "java"
	RuntimeMake       = "make"
	// RuntimeCpp is C and C++ (CMake or Makefile projects).
	RuntimeCpp = "cpp"
	// RuntimeGeneric is the plain-shell runtime: configured steps that
	// belong to no detected subproject, and Makefiles of no known runtime.
	RuntimeGeneric = "generic"
)

// runtimeOrder sorts subprojects sharing a root: the first is the primary
// one (it also owns that directory's Makefile).
var runtimeOrder = map[string]int{
	RuntimeGo: 0, RuntimePython: 1, RuntimeTypeScript: 2, RuntimeNode: 2, RuntimeJava: 4, RuntimeCpp: 5, RuntimeMake: 9,
}

// VersionHint is a runtime or tool version found in the tree.
type VersionHint struct {
	Tool    string
	Version string
	// Source is "file:key", e.g. "go.mod:toolchain" or "web/.nvmrc".
	Source string
}

// Problem is a marker file that could not be parsed. Detection goes on
// (the subproject is still reported) and command extraction adds a step that
// reproduces the error in the sandbox, so the failure comes with execution
// evidence a repair loop can act on.
type Problem struct {
	File string
	Line int
	Msg  string
}

// Subproject is one buildable unit of the workspace.
type Subproject struct {
	// Root is the directory relative to the workspace root, "." for the root.
	Root           string
	Runtime        string
	Versions       []VersionHint
	PackageManager string
	TestFrameworks []string
	Linters        []string
	// Markers are the workspace-relative files that identified it.
	Markers  []string
	HasTests bool
	Problems []Problem
	// InstallFiles are the workspace-relative files that can change what
	// the subproject's install produces (see installFiles); they key the
	// dependency cache.
	InstallFiles []string

	// Per-runtime facts command extraction needs; nil for other runtimes.
	Go     *GoInfo
	Python *PythonInfo
	Node   *NodeInfo
	Java   *JavaInfo
	Cpp    *CppInfo
	// Toolchain is what a toolchain pack (pkg/toolchain) detected, for
	// runtimes a pack owns; its Facts are the pack's own.
	Toolchain *toolchain.Project
	// Make is the Makefile in Root, if this subproject owns it.
	Make *Makefile
}

// Result is everything detection found.
type Result struct {
	Subprojects []Subproject
	Notes       []string
}
