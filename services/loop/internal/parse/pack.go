package parse

import (
	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/toolchain"
	"github.com/greenlight-dev/greenlight/pkg/toolchain/packs"
)

// packParser is a toolchain pack's parser (pkg/toolchain) with the test set
// it reports to.
type packParser struct {
	format string
	rank   int
	lp     toolchain.LineParser
	rec    *recorder
}

// newPackParsers returns the parsers of every registered pack that has one.
func newPackParsers(lim *Limits, paths *Paths) []packParser {
	var out []packParser
	for _, p := range packs.Registry.All() {
		rec := &recorder{lim: lim, set: newTestSet(lim)}
		rec.fp.paths = paths
		if lp := p.NewParser(rec); lp != nil {
			s := p.Spec()
			out = append(out, packParser{format: s.Format, rank: s.Rank, lp: lp, rec: rec})
		}
	}
	return out
}

// recorder is the toolchain.Recorder of one pack parser: it bounds what it
// keeps the way every built-in parser does (testSet, Limits).
type recorder struct {
	lim *Limits
	set *testSet
	fp  frameParser
}

var packStatus = map[toolchain.Status]Status{
	toolchain.Passed: StatusPassed, toolchain.Failed: StatusFailed,
	toolchain.Skipped: StatusSkipped, toolchain.Errored: StatusError,
}

func (r *recorder) Test(t toolchain.Test) {
	r.set.add(Test{ID: t.ID, Name: t.Name, Status: packStatus[t.Status], Offset: t.Offset})
}

func (r *recorder) Summary(c toolchain.Counts) {
	r.set.addSummary(Counts{Passed: c.Passed, Failed: c.Failed, Skipped: c.Skipped})
}

// Fail attaches the failure to the kept failing record; its location is
// the first frame in the project's own code.
func (r *recorder) Fail(id string, f toolchain.Failure) {
	frames := make([]Frame, 0, min(len(f.Frames), r.lim.MaxFrames))
	for _, fr := range f.Frames[:min(len(f.Frames), r.lim.MaxFrames)] {
		frames = append(frames, Frame(fr))
	}
	kind := glv1.FailureKind_FAILURE_KIND_TEST_ERROR
	if f.Assertion {
		kind = glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION
	}
	r.set.updateFailing(id, func(t *Test) {
		t.Message, t.Frames, t.kind = capString(f.Message, r.lim.MaxMessageBytes), frames, kind
		if fr, ok := firstProject(frames); ok {
			t.File, t.Line = fr.File, fr.Line
		}
	})
}

func (r *recorder) Frame(file string, line, column int, fn string) toolchain.Frame {
	rel, project := r.fp.paths.Normalize(file)
	return toolchain.Frame{File: rel, Line: line, Column: column, Func: fn, Project: project}
}

func (r *recorder) ParseFrame(text []byte) (toolchain.Frame, bool) {
	f, ok := r.fp.parse(text, false)
	return toolchain.Frame(f), ok
}

func (r *recorder) MaxMessageBytes() int { return r.lim.MaxMessageBytes }
