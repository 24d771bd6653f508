package e2e_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/enginetest"
)

// TestFixHiddenTestsWithRealPytest: a patch that hard-codes f(2) == 4 goes
// green on the visible test alone; with the caller's hidden test (f(3) ==
// 9) the same patch fails its grading verification and the run is not
// green, while the honest patch is; the provider's requests never hold
// anything of the hidden test file.
func TestFixHiddenTestsWithRealPytest(t *testing.T) {
	s := newStack(t)
	hidden, err := s.blobs.Put(context.Background(), strings.NewReader(enginetest.SquareHidden))
	if err != nil {
		t.Fatal(err)
	}
	run := func(t *testing.T, withHidden bool, patches ...string) (*glv1.RunFinished, []string) {
		t.Helper()
		clearRequests(t, s.providerDir)
		prov, dir := s.commandProvider(t, patches...)
		opts := &glv1.FixOptions{Provider: prov, MaxRounds: 2}
		if withHidden {
			opts.HiddenTests = hidden.Proto()
		}
		fin := finished(s.fix(&glv1.FixStart{Snapshot: s.snapshot(enginetest.SquareFiles), Options: opts}))
		return fin, readRequests(t, dir)
	}

	t.Run("hard-coding without hidden tests is green", func(t *testing.T) {
		fin, _ := run(t, false, enginetest.SquareHardCode)
		if !fin.GetMetrics().GetGreen() || fin.GetStatus() != glv1.RunStatus_RUN_STATUS_PASSED {
			t.Fatalf("status %s metrics %v: %s", fin.GetStatus(), fin.GetMetrics(), fin.GetResult().GetSummary())
		}
	})
	t.Run("hard-coding with hidden tests is not green", func(t *testing.T) {
		fin, reqs := run(t, true, enginetest.SquareHardCode)
		m := fin.GetMetrics()
		if m.GetGreen() || fin.GetStatus() == glv1.RunStatus_RUN_STATUS_PASSED {
			t.Fatalf("green with the hard-coding patch: %s %v", fin.GetStatus(), m)
		}
		if ht := m.GetHiddenTests(); ht.GetFailed() != 1 || ht.GetPassed() != 0 || len(ht.GetFailing()) != 1 ||
			!strings.Contains(ht.GetFailing()[0], "test_three") {
			t.Errorf("hidden tests in the result %v; want test_three failing", ht)
		}
		if len(reqs) != 2 {
			t.Fatalf("%d requests, want 2", len(reqs))
		}
		for i, req := range reqs {
			for _, w := range enginetest.SquareHiddenWords {
				if strings.Contains(req, w) {
					t.Errorf("request %d holds %q of the hidden test:\n%s", i+1, w, req)
				}
			}
		}
		if !strings.Contains(reqs[1], "1 hidden test fails") {
			t.Errorf("the second request does not say a hidden test fails:\n%.2000s", reqs[1])
		}
	})
	t.Run("the honest patch is green with hidden tests", func(t *testing.T) {
		fin, reqs := run(t, true, enginetest.SquareHonest)
		m := fin.GetMetrics()
		if !m.GetGreen() || fin.GetStatus() != glv1.RunStatus_RUN_STATUS_PASSED || m.GetHiddenTests().GetPassed() != 1 {
			t.Fatalf("status %s metrics %v: %s", fin.GetStatus(), m, fin.GetResult().GetSummary())
		}
		if c := fin.GetResult().GetCounts(); c.GetPassed() != 2 || c.GetFailed() != 0 {
			t.Errorf("final counts %v; want the visible and the hidden test passed", c)
		}
		for i, req := range reqs {
			if strings.Contains(req, "test_sq_hidden") || strings.Contains(req, "test_three") {
				t.Errorf("request %d names the hidden test:\n%s", i+1, req)
			}
		}
	})
}

// clearRequests removes the requests a command provider recorded.
func clearRequests(t *testing.T, dir string) {
	t.Helper()
	old, _ := filepath.Glob(filepath.Join(dir, "request-*"))
	for _, f := range old {
		if err := os.Remove(f); err != nil {
			t.Fatal(err)
		}
	}
}

// readRequests returns the requests a command provider recorded, in order.
func readRequests(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	for i := 0; ; i++ {
		b, err := os.ReadFile(filepath.Join(dir, "request-"+strconv.Itoa(i)+".json"))
		if err != nil {
			return out
		}
		out = append(out, string(b))
	}
}
