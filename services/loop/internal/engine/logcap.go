package engine

import (
	"errors"
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
type logBudget struct {
	capBytes int64
	stored   map[int32]int64
	capped   map[int32]bool
}

func newLogBudget(request *glv1.Limits, p *glv1.Pipeline) *logBudget {
	c := request.GetLogBytesPerStep()
	if c <= 0 {
		c = p.GetLimits().GetLogBytesPerStep()
	}
	if c <= 0 {
		c = DefaultLogBytesPerStep
	}
	return &logBudget{capBytes: c, stored: map[int32]int64{}, capped: map[int32]bool{}}
}

// forwardLog stores and publishes a chunk (its index already the run's)
// within the step's budget; the chunk that reaches the cap is cut at a
// character boundary and followed by LogCapped.
func (r *run) forwardLog(c *glv1.LogChunk, b *logBudget) error {
	i := c.GetIndex()
	if b.capped[i] {
		return nil
	}
	room := b.capBytes - b.stored[i]
	// The executor stops streaming a step at the same cap (its offsets
	// count every byte printed, including chunks its rate limit dropped),
	// so a chunk that ends at or past the cap is the last one either way.
	last := c.GetOffset()+int64(len(c.Data)) >= b.capBytes
	if int64(len(c.Data)) > room {
		c.Data = cutUTF8(c.Data, int(room))
		b.capped[i] = true
	}
	if c.Data != "" {
		err := r.emit(&glv1.RunEvent{Kind: &glv1.RunEvent_LogChunk{LogChunk: c}})
		switch {
		case errors.Is(err, store.ErrEventCap):
			// The run's whole log reached the store's cap: the step's
			// output stops here too.
			b.capped[i] = true
		case err != nil:
			return err
		default:
			b.stored[i] += int64(len(c.Data))
		}
	}
	if last {
		b.capped[i] = true
	}
	if !b.capped[i] {
		return nil
	}
	return r.emit(&glv1.RunEvent{Kind: &glv1.RunEvent_LogCapped{LogCapped: &glv1.LogCapped{
		Index: i, Step: c.GetStep(), StoredBytes: b.stored[i],
	}}})
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
