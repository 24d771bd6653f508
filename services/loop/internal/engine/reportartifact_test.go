package engine

import (
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// Several subprojects' go-test steps write the same report path: each
// step parses its own, never the first one with the same base name.
func TestReportArtifactIsTheStepsOwn(t *testing.T) {
	const want = "/tmp/greenlight/reports/go-test.jsonl"
	arts := []*glv1.Artifact{
		{Path: "logs/step-03-go-test.log"},
		{Path: "reports/step-03-go-test/tmp/greenlight/reports/go-test.jsonl", Digest: &glv1.Digest{Hash: "root"}},
		{Path: "reports/step-06-alpha-go-test/tmp/greenlight/reports/go-test.jsonl", Digest: &glv1.Digest{Hash: "alpha"}},
		{Path: "reports/step-09-beta-go-test/tmp/greenlight/reports/go-test.jsonl", Digest: &glv1.Digest{Hash: "beta"}},
	}
	for step, hash := range map[string]string{"go-test": "root", "alpha:go-test": "alpha", "beta:go-test": "beta", "gamma:go-test": ""} {
		if got := reportArtifact(arts, step, want).GetDigest().GetHash(); got != hash {
			t.Errorf("%s: report %q, want %q", step, got, hash)
		}
	}
}
