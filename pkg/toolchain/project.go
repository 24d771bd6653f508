package toolchain

// Tree is the read-only view of a workspace a pack detects in. Paths are
// slash-separated and relative to the workspace root ("." is the root).
type Tree interface {
	// Read returns a file's content.
	Read(name string) ([]byte, error)
	// Has reports whether dir holds a file named base.
	Has(dir, base string) bool
	// Under lists the files inside root (ignored directories excluded).
	Under(root string) []string
}

// Project is what detection knows of one project root.
type Project struct {
	// Root is relative to the workspace root, "." for the root.
	Root           string
	PackageManager string
	TestFrameworks []string
	Linters        []string
	// Markers are files that identified the project beyond its manifest
	// (a lockfile).
	Markers  []string
	HasTests bool
	Versions []Version
	Problems []Problem
	// Facts are the pack's own findings, read back by its Commands.
	Facts any
}

// Version is a runtime or tool version found in the tree.
type Version struct {
	Tool    string
	Version string
	// Source is "file:key", e.g. "Cargo.toml:package.rust-version".
	Source string
}

// Problem is a file that could not be parsed.
type Problem struct {
	File string
	Line int
	Msg  string
}

// Phase names of [Command].
const (
	PhaseInstall = "install"
	PhaseBuild   = "build"
	PhaseTest    = "test"
	PhaseLint    = "lint"
)

// Command is a default command of a project.
type Command struct {
	// Name is the step name ("cargo-test"); discovery makes it unique.
	Name    string
	Phase   string
	Command string
	Env     map[string]string
	// CacheKeyFiles key an install step's dependency cache.
	CacheKeyFiles []string
	// Source is the file the command was derived from.
	Source string
}

// Join joins a directory and a name the way workspace paths are written:
// "." + "Cargo.toml" is "Cargo.toml".
func Join(dir, name string) string {
	if dir == "." || dir == "" {
		return name
	}
	return dir + "/" + name
}
