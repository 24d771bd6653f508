package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"unicode/utf8"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/store"
)

// DefaultLogBytesPerStep is the live log the loop stores per step when
// neither the request nor the pipeline sets Limits.log_bytes_per_step: the
// executor's own default, so that what is stored matches the step's log.
const DefaultLogBytesPerStep = 4 << 20

// logBudget bounds the live log one execution stores per step: past the
// per-step cap a step's chunks are counted, not stored or published, and
// watchers get one LogCapped event for the step. The step's full log (up to
// the executor's cap) stays in its log blob.
//
// Chunks are queued with Hub.AppendAsync rather than each waiting for its
// own fsync: a step's output arrives in bursts, which the store's group
// commit then stores in shared transactions (and the executor's stream is
// not held up by the disk). Their outcomes come back in order and are
// settled by the execution's goroutine: as chunks arrive, and all of them
// before any other event of the execution (settleLogs), so that event is
// stored after the step's log and sees its errors.
type logBudget struct {
	capBytes int64
	queued   map[int32]int64 // bytes queued per step and not refused
	stored   map[int32]int64 // bytes acknowledged stored per step
	pending  map[int32]int   // chunks queued per step, not yet settled
	capped   map[int32]bool  // the step stores no more chunks
	reported map[int32]bool  // its LogCapped is stored
	steps    map[int32]string

	// inflight counts queued chunks whose outcome has not arrived; the
	// store's writer appends outcomes under mu.
	inflight sync.WaitGroup
	mu       sync.Mutex
	outcomes []logOutcome
}

// logOutcome is a queued chunk's acknowledgement.
type logOutcome struct {
	index int32
	bytes int64
	err   error
}

func newLogBudget(request *glv1.Limits, p *glv1.Pipeline) *logBudget {
	c := request.GetLogBytesPerStep()
	if c <= 0 {
		c = p.GetLimits().GetLogBytesPerStep()
	}
	if c <= 0 {
		c = DefaultLogBytesPerStep
	}
	return &logBudget{capBytes: c, queued: map[int32]int64{}, stored: map[int32]int64{}, pending: map[int32]int{},
		capped: map[int32]bool{}, reported: map[int32]bool{}, steps: map[int32]string{}}
}

// forwardLog stores and publishes a chunk (its index already the run's)
// within the step's budget; the chunk that reaches the cap is cut at a
// character boundary and followed by LogCapped.
func (r *run) forwardLog(c *glv1.LogChunk, b *logBudget) error {
	if err := r.applyLogOutcomes(b); err != nil {
		return err
	}
	i := c.GetIndex()
	if b.capped[i] {
		return nil
	}
	b.steps[i] = c.GetStep()
	room := b.capBytes - b.queued[i]
	// The executor stops streaming a step at the same cap (its offsets
	// count every byte printed, including chunks its rate limit dropped),
	// so a chunk that ends at or past the cap is the last one either way.
	last := c.GetOffset()+int64(len(c.Data)) >= b.capBytes
	if int64(len(c.Data)) > room {
		c.Data = cutUTF8(c.Data, int(room))
		b.capped[i] = true
	}
	if c.Data != "" {
		if err := r.queueLog(c, b); err != nil {
			return err
		}
	}
	if last {
		b.capped[i] = true
	}
	if !b.capped[i] {
		return nil
	}
	// LogCapped says how much of the step is stored: known once its
	// chunks are acknowledged.
	return r.settleLogs(b)
}

// queueLog queues one chunk for storing and publishing.
func (r *run) queueLog(c *glv1.LogChunk, b *logBudget) error {
	i, n := c.GetIndex(), int64(len(c.Data))
	b.inflight.Add(1)
	err := r.e.d.Hub.AppendAsync(context.Background(), r.id, &glv1.RunEvent{Kind: &glv1.RunEvent_LogChunk{LogChunk: c}},
		func(_ uint64, err error) {
			b.mu.Lock()
			b.outcomes = append(b.outcomes, logOutcome{index: i, bytes: n, err: err})
			b.mu.Unlock()
			b.inflight.Done()
		})
	if err != nil {
		b.inflight.Done()
		return fmt.Errorf("%w: record event: %w", errInfra, err)
	}
	b.queued[i] += n
	b.pending[i]++
	return nil
}

// settleLogs waits until every queued chunk of the execution is stored or
// refused, then accounts for them: called before any other event of the
// execution is emitted.
func (r *run) settleLogs(b *logBudget) error {
	if b == nil {
		return nil
	}
	b.inflight.Wait()
	return r.applyLogOutcomes(b)
}

// applyLogOutcomes accounts for the chunks acknowledged so far, in order:
// a chunk the store refused because the run reached its event cap ends its
// step's live log (the store then refuses every later chunk of the run too);
// any other failure is the execution's. A capped step with nothing left in
// flight gets its LogCapped.
func (r *run) applyLogOutcomes(b *logBudget) error {
	b.mu.Lock()
	outcomes := b.outcomes
	b.outcomes = nil
	b.mu.Unlock()
	var failed error
	for _, o := range outcomes {
		b.pending[o.index]--
		switch {
		case o.err == nil:
			b.stored[o.index] += o.bytes
		case errors.Is(o.err, store.ErrEventCap):
			// The run's whole log reached the store's cap: the step's
			// output stops here too.
			b.capped[o.index] = true
		case failed == nil:
			failed = fmt.Errorf("%w: record event: %w", errInfra, o.err)
		}
	}
	if failed != nil {
		return failed
	}
	steps := make([]int32, 0, len(b.capped))
	for i, capped := range b.capped {
		if capped && !b.reported[i] && b.pending[i] == 0 {
			steps = append(steps, i)
		}
	}
	slices.Sort(steps)
	for _, i := range steps {
		b.reported[i] = true
		if err := r.emit(&glv1.RunEvent{Kind: &glv1.RunEvent_LogCapped{LogCapped: &glv1.LogCapped{
			Index: i, Step: b.steps[i], StoredBytes: b.stored[i],
		}}}); err != nil {
			return err
		}
	}
	return nil
}

// cutUTF8 returns at most n bytes of s without splitting a character (a
// proto string must stay valid UTF-8).
func cutUTF8(s string, n int) string {
	if n >= len(s) {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
