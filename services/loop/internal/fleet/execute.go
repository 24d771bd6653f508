package fleet

import (
	"context"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// Execute places the execution on the healthy executor with the most free
// sandboxes (not the one Avoid names), waiting in a FIFO queue while all
// are full, and returns its stream; the stream's Executor says where it
// runs. It fails with UNAVAILABLE when no executor it may use has been
// healthy for Options.NoneHealthy.
func (f *Fleet) Execute(ctx context.Context, req *glv1.ExecuteRequest, opts ...grpc.CallOption) (grpc.ServerStreamingClient[glv1.ExecuteResponse], error) {
	p := &placed{f: f, ctx: ctx, req: req, opts: opts}
	if err := p.start(); err != nil {
		return nil, err
	}
	return p, nil
}

// place waits for a member with a free sandbox and takes one.
func (f *Fleet) place(ctx context.Context, avoid string) (*member, error) {
	w := &waiter{}
	f.mu.Lock()
	f.queue = append(f.queue, w)
	f.mu.Unlock()
	defer f.leave(w)
	report := queueReport(ctx)
	lastPos := 0
	unhealthySince := time.Now()
	for {
		f.mu.Lock()
		m, pos, capacity, anyHealthy := f.pickLocked(w, avoid)
		if m != nil {
			m.inflight++
			f.mu.Unlock()
			return m, nil
		}
		changed := f.changed
		f.mu.Unlock()
		if anyHealthy {
			unhealthySince = time.Now()
			if report != nil && pos != lastPos {
				report(pos, capacity)
				lastPos = pos
			}
		} else if time.Since(unhealthySince) >= f.opts.NoneHealthy {
			return nil, status.Errorf(codes.Unavailable, "no healthy executor to run on for %s: %s", f.opts.NoneHealthy, f.describe(avoid))
		}
		select {
		case <-ctx.Done():
			return nil, status.FromContextError(ctx.Err()).Err()
		case <-changed:
		case <-time.After(f.opts.Poll):
		}
	}
}

// pickLocked returns the member with the most free sandboxes for w, or
// w's queue position (1 is next), the usable capacity and whether any
// usable member is healthy. A waiter may take a sandbox only when fewer
// waiters are ahead of it than there are free sandboxes. With no healthy
// member, a serving one whose engine does not answer is returned.
func (f *Fleet) pickLocked(w *waiter, avoid string) (*member, int, int, bool) {
	ahead := slices.Index(f.queue, w)
	var best, fallback *member
	free, capacity, healthy := 0, 0, false
	for _, m := range f.sortedLocked() {
		if m.addr != avoid && m.serving && !m.engineOK && fallback == nil && m.inflight < max(m.max, 1) {
			fallback = m
		}
		if m.addr == avoid || !m.healthy() {
			continue
		}
		healthy = true
		capacity += m.max
		free += m.free()
		if m.free() > 0 && (best == nil || m.free() > best.free()) {
			best = m
		}
	}
	if best != nil && ahead < free {
		return best, 0, capacity, true
	}
	if !healthy && fallback != nil {
		// No executor with a working engine: run where one at least
		// answers, so the caller gets that executor's own precise error
		// (which engine, which socket) at once instead of a wait.
		return fallback, 0, 0, false
	}
	return nil, ahead + 1, capacity, healthy
}

// sortedLocked lists the members in address order (a stable tie-break).
func (f *Fleet) sortedLocked() []*member {
	out := make([]*member, 0, len(f.members))
	for _, m := range f.members {
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].addr < out[j].addr })
	return out
}

// leave takes w out of the queue and lets the others move up.
func (f *Fleet) leave(w *waiter) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if i := slices.Index(f.queue, w); i >= 0 {
		f.queue = slices.Delete(f.queue, i, i+1)
	}
	f.wakeLocked()
}

// releaser returns a once-only release of a sandbox placed on m.
func (f *Fleet) releaser(m *member) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			f.mu.Lock()
			defer f.mu.Unlock()
			m.inflight--
			f.wakeLocked()
		})
	}
}

// markFull records that m refused an execution as full: it gets none
// until its next capacity answer says otherwise.
func (f *Fleet) markFull(m *member) {
	f.mu.Lock()
	defer f.mu.Unlock()
	m.reported = max(m.reported, m.max)
}

// describe says why no member can be used, for the error message.
func (f *Fleet) describe(avoid string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var parts []string
	for _, m := range f.sortedLocked() {
		switch {
		case m.addr == avoid:
			parts = append(parts, m.addr+" (the previous attempt failed there)")
		case !m.serving:
			parts = append(parts, m.addr+" (not serving)")
		case !m.engineOK:
			parts = append(parts, m.addr+" (its Docker engine does not answer)")
		}
	}
	if len(parts) == 0 {
		return "no executor is configured or resolved"
	}
	return strings.Join(parts, ", ")
}

// placed is an execution's stream on one member; it frees the sandbox
// when the stream ends.
type placed struct {
	grpc.ServerStreamingClient[glv1.ExecuteResponse]
	f        *Fleet
	ctx      context.Context
	req      *glv1.ExecuteRequest
	opts     []grpc.CallOption
	m        *member
	release  func()
	received bool
}

// start places the execution and opens its stream.
func (p *placed) start() error {
	m, err := p.f.place(p.ctx, avoided(p.ctx))
	if err != nil {
		return err
	}
	release := p.f.releaser(m)
	stop := context.AfterFunc(p.ctx, release)
	stream, err := m.client.Execute(p.ctx, p.req, p.opts...)
	if err != nil {
		stop()
		release()
		return err
	}
	p.ServerStreamingClient, p.m, p.release = stream, m, func() { stop(); release() }
	return nil
}

// Executor is the member's address.
func (p *placed) Executor() string { return p.m.addr }

// Recv receives the next event; the stream's end frees the sandbox. An
// executor that refuses the execution as full before sending anything
// (another loop filled it since the last capacity poll) ran nothing: the
// execution is placed again, waiting in the queue if need be, so a burst
// never reaches the caller as a failure.
func (p *placed) Recv() (*glv1.ExecuteResponse, error) {
	for {
		resp, err := p.ServerStreamingClient.Recv()
		if err == nil {
			p.received = true
			return resp, nil
		}
		p.release()
		if p.received || status.Code(err) != codes.ResourceExhausted || p.ctx.Err() != nil {
			return nil, err
		}
		p.f.markFull(p.m)
		p.f.log.Info("executor full, placing the execution again", zap.String("executor", p.m.addr), zap.Error(err))
		if err := p.start(); err != nil {
			return nil, err
		}
	}
}
