package web

import (
	"archive/tar"
	"bytes"
	"net/http"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

func TestSnapshotPath(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"calc/calc.go", "calc/calc.go", true},
		{"./calc/calc.go", "calc/calc.go", true},
		{"go.mod", "go.mod", true},
		{"../etc/passwd", "", false},
		{"calc/../../etc/passwd", "", false},
		{"calc/../calc.go", "", false},
		{"/etc/passwd", "", false},
		{"", "", false},
		{".", "", false},
		{"calc//calc.go", "", false},
		{`calc\..\..\x`, "", false},
		{"calc/calc.go\x00.txt", "", false},
		{"calc/", "", false},
	}
	for _, tt := range tests {
		got, err := snapshotPath(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("snapshotPath(%q) = %q, %v; want %q ok=%v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

// codeSite serves a run whose snapshot holds a hostile file, a big file,
// a symlink and a secret outside the paths asked for.
func codeSite(t *testing.T) *site {
	t.Helper()
	s := startSite(t)
	var big strings.Builder
	for big.Len() <= maxCodeBytes {
		big.WriteString("// filler line of a generated file that is too big to show whole\n")
	}
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	add := func(h *tar.Header, body string) {
		h.Size = int64(len(body))
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	add(&tar.Header{Name: "calc/", Typeflag: tar.TypeDir, Mode: 0o755}, "")
	add(&tar.Header{Name: "calc/calc.go", Typeflag: tar.TypeReg, Mode: 0o644},
		"package calc\n\n// <script>window.pwned=1</script>\nfunc Div(a, b int) int { return a / b }\n")
	add(&tar.Header{Name: "gen/big.go", Typeflag: tar.TypeReg, Mode: 0o644}, big.String())
	add(&tar.Header{Name: "link.go", Typeflag: tar.TypeSymlink, Linkname: "calc/calc.go", Mode: 0o777}, "")
	add(&tar.Header{Name: "secret.txt", Typeflag: tar.TypeReg, Mode: 0o600}, "TOP-SECRET\n")
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	d, err := s.loop.Blobs.Put(t.Context(), &buf)
	if err != nil {
		t.Fatal(err)
	}
	s.loop.Put(&glv1.Run{Id: "run-code", Kind: glv1.RunKind_RUN_KIND_VERIFY, Status: glv1.RunStatus_RUN_STATUS_FAILED, Snapshot: d.Proto(),
		Result: &glv1.Result{Status: glv1.Verdict_VERDICT_FAIL, Failures: []*glv1.Failure{{File: "calc/calc.go", Line: 4, Test: "TestDiv"}}}})
	return s
}

func TestCodeViewShowsAFileAtALine(t *testing.T) {
	s := codeSite(t)
	_, _, report := s.get(t, "/runs/run-code")
	link := `href="/runs/run-code/code/calc/calc.go?snapshot=`
	if !strings.Contains(report, link) || !strings.Contains(report, `#L4"><code class="loc">calc/calc.go:4</code></a>`) {
		t.Fatalf("the failure's file:line is not linked to the code view:\n%s", report)
	}
	code, _, body := s.get(t, "/runs/run-code/code/calc/calc.go")
	if code != http.StatusOK {
		t.Fatalf("code view = %d\n%s", code, body)
	}
	for _, want := range []string{
		`<span class="line" id="L4"><a class="ln" href="#L4" data-n="4" aria-label="Line 4"></a>func Div(a, b int) int { return a / b }`,
		"// &lt;script&gt;window.pwned=1&lt;/script&gt;", "4 lines",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("code view lacks %q", want)
		}
	}
	if strings.Contains(body, "<script>window.pwned") {
		t.Error("file content was rendered as markup")
	}
}

func TestCodeViewRefusesPathsOutsideTheSnapshot(t *testing.T) {
	s := codeSite(t)
	for _, p := range []string{"..%2Fsecret.txt", "calc%2F..%2F..%2Fsecret.txt", "%2Fetc%2Fpasswd", "calc/..%2F..%2Fetc%2Fpasswd", ".%2F..%2Fsecret.txt"} {
		code, _, body := s.get(t, "/runs/run-code/code/"+p)
		if code != http.StatusBadRequest || !strings.Contains(body, "not a relative path within it") {
			t.Errorf("%s = %d, want 400 refusing the path\n%s", p, code, body)
		}
		if strings.Contains(body, "TOP-SECRET") {
			t.Errorf("%s leaked a file", p)
		}
	}
	// A plain ../ is cleaned away by the router before the handler: it
	// lands on another page, never on a file.
	if code, _, body := s.get(t, "/runs/run-code/code/../../secret.txt"); code == http.StatusOK || strings.Contains(body, "TOP-SECRET") {
		t.Errorf("../ path = %d\n%s", code, body)
	}
}

func TestCodeViewEdges(t *testing.T) {
	s := codeSite(t)
	tests := []struct {
		path string
		code int
		want string
	}{
		{"/runs/run-code/code/missing.go", http.StatusNotFound, "is not a file of snapshot"},
		{"/runs/run-code/code/calc", http.StatusNotFound, "is not a file of snapshot"},
		{"/runs/run-code/code/calc/calc.go?snapshot=" + strings.Repeat("ab", 32), http.StatusBadRequest, "has no snapshot"},
		{"/runs/run-code/code/link.go", http.StatusOK, "symbolic link to"},
		{"/runs/run-code/code/gen/big.go", http.StatusOK, "only its first part is shown"},
		{"/runs/nope/code/calc/calc.go", http.StatusNotFound, "Run not found"},
		// run-fail's snapshot was never stored.
		{"/runs/run-fail/code/calc/calc_test.go", http.StatusNotFound, "is not in the blob store any more"},
	}
	for _, tt := range tests {
		code, _, body := s.get(t, tt.path)
		if code != tt.code || !strings.Contains(body, tt.want) {
			t.Errorf("%s = %d, want %d with %q\n%.600s", tt.path, code, tt.code, tt.want, body)
		}
	}
	_, _, big := s.get(t, "/runs/run-code/code/gen/big.go")
	if n := strings.Count(big, `class="line"`); n == 0 || n > maxCodeLines || len(big) > 4*maxCodeBytes {
		t.Errorf("big file shows %d lines in %d bytes", n, len(big))
	}
}
