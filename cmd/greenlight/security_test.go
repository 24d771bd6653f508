package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Fake secrets committed in the projects below: the shapes of real keys,
// valid for nothing.
const (
	fakeAWSKey     = "AKIAIOSFODNN7EXAMPLQ"
	fakeGitHubTok  = "ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"
	fakeSlackHook  = "https://hooks.slack.com/services/T0ABCDEF1/B0ABCDEF2/aBcDeFgHiJkLmNoPqRsTuVwX"
	fakeStripeKey  = "sk_live_4eC39HqLyjWDarjtT1zdp7dc"
	fakePrivateKey = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7fakefakefake\n-----END RSA PRIVATE KEY-----\n"
)

var securityPython = map[string]string{
	"pyproject.toml":     "[project]\nname = \"calc\"\nversion = \"0.1\"\n",
	"calc/__init__.py":   "import subprocess\n\nAWS_KEY = \"" + fakeAWSKey + "\"\n\n\ndef run(cmd):\n    return subprocess.call(cmd, shell=True)\n\n\ndef add(a, b):\n    return a + b\n",
	"tests/test_calc.py": "from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n",
	"tests/__init__.py":  "",
	"deploy_key.pem":     fakePrivateKey,
}

var securityGo = map[string]string{
	"go.mod":       "module example.com/calc\n\ngo 1.22\n",
	"calc.go":      "package calc\n\nconst token = \"" + fakeGitHubTok + "\"\n\n// Add adds.\nfunc Add(a, b int) int { return a + b }\n",
	"calc_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal(\"bad\")\n\t}\n}\n",
}

var securityNode = map[string]string{
	"package.json": "{\"name\": \"calc\", \"version\": \"1.0.0\", \"scripts\": {\"test\": \"node --test\"}}\n",
	"index.js":     "const hook = \"" + fakeSlackHook + "\";\nmodule.exports = { add: (a, b) => a + b, hook };\n",
	"index.test.js": "const test = require('node:test');\nconst assert = require('node:assert');\nconst { add } = require('./index.js');\n" +
		"test('add', () => { assert.strictEqual(add(1, 2), 3); });\n",
}

var securityC = map[string]string{
	"Makefile": "CFLAGS ?= -Wall\n\nall: calc\n\ncalc: main.c\n\t$(CC) $(CFLAGS) -o calc main.c\n\ntest: calc\n\t./calc\n",
	"main.c":   "#include <stdio.h>\n\nstatic const char *stripe = \"" + fakeStripeKey + "\";\n\nint main(void) { return stripe[0] == 's' ? 0 : 1; }\n",
}

// TestSecurityOfRealProjects verifies small Go, Python, Node and C
// projects in the sandbox images with the security phase asked for in
// greenlight.yaml: each committed fake key is a finding (file:line, rule,
// severity) in --json, SARIF and the Markdown summary; bandit's findings
// in Python too. Advisory findings leave the verdict PASS; a required
// secret scan with a finding makes it FAIL. verify --security asks for
// the same without greenlight.yaml. The secret never appears in
// a finding's message.
func TestSecurityOfRealProjects(t *testing.T) {
	requireDocker(t)
	type finding struct {
		File     string `json:"file"`
		Line     int    `json:"line"`
		Kind     string `json:"kind"`
		Rule     string `json:"rule"`
		Severity string `json:"severity"`
		Message  string `json:"message"`
	}
	tests := []struct {
		name, yaml string
		args       []string // verify's extra flags
		files      map[string]string
		status     string
		exit       int
		want       []string // file:line rule severity, each must be found
		secret     string
	}{
		{name: "python", files: securityPython, yaml: "advisory: [secret-scan, bandit]\n", status: "PASS",
			want: []string{"deploy_key.pem:1 private-key high", "calc/__init__.py:3 aws-access-key-id high", "calc/__init__.py:7 B602 high", "calc/__init__.py:1 B404 low"}, secret: fakeAWSKey},
		{name: "python required", files: securityPython, yaml: "required: [secret-scan]\n", status: "FAIL", exit: 1,
			want: []string{"deploy_key.pem:1 private-key high", "calc/__init__.py:3 aws-access-key-id high"}, secret: fakeAWSKey},
		{name: "go", files: securityGo, yaml: "advisory: [secret-scan]\n", status: "PASS",
			want: []string{"calc.go:3 github-token high"}, secret: fakeGitHubTok},
		{name: "node", files: securityNode, yaml: "advisory: [secret-scan]\n", status: "PASS",
			want: []string{"index.js:1 slack-webhook high"}, secret: "aBcDeFgHiJkLmNoPqRsTuVwX"},
		{name: "go --security advisory", files: securityGo, args: []string{"--security", "advisory"}, status: "PASS",
			want: []string{"calc.go:3 github-token high"}, secret: fakeGitHubTok},
		{name: "go --security required", files: securityGo, args: []string{"--security", "required"}, status: "FAIL", exit: 1,
			want: []string{"calc.go:3 github-token high"}, secret: fakeGitHubTok},
		{name: "c", files: securityC, yaml: "advisory: [secret-scan]\n", status: "PASS",
			want: []string{"main.c:3 stripe-live-key high"}, secret: fakeStripeKey},
		// Nothing asked: the scans run advisory by default, flawfinder
		// for C.
		{name: "python by default", files: securityPython, status: "PASS",
			want: []string{"deploy_key.pem:1 private-key high", "calc/__init__.py:3 aws-access-key-id high", "calc/__init__.py:7 B602 high"}, secret: fakeAWSKey},
		{name: "c by default", files: withFiles(securityC, map[string]string{"copy.c": "#include <string.h>\n\nvoid copy(char *dst, const char *src) { strcpy(dst, src); }\n"}), status: "PASS",
			want: []string{"main.c:3 stripe-live-key high", "copy.c:3 flawfinder-strcpy medium"}, secret: fakeStripeKey},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{}
			if tc.yaml != "" {
				files["greenlight.yaml"] = tc.yaml
			}
			for p, c := range tc.files {
				files[p] = c
			}
			dir := writeTree(t, files)
			u := newUser(t)
			res := u.run(nil, append(append([]string{"verify", "-q", "--json"}, tc.args...), dir)...)
			res.wantExit(t, tc.exit, "verify --json")
			var doc struct {
				Status   string    `json:"status"`
				RunID    string    `json:"run_id"`
				Failures []finding `json:"failures"`
				Score    struct {
					Security         *float64 `json:"security"`
					SecurityFindings int      `json:"security_findings"`
				} `json:"score"`
			}
			if err := json.Unmarshal([]byte(res.stdout), &doc); err != nil {
				t.Fatalf("--json: %v\n%s", err, res.stdout)
			}
			if doc.Status != tc.status {
				t.Fatalf("status %s, want %s\n%s\n%s", doc.Status, tc.status, res.stdout, res.stderr)
			}
			got := map[string]bool{}
			for _, f := range doc.Failures {
				if f.Kind != "SECURITY" {
					continue
				}
				got[strings.Join([]string{f.File + ":" + itoa(f.Line), f.Rule, f.Severity}, " ")] = true
				if strings.Contains(f.Message, tc.secret) {
					t.Errorf("finding message shows the secret: %s", f.Message)
				}
			}
			for _, w := range tc.want {
				if !got[w] {
					t.Errorf("no finding %q in --json; got %v", w, got)
				}
			}
			if doc.Score.Security == nil || *doc.Score.Security != 0 || doc.Score.SecurityFindings < len(tc.want) {
				t.Errorf("score.security %v with %d findings, want 0 (a high finding) with at least %d", doc.Score.Security, doc.Score.SecurityFindings, len(tc.want))
			}

			sarif := u.run(nil, "show", "--format", "sarif", doc.RunID)
			sarif.wantExit(t, tc.exit, "show --format sarif")
			for _, w := range tc.want {
				rule := strings.Fields(w)[1]
				if !strings.Contains(sarif.stdout, `"ruleId": "security/`+rule+`"`) {
					t.Errorf("sarif has no result of rule security/%s", rule)
				}
			}
			md := u.run(nil, "show", "--markdown", doc.RunID)
			if !strings.Contains(md.stdout, "### Security (") {
				t.Errorf("markdown has no security section:\n%s", md.stdout)
			}
			for _, w := range tc.want {
				f := strings.Fields(w)
				if !strings.Contains(md.stdout, "`"+f[1]+"`") || !strings.Contains(md.stdout, "`"+f[0]+"`") {
					t.Errorf("markdown lacks the finding %s", w)
				}
			}
		})
	}
}

// itoa formats a line number.
func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestFixMarksIntroducedFindings: a fix run with the security phase keeps
// the baseline's committed key as an old finding and marks the key the
// patch adds as introduced, in --json and in the Markdown summary; the
// advisory findings leave the repaired run PASS.
func TestFixMarksIntroducedFindings(t *testing.T) {
	requireDocker(t)
	fix, err := os.ReadFile(filepath.Join(examples(""), "fail.patch"))
	if err != nil {
		t.Fatal(err)
	}
	patch := string(fix) + "--- /dev/null\n+++ b/temperature/settings.py\n@@ -0,0 +1 @@\n+AWS_KEY = \"" + fakeAWSKey + "\"\n"
	dir := filepath.Join(t.TempDir(), "ws")
	copyDir(t, examples("fail"), dir)
	if err := os.WriteFile(filepath.Join(dir, "deploy_key.pem"), []byte(fakePrivateKey), 0o644); err != nil {
		t.Fatal(err)
	}
	u := newUser(t)
	r := u.run(strings.NewReader(patch), "fix", "-q", "--json", "--security", "advisory", "--provider", "client", dir)
	r.wantExit(t, 0, "fix --security advisory")
	var doc struct {
		Status   string `json:"status"`
		RunID    string `json:"run_id"`
		Failures []struct {
			File       string `json:"file"`
			Kind       string `json:"kind"`
			Rule       string `json:"rule"`
			Introduced bool   `json:"introduced"`
		} `json:"failures"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("--json: %v\n%s", err, r.stdout)
	}
	if doc.Status != "PASS" {
		t.Fatalf("status %s, want PASS\n%s", doc.Status, r.stdout)
	}
	want := map[string]bool{"deploy_key.pem private-key": false, "temperature/settings.py aws-access-key-id": true}
	got := map[string]bool{}
	for _, f := range doc.Failures {
		if f.Kind == "SECURITY" {
			got[f.File+" "+f.Rule] = f.Introduced
		}
	}
	for k, intro := range want {
		if g, ok := got[k]; !ok || g != intro {
			t.Errorf("finding %s: found %v, introduced %v; want introduced %v (all: %v)", k, ok, g, intro, got)
		}
	}
	md := u.run(nil, "show", "--markdown", doc.RunID)
	if !strings.Contains(md.stdout, "high (new in the patch)") {
		t.Errorf("markdown does not mark the new finding:\n%s", md.stdout)
	}
}
