package cli

import (
	"context"

	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/stack"
	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/summary"
	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// eventJSON renders one event as a line of JSON by the output contract's
// rules (short enum names, every field present, "kind" names the event).
func eventJSON(ev *glv1.RunEvent) ([]byte, error) { return summary.EventJSONLine(ev) }

// watchJSON prints a run's events as JSON lines until it finishes.
func (a *app) watchJSON(ctx context.Context, conn *stack.Conn, recv recvFunc) error {
	sink := &jsonSink{a: a}
	runID, fin, err := follow(ctx, conn, recv, sink)
	if err != nil {
		return err
	}
	if sink.err != nil {
		return sink.err
	}
	return verdictExit(finalRun(ctx, conn, runID, fin))
}
