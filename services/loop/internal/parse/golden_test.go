package parse

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"google.golang.org/protobuf/proto"
)

// goldenCase is one real captured run (see testdata/golden/README.md).
type goldenCase struct {
	src      string // snapshot under testdata/golden/src
	phase    glv1.Phase
	format   string
	counts   Counts
	lint     int
	failures []wantFailure
}

// wantFailure is the expected (kind, file, line, test) of a failure, in order.
type wantFailure struct {
	kind string
	file string
	line int
	test string
	msg  string // substring of the message
}

const (
	tTest  = glv1.Phase_PHASE_TEST
	tLint  = glv1.Phase_PHASE_LINT
	tType  = glv1.Phase_PHASE_TYPECHECK
	tBuild = glv1.Phase_PHASE_BUILD
	tSmoke = glv1.Phase_PHASE_SMOKE
)

var goldenCases = map[string]goldenCase{
	"go-json/pass": {src: "go", phase: tTest, format: FormatGoJSON, counts: Counts{Passed: 5, Skipped: 1}},
	"go-json/fail": {src: "go", phase: tTest, format: FormatGoJSON, counts: Counts{Passed: 4, Failed: 1, Skipped: 1},
		failures: []wantFailure{{"TEST_ASSERTION", "svc/calc/calc_test.go", 38, "example.com/svc/calc.TestMode", "Add(2, 2) = 4, want 5"}}},
	"go-json/panic": {src: "go", phase: tTest, format: FormatGoJSON, counts: Counts{Passed: 4, Failed: 1, Skipped: 1},
		failures: []wantFailure{{"CRASH", "svc/calc/calc.go", 16, "example.com/svc/calc.TestMode", "index out of range [5] with length 3"}}},
	"go-json/timeout": {src: "go", phase: tTest, format: FormatGoJSON, counts: Counts{Passed: 3, Failed: 1, Skipped: 1, Unfinished: 1},
		failures: []wantFailure{{"TIMEOUT", "svc/calc/calc_test.go", 43, "example.com/svc/calc.TestMode", "panic: test timed out after 2s"}}},
	"go-json/buildfail": {src: "go-buildfail", phase: tTest, format: FormatGoJSON, counts: Counts{Passed: 1, Errors: 1},
		failures: []wantFailure{{"COMPILE", "svc/calc/calc.go", 21, "", "undefined: c"}}},
	"go-json/testbuildfail": {src: "go-testbuildfail", phase: tTest, format: FormatGoJSON, counts: Counts{Passed: 4, Skipped: 1, Errors: 1},
		failures: []wantFailure{{"COMPILE", "svc/util/util_test.go", 12, "", "undefined: Lower"}}},
	"go-json/flaky-first": {src: "go-flaky", phase: tTest, format: FormatGoJSON, counts: Counts{Passed: 5, Failed: 1, Skipped: 1},
		failures: []wantFailure{{"TEST_ASSERTION", "svc/calc/flaky_test.go", 13, "example.com/svc/calc.TestFlaky", "first run fails"}}},
	"go-json/flaky-rerun": {src: "go-flaky", phase: tTest, format: FormatGoJSON, counts: Counts{Passed: 1}},
	// Subtest names containing '/' (src/go-subtests): only tests that
	// reported an outcome count, under their exact names; no parent is
	// invented by cutting a name at '/'.
	"go-json/sub-pass": {src: "go-subtests", phase: tTest, format: FormatGoJSON, counts: Counts{Passed: 9}},
	"go-json/sub-fail": {src: "go-subtests", phase: tTest, format: FormatGoJSON, counts: Counts{Passed: 8, Failed: 1},
		failures: []wantFailure{{"TEST_ASSERTION", "svc/route/route_test.go", 25, "example.com/svc/route.TestMatch//api/v2/users", `Match("/api/v2", "/api/v2/users") = true, want false`}}},
	"go-json/sub-panic": {src: "go-subtests", phase: tTest, format: FormatGoJSON, counts: Counts{Passed: 5, Failed: 1},
		failures: []wantFailure{{"CRASH", "svc/route/route.go", 11, "example.com/svc/route.TestSegment/a/b/out/of/range", "index out of range [5] with length 2"}}},
	// A binary that exits (os.Exit) or times out mid-run: the started test
	// with no outcome is counted failed and unfinished; later tests are unknown.
	"go-json/sub-exit": {src: "go-subtests", phase: tTest, format: FormatGoJSON, counts: Counts{Passed: 5, Failed: 1, Unfinished: 1},
		failures: []wantFailure{{"CRASH", "", 0, "example.com/svc/route.TestSegment/a/b/out/of/range", "did not finish: the test binary exited"}}},
	"go-json/sub-sleep": {src: "go-subtests", phase: tTest, format: FormatGoJSON, counts: Counts{Passed: 5, Failed: 1, Unfinished: 1},
		failures: []wantFailure{{"TIMEOUT", "svc/route/route_test.go", 32, "example.com/svc/route.TestSegment/a/b/out/of/range", "did not finish: the test binary timed out"}}},
	// TestMain fails the package after every test passed: one package record.
	"go-json/sub-main": {src: "go-subtests", phase: tTest, format: FormatGoJSON, counts: Counts{Passed: 9, Errors: 1},
		failures: []wantFailure{{"TEST_ERROR", "", 0, "example.com/svc/boot [package failed]", "boot: leaked goroutine check failed"}}},
	"go-text/sub-fail": {src: "go-subtests", phase: tTest, format: FormatGoText, counts: Counts{Failed: 1},
		failures: []wantFailure{{"TEST_ASSERTION", "svc/route/route_test.go", 25, "example.com/svc/route.TestMatch//api/v2/users", "want false"}}},
	"go-text/sub-fail-verbose": {src: "go-subtests", phase: tTest, format: FormatGoText, counts: Counts{Passed: 8, Failed: 1},
		failures: []wantFailure{{"TEST_ASSERTION", "svc/route/route_test.go", 25, "example.com/svc/route.TestMatch//api/v2/users", "want false"}}},
	"go-text/sub-exit": {src: "go-subtests", phase: tTest, format: FormatGoText, counts: Counts{Errors: 1},
		failures: []wantFailure{{"TEST_ERROR", "", 0, "example.com/svc/route [package failed]", "exit status 3"}}},
	// -v prints subtests' result lines when the top-level test ends, so both
	// started leaves of the dead TestSegment have no outcome.
	"go-text/sub-exit-verbose": {src: "go-subtests", phase: tTest, format: FormatGoText, counts: Counts{Passed: 4, Failed: 2, Unfinished: 2},
		failures: []wantFailure{
			{"CRASH", "", 0, "example.com/svc/route.TestSegment/a/b/first", "did not finish"},
			{"CRASH", "", 0, "example.com/svc/route.TestSegment/a/b/out/of/range", "did not finish"}}},
	"go-text/fail": {src: "go", phase: tTest, format: FormatGoText, counts: Counts{Failed: 1},
		failures: []wantFailure{{"TEST_ASSERTION", "svc/calc/calc_test.go", 38, "example.com/svc/calc.TestMode", "want 5"}}},
	"go-text/fail-verbose": {src: "go", phase: tTest, format: FormatGoText, counts: Counts{Passed: 4, Failed: 1, Skipped: 1},
		failures: []wantFailure{{"TEST_ASSERTION", "svc/calc/calc_test.go", 38, "example.com/svc/calc.TestMode", "want 5"}}},
	"go-text/panic": {src: "go", phase: tTest, format: FormatGoText, counts: Counts{Failed: 1},
		failures: []wantFailure{{"CRASH", "svc/calc/calc.go", 16, "example.com/svc/calc.TestMode", "panic: runtime error"}}},
	"go-text/buildfail": {src: "go-buildfail", phase: tTest, format: FormatGoText, counts: Counts{Errors: 1},
		failures: []wantFailure{{"COMPILE", "svc/calc/calc.go", 21, "", "undefined: c"}}},
	"go-build/fail": {src: "go-buildfail", phase: tBuild, format: FormatUnparsed,
		failures: []wantFailure{{"COMPILE", "svc/calc/calc.go", 21, "", "undefined: c"}}},
	"go-build/vet": {src: "go-vet", phase: tLint, format: FormatUnparsed, lint: 1,
		failures: []wantFailure{{"LINT", "svc/util/fmt.go", 7, "", "fmt.Printf format %s has arg n of wrong type int"}}},
	"go-build/pass": {src: "go", phase: tBuild, format: FormatUnparsed},

	"pytest/pass":         {src: "py", phase: tTest, format: FormatPytestJUnit, counts: Counts{Passed: 6, Skipped: 1}},
	"pytest/fail":         {src: "py", phase: tTest, format: FormatPytestJUnit, counts: Counts{Passed: 4, Failed: 2, Skipped: 1}, failures: pyFail},
	"pytest/sandbox-fail": {src: "py", phase: tTest, format: FormatPytestJUnit, counts: Counts{Passed: 4, Failed: 2, Skipped: 1}, failures: pyFail},
	"pytest/fail-plain":   {src: "py", phase: tTest, format: FormatPytestSummary, counts: Counts{Passed: 4, Failed: 2, Skipped: 1}, failures: pyFail},
	"pytest/fail-quiet":   {src: "py", phase: tTest, format: FormatPytestSummary, counts: Counts{Passed: 4, Failed: 2, Skipped: 1}, failures: pyFail},
	"pytest/fail-short":   {src: "py", phase: tTest, format: FormatPytestSummary, counts: Counts{Passed: 4, Failed: 2, Skipped: 1}, failures: pyFail},
	"pytest/fail-native":  {src: "py", phase: tTest, format: FormatPytestSummary, counts: Counts{Passed: 4, Failed: 2, Skipped: 1}, failures: pyFail},
	"pytest/error": {src: "py", phase: tTest, format: FormatPytestJUnit, counts: Counts{Passed: 3, Failed: 2, Skipped: 1, Errors: 1},
		failures: append(append([]wantFailure{}, pyFail...), wantFailure{"TEST_ERROR", "api/tests/test_calc.py", 42, "tests/test_calc.py::test_with_db", "RuntimeError: database unavailable"})},
	"pytest/collect-error": {src: "py-collect", phase: tTest, format: FormatPytestJUnit, counts: Counts{Errors: 1},
		failures: []wantFailure{{"TEST_ERROR", "api/tests/test_broken.py", 1, "tests/test_broken.py", "ImportError: cannot import name 'multiply'"}}},
	"pytest/crash": {src: "py-crash", phase: tTest, format: FormatPytestSummary, counts: Counts{Passed: 6, Skipped: 1, Errors: 1},
		failures: []wantFailure{{"CRASH", "api/tests/test_crash.py", 5, "tests/test_crash.py", "Fatal Python error: Segmentation fault"}}},
	"pytest/no-tests": {src: "py", phase: tTest, format: FormatPytestSummary,
		failures: []wantFailure{{"TEST_ERROR", "", 0, "", "failed with exit code 5"}}},
	// Python unittest (src/py-unittest): 3.10 names `test_x (m.C)`, 3.11+
	// `test_x (m.C.test_x)`; a failing subtest is one failing test; expected
	// failures count as skipped (pytest's xfail), like the pytest parser.
	"unittest/fail-verbose-py310": {src: "py-unittest", phase: tTest, format: FormatUnittest, counts: Counts{Passed: 3, Failed: 2, Skipped: 2, Errors: 1}, failures: unittestFail},
	"unittest/fail-verbose":       {src: "py-unittest", phase: tTest, format: FormatUnittest, counts: Counts{Passed: 3, Failed: 2, Skipped: 2, Errors: 1}, failures: unittestFail},
	"unittest/fail": {src: "py-unittest", phase: tTest, format: FormatUnittest, counts: Counts{Passed: 3, Failed: 2, Skipped: 2, Errors: 1},
		failures: []wantFailure{unittestFail[1], unittestFail[0], unittestFail[2]}},
	"unittest/pass-py312": {src: "py-unittest", phase: tTest, format: FormatUnittest, counts: Counts{Passed: 5, Skipped: 2}},
	"unittest/import-error": {src: "py-unittest", phase: tTest, format: FormatUnittest, counts: Counts{Passed: 6, Skipped: 2, Errors: 1},
		failures: []wantFailure{{"TEST_ERROR", "api/tests/test_broken.py", 4, "tests.test_broken", "ImportError: cannot import name 'multiply'"}}},
	"flake8/fail": {src: "py-lint", phase: tLint, format: FormatUnparsed, lint: 3, failures: []wantFailure{
		{"LINT", "api/app/util.py", 1, "", "F401 'os' imported but unused"},
		{"LINT", "api/app/util.py", 2, "", "F401 'sys' imported but unused"},
		{"LINT", "api/app/util.py", 6, "", "F841 local variable 'unused'"}}},
	"flake8/pass": {src: "py", phase: tLint, format: FormatUnparsed},
	"mypy/fail": {src: "py-lint", phase: tType, format: FormatUnparsed, lint: 2, failures: []wantFailure{
		{"TYPECHECK", "api/app/util.py", 7, "", `Incompatible return value type (got "str", expected "int")`},
		{"TYPECHECK", "api/app/util.py", 11, "", `Incompatible return value type (got "int", expected "str")`}}},
	"mypy/pass": {src: "py", phase: tType, format: FormatUnparsed},
	// Python syntax errors (src/py-syntax: app/calc.py:5 never closes a
	// parenthesis, app/shapes.py:3 is indented too far) are located at the
	// line Python names, whoever reports them: compileall (whose
	// IndentationError names only the file's base name), an import, pytest
	// collection, unittest loading.
	"python/syntax-compileall": {src: "py-syntax", phase: tBuild, format: FormatUnparsed, failures: pySyntaxFailures("")},
	"python/syntax-import": {src: "py-syntax", phase: tSmoke, format: FormatUnparsed,
		failures: []wantFailure{{"COMPILE", "api/app/calc.py", 5, "", "SyntaxError: '(' was never closed"}}},
	"pytest/syntax":   {src: "py-syntax", phase: tTest, format: FormatPytestJUnit, counts: Counts{Errors: 2}, failures: pySyntaxFailures("tests/test_%s.py")},
	"unittest/syntax": {src: "py-syntax", phase: tTest, format: FormatUnittest, counts: Counts{Errors: 2}, failures: pySyntaxFailures("tests.test_%s")},
	"python/crash": {src: "py-lint", phase: tSmoke, format: FormatUnparsed,
		failures: []wantFailure{{"CRASH", "api/app/calc.py", 9, "", "ZeroDivisionError: division by zero"}}},

	"jest/pass":             {src: "jest", phase: tTest, format: FormatJestJSON, counts: Counts{Passed: 4, Skipped: 1}},
	"jest/fail":             {src: "jest", phase: tTest, format: FormatJestJSON, counts: Counts{Passed: 2, Failed: 2, Skipped: 1}, failures: jsFail("web/src/sum.test.js > sum > adds wrong", 11, "web/src/sum.test.js > average > of nothing")},
	"jest/fail-json-stdout": {src: "jest", phase: tTest, format: FormatJestJSON, counts: Counts{Passed: 2, Failed: 2, Skipped: 1}, failures: jsFail("web/src/sum.test.js > sum > adds wrong", 11, "web/src/sum.test.js > average > of nothing")},
	"jest/fail-text":        {src: "jest", phase: tTest, format: FormatJestText, counts: Counts{Passed: 2, Failed: 2, Skipped: 1}, failures: jsFail("web/src/sum.test.js > sum > adds wrong", 11, "web/src/sum.test.js > average > of nothing")},
	"jest/suite-error": {src: "jest-suite", phase: tTest, format: FormatJestJSON, counts: Counts{Passed: 4, Skipped: 1, Errors: 1},
		failures: []wantFailure{{"COMPILE", "web/src/broken.test.js", 4, "web/src/broken.test.js", "SyntaxError"}}},
	"vitest/pass":              {src: "vitest", phase: tTest, format: FormatVitestJSON, counts: Counts{Passed: 4, Skipped: 1}},
	"vitest/fail":              {src: "vitest", phase: tTest, format: FormatVitestJSON, counts: Counts{Passed: 2, Failed: 2, Skipped: 1}, failures: jsFail("web/src/sum.test.js > sum > adds wrong", 12, "web/src/sum.test.js > average > of nothing")},
	"vitest/fail-text":         {src: "vitest", phase: tTest, format: FormatVitestText, counts: Counts{Passed: 2, Failed: 2, Skipped: 1}, failures: jsFail("web/src/sum.test.js > sum > adds wrong", 12, "web/src/sum.test.js > average > of nothing")},
	"vitest/fail-text-nocolor": {src: "vitest", phase: tTest, format: FormatVitestText, counts: Counts{Passed: 2, Failed: 2, Skipped: 1}, failures: jsFail("web/src/sum.test.js > sum > adds wrong", 12, "web/src/sum.test.js > average > of nothing")},
	"mocha/pass":               {src: "mocha", phase: tTest, format: FormatMocha, counts: Counts{Passed: 4, Skipped: 1}},
	"mocha/fail": {src: "mocha", phase: tTest, format: FormatMocha, counts: Counts{Passed: 2, Failed: 2, Skipped: 1},
		failures: mochaFail},
	"mocha/fail-json": {src: "mocha", phase: tTest, format: FormatMochaJSON, counts: Counts{Passed: 2, Failed: 2, Skipped: 1},
		failures: mochaFail},
	// node-tap 16 (src/nodetap): a file is a subtest, t.test() nests, and
	// every assertion is a test point. Counted as tap's own summary counts:
	// the assertions (leaves), each once; a parent point closing a block
	// of subtests is not a test of its own. tap says "7 passing, 2
	// pending" and "5 passing, 2 pending, 2 failing" for these runs.
	"node-tap/pass": {src: "nodetap", phase: tTest, format: FormatNodeTAP, counts: Counts{Passed: 7, Skipped: 2}},
	"node-tap/fail": {src: "nodetap", phase: tTest, format: FormatNodeTAP, counts: Counts{Passed: 5, Failed: 2, Skipped: 2},
		failures: []wantFailure{
			{"TEST_ASSERTION", "web/test/clamp.js", 14, "test/clamp.js > clamp > outside > above", "above: found 0, wanted 10 (===)"},
			{"TEST_ERROR", "web/src/range.js", 17, "test/nested/parse.js > parse from the environment > not a range: a..b", "TypeError: not a range: a..b"}}},
	// pnpm -r test (src/pnpm-workspace): each line carries its member's
	// prefix and the members' TAP interleaves; each member's stream nests
	// and counts on its own, its tests named with the member first.
	"pnpm-recursive/pass": {src: "pnpm-workspace", phase: tTest, format: FormatNodeTAP, counts: Counts{Passed: 5}},
	"pnpm-recursive/fail": {src: "pnpm-workspace", phase: tTest, format: FormatNodeTAP, counts: Counts{Passed: 4, Failed: 1},
		failures: []wantFailure{{"TEST_ASSERTION", "packages/b/test/b.test.js", 6, "packages/b > b joins", "'a,b' !== 'a-b'"}}},
	"node-test/pass": {src: "nodetest", phase: tTest, format: FormatNodeTAP, counts: Counts{Passed: 4, Skipped: 1}},
	"node-test/fail": {src: "nodetest", phase: tTest, format: FormatNodeTAP, counts: Counts{Passed: 2, Failed: 2, Skipped: 1},
		failures: []wantFailure{{"TEST_ASSERTION", "web/test/sum.test.js", 13, "sum > adds wrong", "4 !== 5"}, {"TEST_ERROR", "web/src/sum.js", 7, "average > of nothing", "average of empty list"}}},
	"node-test/fail-spec": {src: "nodetest", phase: tTest, format: FormatNodeSpec, counts: Counts{Passed: 2, Failed: 2, Skipped: 1},
		failures: []wantFailure{{"TEST_ASSERTION", "web/test/sum.test.js", 13, "adds wrong", "4 !== 5"}, {"TEST_ERROR", "web/src/sum.js", 7, "of nothing", "average of empty list"}}},
	// Nested subtests (src/nodetest-nested) are counted once each: a parent
	// test and a suite are not tests of their own. node's `# tests 8`
	// also counts the two parents.
	"node-test/nested-pass": {src: "nodetest-nested", phase: tTest, format: FormatNodeTAP, counts: Counts{Passed: 5, Skipped: 1}},
	"node-test/nested-fail": {src: "nodetest-nested", phase: tTest, format: FormatNodeTAP, counts: Counts{Passed: 4, Failed: 1, Skipped: 1},
		failures: []wantFailure{{"TEST_ASSERTION", "web/test/nested.test.js", 15, "sum table > signs > negative", "-3 !== 3"}}},
	"node-test/nested-fail-tap": {src: "nodetest-nested", phase: tTest, format: FormatNodeTAP, counts: Counts{Passed: 4, Failed: 1, Skipped: 1},
		failures: []wantFailure{{"TEST_ASSERTION", "web/test/nested.test.js", 15, "sum table > signs > negative", "-3 !== 3"}}},
	// uvu (src/uvu): its Total excludes skipped tests; failed = Total - Passed.
	"uvu/pass":         {src: "uvu", phase: tTest, format: FormatUvu, counts: Counts{Passed: 4, Skipped: 1}},
	"uvu/fail":         {src: "uvu", phase: tTest, format: FormatUvu, counts: Counts{Passed: 2, Failed: 2, Skipped: 1}, failures: uvuFail},
	"uvu/fail-nocolor": {src: "uvu", phase: tTest, format: FormatUvu, counts: Counts{Passed: 2, Failed: 2, Skipped: 1}, failures: uvuFail},
	// AVA (src/ava) 3 to 6 without a terminal (its verbose reporter): the
	// summary counts a known failure (test.failing) apart, and prints the
	// passed count only when nothing failed; todo and known failures are
	// counted skipped, as pytest's xfail is.
	"ava/v3-pass":  {src: "ava", phase: tTest, format: FormatAVA, counts: Counts{Passed: 9, Skipped: 3}},
	"ava/v4-pass":  {src: "ava", phase: tTest, format: FormatAVA, counts: Counts{Passed: 9, Skipped: 3}},
	"ava/v5-pass":  {src: "ava", phase: tTest, format: FormatAVA, counts: Counts{Passed: 9, Skipped: 3}},
	"ava/v6-pass":  {src: "ava", phase: tTest, format: FormatAVA, counts: Counts{Passed: 9, Skipped: 3}},
	"ava/v3-fail":  {src: "ava", phase: tTest, format: FormatAVA, counts: Counts{Passed: 3, Failed: 6, Skipped: 3}, failures: avaFailures("module.mjs", false)},
	"ava/v4-fail":  {src: "ava", phase: tTest, format: FormatAVA, counts: Counts{Passed: 3, Failed: 6, Skipped: 3}, failures: avaFailures("module", true)},
	"ava/v5-fail":  {src: "ava", phase: tTest, format: FormatAVA, counts: Counts{Passed: 3, Failed: 6, Skipped: 3}, failures: avaFailures("module", true)},
	"ava/v6-fail":  {src: "ava", phase: tTest, format: FormatAVA, counts: Counts{Passed: 3, Failed: 6, Skipped: 3}, failures: avaFailures("module", true)},
	"ava/v3-throw": {src: "ava", phase: tTest, format: FormatAVA, counts: Counts{Passed: 8, Skipped: 3, Errors: 1}, failures: avaThrow},
	"ava/v4-throw": {src: "ava", phase: tTest, format: FormatAVA, counts: Counts{Passed: 8, Skipped: 3, Errors: 1}, failures: avaThrow},
	"ava/v5-throw": {src: "ava", phase: tTest, format: FormatAVA, counts: Counts{Passed: 8, Skipped: 3, Errors: 1}, failures: avaThrow},
	"ava/v6-throw": {src: "ava", phase: tTest, format: FormatAVA, counts: Counts{Passed: 8, Skipped: 3, Errors: 1}, failures: avaThrow},
	"ava/v3-hang":  {src: "ava", phase: tTest, format: FormatAVA, counts: Counts{Passed: 8, Failed: 1, Skipped: 3, Unfinished: 1}, failures: avaHang},
	"ava/v6-hang":  {src: "ava", phase: tTest, format: FormatAVA, counts: Counts{Passed: 8, Failed: 1, Skipped: 3, Unfinished: 1}, failures: avaHang},
	"node/crash": {src: "nodecrash", phase: tSmoke, format: FormatUnparsed,
		failures: []wantFailure{{"CRASH", "web/src/sum.js", 7, "", "Error: average of empty list"}}},
	"tsc/fail": {src: "ts", phase: tType, format: FormatUnparsed, lint: 2, failures: []wantFailure{
		{"TYPECHECK", "web/src/price.ts", 15, "", "TS2322: Type 'string' is not assignable to type 'number'."},
		{"TYPECHECK", "web/src/price.ts", 16, "", "TS2339: Property 'cost' does not exist on type 'Item'."}}},
	"tsc/fail-pretty": {src: "ts", phase: tType, format: FormatUnparsed, lint: 2, failures: []wantFailure{
		{"TYPECHECK", "web/src/price.ts", 15, "", "TS2322"}, {"TYPECHECK", "web/src/price.ts", 16, "", "TS2339"}}},
	"eslint/fail":      {src: "ts", phase: tLint, format: FormatUnparsed, lint: 3, failures: eslintFail},
	"eslint/fail-unix": {src: "ts", phase: tLint, format: FormatUnparsed, lint: 3, failures: eslintFail},

	"cargo/pass":             {src: "rust", phase: tTest, format: "cargo", counts: Counts{Passed: 4, Skipped: 1}},
	"cargo/fail":             {src: "rust", phase: tTest, format: "cargo", counts: Counts{Passed: 1, Failed: 2, Skipped: 1}, failures: cargoFail},
	"cargo/fail-nobacktrace": {src: "rust", phase: tTest, format: "cargo", counts: Counts{Passed: 1, Failed: 2, Skipped: 1}, failures: cargoFail},
	// Debian bookworm's Rust (cargo 1.65, rustc 1.63): the old panic format, whose
	// assert_eq! message spans three lines before the location.
	"cargo/fail-rust1.65": {src: "rust", phase: tTest, format: "cargo", counts: Counts{Passed: 1, Failed: 2, Skipped: 1}, failures: []wantFailure{
		{"TEST_ASSERTION", "core/src/lib.rs", 27, "tests::adds_wrong", "assertion failed: `(left == right)`\n  left: `4`,\n right: `5`"},
		{"TEST_ERROR", "core/src/lib.rs", 8, "tests::indexes", "index out of bounds: the len is 3 but the index is 7"}}},
	"cargo/compile-error": {src: "rust-compile", phase: tTest, format: FormatUnparsed,
		failures: []wantFailure{{"COMPILE", "core/src/lib.rs", 4, "", "error[E0425]: cannot find value `c` in this scope"}}},
	"maven/pass": {src: "maven", phase: tTest, format: FormatSurefire, counts: Counts{Passed: 3, Skipped: 1}},
	"maven/fail": {src: "maven", phase: tTest, format: FormatSurefire, counts: Counts{Passed: 1, Failed: 1, Skipped: 1, Errors: 1}, failures: []wantFailure{
		{"TEST_ASSERTION", "svc/src/test/java/com/example/CalcTest.java", 18, "com.example.CalcTest.addsWrong", "expected:<5> but was:<4>"},
		{"TEST_ERROR", "svc/src/test/java/com/example/CalcTest.java", 24, "com.example.CalcTest.divides", "/ by zero"}}},
	"maven/compile-error": {src: "maven-compile", phase: tBuild, format: FormatUnparsed,
		failures: []wantFailure{{"COMPILE", "svc/src/main/java/com/example/Calc.java", 6, "", "cannot find symbol"}}},
	// ctest (src/ctest, CMake 3.25): "50% tests passed" counts the skipped
	// test as passed; the counts here keep it skipped.
	"ctest/pass":         {src: "ctest", phase: tTest, format: FormatCTest, counts: Counts{Passed: 5, Skipped: 1}},
	"ctest/fail":         {src: "ctest", phase: tTest, format: FormatCTest, counts: Counts{Passed: 2, Failed: 3, Skipped: 1}, failures: ctestFail},
	"ctest/fail-verbose": {src: "ctest", phase: tTest, format: FormatCTest, counts: Counts{Passed: 2, Failed: 3, Skipped: 1}, failures: ctestFail},
	// Unity (src/unity): FILE:LINE:TEST:STATUS lines, a failure's line is
	// the failed assertion's.
	"unity/pass": {src: "unity", phase: tTest, format: FormatUnity, counts: Counts{Passed: 2, Skipped: 1}},
	"unity/fail": {src: "unity", phase: tTest, format: FormatUnity, counts: Counts{Passed: 1, Failed: 1, Skipped: 1},
		failures: []wantFailure{{"TEST_ASSERTION", "c/test_calc.c", 17, "c/test_calc.c::test_mul", "Expected 13 Was 12"}}},
	// Plain C test programs (src/cprog): a harness naming each failed test
	// and its line, and a driver script diffing one program's output per
	// test, whose failed assert names the line.
	"cprog/harness-pass": {src: "cprog", phase: tTest, format: FormatCProgram, counts: Counts{Passed: 3}},
	"cprog/harness-fail": {src: "cprog", phase: tTest, format: FormatCProgram, counts: Counts{Passed: 1, Failed: 2}, failures: []wantFailure{
		{"TEST_ASSERTION", "c/harness_test.c", 24, "c/harness_test.c::adds small numbers", "FAILED: adds small numbers"},
		{"TEST_ASSERTION", "c/harness_test.c", 35, "c/harness_test.c::measures lengths", "FAILED: measures lengths"}}},
	"cprog/driver-pass": {src: "cprog", phase: tTest, format: FormatCProgram, counts: Counts{Passed: 3}},
	"cprog/driver-fail": {src: "cprog", phase: tTest, format: FormatCProgram, counts: Counts{Passed: 1, Failed: 2}, failures: []wantFailure{
		{"TEST_ASSERTION", "c/tests/test2.c", 0, "c/tests/test2.c::test2", "output differs"},
		{"TEST_ASSERTION", "c/tests/test3.c", 7, "c/tests/test3.c::test3", "Assertion `count == 100' failed. in main"}}},
	"generic/fail": {src: "generic", phase: tTest, format: FormatGeneric, counts: Counts{Passed: 2, Failed: 1},
		failures: []wantFailure{{"TEST_ERROR", "", 0, "", "FAIL sum: got 4, want 5"}}},
	"generic/garbage": {src: "generic", phase: tTest, format: FormatUnparsed},
}

// pySyntaxFailures is the two syntax errors of src/py-syntax, reported by the
// tests whose ids test follows (a format of the module's name; "" for
// none).
func pySyntaxFailures(test string) []wantFailure {
	id := func(mod string) string {
		if test == "" {
			return ""
		}
		return fmt.Sprintf(test, mod)
	}
	return []wantFailure{
		{"COMPILE", "api/app/calc.py", 5, id("calc"), "SyntaxError: '(' was never closed"},
		{"COMPILE", "api/app/shapes.py", 3, id("shapes"), "IndentationError: unexpected indent"},
	}
}

var (
	pyFail = []wantFailure{
		{"TEST_ERROR", "api/app/calc.py", 9, "tests/test_calc.py::test_mean", "ZeroDivisionError: division by zero"},
		{"TEST_ASSERTION", "api/tests/test_calc.py", 36, "tests/test_calc.py::test_add_wrong", "assert 4 == 5"},
	}
	unittestFail = []wantFailure{
		{"TEST_ASSERTION", "api/tests/test_calc.py", 19, "tests.test_calc.CalcTest.test_add_wrong", "AssertionError: 4 != 5"},
		{"TEST_ERROR", "api/app/calc.py", 9, "tests.test_calc.CalcTest.test_mean", "ZeroDivisionError: division by zero"},
		{"TEST_ASSERTION", "api/tests/test_calc.py", 33, "tests.test_calc.CalcTest.test_signs", "AssertionError: -2 not greater than 0"},
	}
	uvuFail = []wantFailure{
		{"TEST_ERROR", "web/src/sum.js", 7, "average > of nothing", "average of empty list"},
		{"TEST_ASSERTION", "web/tests/sum.js", 12, "adds wrong", "Expected values to be strictly equal"},
	}
	avaThrow  = []wantFailure{{"CRASH", "web/test/nested/strings.js", 16, "Uncaught exception in test/nested/strings.js", "Error: thrown later"}}
	avaHang   = []wantFailure{{"TIMEOUT", "web/test/nested/strings.js", 0, "nested › strings › late", "Timed out while running tests"}}
	ctestFail = []wantFailure{
		{"TEST_ASSERTION", "c/calc_test.c", 20, "add", "add(2, 2) = 4, want 5"},
		{"CRASH", "", 0, "crash", "Exception: SegFault"},
		{"TIMEOUT", "", 0, "slow", "timed out"},
	}
	mochaFail = []wantFailure{
		{"TEST_ASSERTION", "web/test/sum.test.js", 12, "web/test/sum.test.js > sum adds wrong", "Expected values to be strictly equal"},
		{"TEST_ERROR", "web/src/sum.js", 7, "web/test/sum.test.js > average of nothing", "Error: average of empty list"},
	}
	eslintFail = []wantFailure{
		{"LINT", "web/src/app.js", 1, "", "'fs' is defined but never used"},
		{"LINT", "web/src/app.js", 4, "", "'unused' is assigned a value but never used"},
		{"LINT", "web/src/app.js", 6, "", "'undefinedThing' is not defined"},
	}
	cargoFail = []wantFailure{
		{"TEST_ASSERTION", "core/src/lib.rs", 27, "tests::adds_wrong", "assertion `left == right` failed\n  left: 4\n right: 5"},
		{"TEST_ERROR", "core/src/lib.rs", 8, "tests::indexes", "index out of bounds: the len is 3 but the index is 7"},
	}
)

func jsFail(assertID string, assertLine int, errID string) []wantFailure {
	return []wantFailure{
		{"TEST_ASSERTION", "web/src/sum.test.js", assertLine, assertID, "5"},
		{"TEST_ERROR", "web/src/sum.js", 7, errID, "average of empty list"},
	}
}

// manifestRow is one line of testdata/golden/manifest.tsv.
type manifestRow struct {
	exit    int
	workdir string
	command string
}

func readManifest(t testing.TB) map[string]manifestRow {
	t.Helper()
	f, err := os.Open("testdata/golden/manifest.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows := map[string]manifestRow{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		p := strings.SplitN(sc.Text(), "\t", 5)
		if len(p) != 5 {
			t.Fatalf("bad manifest line %q", sc.Text())
		}
		code, err := strconv.Atoi(p[2])
		if err != nil {
			t.Fatal(err)
		}
		rows[p[0]+"/"+p[1]] = manifestRow{exit: code, workdir: p[3], command: p[4]}
	}
	return rows
}

// artifactName is where each tool wrote its machine-readable report.
var artifactName = map[string]string{
	"pytest": "junit.xml", "maven": "target/surefire-reports/TEST-com.example.CalcTest.xml",
	"jest": "jest.json", "vitest": "vitest.json", "mocha": "mocha.json",
}

// runGolden parses one captured case the way the loop would.
func runGolden(t testing.TB, name string, c goldenCase, row manifestRow) *StepReport {
	t.Helper()
	tool, cs, _ := strings.Cut(name, "/")
	logf, err := os.Open(filepath.Join("testdata/golden", tool, cs+".log"))
	if err != nil {
		t.Fatal(err)
	}
	defer logf.Close()
	arts := map[string]io.Reader{}
	for _, ext := range []string{".xml", ".json"} {
		if a, err := os.Open(filepath.Join("testdata/golden", tool, cs+ext)); err == nil {
			defer a.Close()
			arts[filepath.Join(row.workdir, artifactName[tool])] = a
		}
	}
	status := glv1.StepStatus_STEP_STATUS_OK
	if row.exit != 0 {
		status = glv1.StepStatus_STEP_STATUS_FAILED
	}
	step := &glv1.Step{Name: tool + "-" + cs, Phase: c.phase, Command: row.command, Workdir: row.workdir}
	res := &glv1.StepResult{Name: step.Name, Status: status, ExitCode: int32(row.exit), LogDigest: &glv1.Digest{Hash: "abc", SizeBytes: 1}}
	rep, err := Step(context.Background(), Input{Step: step, Result: res, Log: logf, Artifacts: arts,
		Files: os.DirFS(filepath.Join("testdata/golden/src", c.src))})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestGolden(t *testing.T) {
	rows := readManifest(t)
	for name := range rows {
		if _, ok := goldenCases[name]; !ok {
			t.Errorf("captured case %s has no expectations", name)
		}
	}
	for name, c := range goldenCases {
		t.Run(name, func(t *testing.T) {
			row, ok := rows[name]
			if !ok {
				t.Fatalf("case %s is not in manifest.tsv", name)
			}
			rep := runGolden(t, name, c, row)
			if rep.Format != c.format {
				t.Errorf("format = %q, want %q", rep.Format, c.format)
			}
			if rep.Counts != c.counts {
				t.Errorf("counts = %+v, want %+v", rep.Counts, c.counts)
			}
			if rep.LintIssues != c.lint {
				t.Errorf("lint issues = %d, want %d", rep.LintIssues, c.lint)
			}
			checkFailures(t, rep, c.failures)
			checkProto(t, rep)
		})
	}
}

func checkFailures(t *testing.T, rep *StepReport, want []wantFailure) {
	t.Helper()
	if len(rep.Failures) != len(want) {
		for _, f := range rep.Failures {
			t.Logf("got %s %s:%d test=%q msg=%q", f.Kind, f.File, f.Line, f.Test, f.Message)
		}
		t.Fatalf("%d failures, want %d", len(rep.Failures), len(want))
	}
	for i, w := range want {
		f := rep.Failures[i]
		if got := strings.TrimPrefix(f.Kind.String(), "FAILURE_KIND_"); got != w.kind {
			t.Errorf("failure %d kind = %s, want %s", i, got, w.kind)
		}
		if f.File != w.file || f.Line != w.line {
			t.Errorf("failure %d at %s:%d, want %s:%d", i, f.File, f.Line, w.file, w.line)
		}
		if f.Test != w.test {
			t.Errorf("failure %d test = %q, want %q", i, f.Test, w.test)
		}
		if !strings.Contains(f.Message, w.msg) {
			t.Errorf("failure %d message %q does not contain %q", i, f.Message, w.msg)
		}
		if f.Offset < -1 {
			t.Errorf("failure %d offset %d", i, f.Offset)
		}
	}
}

// checkProto converts the report and marshals it: the wire form must be valid.
func checkProto(t *testing.T, rep *StepReport) {
	t.Helper()
	tp := rep.TestsParsedProto()
	if _, err := proto.Marshal(tp); err != nil {
		t.Fatalf("marshal TestsParsed: %v", err)
	}
	for i, f := range tp.GetFailures() {
		if f.GetEvidence().GetStep() != rep.Step || f.GetEvidence().GetCommand() == "" {
			t.Errorf("failure %d evidence %+v not tied to the step", i, f.GetEvidence())
		}
	}
	if int(tp.GetCounts().GetTotal()) != rep.Counts.Total() {
		t.Errorf("proto total %d != %d", tp.GetCounts().GetTotal(), rep.Counts.Total())
	}
}

// avaFailures is src/ava's CASE=fail failures in the order AVA printed them:
// the ES module's test (titled by its file name, with the extension up to
// AVA 3) first from AVA 4 on, when its worker finished first. A thrown
// error is placed where it was thrown (src/calc.js), as the stack says; an
// assertion where AVA says it failed.
func avaFailures(module string, moduleFirst bool) []wantFailure {
	mod := wantFailure{"TEST_ASSERTION", "web/test/module.mjs", 5, module + " › adds in a module", "Difference"}
	calc := []wantFailure{
		{"TEST_ASSERTION", "web/test/calc.js", 6, "calc › adds", "Difference"},
		{"TEST_ASSERTION", "web/test/calc.js", 11, "calc › adds with a log", "one and two"},
		{"TEST_ASSERTION", "web/test/calc.js", 15, "calc › averages", "Difference"},
		{"TEST_ERROR", "web/src/calc.js", 9, "calc › loads", "Error thrown in test"},
	}
	deep := wantFailure{"TEST_ASSERTION", "web/test/nested/strings.js", 10, "nested › strings › deep equal", "Difference"}
	if moduleFirst {
		return append(append([]wantFailure{mod}, calc...), deep)
	}
	return append(append(calc, mod), deep)
}
