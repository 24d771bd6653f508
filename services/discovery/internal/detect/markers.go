package detect

import (
	"path"
	"strings"

	"github.com/greenlight-dev/greenlight/pkg/toolchain"
	"github.com/greenlight-dev/greenlight/pkg/toolchain/packs"
)

// contentFiles are the base names whose contents detection reads. Lockfiles
// are not among them: their names are enough.
var contentFiles = map[string]bool{
	"package.json": true, "pnpm-workspace.yaml": true, "go.mod": true, "go.work": true, "pyproject.toml": true, "setup.cfg": true, "setup.py": true,
	"tox.ini": true, "noxfile.py": true, "pytest.ini": true, "Pipfile": true,
	"Makefile": true, "makefile": true, "GNUmakefile": true,
	"CMakeLists.txt": true,
	"pom.xml":        true, "build.gradle": true, "build.gradle.kts": true,
	".nvmrc": true, ".node-version": true, ".python-version": true, ".tool-versions": true,
	"greenlight.yaml": true, "greenlight.yml": true, "agent.yaml": true, "runr.config.json": true,
}

// packContent are the toolchain packs' content files.
var packContent = packs.Registry.Set(func(s *toolchain.Spec) []string { return s.ContentFiles })

// WantContent reports whether the snapshot index must keep a file's content:
// a manifest or configuration file outside ignored directories, or a CI
// file (internal/cisource learns what the maintainers run from it).
func WantContent(name string) bool {
	if CIFile(name) {
		return true
	}
	if Ignored(name) {
		return false
	}
	base := path.Base(name)
	if gopathHint(name) {
		return true
	}
	if strings.HasSuffix(base, ".sh") {
		return true // scripts steps run: what they call decides their image
	}
	return contentFiles[base] || packContent[base] || isRequirements(base) ||
		strings.HasSuffix(name, ".txt") && path.Base(path.Dir(name)) == "requirements"
}

// isRequirements matches pip requirement files: requirements.txt,
// requirements-dev.txt, dev-requirements.txt, ...
func isRequirements(base string) bool {
	return strings.HasSuffix(base, ".txt") && strings.Contains(base, "requirements")
}

// otherRuntimes are detected by name only: greenlight knows no commands for
// them (a Makefile next to them still contributes its targets).
var otherRuntimes = map[string]string{
	"Gemfile": "ruby", "composer.json": "php", "mix.exs": "elixir", "Package.swift": "swift",
	"build.sbt": "scala", "pubspec.yaml": "dart",
	"deno.json": "deno", "deno.jsonc": "deno", "stack.yaml": "haskell", "dune-project": "ocaml",
}

// otherRuntimeBySuffix covers marker files known by extension.
var otherRuntimeBySuffix = map[string]string{".csproj": "dotnet", ".sln": "dotnet", ".fsproj": "dotnet", ".cabal": "haskell"}

// CIFile reports whether a file is CI configuration greenlight reads: a
// GitHub Actions workflow or .gitlab-ci.yml.
func CIFile(name string) bool {
	if name == ".gitlab-ci.yml" {
		return true
	}
	dir, base := path.Split(name)
	return dir == ".github/workflows/" && (strings.HasSuffix(base, ".yml") || strings.HasSuffix(base, ".yaml"))
}
