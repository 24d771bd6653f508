package locate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
)

// golden is where the parse package keeps real captured tool output and the
// snapshots it came from (see ../parse/testdata/golden/README.md).
const golden = "../parse/testdata/golden"

// parseGolden parses a captured log of a real run.
func parseGolden(t *testing.T, name, src, workdir string, phase glv1.Phase, exit int32) []parse.Failure {
	t.Helper()
	f, err := os.Open(filepath.Join(golden, name+".log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rep, err := parse.Step(context.Background(), parse.Input{
		Step:   &glv1.Step{Name: "s", Phase: phase, Workdir: workdir, Command: "x"},
		Result: &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: exit},
		Log:    f, Files: os.DirFS(filepath.Join(golden, "src", src)),
	})
	if err != nil {
		t.Fatal(err)
	}
	return rep.Failures
}

func TestRankRealTracebacks(t *testing.T) {
	tests := []struct {
		lang, log, src, workdir string
		phase                   glv1.Phase
		exit                    int32
		wantFile                string
		wantLine                int
	}{
		{"python pytest traceback", "pytest/fail-plain", "py", "api", glv1.Phase_PHASE_TEST, 1, "api/app/calc.py", 9},
		{"python uncaught traceback", "python/crash", "py-lint", "api", glv1.Phase_PHASE_SMOKE, 1, "api/app/calc.py", 9},
		{"go panic", "go-json/panic", "go", "svc", glv1.Phase_PHASE_TEST, 1, "svc/calc/calc.go", 16},
		{"go failing _test.go:NN", "go-json/fail", "go", "svc", glv1.Phase_PHASE_TEST, 1, "svc/calc/calc_test.go", 38},
		{"go compiler error", "go-build/fail", "go-buildfail", "svc", glv1.Phase_PHASE_BUILD, 1, "svc/calc/calc.go", 21},
		{"node stack", "node/crash", "nodecrash", "web", glv1.Phase_PHASE_SMOKE, 1, "web/src/sum.js", 7},
		{"node test stack", "node-test/fail", "nodetest", "web", glv1.Phase_PHASE_TEST, 1, "web/src/sum.js", 7},
		{"rustc error", "cargo/compile-error", "rust-compile", "core", glv1.Phase_PHASE_TEST, 101, "core/src/lib.rs", 4},
		{"rust panic", "cargo/fail-nobacktrace", "rust", "core", glv1.Phase_PHASE_TEST, 101, "core/src/lib.rs", 8},
		{"tsc error", "tsc/fail", "ts", "web", glv1.Phase_PHASE_TYPECHECK, 1, "web/src/price.ts", 15},
		{"java stack", "maven/fail", "maven", "svc", glv1.Phase_PHASE_TEST, 1, "svc/src/test/java/com/example/CalcTest.java", 24},
	}
	for _, tc := range tests {
		t.Run(tc.lang, func(t *testing.T) {
			failures := parseGolden(t, tc.log, tc.src, tc.workdir, tc.phase, tc.exit)
			locs := Rank(failures)
			if len(locs) == 0 {
				t.Fatal("no locations")
			}
			if locs[0].File != tc.wantFile || locs[0].Line != tc.wantLine {
				t.Fatalf("top location %s:%d, want %s:%d (all: %+v)", locs[0].File, locs[0].Line, tc.wantFile, tc.wantLine, locs)
			}
			for _, l := range locs {
				if strings.Contains(l.File, "site-packages") || strings.Contains(l.File, "node_modules") ||
					strings.HasPrefix(l.File, "/") || strings.Contains(l.File, "/rustc/") {
					t.Errorf("non-project location %s ranked", l.File)
				}
			}
			ws := Windows(locs, os.DirFS(filepath.Join(golden, "src", tc.src)), Options{})
			if len(ws) == 0 || len(ws) > 5 {
				t.Fatalf("%d windows", len(ws))
			}
			checkWindow(t, ws[0], filepath.Join(golden, "src", tc.src, tc.wantFile), tc.wantLine)
		})
	}
}

// checkWindow verifies a window is ±40 numbered lines of the real file.
func checkWindow(t *testing.T, w *glv1.CodeWindow, path string, focus int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	wantStart, wantEnd := max(1, focus-40), min(len(lines), focus+40)
	if int(w.GetStartLine()) != wantStart || int(w.GetEndLine()) != wantEnd || int(w.GetFocusLine()) != focus || w.GetRank() != 1 {
		t.Fatalf("window %d-%d focus %d rank %d, want %d-%d focus %d rank 1", w.GetStartLine(), w.GetEndLine(), w.GetFocusLine(), w.GetRank(), wantStart, wantEnd, focus)
	}
	got := strings.Split(strings.TrimSuffix(w.GetText(), "\n"), "\n")
	if len(got) != wantEnd-wantStart+1 {
		t.Fatalf("window has %d lines, want %d", len(got), wantEnd-wantStart+1)
	}
	width := len(fmt.Sprint(wantEnd))
	for i, l := range got {
		n := wantStart + i
		mark := " "
		if n == focus {
			mark = ">"
		}
		if want := fmt.Sprintf("%s%*d | %s", mark, width, n, lines[n-1]); l != want {
			t.Fatalf("window line %d = %q, want %q", i, l, want)
		}
	}
}

func TestWindowIsPlusMinus40(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 200; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	fsys := fstest.MapFS{"src/big.py": {Data: []byte(b.String())}, "bin/blob": {Data: []byte{0, 1, 2, '\n'}}}
	locs := Rank([]parse.Failure{
		{Kind: glv1.FailureKind_FAILURE_KIND_TEST_ERROR, Frames: []parse.Frame{
			{File: "src/big.py", Line: 100, Project: true}, {File: "src/big.py", Line: 120, Project: true},
			{File: "src/big.py", Line: 190, Project: true}, {File: "bin/blob", Line: 1, Project: true},
			{File: "missing.py", Line: 3, Project: true}}},
	})
	ws := Windows(locs, fsys, Options{})
	if len(ws) != 2 {
		t.Fatalf("%d windows, want 2 (line 120 is inside the first; binary and missing files skipped)", len(ws))
	}
	if ws[0].GetStartLine() != 60 || ws[0].GetEndLine() != 140 || !strings.Contains(ws[0].GetText(), ">100 | line 100\n") {
		t.Errorf("first window %d-%d:\n%s", ws[0].GetStartLine(), ws[0].GetEndLine(), ws[0].GetText())
	}
	if ws[1].GetStartLine() != 150 || ws[1].GetEndLine() != 200 || ws[1].GetRank() != 2 {
		t.Errorf("second window %d-%d rank %d", ws[1].GetStartLine(), ws[1].GetEndLine(), ws[1].GetRank())
	}
}

func TestRankSkipsFlakyAndVendorFrames(t *testing.T) {
	locs := Rank([]parse.Failure{
		{Kind: glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION, Flaky: true, File: "a_test.go", Line: 5},
		{Kind: glv1.FailureKind_FAILURE_KIND_CRASH, Frames: []parse.Frame{
			{File: "/usr/local/go/src/runtime/panic.go", Line: 1, Project: false},
			{File: "svc/x.go", Line: 10, Project: true},
			{File: "svc/y.go", Line: 20, Project: true}}},
		{Kind: glv1.FailureKind_FAILURE_KIND_LINT, File: "svc/y.go", Line: 20},
	})
	if len(locs) != 2 {
		t.Fatalf("locations %+v, want svc/x.go and svc/y.go", locs)
	}
	if locs[0].File != "svc/x.go" || locs[1].File != "svc/y.go" {
		t.Errorf("order %+v", locs)
	}
	// y.go:20 is the second frame (1/2) of the second failure (weight 1/1.1)
	// plus a lint hit of the third failure (0.5/1.2).
	if want := (1.0/1.1)/2 + 0.5/1.2; fmt.Sprintf("%.4f", locs[1].Score) != fmt.Sprintf("%.4f", want) {
		t.Errorf("y.go score %.4f, want %.4f", locs[1].Score, want)
	}
}
