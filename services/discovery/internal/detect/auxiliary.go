package detect

import (
	"fmt"
	"path"
	"strings"
)

// auxiliaryDirs hold material around a project, not a project of their
// own: documentation, benchmarks, examples. A manifest inside them (a
// docs/requirements.txt, a benchmark/go.mod) never becomes a subproject, so
// its install can neither run first nor, failing, skip the real tests.
var auxiliaryDirs = map[string]bool{
	"docs": true, "doc": true, "benchmark": true, "benchmarks": true, "bench": true,
	"examples": true, "example": true, "_examples": true,
}

// toolDirs hold helper modules (code generators, linters pinned by a
// tools.go): a subproject there counts only when it has tests.
var toolDirs = map[string]bool{"tools": true, "tool": true, "hack": true, "scripts": true, "internal/tools": true}

// testDirs hold a project's tests; requirement files there are the
// enclosing project's test dependencies.
var testDirs = map[string]bool{"tests": true, "test": true, "testing": true}

// dropAuxiliary removes the subprojects that are helpers of their parent
// and gives test-requirement directories to the enclosing Python project.
func dropAuxiliary(res *Result) {
	kept := res.Subprojects[:0]
	for i := range res.Subprojects {
		sp := res.Subprojects[i]
		if sp.Root == "." {
			kept = append(kept, sp)
			continue
		}
		switch {
		case inAuxiliary(sp.Root):
			res.Notes = append(res.Notes, fmt.Sprintf("%s: %s is an auxiliary directory (docs, benchmarks, examples), not a subproject: %s not built, installed or tested", sp.Root, sp.Root, strings.Join(sp.Markers, ", ")))
			continue
		case sp.Go != nil && toolDirs[sp.Root] && !sp.HasTests:
			res.Notes = append(res.Notes, fmt.Sprintf("%s: helper module without tests (%s), not a subproject", sp.Root, strings.Join(sp.Markers, ", ")))
			continue
		case testDirs[path.Base(sp.Root)] && requirementsOnly(sp):
			if parent := enclosingPython(res.Subprojects, sp.Root); parent != nil {
				attachRequirements(parent, sp)
				res.Notes = append(res.Notes, fmt.Sprintf("%s: test requirements of %s, installed with it", strings.Join(sp.Python.Requirements, ", "), parent.Root))
				continue
			}
		}
		kept = append(kept, sp)
	}
	res.Subprojects = kept
}

// inAuxiliary reports whether any directory of root is auxiliary.
func inAuxiliary(root string) bool {
	for _, part := range strings.Split(root, "/") {
		if auxiliaryDirs[part] {
			return true
		}
	}
	return false
}

// requirementsOnly is a Python subproject marked by requirement files alone.
func requirementsOnly(sp Subproject) bool {
	if sp.Python == nil || len(sp.Python.Requirements) == 0 {
		return false
	}
	for _, m := range sp.Markers {
		if !isRequirements(path.Base(m)) {
			return false
		}
	}
	return true
}

// enclosingPython is the deepest Python subproject containing dir.
func enclosingPython(sps []Subproject, dir string) *Subproject {
	var best *Subproject
	for i := range sps {
		sp := &sps[i]
		if sp.Python != nil && sp.Root != dir && within(sp.Root, dir) && (best == nil || len(sp.Root) > len(best.Root)) {
			best = sp
		}
	}
	return best
}

// attachRequirements makes a test directory's requirement files part of
// the parent's install.
func attachRequirements(parent *Subproject, sub Subproject) {
	info := parent.Python
	for _, r := range sub.Python.Requirements {
		info.Requirements = appendUnique(info.Requirements, r)
		info.LockFiles = appendUnique(info.LockFiles, r)
		parent.Markers = appendUnique(parent.Markers, r)
	}
	info.HasDeps = info.HasDeps || sub.Python.HasDeps
	if _, ok := sub.Python.Tools["pytest"]; ok {
		setTool(info, "pytest", sub.Python.Tools["pytest"])
	}
}

// auxiliaryRequirement is a root requirement file for documentation,
// benchmarks or releases (requirements-docs.txt, docs-requirements.txt):
// verification does not install it.
func auxiliaryRequirement(base string) bool {
	name := strings.TrimSuffix(strings.ToLower(base), ".txt")
	for _, tok := range strings.FieldsFunc(name, func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
		switch tok {
		case "doc", "docs", "bench", "benchmark", "benchmarks", "release", "deploy", "publish", "upload", "mkdocs", "sphinx":
			return true
		}
	}
	return false
}
