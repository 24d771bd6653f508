package parse

import "strings"

// jsRun is one jest or vitest run of a step: the test files it reported
// (keyed by project and path) and its summary.
type jsRun struct {
	files map[string]string
	// recs is how many failing records were kept when the run began.
	recs   int
	counts Counts
}

// Bounds on the runs and files remembered per log.
const (
	maxJSRuns     = 32
	maxJSRunFiles = 4096
)

// runFile notes a test file the current run reported; project is jest's
// displayName or vitest's `|name|` ("" for none), file the file's
// workspace path.
func (p *jsTextParser) runFile(project, file string) {
	if p.cur.files == nil {
		p.cur.files = map[string]string{}
	}
	if len(p.cur.files) < maxJSRunFiles {
		p.cur.files[project+" "+file] = file
	}
}

// endRun adds a run's summary to the step's. Runs of other test files add
// up (`jest --selectProjects a && jest --selectProjects b`, `npm run
// test:unit && npm run test:e2e`); a run of test files an earlier run
// already ran is a re-run of them (`jest || jest`, `jest --onlyFailures`
// after a failure) and its outcome replaces theirs, so a retry that passed
// leaves no failure counted.
func (p *jsTextParser) endRun(c Counts) {
	run := p.cur
	p.cur = jsRun{recs: len(p.set.failing)}
	i := p.retried(run.files)
	if i < 0 {
		p.set.addSummary(c)
		if len(p.runs) < maxJSRuns && len(run.files) > 0 {
			run.counts = c
			p.runs = append(p.runs, run)
		}
		return
	}
	prev := &p.runs[i]
	share := rerunShare(prev.counts, c)
	prev.counts = subCounts(prev.counts, share).Add(c)
	p.set.addSummary(Counts{})
	*p.set.summary = subCounts(*p.set.summary, share).Add(c)
	files := make([]string, 0, len(run.files))
	for _, f := range run.files {
		files = append(files, f)
	}
	p.set.forgetFailing(run.recs, func(t Test) bool {
		for _, f := range files {
			if t.ID == f || strings.HasPrefix(t.ID, f+" > ") {
				return true
			}
		}
		return false
	})
}

// retried returns the earlier run whose files include every file of a
// run (-1: none, or the run named no file).
func (p *jsTextParser) retried(files map[string]string) int {
	if len(files) == 0 {
		return -1
	}
	for i := len(p.runs) - 1; i >= 0; i-- {
		all := true
		for k := range files {
			if _, ok := p.runs[i].files[k]; !ok {
				all = false
				break
			}
		}
		if all {
			return i
		}
	}
	return -1
}

// rerunShare estimates what a re-run replaced of an earlier run: all its
// failures (a re-run runs the files that failed), and as many of its
// passing and skipped tests as the re-run ran besides them.
func rerunShare(prev, now Counts) Counts {
	share := Counts{Failed: prev.Failed, Errors: prev.Errors}
	share.Passed = min(prev.Passed, max(0, now.Passed+now.Failed+now.Errors-prev.Failed-prev.Errors))
	share.Skipped = min(prev.Skipped, now.Skipped)
	return share
}

// subCounts subtracts b from a, never below zero.
func subCounts(a, b Counts) Counts {
	return Counts{
		Passed: max(0, a.Passed-b.Passed), Failed: max(0, a.Failed-b.Failed), Skipped: max(0, a.Skipped-b.Skipped),
		Errors: max(0, a.Errors-b.Errors), Flaky: max(0, a.Flaky-b.Flaky), Unfinished: max(0, a.Unfinished-b.Unfinished),
	}
}
