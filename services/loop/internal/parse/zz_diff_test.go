package parse

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	orig "github.com/greenlight-dev/greenlight/services/loop/internal/parse/zzorig"
	"google.golang.org/protobuf/encoding/protojson"
)

func diffOne(t *testing.T, data []byte, phase glv1.Phase, exit int32, lim Limits) {
	st := glv1.StepStatus_STEP_STATUS_OK
	if exit != 0 {
		st = glv1.StepStatus_STEP_STATUS_FAILED
	}
	mk := func() (*glv1.Step, *glv1.StepResult) {
		return &glv1.Step{Name: "f", Phase: phase, Command: "pytest -x", Workdir: "w"}, &glv1.StepResult{Status: st, ExitCode: exit}
	}
	s1, r1 := mk()
	a, err := Step(context.Background(), Input{Step: s1, Result: r1, Log: bytes.NewReader(data), Limits: lim})
	if err != nil {
		t.Fatal(err)
	}
	s2, r2 := mk()
	b, err := orig.Step(context.Background(), orig.Input{Step: s2, Result: r2, Log: bytes.NewReader(data), Limits: orig.Limits(lim)})
	if err != nil {
		t.Fatal(err)
	}
	ja, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	jb, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(ja) < 50 {
		t.Fatalf("short %s", ja)
	}
	if !bytes.Equal(ja, jb) {
		t.Fatalf("report differs:\nnew %s\nold %s", ja, jb)
	}
	pa, _ := protojson.Marshal(a.TestsParsedProto())
	pb, _ := protojson.Marshal(b.TestsParsedProto())
	if !bytes.Equal(pa, pb) {
		t.Fatalf("proto differs:\nnew %s\nold %s", pa, pb)
	}
	for i, x := range a.FailuresProto() {
		y := b.FailuresProto()[i]
		xa, _ := protojson.Marshal(x)
		xb, _ := protojson.Marshal(y)
		if !bytes.Equal(xa, xb) {
			t.Fatalf("failure proto differs:\nnew %s\nold %s", xa, xb)
		}
	}
}

func TestZZDiffGoldens(t *testing.T) {
	files, _ := filepath.Glob("testdata/golden/*/*.log")
	for _, f := range files {
		data, _ := os.ReadFile(f)
		for _, ph := range []glv1.Phase{glv1.Phase_PHASE_TEST, glv1.Phase_PHASE_LINT, glv1.Phase_PHASE_INSTALL, glv1.Phase_PHASE_BUILD} {
			for _, lim := range []Limits{{}, {MaxLineBytes: 256, MaxTests: 8, MaxFailures: 4, MaxFrames: 3}, {MaxFailures: 1, MaxTests: 1}} {
				diffOne(t, data, ph, 1, lim)
				diffOne(t, data, ph, 0, lim)
				diffOne(t, bytes.Repeat(data, 7), ph, 1, lim)
			}
		}
	}
}

func FuzzZZDiff(f *testing.F) {
	files, _ := filepath.Glob("testdata/golden/*/*.log")
	for _, p := range files {
		b, _ := os.ReadFile(p)
		f.Add(b[:min(len(b), 4<<10)], uint8(glv1.Phase_PHASE_TEST), uint8(1))
	}
	f.Fuzz(func(t *testing.T, data []byte, phase, exit uint8) {
		diffOne(t, data, glv1.Phase(phase%8), int32(exit%2), Limits{MaxLineBytes: 256, MaxTests: 8, MaxFailures: 4, MaxFrames: 3})
		diffOne(t, data, glv1.Phase(phase%8), int32(exit%2), Limits{})
	})
}

func BenchmarkZZBeforeAfter(b *testing.B) {
	for _, src := range []struct{ name, file string }{
		{"go-json", "testdata/golden/go-json/fail.log"},
		{"pytest", "testdata/golden/pytest/fail-plain.log"},
		{"pytest-pass", "testdata/golden/pytest/pass.log"},
	} {
		content, _ := os.ReadFile(src.file)
		for _, impl := range []string{"before", "after"} {
			b.Run(src.name+"/"+impl, func(b *testing.B) {
				size := int64(50 << 20)
				var peak uint64
				cpu0 := cpuTime()
				for i := 0; i < b.N; i++ {
					peak = max(peak, peakHeap(func() {
						if impl == "after" {
							Step(context.Background(), Input{
								Step:   &glv1.Step{Name: "t", Phase: glv1.Phase_PHASE_TEST, Workdir: "svc"},
								Result: &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: 1},
								Log:    &repeatReader{content: content, size: size},
							})
						} else {
							orig.Step(context.Background(), orig.Input{
								Step:   &glv1.Step{Name: "t", Phase: glv1.Phase_PHASE_TEST, Workdir: "svc"},
								Result: &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: 1},
								Log:    &repeatReader{content: content, size: size},
							})
						}
					}))
				}
				cpu := (cpuTime() - cpu0).Seconds()
				b.ReportMetric(float64(50*b.N)/cpu, "cpu-MB/s")
				b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
				b.ReportMetric(cpu/splitCPU(b, content, size, b.N), "x-lines-cpu")
			})
		}
	}
}
