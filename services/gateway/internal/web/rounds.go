package web

import (
	"context"
	"errors"
	"strconv"
	"sync"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// A run record holds only the final verification; a fix run's baseline
// and every round's verification are in its event log. The report replays
// the log (through the fan-out hub, up to the run's last seq) and groups
// it: DiscoveryDone opens a verification, StepFinished and TestsParsed
// fill it, VerificationDone closes it. Finished runs never change, so
// their grouping is kept in a small cache.

// verificationRecord is one verification of a run, as its events tell it.
type verificationRecord struct {
	// Attempt is 0 for a fix run's baseline, N for round N's patched
	// verification (1 for a verify run's only one).
	Attempt  int32
	Steps    []*glv1.StepResult
	Failures []*glv1.Failure
	Counts   *glv1.TestCounts
	// Done is nil while the verification is still going.
	Done *glv1.VerificationDone
}

// errReplayed stops a replay at the run's last seq.
var errReplayed = errors.New("replayed up to the run's last event")

// maxCachedReplays bounds the cache of finished runs' verifications.
const maxCachedReplays = 64

// replayCache keeps the verifications of finished runs, oldest evicted
// first.
type replayCache struct {
	mu    sync.Mutex
	runs  map[string][]*verificationRecord
	order []string
}

func (c *replayCache) get(key string) ([]*verificationRecord, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.runs[key]
	return v, ok
}

func (c *replayCache) put(key string, v []*verificationRecord) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.runs == nil {
		c.runs = map[string][]*verificationRecord{}
	}
	if _, ok := c.runs[key]; ok {
		return
	}
	if len(c.order) >= maxCachedReplays {
		delete(c.runs, c.order[0])
		c.order = c.order[1:]
	}
	c.runs[key] = v
	c.order = append(c.order, key)
}

// verifications groups run's events into its verifications.
func (h *handler) verifications(ctx context.Context, run *glv1.Run) ([]*verificationRecord, error) {
	last := run.GetLastSeq()
	if last == 0 || h.Watch == nil {
		return nil, nil
	}
	key := run.GetId() + "\x00" + strconv.FormatUint(last, 10)
	if v, ok := h.replays.get(key); ok {
		return v, nil
	}
	g := &grouper{}
	var after uint64
	for after < last {
		resumed := uint64(0)
		err := h.Watch.Watch(ctx, run.GetId(), after, func(ev *glv1.RunEvent) error {
			if r := ev.GetResumeFrom(); r != nil {
				resumed = r.GetAfterSeq()
				return nil
			}
			g.add(ev)
			after = ev.GetSeq()
			if after >= last {
				return errReplayed
			}
			return nil
		})
		switch {
		case errors.Is(err, errReplayed):
		case err != nil:
			return nil, err
		case resumed == 0 && after < last:
			after = last // the stream ended early: show what there is
		}
	}
	if !isLive(run.GetStatus()) {
		h.replays.put(key, g.out)
	}
	return g.out, nil
}

// grouper assigns events to verifications.
type grouper struct {
	out []*verificationRecord
	cur *verificationRecord
}

func (g *grouper) add(ev *glv1.RunEvent) {
	switch k := ev.GetKind().(type) {
	case *glv1.RunEvent_DiscoveryDone:
		g.open(k.DiscoveryDone.GetAttempt())
	case *glv1.RunEvent_StepFinished:
		g.current().Steps = append(g.current().Steps, k.StepFinished.GetResult())
	case *glv1.RunEvent_TestsParsed:
		cur := g.current()
		cur.Failures = append(cur.Failures, k.TestsParsed.GetFailures()...)
		addCounts(cur.Counts, k.TestsParsed.GetCounts())
	case *glv1.RunEvent_VerificationDone:
		cur := g.current()
		cur.Attempt, cur.Done = k.VerificationDone.GetAttempt(), k.VerificationDone
		g.cur = nil
	}
}

func (g *grouper) open(attempt int32) {
	g.cur = &verificationRecord{Attempt: attempt, Counts: &glv1.TestCounts{}}
	g.out = append(g.out, g.cur)
}

// current is the open verification, opening one for events that came
// without a DiscoveryDone (its attempt follows the previous one's).
func (g *grouper) current() *verificationRecord {
	if g.cur == nil {
		attempt := int32(0)
		if n := len(g.out); n > 0 {
			attempt = g.out[n-1].Attempt + 1
		}
		g.open(attempt)
	}
	return g.cur
}

func addCounts(sum, c *glv1.TestCounts) {
	sum.Passed += c.GetPassed()
	sum.Failed += c.GetFailed()
	sum.Skipped += c.GetSkipped()
	sum.Errors += c.GetErrors()
	sum.Total += c.GetTotal()
	sum.Flaky += c.GetFlaky()
}

// recordOf is the verification with attempt n, nil if there is none.
func recordOf(vs []*verificationRecord, n int32) *verificationRecord {
	for i := len(vs) - 1; i >= 0; i-- {
		if vs[i].Attempt == n {
			return vs[i]
		}
	}
	return nil
}
