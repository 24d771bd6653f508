package gatewaysvc

import (
	"context"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/gateway/internal/fanout"
)

// ownedWatch attaches a watcher to the fan-out only after the loop showed
// the run to the watcher's own identity: the shared upstream stream sees
// every run (fanoutIdentity), so without this a tenant could follow, or
// read back through the window, another tenant's run. A run the caller
// may not see is the loop's NotFound, as for a run that does not exist.
type ownedWatch struct {
	runs glv1.RunServiceClient
	hub  *fanout.Hub
}

// Watch implements web.Watcher and serves WatchRun.
func (w ownedWatch) Watch(ctx context.Context, runID string, after uint64, send func(*glv1.RunEvent) error) error {
	if runID != "" {
		if _, err := w.runs.GetRun(upstreamContext(ctx), &glv1.GetRunRequest{RunId: runID}); err != nil {
			return err
		}
	}
	return w.hub.Watch(ctx, runID, after, send)
}
