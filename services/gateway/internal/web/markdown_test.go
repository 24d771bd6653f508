package web

import (
	"strings"
	"testing"
)

func TestMarkdownRendersTheMemo(t *testing.T) {
	memo := "# Stop memo: run r1\n\n**Stopped:** the round limit.\n\n## Patch attempts\n\n" +
		"| attempt | applied |\n|---|:-:|\n| 1 | true |\n\n```text\n--- FAIL: TestDiv\n```\n\n" +
		"- see [the docs](https://example.com/docs) and `go test`\n"
	got := string(renderMarkdown(memo))
	for _, want := range []string{
		"<h3>Stop memo: run r1</h3>", "<h4>Patch attempts</h4>", "<strong>Stopped:</strong>",
		`<th align="center">applied</th>`, "<pre><code>--- FAIL: TestDiv\n</code></pre>", "<code>go test</code>",
		`<a href="https://example.com/docs" rel="nofollow noreferrer">the docs</a>`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("rendered memo lacks %q:\n%s", want, got)
		}
	}
}

func TestMarkdownKeepsHostileTextInert(t *testing.T) {
	tests := []struct {
		name, memo string
		forbid     []string
		keep       string
	}{
		{"script block", "<script>window.pwned=1</script>\n\ntext", []string{"<script", "window.pwned"}, "text"},
		{"inline script", "a <script>alert(1)</script> b", []string{"<script"}, "a"},
		{"event handler", `<img src=x onerror="window.pwned=2">`, []string{"<img", "onerror"}, ""},
		{"iframe", `<iframe src="https://evil.example"></iframe>`, []string{"<iframe"}, ""},
		{"javascript link", "[click](javascript:alert(1))", []string{"javascript:", "href"}, "click"},
		{"encoded javascript link", "[click](jav&#x61;script:alert(1))", []string{"javascript", "href"}, "click"},
		{"vbscript link", "[x](vbscript:msgbox(1))", []string{"vbscript", "href"}, "x"},
		{"data link", "[x](data:text/html;base64,PHNjcmlwdD4=)", []string{"data:", "href"}, "x"},
		{"autolink", "<javascript:alert(1)>", []string{`href="javascript`}, ""},
		{"raw html attribute", `<a href="https://e.example" onclick="x()">a</a>`, []string{"onclick"}, ""},
		{"style", "<style>body{display:none}</style>\n\n<p style=\"color:red\">x</p>", []string{"<style", "style="}, ""},
		{"image", "![pixel](https://evil.example/p.png)", []string{"<img", "evil.example"}, ""},
		{"code keeps markup as text", "`<script>alert(1)</script>`", []string{"<script"}, "&lt;script&gt;"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(renderMarkdown(tt.memo))
			for _, f := range tt.forbid {
				if strings.Contains(strings.ToLower(got), strings.ToLower(f)) {
					t.Errorf("rendered %q contains %q:\n%s", tt.memo, f, got)
				}
			}
			if !strings.Contains(got, tt.keep) {
				t.Errorf("rendered %q lost its text %q:\n%s", tt.memo, tt.keep, got)
			}
		})
	}
}
