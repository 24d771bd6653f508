package patch

import (
	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"

	"path"
	"slices"
	"strings"

	"github.com/greenlight-dev/greenlight/pkg/toolchain"
	"github.com/greenlight-dev/greenlight/pkg/toolchain/packs"
)

// RuleDependencies: the patch changes which dependencies are installed
// (a requirement, a go.mod require or replace, a package.json dependency).
// A dependency swapped for a local copy (`replace github.com/stretchr/
// testify => ./fake`, `-e ./pytest`, `"jest": "file:./jest"`) replaces the
// test tools and assertion libraries the verdict relies on; honest bug
// fixes rarely need one. The caller can allow it with allow_lockfile_edits.
const RuleDependencies Rule = "dependencies"

// dependencyHint explains the dependencies rule to the model and the
// caller.
const dependencyHint = "dependencies may not be changed by a patch: they include the test tools and assertion libraries " +
	"the verdict relies on (the caller can allow it with allow_lockfile_edits); fix the code instead"

// isRequirementsFile reports whether a path is a pip requirements or
// constraints file, whose every line is a dependency.
func isRequirementsFile(p string) bool {
	base := path.Base(p)
	return (strings.HasPrefix(base, "requirements") || strings.HasPrefix(base, "constraints")) &&
		(strings.HasSuffix(base, ".txt") || strings.HasSuffix(base, ".in"))
}

// isDependencyManifest reports whether a path's content is checked for
// dependency changes (checkDependencyContent).
func isDependencyManifest(p string) bool {
	switch path.Base(p) {
	case "go.mod", "package.json", "pyproject.toml", "setup.py", "setup.cfg", "Pipfile":
		return true
	}
	return isRequirementsFile(p) || packManifests[path.Base(p)]
}

// The toolchain packs' TOML dependency manifests and their dependency
// tables (pkg/toolchain).
var (
	packManifests = packs.Registry.Set(func(s *toolchain.Spec) []string { return s.DependencyManifests })
	packSections  = packs.Registry.Collect(func(s *toolchain.Spec) []string { return s.DependencySections })
)

// The parts of manifests that declare dependencies.
var (
	depJSONKeys     = []string{"dependencies", "devDependencies", "optionalDependencies", "peerDependencies", "bundleDependencies"}
	depTOMLSections = []string{"project.dependencies", "project.optional-dependencies", "tool.poetry.dependencies",
		"tool.poetry.dev-dependencies", "tool.poetry.group", "tool.pdm.dev-dependencies", "tool.uv", "dependency-groups",
		"packages", "dev-packages", "source"}
	depCfgSections = []string{"options.install_requires", "options.extras_require", "options.setup_requires", "options.tests_require"}
	// depPyLines matches setup.py arguments listing dependencies.
	depPyLines = lazyregexp.New(`\b(install_requires|extras_require|dependency_links)\b`)
	// goModDirective matches go.mod lines that decide which code a module
	// builds with.
	goModDirective = lazyregexp.New(`^\s*(require|replace|exclude|retract|toolchain|godebug)\b|^\s*[a-z0-9.-]+\.[a-z]+/\S+\s+v\S+|=>`)
)

// checkDependencyContent refuses, unless lockfile edits are allowed, a
// change of the dependencies a manifest declares; old and new are its
// content before and after (nil when absent).
func checkDependencyContent(name string, old, new []byte, g Guardrails) *Refusal {
	if g.AllowLockfileEdits {
		return nil
	}
	var changed string
	switch base := path.Base(name); {
	case base == "package.json":
		changed = changedJSONKeys(old, new, depJSONKeys)
	case base == "pyproject.toml" || base == "Pipfile":
		changed = changedSections(old, new, depTOMLSections)
	case packManifests[base]:
		changed = changedSections(old, new, packSections)
	case base == "setup.cfg":
		changed = changedSections(old, new, depCfgSections)
	case base == "setup.py":
		if !slices.Equal(matchingLines(old, depPyLines.MatchString), matchingLines(new, depPyLines.MatchString)) {
			changed = "the setup() dependencies"
		}
	case base == "go.mod":
		if !slices.Equal(matchingLines(old, goModDirective.MatchString), matchingLines(new, goModDirective.MatchString)) {
			changed = "the module's require/replace directives"
		}
	case isRequirementsFile(name):
		if !slices.Equal(matchingLines(old, isRequirementLine), matchingLines(new, isRequirementLine)) {
			changed = "the requirements"
		}
	}
	if changed == "" {
		return nil
	}
	return refuse(RuleDependencies, name, "changes %s: %s", changed, dependencyHint)
}

// isRequirementLine reports whether a requirements line declares
// something (comments and blank lines do not).
func isRequirementLine(line string) bool {
	t := strings.TrimSpace(line)
	return t != "" && !strings.HasPrefix(t, "#")
}

// matchingLines returns the trimmed lines of b that keep says matter.
func matchingLines(b []byte, keep func(string) bool) []string {
	var out []string
	for _, line := range strings.Split(string(b), "\n") {
		if keep(line) {
			out = append(out, strings.TrimSpace(line))
		}
	}
	return out
}

// checkPlanDependencies applies the dependencies rule to one planned
// change, as checkPlanConfig does the config rule.
func checkPlanDependencies(pl plan, g Guardrails) *Refusal {
	f := pl.file
	if f.OldPath != "" && isDependencyManifest(f.OldPath) {
		var after []byte
		if f.Op != OpDelete && f.Op != OpRename {
			after = pl.content
		}
		if r := checkDependencyContent(f.OldPath, pl.old, after, g); r != nil {
			return r
		}
	}
	if f.NewPath != "" && f.NewPath != f.OldPath && f.Op != OpDelete && isDependencyManifest(f.NewPath) {
		return checkDependencyContent(f.NewPath, nil, pl.content, g)
	}
	return nil
}
