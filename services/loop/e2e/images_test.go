package e2e_test

import (
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// TestVerifyRefusesRepoImageOutsideAllowList is ADVERSARIAL row 40 end to
// end: a repository's greenlight.yaml names a local image of something
// else (here greenlight's own engine probe). Discovery refuses the config,
// naming the file, the image and the allow-list; nothing runs. (The
// executor's own refusal and the warm pool are covered by executorsvc's
// TestForeignImageRefusedAndNeverPooled.)
func TestVerifyRefusesRepoImageOutsideAllowList(t *testing.T) {
	s := newStack(t)
	const foreign = "greenlight/engine-probe:tini"
	files := fixedCalc()
	files["greenlight.yaml"] = "images:\n  python: " + foreign + "\n"
	evs := s.verify(&glv1.VerifyRequest{Snapshot: s.snapshot(files)})
	fin := finished(evs)
	if fin.GetStatus() == glv1.RunStatus_RUN_STATUS_PASSED {
		t.Fatalf("a run in a foreign image passed")
	}
	run, err := s.runs.GetRun(s.ctx(), &glv1.GetRunRequest{RunId: evs[0].GetRunId()})
	if err != nil {
		t.Fatal(err)
	}
	msg := run.GetRun().GetError() + " " + fin.GetResult().GetSummary()
	for _, want := range []string{"greenlight.yaml:2", "images.python", foreign, "allow-list (", pythonImage} {
		if !strings.Contains(msg, want) {
			t.Errorf("refusal %q does not name %q", msg, want)
		}
	}
	for _, ev := range evs {
		if ev.GetStepStarted() != nil {
			t.Errorf("a step started: %v", ev)
		}
	}
}
