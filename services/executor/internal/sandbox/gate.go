package sandbox

import (
	"io"
	"sync"
)

// GatedWriter passes writes to W until Close, then drops them. A runtime's
// Exec hands ExecSpec.Stdout/Stderr through one, because its stream copies
// may outlive the call and the caller's writers must not be written after
// Exec returns. A nil W discards.
type GatedWriter struct {
	W      io.Writer
	mu     sync.Mutex
	closed bool
}

// Write forwards p to W unless the gate is closed; it always reports all
// of p written, so a dropped write never fails the stream.
func (g *GatedWriter) Write(p []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed || g.W == nil {
		return len(p), nil
	}
	return g.W.Write(p)
}

// Close stops forwarding; a Write in progress finishes first.
func (g *GatedWriter) Close() {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
}
