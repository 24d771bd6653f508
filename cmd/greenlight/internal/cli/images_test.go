package cli

import (
	"errors"
	"strings"
	"testing"
)

func TestImagesFlag(t *testing.T) {
	for _, set := range []string{"offline", "upstream", ""} {
		a := &app{imageSet: set}
		if got, err := a.images(); err != nil || got != set {
			t.Errorf("--images %q = %q, %v", set, got, err)
		}
	}
	a := &app{imageSet: "docker.io"}
	_, err := a.images()
	var ue *usageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), `--images: unknown image set "docker.io"`) {
		t.Errorf("--images docker.io: %v, want a usage error (exit 2)", err)
	}
}
