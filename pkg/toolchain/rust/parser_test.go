package rust

import (
	"bufio"
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/pkg/toolchain"
)

// record is a Recorder that keeps everything, resolving frames as project
// code unless they are under a library path.
type record struct {
	tests    []toolchain.Test
	summary  toolchain.Counts
	failures map[string]toolchain.Failure
}

func (r *record) Test(t toolchain.Test) { r.tests = append(r.tests, t) }
func (r *record) Summary(c toolchain.Counts) {
	r.summary.Passed += c.Passed
	r.summary.Failed += c.Failed
	r.summary.Skipped += c.Skipped
}
func (r *record) Fail(id string, f toolchain.Failure) {
	if r.failures == nil {
		r.failures = map[string]toolchain.Failure{}
	}
	r.failures[id] = f
}
func (r *record) Frame(file string, line, col int, fn string) toolchain.Frame {
	return toolchain.Frame{File: file, Line: line, Column: col, Func: fn, Project: !strings.HasPrefix(file, "/rustc/")}
}
func (r *record) ParseFrame([]byte) (toolchain.Frame, bool) { return toolchain.Frame{}, false }
func (r *record) MaxMessageBytes() int                      { return 4096 }

func parseFile(t *testing.T, name string) *record {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	r := &record{}
	p := Pack{}.NewParser(r)
	sc := bufio.NewScanner(bytes.NewReader(data))
	var off int64
	for sc.Scan() {
		p.Feed(sc.Bytes(), off)
		off += int64(len(sc.Bytes()) + 1)
	}
	p.Finish()
	return r
}

func TestParserReadsLibtestOutcomesSummariesAndPanics(t *testing.T) {
	for _, tc := range []struct {
		file          string
		want          toolchain.Counts
		assertMsg     string
		assertLine    int
		indexesLine   int
		wantFailedIDs []string
	}{
		{"pass.log", toolchain.Counts{Passed: 4, Skipped: 1}, "", 0, 0, nil},
		{"fail.log", toolchain.Counts{Passed: 1, Failed: 2, Skipped: 1},
			"assertion `left == right` failed\n  left: 4\n right: 5", 27, 8, []string{"tests::adds_wrong", "tests::indexes"}},
		// Debian bookworm's rustc 1.63: the old panic format, message over three lines.
		{"fail-rust1.65.log", toolchain.Counts{Passed: 1, Failed: 2, Skipped: 1},
			"assertion failed: `(left == right)`\n  left: `4`,\n right: `5`", 27, 8, []string{"tests::adds_wrong", "tests::indexes"}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			r := parseFile(t, tc.file)
			if r.summary != tc.want {
				t.Fatalf("summary = %+v, want %+v", r.summary, tc.want)
			}
			var failed []string
			for _, x := range r.tests {
				if x.Status == toolchain.Failed {
					failed = append(failed, x.ID)
				}
			}
			if strings.Join(failed, ",") != strings.Join(tc.wantFailedIDs, ",") {
				t.Fatalf("failed tests = %v, want %v", failed, tc.wantFailedIDs)
			}
			if tc.assertMsg == "" {
				return
			}
			f := r.failures["tests::adds_wrong"]
			if f.Message != tc.assertMsg || !f.Assertion || len(f.Frames) == 0 || f.Frames[0].Line != tc.assertLine || !strings.HasSuffix(f.Frames[0].File, "src/lib.rs") {
				t.Errorf("adds_wrong failure = %+v", f)
			}
			g := r.failures["tests::indexes"]
			if g.Assertion || !strings.HasPrefix(g.Message, "index out of bounds") || len(g.Frames) == 0 || g.Frames[0].Line != tc.indexesLine {
				t.Errorf("indexes failure = %+v", g)
			}
		})
	}
}

func TestParserCapsMessagesAtTheRecordersLimit(t *testing.T) {
	r := &capped{record: record{}}
	p := Pack{}.NewParser(r)
	p.Feed([]byte("---- tests::big stdout ----"), 0)
	p.Feed([]byte("thread 'tests::big' panicked at src/lib.rs:3:5:"), 1)
	for range 50 {
		p.Feed([]byte(strings.Repeat("x", 40)), 2)
	}
	p.Finish()
	msg := r.failures["tests::big"].Message
	if len(msg) > 200 || !strings.HasSuffix(msg, "[cut]") {
		t.Fatalf("message of %d bytes not cut: %q", len(msg), msg)
	}
}

type capped struct{ record }

func (c *capped) MaxMessageBytes() int { return 100 }
