package cireport

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// workflowCommand is the documented syntax of an annotation,
// "::error file={name},line={line},endLine={endLine},title={title}::{message}",
// with escaped values: a property value holds no raw ',' or ':', and no
// part holds a raw line break.
var workflowCommand = regexp.MustCompile(`^::(error|warning|notice)(?: ([A-Za-z]+=[^,:\r\n]*(?:,[A-Za-z]+=[^,:\r\n]*)*))?::([^\r\n]*)$`)

// unescapeData and unescapeProperty undo the toolkit's escaping as the
// runner does.
var (
	unescapeData     = strings.NewReplacer("%0D", "\r", "%0A", "\n", "%25", "%").Replace
	unescapeProperty = strings.NewReplacer("%0D", "\r", "%0A", "\n", "%3A", ":", "%2C", ",", "%25", "%").Replace
)

// parsed is one workflow command read back.
type parsed struct {
	command string
	props   map[string]string
	message string
}

// parseCommands checks every line against the syntax and un-escapes it.
func parseCommands(t *testing.T, out string) []parsed {
	t.Helper()
	var cmds []parsed
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		m := workflowCommand.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("not a workflow command: %q", line)
		}
		p := parsed{command: m[1], props: map[string]string{}, message: unescapeData(m[3])}
		if m[2] != "" {
			for _, kv := range strings.Split(m[2], ",") {
				k, v, _ := strings.Cut(kv, "=")
				p.props[k] = unescapeProperty(v)
			}
		}
		cmds = append(cmds, p)
	}
	return cmds
}

func TestEscapingMatchesTheToolkit(t *testing.T) {
	// The toolkit's escapeData / escapeProperty on the characters it
	// escapes, and strings that look escaped already.
	for _, tc := range []struct{ in, data, prop string }{
		{"plain", "plain", "plain"},
		{"100%", "100%25", "100%25"},
		{"a\nb\r\nc", "a%0Ab%0D%0Ac", "a%0Ab%0D%0Ac"},
		{"file: a, b", "file: a, b", "file%3A a%2C b"},
		{"%0A", "%250A", "%250A"},
		{"::error::x", "::error::x", "%3A%3Aerror%3A%3Ax"},
	} {
		if got := escapeData(tc.in); got != tc.data {
			t.Errorf("escapeData(%q) = %q, want %q", tc.in, got, tc.data)
		}
		if got := escapeProperty(tc.in); got != tc.prop {
			t.Errorf("escapeProperty(%q) = %q, want %q", tc.in, got, tc.prop)
		}
		if unescapeData(escapeData(tc.in)) != tc.in || unescapeProperty(escapeProperty(tc.in)) != tc.in {
			t.Errorf("%q does not round-trip", tc.in)
		}
	}
}

func TestGitHubAnnotationsParseBack(t *testing.T) {
	for name, run := range fixtures() {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteGitHub(&buf, run); err != nil {
				t.Fatal(err)
			}
			cmds := parseCommands(t, buf.String())
			last := cmds[len(cmds)-1]
			if last.command != "notice" || last.props["title"] != "greenlight "+verdictWord(run.GetResult().GetStatus()) {
				t.Errorf("the last command must be the verdict notice: %+v", last)
			}
		})
	}

	var buf bytes.Buffer
	if err := WriteGitHub(&buf, failRun()); err != nil {
		t.Fatal(err)
	}
	byFile := map[string]parsed{}
	for _, c := range parseCommands(t, buf.String()) {
		byFile[c.props["file"]+":"+c.props["line"]] = c
	}
	for loc, want := range map[string]struct{ command, title, message string }{
		"cart/cart_test.go:27":          {"error", "greenlight: example.com/shop/cart.TestTotal", "cart_test.go:27: Total() = 90, want 100 (discount 10%, coupon: none)"},
		"tools/tests/test_prices.py:14": {"error", "greenlight: tests/test_prices.py::test_rounding", "AssertionError: assert 10.01 == 10.0\n +  where 10.01 = round_price(10.005)"},
		"cart/cart.go:41":               {"warning", "greenlight: go-vet (LINT) (advisory)", "fmt.Sprintf format %d has arg name of wrong type string"},
		"api/serve_test.go:33":          {"warning", "greenlight: flaky test example.com/shop/api.TestServe", "serve_test.go:33: dial tcp 127.0.0.1:8080: connect: connection refused"},
	} {
		got := byFile[loc]
		if got.command != want.command || got.props["title"] != want.title || got.message != want.message {
			t.Errorf("%s: got %+v, want %+v", loc, got, want)
		}
	}
}

func TestGitHubHostileMessageRoundTrips(t *testing.T) {
	run := hostileRun()
	var buf bytes.Buffer
	if err := WriteGitHub(&buf, run); err != nil {
		t.Fatal(err)
	}
	cmds := parseCommands(t, buf.String())
	f := run.GetResult().GetFailures()[0]
	first := cmds[0]
	want := clean(strings.TrimSpace(f.GetMessage()))
	if first.command != "error" || first.message != want || first.props["file"] != "t/test a,b:c.py" || first.props["line"] != "3" ||
		first.props["title"] != "greenlight: t/test a.py::test_`x`[1,2]" {
		t.Errorf("got %+v\nwant message %q", first, want)
	}
	if !strings.Contains(first.message, "100%, got 50%: off\r\nby 50,0") || strings.Contains(first.message, "\x1b") {
		t.Errorf("message lost %%, line breaks, colons or commas, or kept an escape sequence: %q", first.message)
	}
	if strings.Count(buf.String(), "\n") != len(cmds) {
		t.Errorf("a message broke out of its line:\n%s", buf.String())
	}
}

func TestGitHubStepSummaryIsAppended(t *testing.T) {
	path := filepath.Join(t.TempDir(), "step_summary.md")
	if err := os.WriteFile(path, []byte("# earlier step\n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := Write(&out, GitHub, failRun(), Options{StepSummary: path}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	if !strings.HasPrefix(got, "# earlier step\n\n## ❌ greenlight FAIL") || !strings.Contains(got, "`tools/tests/test_prices.py:14`") {
		t.Errorf("summary not appended:\n%s", got)
	}
	if strings.Contains(out.String(), "## ") {
		t.Errorf("the summary went to the annotations' stream:\n%s", out.String())
	}
	// Without $GITHUB_STEP_SUMMARY nothing is written.
	if err := Write(&out, GitHub, failRun(), Options{}); err != nil {
		t.Fatal(err)
	}
}

func TestGitHubErrorWithoutSteps(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteGitHub(&buf, &glv1.Run{Id: "r_x", Error: "the executor is not reachable"}); err != nil {
		t.Fatal(err)
	}
	cmds := parseCommands(t, buf.String())
	if len(cmds) != 2 || cmds[0].command != "error" || cmds[0].props["title"] != "greenlight: verdict ERROR" ||
		cmds[0].message != "the executor is not reachable" || cmds[1].command != "notice" {
		t.Errorf("an ERROR before any step: %+v", cmds)
	}
}
