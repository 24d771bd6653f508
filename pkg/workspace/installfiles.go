package workspace

import (
	"path"
	"strings"

	"github.com/greenlight-dev/greenlight/pkg/toolchain"
	"github.com/greenlight-dev/greenlight/pkg/toolchain/packs"
)

// Toolchain packs declare their own install files (base names) and
// directory-qualified configuration files.
var (
	packInstallFiles = packs.Registry.Set(func(s *toolchain.Spec) []string { return s.InstallFiles })
	packConfigFiles  = packs.Registry.Set(func(s *toolchain.Spec) []string { return s.ConfigFiles })
)

// installFiles are the names of files that decide what a dependency install
// produces: manifests, lockfiles, workspace and registry settings, version
// catalogs, wrapper scripts and properties.
var installFiles = map[string]bool{
	// Python
	"setup.py": true, "setup.cfg": true, "pyproject.toml": true, "Pipfile": true, "Pipfile.lock": true,
	"poetry.lock": true, "uv.lock": true, "pdm.lock": true, "pylock.toml": true, "pip.conf": true,
	// Node
	"package.json": true, "package-lock.json": true, "npm-shrinkwrap.json": true, "yarn.lock": true,
	"pnpm-lock.yaml": true, "pnpm-workspace.yaml": true, "bun.lock": true, "bun.lockb": true,
	".npmrc": true, ".yarnrc": true, ".yarnrc.yml": true, ".pnpmfile.cjs": true,
	// Go
	"go.mod": true, "go.sum": true, "go.work": true, "go.work.sum": true,
	// JVM
	"pom.xml": true, "settings.xml": true, "mvnw": true, "gradlew": true, "gradle.properties": true,
	"gradle-wrapper.properties": true, "gradle-wrapper.jar": true, "maven-wrapper.properties": true,
}

// InstallFile reports whether the workspace file name (slash-separated,
// relative to the root) can change what a dependency install produces,
// whatever the install command: the dependency cache keys an install by
// the content of every such file (see InstallFileFor).
func InstallFile(name string) bool {
	base, dir := path.Base(name), path.Base(path.Dir(name))
	switch {
	case installFiles[base], packInstallFiles[base], packConfigFiles[path.Join(dir, base)]:
		return true
	case strings.HasSuffix(base, ".gradle"), strings.HasSuffix(base, ".gradle.kts"), strings.HasSuffix(base, ".versions.toml"):
		return true // build and settings scripts, version catalogs
	case strings.HasSuffix(base, ".txt") && (strings.Contains(base, "requirements") || strings.Contains(base, "constraints")):
		return true
	case dir == "requirements" || dir == ".mvn" || strings.HasPrefix(name, ".yarn/") || strings.Contains(name, "/.yarn/"):
		return true // requirements/*.txt, .mvn/maven.config, .yarn/releases
	}
	return false
}

// InstallFileFor reports whether name is an InstallFile that can change an
// install run in the workspace directory dir ("." for the root): it lies
// in dir's tree (a Maven module's pom.xml, a workspace member's
// package.json) or directly in one of dir's ancestors (a workspace root's
// manifest, an .npmrc, a go.work, a Cargo workspace).
func InstallFileFor(name, dir string) bool {
	if !InstallFile(name) {
		return false
	}
	if dir == "." || dir == "" || strings.HasPrefix(name, dir+"/") {
		return true
	}
	parent := path.Dir(name)
	return parent == "." || strings.HasPrefix(dir, parent+"/")
}
