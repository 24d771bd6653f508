package parse

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"google.golang.org/protobuf/proto"
)

// addGoldenSeeds adds the real captured outputs (first 2 KiB) as seeds.
func addGoldenSeeds(f *testing.F, pattern string, add func(b []byte)) {
	files, err := filepath.Glob(filepath.Join("testdata/golden", "*", pattern))
	if err != nil || len(files) == 0 {
		f.Fatalf("no seeds for %s: %v", pattern, err)
	}
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		add(b[:min(len(b), 2<<10)])
	}
}

func FuzzParseLog(f *testing.F) {
	addGoldenSeeds(f, "*.log", func(b []byte) { f.Add(b, uint8(glv1.Phase_PHASE_TEST), uint8(1)) })
	f.Add([]byte("ok 1 - x\n# tests 1\n"), uint8(glv1.Phase_PHASE_LINT), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, phase, exit uint8) {
		st := glv1.StepStatus_STEP_STATUS_OK
		if exit != 0 {
			st = glv1.StepStatus_STEP_STATUS_FAILED
		}
		lim := Limits{MaxLineBytes: 256, MaxTests: 8, MaxFailures: 4, MaxFrames: 3}
		rep, err := Step(context.Background(), Input{
			Step:   &glv1.Step{Name: "f", Phase: glv1.Phase(phase % 8), Command: "x", Workdir: "w"},
			Result: &glv1.StepResult{Status: st, ExitCode: int32(exit)}, Log: bytes.NewReader(data), Limits: lim,
		})
		if err != nil {
			t.Fatal(err)
		}
		checkInvariants(t, rep, st, lim)
	})
}

func checkInvariants(t *testing.T, rep *StepReport, st glv1.StepStatus, lim Limits) {
	t.Helper()
	c := rep.Counts
	if c.Passed < 0 || c.Failed < 0 || c.Skipped < 0 || c.Errors < 0 {
		t.Fatalf("negative counts %+v", c)
	}
	if len(rep.Failures) > lim.MaxFailures || len(rep.Tests) > lim.MaxTests+lim.MaxFailures {
		t.Fatalf("caps exceeded: %d failures, %d tests", len(rep.Failures), len(rep.Tests))
	}
	if st == glv1.StepStatus_STEP_STATUS_FAILED && len(rep.Failures) == 0 {
		t.Fatal("a failed step must have at least one failure")
	}
	if rep.Format == "" {
		t.Fatal("empty format")
	}
	if _, err := proto.Marshal(rep.TestsParsedProto()); err != nil {
		t.Fatalf("marshal: %v", err)
	}
	for _, x := range rep.TestsProto() {
		if _, err := proto.Marshal(x); err != nil {
			t.Fatalf("marshal test: %v", err)
		}
	}
}

func FuzzFlatJSON(f *testing.F) {
	addGoldenSeeds(f, "*.log", func(b []byte) {
		if i := bytes.IndexByte(b, '\n'); i > 0 {
			f.Add(b[:i])
		}
	})
	f.Add([]byte(`{"a":"\u00e9\ud83d\ude00\n","b":1.5,"c":null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var d flatDecoder
		if !d.decode(data) {
			return
		}
		// Whatever the fast decoder accepts, encoding/json must agree on.
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatalf("flat decoder accepted invalid JSON %q: %v", data, err)
		}
		for _, fl := range d.fields {
			want, isStr := m[string(fl.key)].(string)
			if !fl.str || !isStr || !utf8.Valid(fl.val) || bytes.Count(data, fl.key) != 1 {
				continue // invalid UTF-8 is replaced differently; clean() sanitizes it later
			}
			if want != string(fl.val) {
				t.Fatalf("key %q: flat %q, encoding/json %q", fl.key, fl.val, want)
			}
		}
	})
}

func FuzzArtifacts(f *testing.F) {
	addGoldenSeeds(f, "*.xml", func(b []byte) { f.Add(b, true) })
	addGoldenSeeds(f, "*.json", func(b []byte) { f.Add(b, false) })
	f.Fuzz(func(t *testing.T, data []byte, xml bool) {
		name := "report.json"
		if xml {
			name = "TEST-x.xml"
		}
		lim := Limits{MaxTests: 8, MaxFailures: 4, MaxFrames: 3}
		rep, err := Step(context.Background(), Input{
			Step:      &glv1.Step{Name: "a", Phase: glv1.Phase_PHASE_TEST, Command: "x"},
			Result:    &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: 1},
			Artifacts: map[string]io.Reader{name: bytes.NewReader(data)}, Limits: lim,
		})
		if err != nil {
			t.Fatal(err)
		}
		checkInvariants(t, rep, glv1.StepStatus_STEP_STATUS_FAILED, lim)
	})
}
