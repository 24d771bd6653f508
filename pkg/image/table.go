package image

import (
	"fmt"
	"maps"
	"slices"
)

// Table maps a canonical runtime name ("go", "python", "node") to an image
// reference ("greenlight/sandbox-go:latest", "golang:1.26").
type Table map[string]string

// Offline image references built by `make images` (images/build.sh). The
// builder also tags each image with its recipe hash; :latest follows it.
const (
	// OfflineGo is the Go image: the host's toolchain, git, gcc.
	OfflineGo = "greenlight/sandbox-go:latest"
	// OfflinePython is the Python image: pytest, pip, venv, flake8, mypy.
	OfflinePython = "greenlight/sandbox-python:latest"
	// OfflineNode is the Node.js image: Debian's nodejs and npm.
	OfflineNode = "greenlight/sandbox-node:latest"
)

// Defaults returns the offline images, which need no registry. The caller
// owns the returned table.
func Defaults() Table {
	return Table{Go: OfflineGo, Python: OfflinePython, Node: OfflineNode}
}

// Upstream returns the public images a user with registry access may
// configure instead. They run as root by default: the executor's --user
// 10001 works with them, but HOME then points at a directory that user
// cannot write unless the executor mounts one (see images/README.md).
func Upstream() Table {
	return Table{Go: "golang:1.26", Python: "python:3.12-slim", Node: "node:20-slim"}
}

// Lookup returns the image for a runtime (aliases accepted). An unknown
// runtime yields an error wrapping [ErrUnknownRuntime] that says how to get
// an image.
func (t Table) Lookup(runtime string) (string, error) {
	r := Canonical(runtime)
	if ref, ok := t[r]; ok && ref != "" {
		return ref, nil
	}
	return "", unknownRuntime(r, t)
}

// Merge returns a new table holding t's entries overridden by each
// override's non-empty entries in order (later ones win). Override keys are
// canonicalised, so `images: {golang: ...}` overrides "go". Neither input is
// changed.
func (t Table) Merge(overrides ...Table) Table {
	out := make(Table, len(t))
	for k, v := range t {
		out[Canonical(k)] = v
	}
	for _, o := range overrides {
		for k, v := range o {
			if v != "" {
				out[Canonical(k)] = v
			}
		}
	}
	return out
}

// Runtimes returns the table's runtime names, sorted.
func (t Table) Runtimes() []string {
	return slices.Sorted(maps.Keys(t))
}

// Validate checks every reference in the table, so a bad configuration is
// refused when it is loaded rather than when a run needs the image.
func (t Table) Validate() error {
	for _, r := range t.Runtimes() {
		if err := ValidateReference(t[r]); err != nil {
			return fmt.Errorf("images.%s: %w", r, err)
		}
	}
	return nil
}
