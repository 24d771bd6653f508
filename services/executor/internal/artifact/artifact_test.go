package artifact

import (
	"context"
	"errors"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
)

func TestStepLogPath(t *testing.T) {
	cases := map[string]string{"install": "logs/step-03-install.log", "web:lint": "logs/step-03-web-lint.log",
		"../../etc": "logs/step-03-etc.log", "...": "logs/step-03-step.log"}
	for name, want := range cases {
		if got := StepLogPath(2, name); got != want {
			t.Errorf("StepLogPath(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestWriteRefusesUnsafePaths(t *testing.T) {
	store, err := blob.NewStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	d := blob.DigestOf(nil).Proto()
	for _, tc := range []struct{ run, path string }{{"../x", "manifest.json"}, {"r", "../../x"}, {"r", "/etc/x"}, {"r", "a/../../x"}} {
		err := Write(context.Background(), store, t.TempDir(), tc.run, []*glv1.Artifact{{Path: tc.path, Digest: d}})
		if !errors.Is(err, ErrUnsafePath) {
			t.Errorf("Write(%q, %q) = %v", tc.run, tc.path, err)
		}
	}
}
