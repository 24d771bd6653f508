package executorsvc

import (
	"fmt"

	"github.com/greenlight-dev/greenlight/pkg/image"
	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
)

// checkImages refuses a request naming an image outside the allow-list. The
// executor owns the Docker socket, so it checks even though discovery
// already did: a pipeline may come from any client, and without this a
// repository could run its steps in any image the engine holds (another
// service's, say).
func checkImages(req sandbox.Request, allowed image.AllowList) error {
	if req.Image != "" {
		if err := allowed.Check(req.Image); err != nil {
			return fmt.Errorf("pipeline image: %w", err)
		}
	}
	for _, s := range req.Steps {
		if s.Image == "" {
			continue
		}
		if err := allowed.Check(s.Image); err != nil {
			return fmt.Errorf("step %q image: %w", s.Name, err)
		}
	}
	return nil
}
