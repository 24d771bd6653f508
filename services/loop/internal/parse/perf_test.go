package parse

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// countingReader counts the Read calls made on it.
type countingReader struct {
	r     *bytes.Reader
	reads int
}

func (c *countingReader) Read(p []byte) (int, error) {
	c.reads++
	return c.r.Read(p)
}

// TestScanReadsInLargeChunks guards the line reader's buffer size: it was
// once created with 16 bytes, so every line took the slow copying path and
// the log was read 16 bytes at a time.
func TestScanReadsInLargeChunks(t *testing.T) {
	content, err := os.ReadFile("testdata/golden/pytest/fail-plain.log")
	if err != nil {
		t.Fatal(err)
	}
	log := bytes.Repeat(content, 600) // ~1 MB
	cr := &countingReader{r: bytes.NewReader(log)}
	rep, err := Step(context.Background(), Input{
		Step:   &glv1.Step{Name: "t", Phase: glv1.Phase_PHASE_TEST, Workdir: "api"},
		Result: &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: 1},
		Log:    cr,
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.LogBytes != int64(len(log)) || rep.Format != FormatPytestSummary {
		t.Fatalf("read %d of %d bytes, format %q", rep.LogBytes, len(log), rep.Format)
	}
	// 64 KiB reads: ~16 for 1 MB; 16-byte reads would be ~63000.
	if cr.reads > 100 {
		t.Errorf("%d reads for %d bytes: the line buffer is too small", cr.reads, len(log))
	}
}

// TestPytestWorkIsBoundedPastCaps checks that once the failure records are
// full, further failure sections and summary lines cost no allocation: they
// are counted, not built and dropped.
func TestPytestWorkIsBoundedPastCaps(t *testing.T) {
	content, err := os.ReadFile("testdata/golden/pytest/fail-plain.log")
	if err != nil {
		t.Fatal(err)
	}
	lim := Limits{MaxFailures: 2, MaxTests: 2}.withDefaults()
	p := newPytestParser(&lim, NewPaths("", "api", nil))
	lines := bytes.Split(bytes.TrimRight(content, "\n"), []byte("\n"))
	feedAll := func() {
		for _, l := range lines {
			p.feed(line{text: l})
		}
	}
	feedAll()
	feedAll() // both caps are full now
	if len(p.blocks) != lim.MaxFailures || len(p.short) != lim.MaxFailures {
		t.Fatalf("%d blocks, %d summary records, want %d each", len(p.blocks), len(p.short), lim.MaxFailures)
	}
	failed := p.set.counts.Failed
	allocs := testing.AllocsPerRun(20, feedAll)
	// The closing counts line allocates its Counts once per run.
	if allocs > 1 {
		t.Errorf("%v allocations per log past the caps, want at most 1", allocs)
	}
	if p.set.counts.Failed <= failed {
		t.Errorf("failures past the cap were not counted (%d, then %d)", failed, p.set.counts.Failed)
	}
}

// TestPytestKeepsFirstFailuresPastCap checks that when the short summary
// lists more failures than the cap, the report keeps the first ones (in the
// order pytest printed them) and counts the rest.
func TestPytestKeepsFirstFailuresPastCap(t *testing.T) {
	var b strings.Builder
	b.WriteString("=========================== short test summary info ============================\n")
	for i := 1; i <= 7; i++ {
		fmt.Fprintf(&b, "FAILED tests/test_x.py::test_%d - assert %d == 0\n", i, i)
	}
	b.WriteString("============================== 7 failed in 0.10s ===============================\n")
	rep, err := Step(context.Background(), Input{
		Step:   &glv1.Step{Name: "pytest", Phase: glv1.Phase_PHASE_TEST, Command: "python3 -m pytest -rA"},
		Result: &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: 1},
		Log:    strings.NewReader(b.String()),
		Limits: Limits{MaxFailures: 3, MaxTests: 3},
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Counts.Failed != 7 {
		t.Fatalf("counts = %+v, want 7 failed", rep.Counts)
	}
	var got []string
	for _, f := range rep.Failures {
		got = append(got, f.Test)
	}
	want := []string{"tests/test_x.py::test_1", "tests/test_x.py::test_2", "tests/test_x.py::test_3"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("kept failures %v, want the first ones %v", got, want)
	}
}
