package parse

import (
	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"

	"regexp"
	"sort"
	"strings"

	"github.com/greenlight-dev/greenlight/pkg/pylaunch"
	"github.com/greenlight-dev/greenlight/pkg/toolchain"
	"github.com/greenlight-dev/greenlight/pkg/toolchain/packs"
)

// MarkFlaky marks the failing tests of orig that passed when only the
// failing tests were run again (rerun), and returns their IDs. Flaky tests
// stay in the report — Flaky is set on the record and its failure, and they
// move from Failed/Errors to Passed with Counts.Flaky counting them — so a
// flaky test is recorded, never hidden. When every failure of the step was a
// flaky test and the re-run itself succeeded, PassedOnRerun is set.
func MarkFlaky(orig, rerun *StepReport) []string { return MarkFlakyExcept(orig, rerun, nil) }

// MarkFlakyExcept is MarkFlaky for the tests that may be flaky at all:
// a test for which never reports true (a target of the run, a test in a
// file the change touched) stays a failure whatever the re-run showed.
func MarkFlakyExcept(orig, rerun *StepReport, never func(Test) bool) []string {
	if orig == nil || rerun == nil {
		return nil
	}
	passed := map[string]bool{}
	byName := map[string]bool{}
	for _, t := range rerun.Tests {
		if t.Status == StatusPassed {
			passed[t.ID] = true
			byName[t.Name+"\x00"+t.File] = true
		}
	}
	var ids []string
	for i := range orig.Tests {
		t := &orig.Tests[i]
		if !t.Status.failing() || t.Flaky {
			continue
		}
		if !passed[t.ID] && !byName[t.Name+"\x00"+t.File] {
			continue
		}
		if never != nil && never(*t) {
			continue
		}
		t.Flaky = true
		ids = append(ids, t.ID)
		if t.Status == StatusFailed {
			orig.Counts.Failed--
		} else {
			orig.Counts.Errors--
		}
		orig.Counts.Passed++
		orig.Counts.Flaky++
	}
	orig.markInventoryFlaky(ids)
	flaky := map[string]bool{}
	for _, id := range ids {
		flaky[id] = true
	}
	remaining := 0
	for i := range orig.Failures {
		f := &orig.Failures[i]
		if f.Test != "" && flaky[f.Test] {
			f.Flaky = true
			continue
		}
		remaining++
	}
	orig.PassedOnRerun = len(ids) > 0 && remaining == 0 && orig.Counts.Failed == 0 && orig.Counts.Errors == 0 &&
		rerun.stepOK()
	return ids
}

// stepOK reports whether the step succeeded.
func (r *StepReport) stepOK() bool { return !r.stepFailed() }

// reSafeTestName matches test names that are safe to put in a shell word.
var reSafeTestName = lazyregexp.New(`^[\w./:\[\]\-,=+@# ]+$`)

// RerunCommand builds a command that runs only the failing tests of a step,
// for flaky-test detection. ok is false when the format has no way to select
// tests or a name is unsafe to quote.
func RerunCommand(command string, rep *StepReport) (cmd string, ok bool) {
	var failing []Test
	for _, t := range rep.Tests {
		if t.Status.failing() && !strings.HasPrefix(t.Name, "[") {
			if !reSafeTestName.MatchString(t.ID) {
				return "", false
			}
			failing = append(failing, t)
		}
	}
	if len(failing) == 0 {
		return "", false
	}
	return narrow(command, rep.Format, failing)
}

// narrow runs only tests of a step whose runner reports in format, with
// the runner's own selector: the failing tests of a re-run, or the tests a
// selective verification names (SelectCommand).
func narrow(command, format string, failing []Test) (string, bool) {
	switch format {
	case FormatGoJSON, FormatGoText:
		return goRerun(command, failing), true
	case FormatPytestJUnit, FormatPytestSummary:
		// A node id (file::test) or a path is an argument; a bare name
		// (a selective run's `--test test_add`) is a -k keyword.
		var ids, keywords []string
		for _, t := range failing {
			if strings.Contains(t.ID, "::") || strings.Contains(t.ID, "/") || strings.HasSuffix(t.ID, ".py") {
				ids = append(ids, shellQuote(t.ID))
			} else {
				keywords = append(keywords, t.ID)
			}
		}
		if len(keywords) > 0 {
			ids = append(ids, "-k "+shellQuote(strings.Join(keywords, " or ")))
		}
		return pytestRunner(command) + " -rA " + strings.Join(ids, " "), true
	case FormatUnittest:
		ids := make([]string, 0, len(failing))
		for _, t := range failing {
			ids = append(ids, shellQuote(t.ID))
		}
		return unittestRunner(command) + " -v " + strings.Join(ids, " "), true
	case FormatSurefire, FormatSurefireLog:
		sel := make([]string, 0, len(failing))
		for _, t := range failing {
			cls := t.Suite[strings.LastIndexByte(t.Suite, '.')+1:]
			if t.Name == "" {
				sel = append(sel, cls) // a whole class (a selective run's id)
				continue
			}
			sel = append(sel, cls+"#"+t.Name)
		}
		return "mvn -B -o test " + shellQuote("-Dtest="+strings.Join(sel, ",")), true
	}
	return packRerun(format, failing)
}

// packRerun asks the toolchain pack whose parser produced format to re-run
// the failing tests.
func packRerun(format string, failing []Test) (string, bool) {
	for _, p := range packs.Registry.All() {
		if n, ok := p.(toolchain.Narrower); ok && p.Spec().Format == format {
			ids := make([]string, 0, len(failing))
			for _, t := range failing {
				ids = append(ids, t.ID)
			}
			return n.Narrow(ids)
		}
	}
	return "", false
}

// goRerun selects the failing top-level tests per package.
func goRerun(command string, failing []Test) string {
	names := map[string]bool{}
	pkgs := map[string]bool{}
	for _, t := range failing {
		names[regexp.QuoteMeta(strings.SplitN(t.Name, "/", 2)[0])] = true
		pkgs[t.Suite] = true
	}
	json := ""
	if strings.Contains(command, "-json") {
		json = "-json "
	}
	return "go test " + json + "-count=1 -run " + shellQuote("^("+strings.Join(sortedKeys(names), "|")+")$") + " " + strings.Join(sortedKeys(pkgs), " ")
}

// pytestRunner keeps how the step invoked pytest: the simple command up
// to pytest itself (`.venv/bin/python -m pytest`, `poetry run pytest`,
// `FOO=1 python3 -m pytest`), so the re-run uses the same interpreter and
// environment; the step's own arguments (a JUnit report path, a test
// directory) are dropped for the selection.
//
// A step that ran the tool through greenlight's launcher (pylaunch) keeps
// it; one whose runner cannot be found gets the launcher too, so the
// narrowed run cannot be replaced from the workspace either.
func pytestRunner(command string) string {
	if r, ok := moduleRunner(command, "pytest"); ok {
		return r
	}
	return pylaunch.Tool("python3", "pytest")
}

// unittestRunner keeps how the step invoked unittest, as pytestRunner.
func unittestRunner(command string) string {
	if r, ok := moduleRunner(command, "unittest"); ok {
		return r
	}
	return pylaunch.Tool("python3", "unittest")
}

// reRunner finds a Python tool in a shell command: `PYTHON -m MODULE` or
// the tool run by its own name (`pytest`, `.venv/bin/pytest`).
var reRunner = map[string]*regexp.Regexp{
	"pytest":   regexp.MustCompile(`(?:\S*python[0-9.]*\s+-m\s+pytest|(?:^|\s)(?:\S*/)?pytest)(?:\s|$)`),
	"unittest": regexp.MustCompile(`\S*python[0-9.]*\s+-m\s+unittest(?:\s|$)`),
}

// moduleRunner is the simple command of command that runs module, up to
// and including the module's name: everything after the last shell
// separator (;, &&, ||, |) before it.
func moduleRunner(command, module string) (string, bool) {
	if f, ok := pylaunch.Find(command); ok && f.Tool == module {
		return strings.TrimSpace(command[simpleStart(command, f.Start):f.End]), true
	}
	loc := reRunner[module].FindStringIndex(command)
	if loc == nil {
		return "", false
	}
	end := loc[1]
	if end > 0 && (command[end-1] == ' ' || command[end-1] == '\t') {
		end--
	}
	return strings.TrimSpace(command[simpleStart(command, loc[0]):end]), true
}

// simpleStart is where the simple command holding offset at begins: after
// the last shell separator before it.
func simpleStart(command string, at int) int {
	start := 0
	for _, sep := range []string{";", "&&", "||", "|"} {
		if i := strings.LastIndex(command[:at], sep); i >= 0 && i+len(sep) > start {
			start = i + len(sep)
		}
	}
	return start
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// shellQuote quotes s for /bin/sh.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
