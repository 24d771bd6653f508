package docker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/image"

	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
)

var _ sandbox.Puller = (*Runtime)(nil)

// pullMessage is the part of a pull progress message that reports failure.
type pullMessage struct {
	Error       string `json:"error"`
	ErrorDetail struct {
		Message string `json:"message"`
	} `json:"errorDetail"`
}

// Pull fetches ref from its registry, bounded by ctx (not by the call
// timeout: a pull takes as long as the image is large). The engine reports
// a failed pull either as the API call's error or inside the progress
// stream, so the stream is read to its end.
func (r *Runtime) Pull(ctx context.Context, ref string) error {
	if err := r.call(ctx, "ping", r.negotiate); err != nil {
		return err
	}
	rc, err := r.cli.ImagePull(ctx, ref, image.PullOptions{})
	if cerrdefs.IsNotFound(err) {
		// No such repository or tag: the image, not a container.
		return fmt.Errorf("%w: image pull %s: %v", sandbox.ErrImageNotFound, ref, err)
	}
	if err != nil {
		return mapErr("image pull", err)
	}
	defer rc.Close()
	dec := json.NewDecoder(rc)
	for {
		var m pullMessage
		err := dec.Decode(&m)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return mapErr("image pull", err)
		}
		if m.ErrorDetail.Message != "" {
			return fmt.Errorf("image pull: %s", m.ErrorDetail.Message)
		}
		if m.Error != "" {
			return fmt.Errorf("image pull: %s", m.Error)
		}
	}
}
