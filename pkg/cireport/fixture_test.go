package cireport

import (
	"time"

	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// t0 is when the fixture runs start.
var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// at is t0 plus ms milliseconds.
func at(ms int) *timestamppb.Timestamp {
	return timestamppb.New(t0.Add(time.Duration(ms) * time.Millisecond))
}

// ms is a duration of n milliseconds.
func ms(n int) *durationpb.Duration { return durationpb.New(time.Duration(n) * time.Millisecond) }

// step builds a step result that started at startMS and took durMS.
func step(name string, phase glv1.Phase, cmd string, status glv1.StepStatus, exit int32, startMS, durMS int) *glv1.StepResult {
	return &glv1.StepResult{Name: name, Phase: phase, Command: cmd, Workdir: ".", Status: status, ExitCode: exit,
		StartedAt: at(startMS), FinishedAt: at(startMS + durMS), Duration: ms(durMS), Tier: glv1.Tier_TIER_0}
}

// evidence ties a failure to its step.
func evidence(s *glv1.StepResult, offset int64) *glv1.Evidence {
	return &glv1.Evidence{Step: s.GetName(), Command: s.GetCommand(), Workdir: ".", ExitCode: s.GetExitCode(), LogOffset: offset}
}

// manifest is the fixture runs' manifest.
func manifest(id string, endMS int) *glv1.Manifest {
	return &glv1.Manifest{RunId: id, TimestampStart: at(0), TimestampEnd: at(endMS), CommitSha: "0123456789abcdef0123456789abcdef01234567"}
}

// failRun is a FAIL of a Go service with a Python tool beside it: Go and
// pytest tests fail with file:line, a flaky Go test passed on re-run, an
// advisory go vet found an issue, and an advisory ruff was not in the
// image (SKIPPED).
func failRun() *glv1.Run {
	const id = "r_20260102T030405_failfix"
	build := step("go-build", glv1.Phase_PHASE_BUILD, "go build ./...", glv1.StepStatus_STEP_STATUS_OK, 0, 100, 2100)
	build.Level = glv1.Level_LEVEL_L3
	vet := step("go-vet", glv1.Phase_PHASE_LINT, "go vet ./...", glv1.StepStatus_STEP_STATUS_FAILED, 1, 2200, 800)
	vet.Optional, vet.Level, vet.LintIssues = true, glv1.Level_LEVEL_L2, 1
	vet.Tail = "# example.com/shop/cart\ncart/cart.go:41:2: fmt.Sprintf format %d has arg name of wrong type string\n"
	ruff := step("ruff", glv1.Phase_PHASE_LINT, "ruff check .", glv1.StepStatus_STEP_STATUS_SKIPPED, 127, 3000, 5)
	ruff.Optional, ruff.Level = true, glv1.Level_LEVEL_L2
	ruff.Workdir = "tools"
	ruff.Reason = "ruff is not in the image (exit 127: ruff: not found); advisory, skipped"
	goTest := step("go-test", glv1.Phase_PHASE_TEST, "{ go test -json ./...; } | tee /tmp/greenlight/reports/go-test.jsonl", glv1.StepStatus_STEP_STATUS_FAILED, 1, 3100, 4200)
	goTest.DisplayCommand, goTest.Level = "go test -json ./...", glv1.Level_LEVEL_L4
	goTest.Counts = &glv1.TestCounts{Passed: 3, Failed: 2, Total: 5, Flaky: 1, Format: "go-json"}
	goTest.Tail = "--- FAIL: TestTotal (0.00s)\n    cart_test.go:27: Total() = 90, want 100 (discount 10%, coupon: none)\n--- FAIL: TestParse/empty (0.00s)\n    parse_test.go:58: unexpected error: open testdata/empty.json: no such file or directory\nFAIL\n"
	pytest := step("pytest", glv1.Phase_PHASE_TEST, "python3 -m pytest -rA --junitxml=/tmp/greenlight/reports/pytest.xml", glv1.StepStatus_STEP_STATUS_FAILED, 1, 7400, 1300)
	pytest.Workdir, pytest.Level = "tools", glv1.Level_LEVEL_L4
	pytest.Counts = &glv1.TestCounts{Passed: 1, Failed: 1, Skipped: 1, Total: 3, Format: "pytest-junit"}
	tests := []*glv1.TestCase{
		{Id: "example.com/shop/cart.TestTotal", Suite: "example.com/shop/cart", Name: "TestTotal", Status: glv1.TestStatus_TEST_STATUS_FAILED,
			Duration: ms(3), Message: "cart_test.go:27: Total() = 90, want 100 (discount 10%, coupon: none)", File: "cart/cart_test.go", Line: 27, Step: "go-test"},
		{Id: "example.com/shop/cart.TestParse/empty", Suite: "example.com/shop/cart", Name: "TestParse/empty", Status: glv1.TestStatus_TEST_STATUS_FAILED,
			Duration: ms(1), Message: "parse_test.go:58: unexpected error: open testdata/empty.json: no such file or directory", File: "cart/parse_test.go", Line: 58, Step: "go-test"},
		{Id: "example.com/shop/cart.TestAdd", Suite: "example.com/shop/cart", Name: "TestAdd", Status: glv1.TestStatus_TEST_STATUS_PASSED, Duration: ms(2), Step: "go-test"},
		{Id: "example.com/shop/cart.TestParse", Suite: "example.com/shop/cart", Name: "TestParse", Status: glv1.TestStatus_TEST_STATUS_PASSED, Duration: ms(4), Step: "go-test"},
		{Id: "example.com/shop/api.TestServe", Suite: "example.com/shop/api", Name: "TestServe", Status: glv1.TestStatus_TEST_STATUS_FAILED, Flaky: true,
			Duration: ms(1200), Message: "serve_test.go:33: dial tcp 127.0.0.1:8080: connect: connection refused", File: "api/serve_test.go", Line: 33, Step: "go-test"},
		{Id: "tests/test_prices.py::test_rounding", Suite: "tests.test_prices", Name: "test_rounding", Status: glv1.TestStatus_TEST_STATUS_FAILED, Duration: ms(12),
			Message: "AssertionError: assert 10.01 == 10.0\n +  where 10.01 = round_price(10.005)", File: "tools/tests/test_prices.py", Line: 14, Step: "pytest"},
		{Id: "tests/test_prices.py::test_parse", Suite: "tests.test_prices", Name: "test_parse", Status: glv1.TestStatus_TEST_STATUS_PASSED, Duration: ms(3), Step: "pytest"},
		{Id: "tests/test_prices.py::test_remote", Suite: "tests.test_prices", Name: "test_remote", Status: glv1.TestStatus_TEST_STATUS_SKIPPED,
			Message: "needs network", File: "tools/tests/test_prices.py", Line: 30, Step: "pytest"},
	}
	failures := []*glv1.Failure{
		{File: "cart/cart_test.go", Line: 27, Kind: glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION, Test: "example.com/shop/cart.TestTotal",
			Message: "cart_test.go:27: Total() = 90, want 100 (discount 10%, coupon: none)", Evidence: evidence(goTest, 120),
			Frames: []*glv1.Frame{{File: "cart/cart_test.go", Line: 27, Project: true}}},
		{File: "cart/parse_test.go", Line: 58, Kind: glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION, Test: "example.com/shop/cart.TestParse/empty",
			Message: "parse_test.go:58: unexpected error: open testdata/empty.json: no such file or directory", Evidence: evidence(goTest, 380),
			Frames: []*glv1.Frame{{File: "cart/parse_test.go", Line: 58, Project: true}, {File: "cart/parse.go", Line: 19, Function: "cart.Parse", Project: true}}},
		{File: "tools/tests/test_prices.py", Line: 14, Kind: glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION, Test: "tests/test_prices.py::test_rounding",
			Message: "AssertionError: assert 10.01 == 10.0\n +  where 10.01 = round_price(10.005)", Evidence: evidence(pytest, 900),
			Frames: []*glv1.Frame{{File: "tools/tests/test_prices.py", Line: 14, Function: "test_rounding", Project: true},
				{File: "tools/prices.py", Line: 8, Function: "round_price", Project: true},
				{File: "/usr/lib/python3.11/decimal.py", Line: 120, Function: "quantize"}}},
		{File: "api/serve_test.go", Line: 33, Kind: glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION, Test: "example.com/shop/api.TestServe", Flaky: true,
			Message: "serve_test.go:33: dial tcp 127.0.0.1:8080: connect: connection refused", Evidence: evidence(goTest, 700)},
		{File: "cart/cart.go", Line: 41, Column: 2, Kind: glv1.FailureKind_FAILURE_KIND_LINT,
			Message: "fmt.Sprintf format %d has arg name of wrong type string", Evidence: evidence(vet, 24)},
	}
	return &glv1.Run{
		Id: id, Kind: glv1.RunKind_RUN_KIND_VERIFY, Status: glv1.RunStatus_RUN_STATUS_FAILED, CreatedAt: at(0), StartedAt: at(0), FinishedAt: at(9000),
		Result: &glv1.Result{
			Status: glv1.Verdict_VERDICT_FAIL, RunId: id, Summary: "FAIL: go-test (failed, exit 1); pytest (failed, exit 1)",
			Steps: []*glv1.StepResult{build, vet, ruff, goTest, pytest}, Tests: tests, Failures: failures,
			Counts: &glv1.TestCounts{Passed: 4, Failed: 3, Skipped: 1, Total: 8, Flaky: 1, Format: "go-json+pytest-junit"},
			Score:  &glv1.Score{Total: 5.9, Build: 3, Tests: 2, Lint: 0, NoCritical: 1, Level: glv1.Level_LEVEL_L3},
			Level:  glv1.Level_LEVEL_L3, Manifest: manifest(id, 9000),
		},
	}
}

// passRun is a PASS of a small Python project.
func passRun() *glv1.Run {
	const id = "r_20260102T030405_passfix"
	build := step("compileall", glv1.Phase_PHASE_BUILD, "python3 -m compileall -q .", glv1.StepStatus_STEP_STATUS_OK, 0, 50, 44)
	pytest := step("pytest", glv1.Phase_PHASE_TEST, "python3 -m pytest -rA", glv1.StepStatus_STEP_STATUS_OK, 0, 100, 387)
	pytest.Counts = &glv1.TestCounts{Passed: 3, Total: 3, Format: "pytest-junit"}
	var tests []*glv1.TestCase
	for i, n := range []string{"test_fahrenheit", "test_round_trip", "test_feels"} {
		tests = append(tests, &glv1.TestCase{Id: "tests/test_temperature.py::" + n, Suite: "tests.test_temperature", Name: n,
			Status: glv1.TestStatus_TEST_STATUS_PASSED, Duration: ms(i + 1), Step: "pytest"})
	}
	return &glv1.Run{
		Id: id, Kind: glv1.RunKind_RUN_KIND_VERIFY, Status: glv1.RunStatus_RUN_STATUS_PASSED,
		Result: &glv1.Result{
			Status: glv1.Verdict_VERDICT_PASS, RunId: id, Summary: "PASS: every required step passed (2 steps, 3 tests)",
			Steps: []*glv1.StepResult{build, pytest}, Tests: tests,
			Counts: &glv1.TestCounts{Passed: 3, Total: 3, Format: "pytest-junit"},
			Score:  &glv1.Score{Total: 9, Build: 3, Tests: 4, Lint: 1, NoCritical: 1, Level: glv1.Level_LEVEL_L4},
			Level:  glv1.Level_LEVEL_L4, Manifest: manifest(id, 600),
		},
	}
}

// errorRun is an ERROR before any test ran: the install step could not
// reach the package index.
func errorRun() *glv1.Run {
	const id = "r_20260102T030405_errfix"
	install := step("npm-ci", glv1.Phase_PHASE_INSTALL, "npm ci", glv1.StepStatus_STEP_STATUS_ERROR, 1, 0, 30000)
	install.Reason = "the package registry could not be reached (getaddrinfo EAI_AGAIN registry.npmjs.org): set --ca-bundle or the egress settings"
	install.Tail = "npm ERR! code EAI_AGAIN\nnpm ERR! request to https://registry.npmjs.org/left-pad failed, reason: getaddrinfo EAI_AGAIN\n"
	test := step("npm-test", glv1.Phase_PHASE_TEST, "npm test", glv1.StepStatus_STEP_STATUS_SKIPPED, 0, 30000, 0)
	test.Reason = "not run: npm-ci did not succeed"
	return &glv1.Run{
		Id: id, Kind: glv1.RunKind_RUN_KIND_VERIFY, Status: glv1.RunStatus_RUN_STATUS_ERROR,
		Error: "install could not reach the package registry: getaddrinfo EAI_AGAIN registry.npmjs.org",
		Result: &glv1.Result{
			Status: glv1.Verdict_VERDICT_ERROR, RunId: id, Summary: "ERROR: npm-ci could not be carried out (environment)",
			Steps: []*glv1.StepResult{install, test}, Counts: &glv1.TestCounts{Format: "unparsed"},
			Level: glv1.Level_LEVEL_UNSPECIFIED, Manifest: manifest(id, 30010),
		},
	}
}

// fixtures are the runs the golden tests render.
func fixtures() map[string]*glv1.Run {
	return map[string]*glv1.Run{"fail": failRun(), "pass": passRun(), "error": errorRun()}
}
