package patch

import (
	"errors"
	"os"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// TestOutcomes checks the PatchOutcome helpers and Close.
func TestOutcomes(t *testing.T) {
	_, res := applyOK(t, calcFiles, envelope, Guardrails{})
	o := res.Outcome(2)
	if o.Attempt != 2 || !o.Applied || o.Format != glv1.PatchFormat_PATCH_FORMAT_ENVELOPE ||
		o.LinesAdded != 3 || o.LinesRemoved != 2 || len(o.Files) != 4 ||
		o.SnapshotAfter.GetHash() != res.Digest.Hash || o.Diff != res.Diff {
		t.Errorf("outcome %+v", o)
	}
	must(t, res.Close())
	if _, err := os.Stat(res.TarPath); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("tar still there after Close: %v", err)
	}

	p, err := Parse(edit("go.sum", "a", "b"))
	must(t, err)
	err = Check(p, Guardrails{})
	f := FailedOutcome(3, p, "raw", err)
	if f.Applied || f.Reason != err.Error() || f.Diff != p.Text || f.Files[0] != "go.sum" || f.LinesAdded != 1 {
		t.Errorf("failed outcome %+v", f)
	}
	if f := FailedOutcome(4, nil, "garbage", ErrNoPatch); f.Diff != "garbage" || f.Reason != ErrNoPatch.Error() {
		t.Errorf("unparsed outcome %+v", f)
	}
}
