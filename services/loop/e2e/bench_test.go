package e2e_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// BenchmarkVerifyLoopOverhead measures what the loop adds to a
// verification: the same pipeline on the same snapshot, once through the
// executor alone (Execute, drained) and once through the loop (Verify:
// plan, execute with every event persisted and streamed, parse, score,
// finalize), alternating in the same run. Reports both latencies and
// their ratio.
func BenchmarkVerifyLoopOverhead(b *testing.B) {
	s := newStack(b)
	ctx := context.Background()
	snap := s.snapshot(fixedCalc())
	plan, err := s.disc.Plan(ctx, &glv1.PlanRequest{Snapshot: snap})
	if err != nil {
		b.Fatal(err)
	}
	var direct, loop time.Duration
	n := 0
	for b.Loop() {
		start := time.Now()
		if err := execute(ctx, s.exec, fmt.Sprintf("bench-%d", n), snap, plan.GetPipeline()); err != nil {
			b.Fatal(err)
		}
		direct += time.Since(start)
		start = time.Now()
		evs := s.verify(&glv1.VerifyRequest{Snapshot: snap})
		loop += time.Since(start)
		if st := finished(evs).GetStatus(); st != glv1.RunStatus_RUN_STATUS_PASSED {
			b.Fatalf("verify: %s", st)
		}
		n++
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(n) }
	b.ReportMetric(ms(direct), "executor-ms/op")
	b.ReportMetric(ms(loop), "loop-ms/op")
	b.ReportMetric(float64(loop)/float64(direct), "loop/executor")
}

// execute runs a pipeline on the executor and drains the stream.
func execute(ctx context.Context, exec glv1.ExecutorServiceClient, runID string, snap *glv1.Digest, p *glv1.Pipeline) error {
	stream, err := exec.Execute(ctx, &glv1.ExecuteRequest{RunId: runID, Snapshot: snap, Pipeline: p, Owner: "bench"})
	if err != nil {
		return err
	}
	for {
		resp, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if f := resp.GetFinished(); f != nil {
			for _, r := range f.GetResults() {
				if r.GetStatus() != glv1.StepStatus_STEP_STATUS_OK {
					return fmt.Errorf("step %s: %s", r.GetName(), r.GetStatus())
				}
			}
		}
	}
}
