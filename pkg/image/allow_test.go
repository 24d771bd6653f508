package image

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/pkg/toolchain/rust"
)

func TestAllowList(t *testing.T) {
	a := NewAllowList(Defaults(), "python:3.12-slim", " ", "")
	for _, ok := range []string{OfflinePython, OfflineGo, "python:3.12-slim"} {
		if err := a.Check(ok); err != nil {
			t.Errorf("Check(%s): %v", ok, err)
		}
	}
	err := a.Check("postgres:16")
	if !errors.Is(err, ErrNotAllowed) || !strings.Contains(err.Error(), `"postgres:16"`) ||
		!strings.Contains(err.Error(), rust.OfflineImage+", python:3.12-slim") {
		t.Errorf("Check(postgres:16) = %v, want ErrNotAllowed naming the image and the list", err)
	}
	if a.Allows("docker.io/library/python:3.12-slim") {
		t.Error("references match exactly")
	}
	if got := NewAllowList(nil).String(); got != "none" {
		t.Errorf("empty list = %q", got)
	}
	if d := DefaultAllowed(); len(d) != 6 || !slices.Contains(d, UpstreamJava) || !slices.Contains(d, UpstreamMaven) ||
		!slices.IsSorted(d) {
		t.Errorf("DefaultAllowed() = %v", d)
	}
}
