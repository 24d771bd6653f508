package sandbox_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
	"github.com/greenlight-dev/greenlight/services/executor/internal/testenv"
)

// genericImage is a second image, so that one run has two boxes.
const genericImage = "greenlight/sandbox-generic:latest"

// The workspace is CI's checkout, in both step runner modes: a snapshot
// without .git is a repository whose one commit holds every file, with a
// clean status, found from a step's subdirectory too; another box of the
// run (another image) has the very same commit; and `git diff
// --exit-code` after a step changed a file fails, as it does in CI.
func TestWorkspaceIsAGitCheckoutOfTheSnapshot(t *testing.T) {
	for _, mode := range []string{sandbox.StepRunnerExec, sandbox.StepRunnerAgent} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, func(c *sandbox.Config) { c.StepRunner = mode })
			files := map[string]testenv.File{
				"README.md": {Body: "hello\n"}, "src/a.c": {Body: "int a;\n"}, "build.log": {Body: "ignored but present\n"},
				".gitignore": {Body: "*.log\n"}, "crlf.txt": {Body: "x\r\n"},
			}
			req := h.request(files,
				step("inspect", "git rev-parse HEAD && git ls-files | wc -l && git status --porcelain && echo status-end"),
				sandbox.Step{Name: "sub", Workdir: "src", Command: "git rev-parse --show-toplevel && git log --format=%an -1"},
				sandbox.Step{Name: "other-box", Image: genericImage, Command: "git rev-parse HEAD"},
				sandbox.Step{Name: "regen", Command: "printf 'y\\r\\n' > crlf.txt && git diff --exit-code --stat"},
			)
			res, ev := h.run(context.Background(), req)
			want := []sandbox.Status{sandbox.StatusOK, sandbox.StatusOK, sandbox.StatusOK, sandbox.StatusFailed}
			if got := statuses(res); !slices.Equal(got, want) {
				t.Fatalf("statuses = %v, want %v\ncombined log:\n%s", got, want, h.log(res.CombinedLog))
			}
			lines := strings.Split(ev.text(0, sandbox.StreamStdout), "\n")
			if len(lines) < 3 || len(lines[0]) != 40 || strings.TrimSpace(lines[1]) != "5" || lines[2] != "status-end" {
				t.Errorf("inspect printed %q, want a commit id, 5 files and an empty status", lines)
			}
			if got := ev.text(1, sandbox.StreamStdout); got != "/workspace\ngreenlight\n" {
				t.Errorf("from src: %q", got)
			}
			if other := strings.TrimSpace(ev.text(2, sandbox.StreamStdout)); other != lines[0] {
				t.Errorf("the generic box's commit %q differs from %q", other, lines[0])
			}
			if got := res.Steps[3]; got.ExitCode != 1 || !strings.Contains(got.Tail, "crlf.txt") {
				t.Errorf("git diff --exit-code after a change: exit %d, tail %q", got.ExitCode, got.Tail)
			}
		})
	}
}

// greenlight's commit runs none of the project's code. The project ships
// hooks in .githooks and a .gitattributes naming a clean filter and a diff
// driver: nothing ran before the first step. The step then configures
// them as a project's own setup would (git config core.hooksPath, a
// filter) and commits: now they run, so the markers do show a run.
func TestCheckoutRunsNoProjectHook(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	hook := testenv.File{Body: "#!/bin/sh\nmkdir -p /tmp/marks && touch /tmp/marks/$(basename $0)\n", Mode: 0o755}
	files := map[string]testenv.File{
		".githooks/pre-commit": hook, ".githooks/post-commit": hook, ".githooks/commit-msg": hook,
		".gitattributes": {Body: "*.txt filter=evil diff=evil\n"}, "a.txt": {Body: "a\n"},
	}
	req := h.request(files,
		step("before", "ls /tmp/marks 2>/dev/null; echo listed"),
		step("configured", "git config core.hooksPath .githooks && "+
			"git config filter.evil.clean 'mkdir -p /tmp/marks && touch /tmp/marks/filter && cat' && "+
			"echo b > b.txt && git add b.txt && git -c user.name=s -c user.email=s@s commit -q -m step && ls /tmp/marks"),
	)
	res, ev := h.run(context.Background(), req)
	if got := statuses(res); !slices.Equal(got, []sandbox.Status{sandbox.StatusOK, sandbox.StatusOK}) {
		t.Fatalf("statuses = %v\n%s", got, h.log(res.CombinedLog))
	}
	if got := ev.text(0, sandbox.StreamStdout); got != "listed\n" {
		t.Errorf("before any step, project code had run: %q", got)
	}
	if got := strings.Fields(ev.text(1, sandbox.StreamStdout)); !slices.Equal(got, []string{"commit-msg", "filter", "post-commit", "pre-commit"}) {
		t.Errorf("the configured hooks and filter ran %v: the markers cannot show anything", got)
	}
}
