package executorsvc

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/executor/internal/testenv"
)

// parallelRuns is how many runs row 28 starts at once (50 in the row; the
// suite runs on two cores, where 50 engine-serialized container starts take
// most of a minute).
const parallelRuns = 24

// Row 28: many runs in parallel all finish, each within a bound, and the
// container count returns to the baseline.
func TestParallelRunsReturnToBaseline(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.MaxSandboxes = parallelRuns })
	var wg sync.WaitGroup
	errs := make(chan error, parallelRuns)
	start := time.Now()
	for i := range parallelRuns {
		wg.Go(func() {
			req := e.request(map[string]testenv.File{"n.txt": {Body: fmt.Sprint(i)}}, sh("a", "cat n.txt"), sh("b", "true"))
			req.RunId = fmt.Sprintf("parallel-%d", i)
			r := e.execute(context.Background(), req)
			switch {
			case r.err != nil:
				errs <- fmt.Errorf("run %d: %w", i, r.err)
			case r.finished.GetResults()[0].GetTail() != fmt.Sprint(i):
				errs <- fmt.Errorf("run %d saw %q", i, r.finished.GetResults()[0].GetTail())
			case r.finished.GetResults()[1].GetStatus() != glv1.StepStatus_STEP_STATUS_OK:
				errs <- fmt.Errorf("run %d: %v", i, r.finished.GetResults()[1])
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	took := time.Since(start)
	t.Logf("%d parallel runs in %s", parallelRuns, took.Round(time.Millisecond))
	if took > 90*time.Second {
		t.Errorf("%d parallel runs took %s", parallelRuns, took)
	}
	e.svc.runner.Wait()
	if n := len(testenv.Containers(t, e.rt, e.owner)); n != 0 {
		t.Errorf("%d containers left after the parallel runs", n)
	}
}
