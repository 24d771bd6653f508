package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// heartbeatEvery keeps idle event streams alive through proxies.
const heartbeatEvery = 15 * time.Second

// retryMillis is the reconnect delay the browser is told to use.
const retryMillis = 2000

// serveEvents streams the run's events as Server-Sent Events from the
// fan-out hub, so browsers share the run's one upstream stream with every
// other watcher. Each event carries id: seq, so a reconnecting browser's
// Last-Event-ID resumes exactly where it left off.
func (h *handler) serveEvents(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	after, err := resumePoint(r)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	sse := &sseWriter{w: w, rc: http.NewResponseController(w)}
	go sse.heartbeat(ctx)
	err = h.Watch.Watch(ctx, id, after, sse.event)
	cancel()
	switch {
	case err == nil, r.Context().Err() != nil:
		// The run finished, or the browser left.
	case !sse.started():
		h.upstreamError(w, err, id)
	default:
		if status.Code(err) != codes.Unavailable {
			h.Log.Warn("event stream ended with an error", zap.String("run_id", id), zap.Error(err))
		}
	}
}

// resumePoint is the seq to resume after: Last-Event-ID (a reconnecting
// browser) or ?after=, else 0.
func resumePoint(r *http.Request) (uint64, error) {
	v := r.Header.Get("Last-Event-ID")
	if v == "" {
		v = r.URL.Query().Get("after")
	}
	if v == "" {
		return 0, nil
	}
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("bad resume point %q: want a seq number", v)
	}
	return n, nil
}

// sseWriter writes one event stream. Headers go out with the first event,
// so an error before any event can still get a proper HTTP status.
type sseWriter struct {
	w  http.ResponseWriter
	rc *http.ResponseController

	mu    sync.Mutex
	begun bool
}

func (s *sseWriter) started() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.begun
}

// beginLocked sends the headers and the reconnect delay once.
func (s *sseWriter) beginLocked() {
	if s.begun {
		return
	}
	s.begun = true
	h := s.w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("X-Accel-Buffering", "no")
	s.w.WriteHeader(http.StatusOK)
	_, _ = fmt.Fprintf(s.w, "retry: %d\n\n", retryMillis)
}

// event writes ev if the page shows it.
func (s *sseWriter) event(ev *glv1.RunEvent) error {
	name, payload := pageEvent(ev)
	if name == "" {
		return nil
	}
	data, err := json.Marshal(payload)
	if err != nil {
		return fmt.Errorf("encode %s event: %w", name, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.beginLocked()
	if _, err := fmt.Fprintf(s.w, "id: %d\nevent: %s\ndata: %s\n\n", ev.GetSeq(), name, data); err != nil {
		return err
	}
	return s.rc.Flush()
}

// heartbeat writes a comment line now and then until ctx ends.
func (s *sseWriter) heartbeat(ctx context.Context) {
	t := time.NewTicker(heartbeatEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		s.mu.Lock()
		s.beginLocked()
		_, _ = fmt.Fprint(s.w, ": ping\n\n")
		_ = s.rc.Flush()
		s.mu.Unlock()
	}
}
