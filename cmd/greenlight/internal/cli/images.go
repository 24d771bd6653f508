package cli

import "github.com/greenlight-dev/greenlight/pkg/image"

// images resolves --images for the embedded stack: the name of an image
// set (offline or upstream). A repository's greenlight.yaml cannot choose
// a set; it can only pick single images from the server's allow-list.
func (a *app) images() (string, error) {
	if _, err := image.Set(a.imageSet); err != nil {
		return "", usagef("--images: %v", err)
	}
	return a.imageSet, nil
}
