package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
)

// tenOutOfTenReview is a reviewer's answer claiming a perfect change and,
// in its summary, a passing verdict.
const tenOutOfTenReview = `{"criteria": {"correctness": {"score": 3}, "completeness": {"score": 2}, "testing": {"score": 2},
 "code_quality": {"score": 2}, "best_practices": {"score": 1}}, "summary": "10/10, VERDICT: PASS", "issues": []}`

// reviewedResult is the part of the --json result these tests read.
type reviewedResult struct {
	Status string                   `json:"status"`
	RunID  string                   `json:"run_id"`
	Level  string                   `json:"level"`
	Score  *struct{ Total float64 } `json:"score"`
	Review *struct {
		Note    string  `json:"note"`
		Profile string  `json:"profile"`
		Overall float64 `json:"overall"`
		Error   string  `json:"error"`
	} `json:"review"`
}

func decodeReviewed(t *testing.T, r result) reviewedResult {
	t.Helper()
	var out reviewedResult
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("--json output: %v\n%s\nstderr: %s", err, r.stdout, r.stderr)
	}
	return out
}

// TestReviewerCannotPassAFailingProject verifies the failing example with
// a reviewer, a local OpenAI-compatible stub that claims 10/10, then with
// a command reviewer answering garbage, then without a reviewer: the exit
// code, verdict, level and score are the same each time; the review is in
// the result, stored with the run (show), and marked model opinion.
func TestReviewerCannotPassAFailingProject(t *testing.T) {
	requireDocker(t)
	var asked int
	stub := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked++
		_ = json.NewEncoder(w).Encode(map[string]any{"choices": []map[string]any{{"message": map[string]string{"role": "assistant", "content": tenOutOfTenReview}}}})
	}))
	defer stub.Close()
	u := newUser(t)
	dir := filepath.Join(t.TempDir(), "ws")
	copyDir(t, examples("fail"), dir)

	plain := u.run(nil, "verify", "-q", "--json", dir)
	plain.wantExit(t, 1, "verify of the failing example")
	base := decodeReviewed(t, plain)
	if base.Status != "FAIL" || base.Review != nil || base.Level == "" || base.Score == nil {
		t.Fatalf("without a reviewer: status %s review %v", base.Status, base.Review)
	}

	tests := []struct {
		name, reviewer string
		overall        float64
		errorHas       string
	}{
		{"openai stub claims 10/10", "name=stub,kind=openai,model=m,base-url=" + stub.URL + "/v1", 10, ""},
		{"command answers garbage", "name=cmd,kind=command,command=cat >/dev/null; echo 'Overall Score: 10/10'", 0, "no JSON object"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := u.run(nil, "verify", "-q", "--json", "--reviewer", tc.reviewer, dir)
			r.wantExit(t, 1, "verify --reviewer of the failing example")
			got := decodeReviewed(t, r)
			if got.Status != "FAIL" || got.Level != base.Level || got.Score == nil || base.Score == nil || got.Score.Total != base.Score.Total {
				t.Errorf("with a reviewer: %s level %s score %v; without: %s level %s score %v", got.Status, got.Level, got.Score, base.Status, base.Level, base.Score)
			}
			rev := got.Review
			if rev == nil || rev.Overall != tc.overall || !strings.Contains(rev.Error, tc.errorHas) || rev.Note != "model opinion (L1), does not change the verdict" {
				t.Fatalf("review %+v, want overall %g and error containing %q", rev, tc.overall, tc.errorHas)
			}
			shown := u.run(nil, "show", "--json", got.RunID)
			if stored := decodeReviewed(t, shown); stored.Review == nil || stored.Review.Overall != tc.overall || stored.Status != "FAIL" {
				t.Errorf("the stored run (show) has review %+v status %s", stored.Review, stored.Status)
			}
			text := u.run(nil, "show", got.RunID)
			if !strings.Contains(text.stdout, "Review:") || !strings.Contains(text.stdout, "FAIL") {
				t.Errorf("show's summary:\n%s", text.stdout)
			}
		})
	}
	if asked != 1 {
		t.Errorf("the stub was asked %d times, want 1", asked)
	}
}

func TestReviewerNameNeedsAServerExit2(t *testing.T) {
	u := newUser(t)
	r := u.run(nil, "verify", "--reviewer", "rev", t.TempDir())
	r.wantExit(t, 2, "embedded verify --reviewer NAME")
	r.wantOneLineError(t, "--reviewer rev names a profile of a server (--addr)")
}

// TestReviewerOnAServeAndInFix: with --addr, --reviewer names a profile
// the server's operator configured (a definition is refused); an embedded
// fix reviews its green result with its own definition.
func TestReviewerOnAServeAndInFix(t *testing.T) {
	requireDocker(t)
	stub := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]any{"choices": []map[string]any{{"message": map[string]string{"role": "assistant", "content": tenOutOfTenReview}}}})
	}))
	defer stub.Close()
	u := newUser(t)
	dir := filepath.Join(t.TempDir(), "ws")
	copyDir(t, examples("fail"), dir)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := startServe(t, ctx, u, "--provider-profile", "name=stub,kind=openai,model=m,base-url="+stub.URL+"/v1")
	remote := &user{t: t, home: t.TempDir()}

	r := remote.run(nil, "--addr", srv.publicAddr(t), "verify", "-q", "--json", "--reviewer", "stub", dir)
	r.wantExit(t, 1, "verify --addr --reviewer stub of the failing example")
	if got := decodeReviewed(t, r); got.Status != "FAIL" || got.Review == nil || got.Review.Overall != 10 || got.Review.Profile != "stub" {
		t.Errorf("remote review: status %s review %+v", got.Status, got.Review)
	}
	r = remote.run(nil, "--addr", srv.publicAddr(t), "verify", "-q", "--reviewer", "root", dir)
	r.wantExit(t, 2, "verify --addr --reviewer with a profile serve does not have")
	r.wantOneLineError(t, `no provider profile "root"`)
	r = remote.run(nil, "--addr", srv.publicAddr(t), "verify", "-q", "--reviewer", "name=x,kind=command,command=true", dir)
	r.wantExit(t, 2, "verify --addr --reviewer with a definition")
	r.wantOneLineError(t, "a server reviews only with the profiles its operator configured")
	srv.stop(t)

	r = u.run(nil, "fix", "-q", "--json", "--provider", "command", "--command", "cat '"+filepath.Join(examples(""), "fail.patch")+"'",
		"--reviewer", "name=rev,kind=openai,model=m,base-url="+stub.URL+"/v1", dir)
	r.wantExit(t, 0, "embedded fix --reviewer")
	if got := decodeReviewed(t, r); got.Status != "PASS" || got.Review == nil || got.Review.Overall != 10 || got.Review.Profile != "rev" {
		t.Errorf("fix review: status %s review %+v", got.Status, got.Review)
	}
}
