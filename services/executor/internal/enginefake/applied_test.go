package enginefake_test

import (
	"context"
	"fmt"

	"github.com/greenlight-dev/greenlight/services/executor/internal/enginefake"
	"github.com/greenlight-dev/greenlight/services/executor/internal/runtimetest"
	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
)

// applied reads back the spec the fake keeps for a live container; the
// fake mounts nothing of the host's and runs nothing privileged.
func applied(eng *enginefake.Engine) func(context.Context, string) (runtimetest.Applied, error) {
	return func(_ context.Context, id string) (runtimetest.Applied, error) {
		for _, c := range eng.Containers() {
			if c.ID == id {
				return runtimetest.Applied{Spec: c.Spec}, nil
			}
		}
		return runtimetest.Applied{}, fmt.Errorf("%w: %s", sandbox.ErrContainerNotFound, id)
	}
}
