package kube

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
)

// The image inventory: the API server cannot inspect a node's images, so
// whoever loads the images onto the nodes (scripts/kube-cluster.sh)
// publishes what `docker image inspect` says of them in a ConfigMap of
// the sandbox namespace, key ImagesKey: a JSON object from image
// reference to sandbox.ImageInfo's fields. Pods use imagePullPolicy
// Never, so an image missing from the nodes fails Start the same way.
const (
	ImagesConfigMap = "greenlight-images"
	ImagesKey       = "images.json"
)

// Image describes an image from the inventory; a reference it does not
// list is sandbox.ErrImageNotFound, as is a missing inventory.
func (r *Runtime) Image(ctx context.Context, ref string) (sandbox.ImageInfo, error) {
	var images map[string]sandbox.ImageInfo
	err := r.call(ctx, "image inventory", func(ctx context.Context) error {
		cm, err := r.cs.CoreV1().ConfigMaps(r.namespace).Get(ctx, ImagesConfigMap, getOptions())
		if err != nil {
			return err
		}
		if err := json.Unmarshal([]byte(cm.Data[ImagesKey]), &images); err != nil {
			return fmt.Errorf("configmap %s/%s key %s: %w", r.namespace, ImagesConfigMap, ImagesKey, err)
		}
		return nil
	})
	if errors.Is(err, sandbox.ErrContainerNotFound) {
		return sandbox.ImageInfo{}, fmt.Errorf("%w: %s (no image inventory: configmap %s/%s is missing)",
			sandbox.ErrImageNotFound, ref, r.namespace, ImagesConfigMap)
	}
	if err != nil {
		return sandbox.ImageInfo{}, err
	}
	info, ok := images[ref]
	if !ok {
		return sandbox.ImageInfo{}, fmt.Errorf("%w: %s (not in configmap %s/%s)", sandbox.ErrImageNotFound, ref, r.namespace, ImagesConfigMap)
	}
	info.Ref = ref
	return info, nil
}
