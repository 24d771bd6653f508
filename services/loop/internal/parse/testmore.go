package parse

import (
	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"

	"bytes"
	"strconv"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

var (
	// Test::More's (and Test2's) failure diagnostic, on stderr:
	// `#   Failed test 'adds'` then `#   at t/basic.t line 6.`, or
	// `#   Failed test at t/basic.t line 6.` for an unnamed test. A failed
	// TODO test (`Failed (TODO) test`) is no failure.
	reTMFailed = lazyregexp.New(`^#\s+Failed (\(TODO\) )?test(?: '(.*)'| at (.+) line (\d+)\.)?\s*$`)
	reTMAt     = lazyregexp.New(`^#\s+at (.+) line (\d+)\.$`)
)

// maxTestMore bounds the failure diagnostics kept per log.
const maxTestMore = 256

// testMoreFailure is one failed test as Test::More's diagnostics tell it.
type testMoreFailure struct {
	name string
	// file is as printed (relative to where the test ran); line 0: not yet known.
	file string
	line int
	msg  msgBuf
	used bool
}

// testMoreDiags collects Test::More's failure diagnostics. They go to
// stderr, so in a combined log they may come before or after the test
// points they explain: they are matched to failures by name at the end.
type testMoreDiags struct {
	list []testMoreFailure
	// cur is the failure whose diagnostic lines are being read (-1: none).
	cur    int
	wantAt bool
	active bool
}

// feed reads a comment line (leading blanks removed); it reports whether
// the line belonged to a failure diagnostic.
func (d *testMoreDiags) feed(s []byte) bool {
	if len(s) < 2 || s[0] != '#' {
		d.end()
		return false
	}
	if bytes.Contains(s[:min(len(s), 24)], []byte("Failed ")) {
		if m := reTMFailed.FindSubmatch(s); m != nil {
			d.end()
			if len(m[1]) > 0 || len(d.list) >= maxTestMore {
				return true // a TODO test failing as expected
			}
			f := testMoreFailure{name: string(m[2]), msg: msgBuf{max: 1024}}
			if len(m[3]) > 0 {
				f.file, f.line = string(m[3]), atoi(m[4])
			}
			d.list = append(d.list, f)
			d.cur, d.active, d.wantAt = len(d.list)-1, true, f.line == 0
			return true
		}
	}
	if !d.active {
		return false
	}
	f := &d.list[d.cur]
	if d.wantAt {
		if m := reTMAt.FindSubmatch(s); m != nil {
			f.file, f.line = string(m[1]), atoi(m[2])
			d.wantAt = false
			return true
		}
	}
	// The details (`#          got: '4'`) are indented past "# "; Test2's
	// tables start with `# +` and `# |`. `# Looks like you failed …` ends them.
	if len(s) > 2 && (s[1] == ' ' && (s[2] == ' ' || s[2] == '+' || s[2] == '|')) {
		f.msg.add(bytes.TrimSpace(s[1:]))
		return true
	}
	d.end()
	return false
}

// end closes the failure being read.
func (d *testMoreDiags) end() { d.active = false }

// message is a failure's message: the test and its details.
func (f *testMoreFailure) message() string {
	head := "Failed test"
	if f.name != "" {
		head += " '" + f.name + "'"
	}
	if d := f.msg.String(); d != "" {
		return head + "\n" + d
	}
	return head
}

// locate gives kept failing TAP records without a location the place
// their diagnostic names, matching by test name in order.
func (d *testMoreDiags) locate(set *testSet, paths *Paths) {
	for i := range d.list {
		f := &d.list[i]
		if f.line == 0 {
			continue
		}
		for j := range set.failing {
			t := &set.failing[j]
			if t.File != "" || t.Status != StatusFailed || !sameTestMoreName(t.Name, f.name) {
				continue
			}
			t.File, _ = paths.Normalize(f.file)
			t.Line = f.line
			if t.Message == "" {
				t.Message, t.kind = f.message(), glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION
			}
			f.used = true
			break
		}
	}
}

// sameTestMoreName: a diagnostic's name is the point's description; an
// unnamed test's point is named by its number ("#3").
func sameTestMoreName(point, diag string) bool {
	if diag == "" {
		return strings.HasPrefix(point, "#") && isDigits(point[1:])
	}
	return point == diag
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	_, err := strconv.Atoi(s)
	return err == nil
}
