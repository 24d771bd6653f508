package image

import (
	"fmt"
	"maps"
	"slices"

	"github.com/greenlight-dev/greenlight/pkg/toolchain/packs"
)

// Table maps a canonical runtime name ("go", "python", "rust") to an image
// reference ("greenlight/sandbox-go:latest", "golang:1.26").
type Table map[string]string

// Offline image references built by `make images` (images/build.sh). The
// builder also tags each image with its recipe hash; :latest follows it.
const (
	// OfflineGo is the Go image: the host's toolchain, git, gcc.
	OfflineGo = "greenlight/sandbox-go:latest"
	// OfflinePython is the Python image: pytest, pip, venv, flake8, mypy.
	OfflinePython = "greenlight/sandbox-python:latest"
	// OfflineNode is the Node.js image: Debian's nodejs, npm, yarn, pnpm.
	OfflineNode = "greenlight/sandbox-node:latest"
	// OfflineGeneric is the plain-shell image: bash, coreutils, git, make,
	// curl, jq, python3.
	OfflineGeneric = "greenlight/sandbox-generic:latest"
	// OfflineCpp is the C/C++ image: gcc, g++, clang, make, CMake, Ninja.
	OfflineCpp = "greenlight/sandbox-cpp:latest"
	// OfflineJava is the Java image: OpenJDK 17, Maven, Gradle and Debian's
	// Maven repository as an offline repository.
	OfflineJava = "greenlight/sandbox-java:latest"
)

// Defaults returns the offline images, which need no registry. The caller
// owns the returned table.
func Defaults() Table {
	t := Table{
		Go: OfflineGo, Python: OfflinePython, Node: OfflineNode,
		Generic: OfflineGeneric, Cpp: OfflineCpp, Java: OfflineJava,
	}
	for _, p := range packs.Registry.All() {
		s := p.Spec()
		t[s.Name] = s.Image.Offline
	}
	return t
}

// OfflineRuntime returns the runtime whose offline image ref is, and
// whether it is one: "greenlight/sandbox-rust:latest" → "rust", true.
func OfflineRuntime(ref string) (string, bool) {
	for rt, img := range Defaults() {
		if img == ref {
			return rt, true
		}
	}
	return "", false
}

// BuildCommand returns the command that builds the offline image of a
// runtime (aliases accepted): "make images IMAGES=rust". The Makefile
// target builds only that image (images/build.sh rust).
func BuildCommand(runtime string) string {
	return "make images IMAGES=" + Canonical(runtime)
}

// Upstream returns the public images a user with registry access may
// configure instead. They run as root by default: the executor's --user
// 10001 works with them, but HOME then points at a directory that user
// cannot write unless the executor mounts one (see images/README.md).
// The table is the seed design's: there is no upstream image for the
// generic and C/C++ runtimes.
func Upstream() Table {
	t := Table{Go: "golang:1.26", Python: "python:3.12-slim", Node: "node:20-slim", Java: UpstreamJava}
	for _, p := range packs.Registry.All() {
		if s := p.Spec(); s.Image.Upstream != "" {
			t[s.Name] = s.Image.Upstream
		}
	}
	return t
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
