package detect

import (
	"fmt"
	"path"
	"strings"
)

// auxiliaryDirs hold material around a project, not a project of their
// own: documentation, benchmarks, examples (and, for package manifests,
// anything below a tests directory: testData). A manifest inside them (a
// docs/requirements.txt, a benchmark/go.mod) never becomes a subproject, so
// its install can neither run first nor, failing, skip the real tests.
var auxiliaryDirs = map[string]bool{
	"docs": true, "doc": true, "benchmark": true, "benchmarks": true, "bench": true,
	"examples": true, "example": true, "_examples": true,
	// Projects that tests run against are the tests' input, not projects.
	"fixtures": true, "fixture": true, "__fixtures__": true,
}

// toolDirs hold helper projects (code generators, linters pinned by a
// tools.go, release and benchmark scripts, fmt's support/ with its doc
// scripts and an Android build): a project there counts only when it has
// tests.
var toolDirs = map[string]bool{"tools": true, "tool": true, "hack": true, "scripts": true, "internal/tools": true,
	"support": true, "ci": true, "devtools": true, "dev-tools": true, "build-tools": true}

// testDirs hold a project's tests, or its requirement files: requirement
// files there are the enclosing project's (test) dependencies.
var testDirs = map[string]bool{"tests": true, "test": true, "testing": true, "requirements": true}

// auxiliaryRoots removes, before detection, the roots that are helpers of
// their parent: auxiliary directories, and test directories marked only by
// requirement files (returned as testReqs, for attachTestRequirements).
// Done before detection so the parent's own files (tests/*.py) stay its;
// dropped lists the auxiliary roots, whose files stay out of the parent
// (a benchmark module's _test.go files are not the root module's tests).
func auxiliaryRoots(roots []root, res *Result) (kept, dropped []root, testReqs []string) {
	for _, r := range roots {
		switch {
		case r.dir == ".":
		case inAuxiliary(r.dir) || testData(r):
			res.Notes = append(res.Notes, fmt.Sprintf("%s: an auxiliary directory (docs, benchmarks, examples), not a subproject: %s not built, installed or tested", r.dir, strings.Join(r.markers, ", ")))
			dropped = append(dropped, r)
			continue
		case r.runtime == RuntimePython && testDirs[path.Base(r.dir)] && allRequirements(r.markers):
			for _, m := range r.markers {
				if !auxiliaryRequirement(path.Base(m)) {
					testReqs = append(testReqs, m)
				}
			}
			continue
		}
		kept = append(kept, r)
	}
	return kept, dropped, testReqs
}

// dropToolModules removes helper projects without tests (a tools/go.mod
// pinning code generators, a scripts/package.json whose only dependency
// is a benchmark's native addon): nothing of theirs is the project's
// verdict, and their install (a native build, a generator's toolchain)
// failing must not fail it.
func dropToolModules(res *Result) {
	kept := res.Subprojects[:0]
	for _, sp := range res.Subprojects {
		if sp.Root != "." && toolDirs[sp.Root] && !sp.HasTests {
			res.Notes = append(res.Notes, fmt.Sprintf("%s: helper module without tests (%s), not a subproject", sp.Root, strings.Join(sp.Markers, ", ")))
			continue
		}
		kept = append(kept, sp)
	}
	res.Subprojects = kept
}

// attachTestRequirements gives each test directory's requirement files
// to the deepest Python subproject containing it: they are its test
// dependencies, installed by its install step.
func attachTestRequirements(v *view, res *Result, files []string) {
	for _, f := range files {
		dir, _ := splitPath(f)
		parent := enclosingPython(res.Subprojects, dir)
		if parent == nil {
			res.Notes = append(res.Notes, fmt.Sprintf("%s: test requirements outside any Python project; not installed", f))
			continue
		}
		info := parent.Python
		info.Requirements = appendUnique(info.Requirements, f)
		info.LockFiles = appendUnique(info.LockFiles, f)
		parent.Markers = appendUnique(parent.Markers, f)
		if data, err := v.read(f); err == nil {
			if requirementLines(data) > 0 {
				info.HasDeps = true
			}
			mentions(info, data)
		}
		res.Notes = append(res.Notes, fmt.Sprintf("%s: test requirements of %s, installed with it", f, parent.Root))
	}
}

// allRequirements reports whether every marker is a requirement file.
func allRequirements(markers []string) bool {
	for _, m := range markers {
		if !isRequirements(path.Base(m)) {
			return false
		}
	}
	return len(markers) > 0
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

// testDataDirs hold a project's tests: a package manifest in a directory
// below one is the tests' input, not a project.
var testDataDirs = map[string]bool{"test": true, "tests": true, "__tests__": true, "spec": true}

// testData reports whether a Node or Python root lies below a tests
// directory (resolve's test/resolver/*/package.json, some deliberately
// malformed; a tests/fixtures/proj/setup.py). tests/ itself may hold the
// project's test requirements, and C/C++ and Go roots there are handled
// as parts of their project or as modules.
func testData(r root) bool {
	if r.runtime != RuntimeNode && r.runtime != RuntimeTypeScript && r.runtime != RuntimePython {
		return false
	}
	parts := strings.Split(r.dir, "/")
	for _, part := range parts[:len(parts)-1] {
		if testDataDirs[part] {
			return true
		}
	}
	return false
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
