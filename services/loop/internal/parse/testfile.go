package parse

import (
	"path"
	"strings"
)

// IsTestFile reports whether a path is test code by the conventions of
// its language: Go's _test.go, pytest's test_*.py and *_test.py and
// conftest.py, files under tests/ or test/ or __tests__/ or src/test/, and
// JavaScript's .test. and .spec. files.
func IsTestFile(p string) bool {
	base := path.Base(p)
	switch {
	case strings.HasSuffix(base, "_test.go"), strings.HasSuffix(base, "_test.py"), base == "conftest.py",
		strings.HasPrefix(base, "test_") && strings.HasSuffix(base, ".py"),
		strings.Contains(base, ".test."), strings.Contains(base, ".spec."):
		return true
	}
	for _, dir := range strings.Split(path.Dir(p), "/") {
		switch dir {
		case "tests", "test", "__tests__", "spec":
			return true
		}
	}
	return false
}

// testDataDirs hold what tests read: keys, certificates, fixtures.
var testDataDirs = map[string]bool{"testdata": true, "test_data": true, "testing": true, "fixtures": true,
	"__fixtures__": true, "specs": true, "e2e": true}

// testCode reports whether a repository path is test code (IsTestFile) or
// test data.
func testCode(rel string) bool {
	if IsTestFile(rel) {
		return true
	}
	for _, d := range strings.Split(path.Dir(rel), "/") {
		if testDataDirs[d] {
			return true
		}
	}
	return false
}
