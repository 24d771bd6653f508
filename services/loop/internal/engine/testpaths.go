package engine

import (
	"context"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/greenlight-dev/greenlight/services/loop/internal/score"
	"github.com/greenlight-dev/greenlight/services/loop/internal/verdict"
)

// baselineTestPaths lists the workspace files the baseline verification
// collected tests from, whatever their names: the grader owns them, so a
// patch may not add, edit or delete them (patch.Guardrails.TestPaths).
// Names alone miss a suite whose files are called checks.py or
// spec_helpers.js; what the runner really collected does not. A path is
// kept only when the baseline tree holds that file (fsys nil: every
// candidate is kept, which can only refuse more).
func baselineTestPaths(outcomes []score.StepOutcome, fsys fs.FS) []string {
	seen := map[string]bool{}
	add := func(workdir, p string) {
		if p == "" {
			return
		}
		p = path.Clean(path.Join(workdir, strings.TrimPrefix(p, "./")))
		if p == "." || strings.HasPrefix(p, "../") || strings.HasPrefix(p, "/") || seen[p] {
			return
		}
		if fsys != nil {
			if st, err := fs.Stat(fsys, p); err != nil || st.IsDir() {
				return
			}
		}
		seen[p] = true
	}
	for _, o := range outcomes {
		rep := o.Report
		if rep == nil || !rep.HasTests {
			continue
		}
		dir := o.Step.GetWorkdir()
		// Ids only: a test record's File is where its failure was
		// located, which can be the code under test.
		for _, t := range rep.Tests {
			for _, c := range verdict.TestIDFiles(t.ID) {
				add(dir, c)
			}
		}
		for _, t := range rep.Inventory {
			for _, c := range verdict.TestIDFiles(t.ID) {
				add(dir, c)
			}
		}
	}
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// baselineTests computes the grader's test paths once the baseline ran;
// without the baseline's tree every candidate counts.
func (f *fixer) baselineTests(ctx context.Context) []string {
	if f.baseline == nil {
		return nil
	}
	fsys, err := f.tr.fs(ctx, f.baseline.spec.snapshot)
	if err != nil {
		fsys = nil
	}
	return baselineTestPaths(f.baseline.outcomes, fsys)
}
