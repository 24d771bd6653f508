package engine

import (
	"fmt"
	"path"
	"sort"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
	"github.com/greenlight-dev/greenlight/services/loop/internal/transition"
	"github.com/greenlight-dev/greenlight/services/loop/internal/verdict"
)

// maxHiddenFailing bounds HiddenTests.failing.
const maxHiddenFailing = 100

// noHiddenTest stands for the hidden tests when not one of them was
// collected, in either the baseline's grading verification or the
// candidate's: a grader that ran nothing cannot pass anything.
const noHiddenTest = "(no test collected from the hidden test files)"

// hiddenState grades the hidden targets in a grading verification v:
// with FixOptions.hidden_targets, each named id (a missing one fails);
// otherwise every test collected from a hidden file in v or in the
// baseline's grading verification (one that is not collected now fails;
// a file-level error of the baseline that is gone is no test).
func (f *fixer) hiddenState(v *verification) *glv1.HiddenTests {
	h := f.hidden
	if h == nil || v == nil {
		return nil
	}
	cur := transition.SideOf(v.outcomes)
	st := &glv1.HiddenTests{}
	fail := func(id string, missing bool) {
		st.Failed++
		if missing {
			st.Missing++
		}
		if len(st.Failing) < maxHiddenFailing {
			st.Failing = append(st.Failing, id)
		}
	}
	if len(h.targets) > 0 {
		for _, id := range h.targets {
			keys := cur.Named(id)
			ok := len(keys) > 0
			for _, k := range keys {
				ok = ok && cur.Passing(k)
			}
			if ok {
				st.Passed++
			} else {
				fail(id, len(keys) == 0)
			}
		}
		return st
	}
	keys := map[transition.Key]bool{}
	if f.baseline != nil {
		for k := range transition.SideOf(f.baseline.outcomes).Tests {
			if _, now := cur.Tests[k]; h.owns(k.ID) && (now || !fileLevel(k.ID)) {
				keys[k] = true
			}
		}
	}
	for k := range cur.Tests {
		if h.owns(k.ID) {
			keys[k] = true
		}
	}
	sorted := make([]transition.Key, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Slice(sorted, func(i, j int) bool {
		if sorted[i].Step != sorted[j].Step {
			return sorted[i].Step < sorted[j].Step
		}
		return sorted[i].ID < sorted[j].ID
	})
	for _, k := range sorted {
		_, ran := cur.Tests[k]
		if cur.Passing(k) {
			st.Passed++
		} else {
			fail(k.ID, !ran)
		}
	}
	// A declared Go test no report named did not run (its package failed
	// to build at baseline and now).
	for _, file := range sortedKeys(h.goTests) {
		for _, name := range h.goTests[file] {
			if !anyGoTest(sorted, file, name) {
				fail(path.Dir(file)+"."+name, true)
			}
		}
	}
	if st.Passed+st.Failed == 0 {
		fail(noHiddenTest, true)
	}
	return st
}

// hiddenNote is what the model learns of the hidden tests in the current
// grading verification: how many fail, never which ("" when none does).
func (f *fixer) hiddenNote() string {
	st := f.hiddenState(f.cur)
	if st.GetFailed() == 0 {
		return ""
	}
	s := fmt.Sprintf("%d hidden %s", st.GetFailed(), plural(int(st.GetFailed()), "test fails", "tests fail"))
	if n := st.GetMissing(); n > 0 {
		s += fmt.Sprintf(" (%d of them did not run: not collected, or their build or import failed)", n)
	}
	return s + "; fix the bug for all inputs, not just the visible tests."
}

// hiddenProbed counts the hidden targets among the tests a fail-fast
// probe ran (the ones that failed before the patch); tests it did not run
// are not counted.
func (f *fixer) hiddenProbed(tr *glv1.Transitions) *glv1.HiddenTests {
	h := f.hidden
	if h == nil {
		return nil
	}
	side := &transition.Side{Tests: map[transition.Key]parse.Outcome{}}
	for _, c := range tr.GetChanges() {
		st := parse.StatusFailed
		switch c.GetAfter() {
		case glv1.TestStatus_TEST_STATUS_PASSED:
			st = parse.StatusPassed
		case glv1.TestStatus_TEST_STATUS_UNSPECIFIED:
			continue // did not run
		case glv1.TestStatus_TEST_STATUS_SKIPPED:
			st = parse.StatusSkipped
		}
		side.Tests[transition.Key{Step: c.GetStep(), ID: c.GetId()}] = parse.Outcome{ID: c.GetId(), Status: st}
	}
	out := &glv1.HiddenTests{}
	count := func(id string, ok bool) {
		if ok {
			out.Passed++
			return
		}
		out.Failed++
		if len(out.Failing) < maxHiddenFailing {
			out.Failing = append(out.Failing, id)
		}
	}
	if len(h.targets) > 0 {
		for _, id := range h.targets {
			if keys := side.Named(id); len(keys) > 0 {
				ok := true
				for _, k := range keys {
					ok = ok && side.Passing(k)
				}
				count(id, ok)
			}
		}
		return out
	}
	for k := range side.Tests {
		if h.owns(k.ID) {
			count(k.ID, side.Passing(k))
		}
	}
	sort.Strings(out.Failing)
	return out
}

// shown reports whether the model may see a test id: one that a
// verification without the hidden tests reported (every id without
// hidden tests).
func (f *fixer) shown(id string) bool { return f.hidden == nil || f.seen[id] }

// shownRegressions are regressions as the model may read them: hidden
// tests are counted, never named.
func (f *fixer) shownRegressions(rs []verdict.Regression) []verdict.Regression {
	if f.hidden == nil {
		return rs
	}
	out := make([]verdict.Regression, 0, len(rs))
	for _, g := range rs {
		var named []string
		hidden := 0
		for _, id := range g.Tests {
			if f.shown(id) {
				named = append(named, id)
			} else {
				hidden++
			}
		}
		if hidden > 0 {
			g.What += fmt.Sprintf(" (%d of them hidden)", hidden)
		}
		g.Tests = named
		out = append(out, g)
	}
	return out
}

// firstShown is the first failure the model may read: none of a hidden
// test, nor one located in a hidden file without a visible test.
func (f *fixer) firstShown(fs []parse.Failure) (parse.Failure, bool) {
	for _, fl := range fs {
		switch {
		case f.hidden == nil:
		case fl.Test != "" && !f.shown(fl.Test):
			continue
		case fl.Test == "" && f.hidden.isPath(fl.File):
			continue
		}
		return fl, true
	}
	return parse.Failure{}, false
}

// noteSeen records the test ids a verification without the hidden tests
// reported: those the model may be told about.
func (f *fixer) noteSeen(v *verification) {
	if f.seen == nil {
		f.seen = map[string]bool{}
	}
	for _, o := range v.outcomes {
		if o.Report == nil {
			continue
		}
		for _, t := range o.Report.Inventory {
			f.seen[t.ID] = true
		}
		for _, t := range o.Report.Tests {
			f.seen[t.ID] = true
		}
	}
}

// owns reports whether a test id comes from a hidden file: by the file a
// pytest or jest id starts with, the module of a unittest id, or, for Go,
// the test functions the hidden files declare in their package.
func (h *hiddenTests) owns(id string) bool {
	if file, ok := testFileOf(id); ok {
		return h.isPath(file)
	}
	return h.ownsModule(id) || h.ownsGo(id)
}

// isPath reports whether a path (workspace-relative, or relative to a
// step's working directory) is a hidden path.
func (h *hiddenTests) isPath(p string) bool {
	if p == "" {
		return false
	}
	for _, hp := range h.paths {
		if hp == p || strings.HasSuffix(hp, "/"+p) {
			return true
		}
	}
	return false
}

// ownsModule matches a dotted unittest id ("tests.test_x.TestY.test_z")
// to a hidden Python test file.
func (h *hiddenTests) ownsModule(id string) bool {
	for _, hp := range h.paths {
		base := path.Base(hp)
		if !strings.HasSuffix(hp, ".py") || !(strings.HasPrefix(base, "test") || strings.HasSuffix(base, "_test.py") || strings.HasSuffix(base, "tests.py")) {
			continue
		}
		parts := strings.Split(strings.TrimSuffix(hp, ".py"), "/")
		for i := range parts {
			if strings.HasPrefix(id, strings.Join(parts[i:], ".")+".") {
				return true
			}
		}
	}
	return false
}

// ownsGo matches a Go test id ("example.com/m/pkg.TestX/sub") to a test
// function a hidden Go file declares in that package's directory.
func (h *hiddenTests) ownsGo(id string) bool {
	for file, names := range h.goTests {
		for _, name := range names {
			if goTestIn(id, file, name) {
				return true
			}
		}
	}
	return false
}

// goTestIn reports whether a Go test id is test function name of the
// package in file's directory (or one of its subtests).
func goTestIn(id, file, name string) bool {
	pkg, ok := strings.CutSuffix(id, "."+name)
	if !ok {
		i := strings.Index(id, "."+name+"/")
		if i < 0 {
			return false
		}
		pkg = id[:i]
	}
	dir := path.Dir(file)
	return dir == "." || pkg == dir || pkg == path.Base(dir) || strings.HasSuffix(pkg, "/"+path.Base(dir))
}

// anyGoTest reports whether a Go test function of file is among keys.
func anyGoTest(keys []transition.Key, file, name string) bool {
	for _, k := range keys {
		if goTestIn(k.ID, file, name) {
			return true
		}
	}
	return false
}

// testFileOf returns the file a pytest ("f.py::t") or jest ("f.test.js >
// d > t") id starts with, or the id itself when it names a file (a
// collection error).
func testFileOf(id string) (string, bool) {
	for _, sep := range []string{"::", " > ", " › "} {
		if i := strings.Index(id, sep); i > 0 {
			return id[:i], true
		}
	}
	switch path.Ext(id) {
	case ".py", ".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".mts", ".cts":
		return id, !strings.Contains(id, " ")
	}
	return "", false
}

// fileLevel reports whether an id stands for a file or package that
// failed as a whole (a collection error, a build failure), not a test.
func fileLevel(id string) bool {
	if file, ok := testFileOf(id); ok && file == id {
		return true
	}
	return strings.HasSuffix(id, " [build failed]") || strings.HasSuffix(id, " [package failed]")
}

func sortedKeys(m map[string][]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
