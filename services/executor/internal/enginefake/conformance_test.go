package enginefake_test

import (
	"testing"

	"github.com/greenlight-dev/greenlight/services/executor/internal/enginefake"
	"github.com/greenlight-dev/greenlight/services/executor/internal/runtimetest"
)

// The fake passes the conformance suite every driver passes, without an
// engine; the probes from inside a container skip (it isolates nothing).
func TestConformance(t *testing.T) {
	eng, err := enginefake.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := eng.Close(); err != nil {
			t.Errorf("closing the fake engine: %v", err)
		}
	})
	const image = "greenlight/sandbox-conformance:latest"
	eng.Add(enginefake.NewImage(image, true))
	runtimetest.Run(t, runtimetest.Harness{Runtime: eng, Image: image, Applied: applied(eng)})
}
