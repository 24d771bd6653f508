package verdict

import (
	"context"
	"os"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
)

// TestDiskFullIsAnErrorOfTheEnvironment runs the step rules on captured
// output of tools that met a full sandbox mount (testdata/nospace/README.md
// says how each was captured): each is an ERROR naming the mount when the
// message shows its path and the setting that raises its cap, unless a test
// failed on its own assertion.
func TestDiskFullIsAnErrorOfTheEnvironment(t *testing.T) {
	const home, work, tmp, any = "--home-size", "--workspace (GREENLIGHT_EXECUTOR_WORKSPACE)", "--tmpfs (GREENLIGHT_EXECUTOR_TMPFS)", "--home-size (the tools' caches), --workspace, --tmpfs"
	step := func(phase glv1.Phase, command string) *glv1.Step {
		return &glv1.Step{Name: "step", Phase: phase, Command: command, Network: phase == glv1.Phase_PHASE_INSTALL}
	}
	for _, c := range []struct {
		log  string
		step *glv1.Step
		// want is a part of the reason; "" keeps the step FAILED.
		want []string
	}{
		{"viper-remote-go-mod-download.log", step(glv1.Phase_PHASE_INSTALL, "go mod download"),
			[]string{"no space left on the home directory /home/sandbox", home + " (GREENLIGHT_EXECUTOR_HOME_SIZE)", "--memory"}},
		{"viper-go-vet.log", step(glv1.Phase_PHASE_LINT, "go vet ./..."), []string{"/home/sandbox", home}},
		{"viper-go-test.log", step(glv1.Phase_PHASE_TEST, "go test -json ./..."), []string{"/home/sandbox", home}},
		{"pytest-errno28.log", step(glv1.Phase_PHASE_TEST, "python -m pytest"), []string{"[Errno 28]", any}},
		{"pytest-mixed.log", step(glv1.Phase_PHASE_TEST, "python -m pytest"), nil},
		{"node-test-enospc.log", step(glv1.Phase_PHASE_TEST, "node --test"), []string{"ENOSPC", any}},
		{"npm-install-enospc.log", step(glv1.Phase_PHASE_INSTALL, "npm install"), []string{"ENOSPC", any}},
		{"make-ld-enospc.log", step(glv1.Phase_PHASE_BUILD, "make check"), []string{"final link failed", any}},
		{"cc-as-enospc.log", step(glv1.Phase_PHASE_BUILD, "cc -c -o /tmp/big.o big.c"), []string{"no space left on /tmp,", tmp}},
		{"dd-workspace.log", step(glv1.Phase_PHASE_TEST, "dd if=/dev/zero of=/workspace/fill bs=1M count=4"),
			[]string{"no space left on the workspace /workspace", work}},
		{"cargo-test-enospc.log", step(glv1.Phase_PHASE_TEST, "cargo test"), []string{"final link failed", any}},
	} {
		t.Run(c.log, func(t *testing.T) {
			body, err := os.ReadFile("testdata/nospace/" + c.log)
			if err != nil {
				t.Fatal(err)
			}
			res := &glv1.StepResult{Name: "step", Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: 1, Tail: string(body)}
			rep, err := parse.Step(context.Background(), parse.Input{Step: c.step, Result: res, Log: strings.NewReader(string(body))})
			if err != nil {
				t.Fatal(err)
			}
			got := Steps(OnReport, StepInput{Step: c.step, Result: res, Report: rep})
			if c.want == nil {
				if got.GetStatus() != glv1.StepStatus_STEP_STATUS_FAILED || got.GetRule() == RuleDiskFull {
					t.Fatalf("status %s rule %q (%s), want FAILED: a test failed on its assertion", got.GetStatus(), got.GetRule(), got.GetReason())
				}
				return
			}
			if got.GetStatus() != glv1.StepStatus_STEP_STATUS_ERROR || got.GetRule() != RuleDiskFull {
				t.Fatalf("status %s rule %q (%s), want ERROR %s", got.GetStatus(), got.GetRule(), got.GetReason(), RuleDiskFull)
			}
			for _, w := range c.want {
				if !strings.Contains(got.GetReason(), w) {
					t.Errorf("reason %q lacks %q", got.GetReason(), w)
				}
			}
			if strings.Contains(got.GetReason(), "\n") || strings.Contains(got.GetReason(), `\\n`) {
				t.Errorf("reason spans lines or quotes a JSON-escaped log line: %q", got.GetReason())
			}
		})
	}
}

// The rule leaves alone what it must not decide: a step that passed, an
// advisory one, a failure without ENOSPC, and a report whose failed tests
// are not all listed.
func TestDiskFullLeavesOtherStepsAlone(t *testing.T) {
	enospc := "write /home/sandbox/.cache/go-build/65/x-d: no space left on device\n"
	test := &glv1.Step{Name: "test", Phase: glv1.Phase_PHASE_TEST, Command: "go test ./..."}
	failed := func(tail string) *glv1.StepResult {
		return &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: 1, Tail: tail}
	}
	for _, c := range []struct {
		name string
		step *glv1.Step
		res  *glv1.StepResult
		rep  *parse.StepReport
	}{
		{"passed", test, &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_OK, Tail: enospc}, nil},
		{"advisory", &glv1.Step{Name: "lint", Phase: glv1.Phase_PHASE_LINT, Optional: true}, failed(enospc), nil},
		{"no ENOSPC", test, failed("--- FAIL: TestAdd (0.00s)\n    add_test.go:9: got 3, want 4\n"), nil},
		{"timed out", test, &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_TIMED_OUT, Tail: enospc}, nil},
		{"a failed test not listed", test, failed(enospc), &parse.StepReport{HasTests: true,
			Counts:   parse.Counts{Passed: 40, Failed: 60},
			Failures: []parse.Failure{{Test: "TestWrite", Message: "open /tmp/x: no space left on device"}}, FailuresOmitted: 59}},
		{"failed tests without messages", test, failed(enospc), &parse.StepReport{HasTests: true, Counts: parse.Counts{Failed: 1}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := diskFull(StepInput{Step: c.step, Result: c.res, Report: c.rep})
			if got != c.res {
				t.Errorf("changed to %s rule %q: %s", got.GetStatus(), got.GetRule(), got.GetReason())
			}
		})
	}
}

func TestMountOf(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{`go: google.golang.org/api@v0.248.0: read "https://proxy.golang.org/google.golang.org/api/@v/v0.248.0.zip": write /home/sandbox/go/pkg/mod/cache/download/google.golang.org/api/@v/v0.248.0.zip605274330.tmp: no space left on device`, "/home/sandbox"},
		{`OSError: [Errno 28] No space left on device: '/workspace/build/out.bin'`, "/workspace"},
		{`/tmp/ccYHqcPH.s: Fatal error: can't fill 256 bytes in section .data of /tmp/big.o: 'No space left on device'`, "/tmp"},
		{`dd: error writing '/workspace/fill': No space left on device`, "/workspace"},
		{`/usr/bin/ld: final link failed: No space left on device`, ""},
		{`npm ERR! nospc ENOSPC: no space left on device, write`, ""},
		{`write /tmpfoo/x: no space left on device`, ""},
	} {
		m, ok := mountOf(c.line)
		if got := map[bool]string{true: m.path}[ok]; got != c.want {
			t.Errorf("mountOf(%q) = %q, want %q", c.line, got, c.want)
		}
	}
}
