package patch

import (
	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"

	"path"
	"strings"

	"github.com/greenlight-dev/greenlight/pkg/toolchain"
	"github.com/greenlight-dev/greenlight/pkg/toolchain/packs"
)

// testGlobs are the paths treated as tests: test files by the naming
// conventions of pytest/unittest, go test, Jest/Vitest/Mocha/tape/ava,
// JUnit/Surefire, RSpec and prove, the usual test directories (Maven's
// src/test included) and what tests read: fixtures, testdata and
// snapshots. In a fix run these belong to the grader, not the patch.
var testGlobs = []string{
	"**/test_*.py", "**/*_test.py", "**/*_tests.py", "**/tests.py", "**/conftest.py",
	"**/*_test.go",
	"**/*.test.*", "**/*.spec.*", "**/*_spec.*", "**/test.{js,mjs,cjs,ts}",
	"**/*Test.{java,kt,scala,groovy}", "**/*Tests.{java,kt,scala,groovy}", "**/*IT.{java,kt}",
	"**/*.t",
	"**/tests/**", "**/test/**", "**/__tests__/**", "**/src/test/**", "**/spec/**", "**/t/**",
	"**/testdata/**", "**/test-data/**", "**/test_data/**", "**/fixtures/**", "**/__fixtures__/**",
	"**/__snapshots__/**", "**/*.snap",
}

// isTestPath reports whether a workspace path is a test file by name.
func isTestPath(p string) bool {
	for _, g := range testGlobs {
		if match(g, p) {
			return true
		}
	}
	return false
}

// lockfiles are dependency lockfiles by base name: editing one by hand
// changes what gets installed without the manifest saying so.
var lockfiles = map[string]bool{
	"package-lock.json": true, "npm-shrinkwrap.json": true, "yarn.lock": true,
	"pnpm-lock.yaml": true, "bun.lockb": true, "bun.lock": true,
	"go.sum": true, "poetry.lock": true, "uv.lock": true,
	"Pipfile.lock": true, "pdm.lock": true, "composer.lock": true, "Gemfile.lock": true,
}

// isLockfile reports whether a workspace path is a dependency lockfile.
func isLockfile(p string) bool { return lockfiles[path.Base(p)] || packLockfiles[path.Base(p)] }

// packLockfiles are the toolchain packs' lockfiles (pkg/toolchain).
var packLockfiles = packs.Registry.Set(func(s *toolchain.Spec) []string { return s.Lockfiles })

// skipMarkers are the ways test frameworks are told to skip (or expect to
// fail) a test; adding one is refused unless test changes are allowed.
var skipMarkers = lazyregexp.New(`@pytest\.mark\.(skip|skipif|xfail)\b|\bpytest\.(skip|xfail)\(|` +
	`@unittest\.(skip|skipIf|skipUnless|expectedFailure)\b|\.skipTest\(|` +
	`\bt\.Skip(f|Now)?\(|\b(it|describe|test|context|suite)\.skip\b|\bx(it|describe|test)\(|` +
	`@Disabled\b|@Ignore\b|#\[ignore\]`)

// assertion matches a line that asserts something in a test.
var assertion = lazyregexp.New(`(?i)\bassert|\bexpect\(|\bt\.(Error|Errorf|Fatal|Fatalf|Fail|FailNow)\(|` +
	`\brequire\.|\bshould\b|\.to(Be|Equal|Throw|Match|Have)`)

// skipMarker returns the skip marker an added line introduces, or "".
func skipMarker(text string) string {
	return skipMarkers.FindString(text)
}

// isAssertion reports whether a line holds an assertion (comments aside).
func isAssertion(text string) bool {
	t := strings.TrimSpace(text)
	if strings.HasPrefix(t, "#") || strings.HasPrefix(t, "//") {
		return false
	}
	return assertion.MatchString(t)
}
