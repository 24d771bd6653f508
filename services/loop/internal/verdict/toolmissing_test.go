package verdict

import (
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/pylaunch"
)

// TestMissingToolNamesOnlyTheStepsOwnProgram checks what rule
// tool-unavailable reads: the step's own program (or python module, or a
// make recipe's program) the shell or interpreter could not find.
func TestMissingToolNamesOnlyTheStepsOwnProgram(t *testing.T) {
	failed := glv1.StepStatus_STEP_STATUS_FAILED
	tests := []struct {
		name, command, tail string
		exit                int32
		status              glv1.StepStatus
		want                string
	}{
		{"dash", "ruff check .", "/bin/sh: 1: ruff: not found\n", 127, failed, "ruff"},
		{"bash as sh", "golangci-lint run", "sh: line 1: golangci-lint: command not found\n", 127, failed, "golangci-lint"},
		{"after env assignments", "CI=1 GOFLAGS=-mod=mod golangci-lint run", "/bin/sh: 1: golangci-lint: not found\n", 127, failed, "golangci-lint"},
		{"venv python module", ".venv/bin/python -m mypy .", ".venv/bin/python: No module named mypy\n", 1, failed, "mypy"},
		{"versioned python module", "python3.12 -m flake8", "/usr/bin/python3.12: No module named flake8\n", 1, failed, "flake8"},
		{"-P before -m", ".venv/bin/python -P -m pip install .", ".venv/bin/python: No module named pip\n", 1, failed, "pip"},
		// greenlight's launcher says what `python -m` says.
		{"launcher", pylaunch.Tool(".venv/bin/python", "mypy") + " .", "/workspace/.venv/bin/python: No module named mypy\n", 1, failed, "mypy"},
		{"launcher after env", "CI=1 " + pylaunch.Tool("python3", "ruff") + " check .", "/usr/bin/python3: No module named ruff\n", 1, failed, "ruff"},
		{"launcher, another module", pylaunch.Tool("python3", "pytest") + " -rA", "/usr/bin/python3: No module named pytest_cov\n", 1, failed, ""},
		{"launcher later in the command", "true && " + pylaunch.Tool("python3", "mypy"), "/usr/bin/python3: No module named mypy\n", 1, failed, ""},
		// An image built without a reachable module proxy has no gosec.
		{"absolute path", "/usr/local/bin/gosec -quiet -fmt=golint ./...", "/bin/sh: 1: /usr/local/bin/gosec: not found\n", 127, failed, "/usr/local/bin/gosec"},
		{"another program missing", "ruff check . && flake8", "/bin/sh: 1: flake8: not found\n", 127, failed, ""},
		{"inside a script", "./lint.sh", "./lint.sh: 4: ruff: not found\n", 127, failed, ""},
		{"a test importing a missing module", "python3 -m pytest", "E   ModuleNotFoundError: No module named 'requests'\n", 1, failed, ""},
		{"a module of the module", "python3 -m pytest", "/usr/bin/python3: No module named pytest_cov\n", 1, failed, ""},
		{"exit 127 without the message", "ruff check .", "error: something\n", 127, failed, ""},
		{"message with another exit", "ruff check .", "/bin/sh: 1: ruff: not found\n", 2, failed, ""},
		// A make target whose recipe's program is missing (jsmn's lint
		// target on clang-tidy): make's own message or the shell's, then
		// make's "Error 127" (make exits 2).
		{"make runs the recipe", "make lint", "clang-tidy jsmn.h --checks='*'\nmake: clang-tidy: No such file or directory\nmake: *** [Makefile:28: lint] Error 127\n", 2, failed, "clang-tidy"},
		{"make through the shell", "make build", "cmake -S . -B b && cmake --build b\n/bin/sh: 1: cmake: not found\nmake: *** [Makefile:3: build] Error 127\n", 2, failed, "cmake"},
		{"make in a subdirectory", "make -C tests", "make[1]: perl: No such file or directory\nmake[1]: *** [Makefile:9: run] Error 127\n", 2, failed, "perl"},
		{"make, a test failed", "make test", "./test_calc\ntest_calc.c:12:test_add:FAIL\nmake: *** [Makefile:9: test] Error 1\n", 2, failed, ""},
		{"make, a missing file but another error", "make test", "make: foo.sh: No such file or directory\nmake: *** [Makefile:9: test] Error 1\n", 2, failed, ""},
		{"not failed", "ruff check .", "/bin/sh: 1: ruff: not found\n", 127, glv1.StepStatus_STEP_STATUS_TIMED_OUT, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := missingTool(&glv1.Step{Command: tt.command}, &glv1.StepResult{Status: tt.status, ExitCode: tt.exit, Tail: tt.tail})
			if got != tt.want || ok != (tt.want != "") {
				t.Errorf("missingTool = %q, %v; want %q", got, ok, tt.want)
			}
		})
	}
}
