package main

import (
	"encoding/json"
	"maps"
	"strings"
	"testing"
)

// coverageCSources is a small C/C++ library and its test: the test runs
// add, sub's main path, the header's inline twice and sum (C++ with
// libstdc++'s headers, which are not counted); mul, sub's a < b branch and
// the never-linked unused.c do not run; tests/ is test code, not counted.
var coverageCSources = map[string]string{
	"src/calc.h": "#ifndef CALC_H\n#define CALC_H\nint add(int a, int b);\nint sub(int a, int b);\nint mul(int a, int b);\nint sum(int n);\n" +
		"static inline int twice(int a) { return add(a, a); }\n#endif\n",
	"src/calc.c": "#include \"calc.h\"\n\nint add(int a, int b) { return a + b; }\n\nint sub(int a, int b) {\n\tif (a < b) {\n\t\treturn -(b - a);\n\t}\n" +
		"\treturn a - b;\n}\n\nint mul(int a, int b) { return a * b; }\n",
	"src/sum.cc": "#include <numeric>\n#include <vector>\n\nextern \"C\" int sum(int n) {\n\tstd::vector<int> v(n);\n\tstd::iota(v.begin(), v.end(), 1);\n" +
		"\treturn std::accumulate(v.begin(), v.end(), 0);\n}\n",
	"src/unused.c": "int unused(int x) {\n\tif (x > 0) {\n\t\treturn x;\n\t}\n\treturn -x;\n}\n",
	"tests/test_calc.c": "#include <stdio.h>\n#include \"../src/calc.h\"\n\nint main(void) {\n\tif (add(1, 2) != WANT) {\n\t\tputs(\"add failed\");\n\t\treturn 1;\n\t}\n" +
		"\tif (sub(5, 3) != 2 || twice(2) != 4 || sum(3) != 6) {\n\t\tputs(\"sub, twice or sum failed\");\n\t\treturn 1;\n\t}\n\tputs(\"ok\");\n\treturn 0;\n}\n",
}

// withFiles returns base plus extra.
func withFiles(base map[string]string, extra map[string]string) map[string]string {
	out := maps.Clone(base)
	maps.Copy(out, extra)
	return out
}

// coverageMake builds with a Makefile whose `CFLAGS ?=` defaults the
// coverage build must keep (src/flags.c does not compile without them;
// discovery plans `make` and `make test`); the test binary is compiled in
// the test step. unused.o is built, never run.
var coverageMake = withFiles(coverageCSources, map[string]string{
	"Makefile": "CFLAGS ?= -O0 -Wall -Werror -DCALC_CFLAGS_KEPT\nCXXFLAGS ?= -O0 -Wall -Werror\n\nall: libcalc.a src/unused.o\n\n" +
		"libcalc.a: src/calc.o src/sum.o src/flags.o\n\t$(AR) rcs $@ $^\n\n" +
		"tests/test_calc: tests/test_calc.o libcalc.a\n\t$(CXX) -o $@ tests/test_calc.o libcalc.a\n\n" +
		"test: tests/test_calc\n\t./tests/test_calc\n\n.PHONY: all test\n",
	"src/flags.c": "#ifndef CALC_CFLAGS_KEPT\n#error CFLAGS defaults of the Makefile were replaced\n#endif\nint calc_flags_kept;\n",
})

// coverageCMake builds the library and the test with CMake (configure and
// build steps, then ctest); unused.c is not part of it.
var coverageCMake = withFiles(coverageCSources, map[string]string{
	"CMakeLists.txt": "cmake_minimum_required(VERSION 3.13)\nproject(calc C CXX)\nenable_testing()\n" +
		"add_library(calc src/calc.c src/sum.cc)\nadd_executable(test_calc tests/test_calc.c)\ntarget_link_libraries(test_calc calc)\n" +
		"add_test(NAME calc COMMAND test_calc)\n",
})

// TestCCoverageKeepsTheVerdict runs each C project, passing and failing,
// with coverage measured (the compiler and driver wrappers) and with
// coverage.measure: false (the build exactly as planned, no wrappers):
// the status, the exit code and every step's status and exit code are the
// same; only the measured run has coverage. (The parsed tests are not
// compared: the executor merges ctest's stdout and stderr as they arrive,
// and a line split by "Errors while running CTest" was once seen to leave
// a run without its parsed failure, with or without coverage.)
func TestCCoverageKeepsTheVerdict(t *testing.T) {
	requireDocker(t)
	type step struct {
		Name     string `json:"name"`
		Status   string `json:"status"`
		ExitCode int    `json:"exit_code"`
	}
	type doc struct {
		Status   string          `json:"status"`
		Steps    []step          `json:"steps"`
		Coverage json.RawMessage `json:"coverage"`
	}
	verify := func(t *testing.T, files map[string]string) (doc, int) {
		t.Helper()
		res := newUser(t).run(nil, "verify", "-q", "--json", writeTree(t, files))
		var d doc
		if err := json.Unmarshal([]byte(res.stdout), &d); err != nil {
			t.Fatalf("--json: %v\n%s\n%s", err, res.stdout, res.stderr)
		}
		return d, res.code
	}
	projects := []struct {
		name  string
		files map[string]string
	}{{"make", coverageMake}, {"cmake", coverageCMake}}
	for _, p := range projects {
		for _, want := range []struct{ value, status string }{{"3", "PASS"}, {"4", "FAIL"}} {
			t.Run(p.name+" "+want.status, func(t *testing.T) {
				files := map[string]string{}
				for k, v := range p.files {
					files[k] = strings.ReplaceAll(v, "WANT", want.value)
				}
				on, onExit := verify(t, files)
				files["greenlight.yaml"] = "coverage:\n  measure: false\n"
				off, offExit := verify(t, files)
				if on.Status != want.status || off.Status != want.status || onExit != offExit {
					t.Fatalf("measured %s (exit %d), unmeasured %s (exit %d); want %s both", on.Status, onExit, off.Status, offExit, want.status)
				}
				if len(on.Coverage) == 0 || string(on.Coverage) == "null" {
					t.Errorf("the measured run has no coverage")
				}
				if len(off.Coverage) != 0 && string(off.Coverage) != "null" {
					t.Errorf("coverage.measure: false still measured: %s", off.Coverage)
				}
				onSteps, offSteps := map[string]step{}, map[string]step{}
				for _, s := range on.Steps {
					onSteps[s.Name] = s
				}
				for _, s := range off.Steps {
					offSteps[s.Name] = s
				}
				if len(onSteps) != len(offSteps) {
					t.Fatalf("steps %v, unmeasured %v", on.Steps, off.Steps)
				}
				for name, s := range onSteps {
					o := offSteps[name]
					if o.Status != s.Status || o.ExitCode != s.ExitCode {
						t.Errorf("step %s: %s (exit %d), unmeasured %s (exit %d)", name, s.Status, s.ExitCode, o.Status, o.ExitCode)
					}
				}
			})
		}
	}
}
