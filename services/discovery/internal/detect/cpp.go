package detect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"strings"
)

// Build systems of a C/C++ subproject.
const (
	BuildCMake = "cmake"
	BuildMake  = "make"
)

// CppInfo holds what command extraction needs about a C/C++ project.
type CppInfo struct {
	// BuildSystem is BuildCMake, BuildMake or "" (a header-only library
	// whose only build is its test Makefile).
	BuildSystem string
	// CMakeFile is the workspace-relative top-level CMakeLists.txt.
	CMakeFile string
	// CTest is true when a CMakeLists.txt of the project registers tests
	// (enable_testing, add_test, include(CTest), gtest_discover_tests).
	CTest bool
	// CTestFile is where tests were registered (the source of the ctest step).
	CTestFile string
	// TestOptions are the top-level CMakeLists.txt's options that build
	// the tests and default to OFF (yyjson's YYJSON_BUILD_TESTS): the
	// configure step turns them on, as the maintainers' CI does, or ctest
	// finds no tests.
	TestOptions []string
	// TestMakefile is the Makefile of the project's test directory
	// (tests/Makefile), run when the root has no build of its own: the
	// maintainers' `make -C tests`.
	TestMakefile *Makefile
}

// cSuffixes are the source and header extensions of C and C++.
var cSuffixes = map[string]bool{".c": true, ".h": true, ".cc": true, ".cpp": true, ".cxx": true, ".hh": true, ".hpp": true, ".hxx": true}

// ctestWords register CTest tests in a CMakeLists.txt.
var ctestWords = [][]byte{[]byte("enable_testing("), []byte("add_test("), []byte("include(CTest)"),
	[]byte("gtest_discover_tests("), []byte("catch_discover_tests("), []byte("doctest_discover_tests(")}

func detectCpp(v *view, sp *Subproject, nested []string) {
	info := &CppInfo{}
	sp.Cpp = info
	if v.has(sp.Root, "CMakeLists.txt") {
		info.BuildSystem, info.CMakeFile = BuildCMake, join(sp.Root, "CMakeLists.txt")
		sp.PackageManager = "cmake"
		if data, err := v.read(info.CMakeFile); err == nil {
			info.TestOptions = cmakeTestOptions(data)
		}
	}
	for _, f := range v.under(sp.Root, nested) {
		if path.Base(f) != "CMakeLists.txt" || inAuxiliary(strings.TrimPrefix(f, sp.Root+"/")) {
			continue
		}
		data, err := v.read(f)
		if err != nil {
			continue
		}
		if registersTests(data) {
			info.CTest, info.CTestFile = true, f
			sp.HasTests = true
			sp.TestFrameworks = []string{"ctest"}
			break
		}
	}
}

// registersTests reports whether a CMakeLists.txt registers CTest tests
// (case-insensitively, as CMake reads command names).
func registersTests(data []byte) bool {
	low := bytes.ToLower(data)
	for _, w := range ctestWords {
		if bytes.Contains(low, bytes.ToLower(w)) {
			return true
		}
	}
	return false
}

// clibManifest reports whether a package.json is a clib package manifest
// (a C library's "repo" and "src" files), not a Node package: it has no
// scripts, dependencies or entry point, so nothing of Node could run.
func clibManifest(v *view, file string) bool {
	data, err := v.read(file)
	if err != nil {
		return false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(data, &m) != nil {
		return false
	}
	for _, k := range []string{"scripts", "dependencies", "devDependencies", "main", "bin", "exports", "workspaces"} {
		if _, ok := m[k]; ok {
			return false
		}
	}
	_, repo := m["repo"]
	_, src := m["src"]
	return repo && src
}

// hasCSources reports whether a directory's tree (outside the excluded
// nested roots) holds C or C++ sources.
func hasCSources(v *view, root string, exclude []string) bool {
	for _, f := range v.under(root, exclude) {
		if cSuffixes[path.Ext(f)] {
			return true
		}
	}
	return false
}

// cppMakefiles settles the Makefiles of C/C++ code. A Makefile-only
// subproject with C/C++ sources is a C/C++ project built by make (so it
// runs in the C/C++ image). A Makefile nested in a C/C++ project is part of
// it (a vendored library's, a sub-build the parent's build drives), with
// one exception: when the project has no build of its own, the Makefile of
// its test directory is its test suite (uthash's `make -C tests`).
func cppMakefiles(v *view, res *Result) {
	drop := map[int]bool{}
	for i := range res.Subprojects {
		sp := &res.Subprojects[i]
		if sp.Runtime != RuntimeMake {
			continue
		}
		parent := enclosingCpp(res.Subprojects, sp.Root)
		switch {
		case parent != nil && parent.Cpp.BuildSystem == "" && parent.Make == nil && parent.Cpp.TestMakefile == nil &&
			testDirs[path.Base(sp.Root)] && path.Dir(sp.Root) == parent.Root:
			parent.Cpp.TestMakefile = sp.Make
			parent.HasTests = true
			parent.PackageManager = "make"
			parent.Markers = append(parent.Markers, sp.Make.File)
			res.Notes = append(res.Notes, fmt.Sprintf("%s: the test suite of %s, which has no build of its own: `make -C %s` is its test step",
				sp.Make.File, parent.Root, strings.TrimPrefix(sp.Root, parent.Root+"/")))
			drop[i] = true
		case parent != nil:
			res.Notes = append(res.Notes, fmt.Sprintf("%s: part of the C/C++ project %s (built or vendored by it), not a subproject", sp.Make.File, parent.Root))
			drop[i] = true
		case hasCSources(v, sp.Root, nil):
			sp.Runtime = RuntimeCpp
			sp.Cpp = &CppInfo{BuildSystem: BuildMake}
			sp.HasTests = sp.Make.HasTestTarget()
		}
	}
	kept := res.Subprojects[:0]
	for i, sp := range res.Subprojects {
		if !drop[i] {
			kept = append(kept, sp)
		}
	}
	res.Subprojects = kept
}

// enclosingCpp is the C/C++ subproject strictly containing dir.
func enclosingCpp(sps []Subproject, dir string) *Subproject {
	var best *Subproject
	for i := range sps {
		sp := &sps[i]
		if sp.Cpp != nil && sp.Root != dir && within(sp.Root, dir) && (best == nil || len(sp.Root) > len(best.Root)) {
			best = sp
		}
	}
	return best
}
