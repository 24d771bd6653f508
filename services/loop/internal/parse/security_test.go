package parse

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// TestSecurityFindings parses real output of the planned security steps
// (captured in the sandbox images, see testdata/security): each finding
// becomes a security failure with file, line, rule and severity; generic
// matches of low entropy or placeholder values and dependency directories
// are not findings; secrets are redacted in the message.
func TestSecurityFindings(t *testing.T) {
	cases := []struct {
		log, format string
		exit        int32
		want        []string // file:line rule severity
		secret      string   // must not appear in any message
	}{
		{log: "secret-scan-python.log", format: FormatSecretScan, exit: 1, secret: "x9Fq2LmZ8vR4tB7nK1pW3sYd",
			want: []string{"deploy_key.pem:1 private-key high", "app.py:4 aws-access-key-id high", "app.py:5 generic-secret medium"}},
		{log: "secret-scan-go.log", format: FormatSecretScan, exit: 1, secret: "ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5",
			want: []string{"main.go:3 github-token high"}},
		{log: "secret-scan-node.log", format: FormatSecretScan, exit: 1, secret: "aBcDeFgHiJkLmNoPqRsTuVwX",
			want: []string{"index.js:1 slack-webhook high"}},
		{log: "secret-scan-c.log", format: FormatSecretScan, exit: 1, secret: "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
			want: []string{"main.c:2 stripe-live-key high", "main.c:3 generic-secret medium"}},
		{log: "bandit.log", format: FormatBandit, exit: 1,
			want: []string{"app.py:1 B404 low", "app.py:9 B602 high"}},
		// zlib's contrib and examples, flawfinder 2.0.19 of the C image.
		{log: "flawfinder.log", format: FormatFlawfinder, exit: 1,
			want: []string{"contrib/untgz/untgz.c:43 flawfinder-chmod high", "contrib/untgz/untgz.c:276 flawfinder-chmod high",
				"examples/gun.c:527 flawfinder-chmod high", "examples/gun.c:530 flawfinder-chown high",
				"contrib/minizip/miniunz.c:154 flawfinder-strcpy medium", "contrib/untgz/untgz.c:42 flawfinder-access medium",
				"contrib/iostream3/zfstream.cc:402 flawfinder-setstate low", "contrib/iostream3/zfstream.cc:413 flawfinder-setstate low"}},
		// golang-jwt and chi, gosec v2.22.5 of the Go image: jwt's test
		// helpers are low (test code), chi's low-confidence G112 is low.
		{log: "gosec.log", format: FormatGosec, exit: 1,
			want: []string{"test/helpers.go:60 G304 low", "test/helpers.go:48 G304 low", "test/helpers.go:24 G304 low", "test/helpers.go:12 G304 low",
				"cmd/jwt/main.go:90 G304 medium", "_examples/versions/main.go:48 G114 medium", "_examples/graceful/main.go:19 G112 low"}},
		// chi's TLS test key: a fixture, reported at low severity.
		{log: "secret-scan-testdata.log", format: FormatSecretScan, exit: 1,
			want: []string{"testdata/key.pem:1 private-key low"}},
		// itsdangerous: the library's findings keep their severity, the
		// test signers' passwords are low (bandit says so already).
		{log: "bandit-tests.log", format: FormatBandit, exit: 1,
			want: []string{"src/itsdangerous/signer.py:45 B303 medium", "src/itsdangerous/timed.py:114 B110 low",
				"tests/test_itsdangerous/test_serializer.py:2 B403 low", "tests/test_itsdangerous/test_serializer.py:39 B106 low",
				"tests/test_itsdangerous/test_serializer.py:171 B106 low", "tests/test_itsdangerous/test_serializer.py:188 B106 low",
				"tests/test_itsdangerous/test_signer.py:21 B106 low", "tests/test_itsdangerous/test_timed.py:32 B106 low",
				"tests/test_itsdangerous/test_timed.py:99 B106 low", "tests/test_itsdangerous/test_url_safe.py:14 B106 low",
				"tests/test_itsdangerous/test_url_safe.py:24 B106 low"}},
	}
	for _, tc := range cases {
		t.Run(tc.log, func(t *testing.T) {
			f, err := os.Open(filepath.Join("testdata", "security", tc.log))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			step := &glv1.Step{Name: "secret-scan", Phase: glv1.Phase_PHASE_SECURITY, Workdir: "."}
			res := &glv1.StepResult{Name: step.Name, Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: tc.exit}
			rep, err := Step(context.Background(), Input{Step: step, Result: res, Log: f})
			if err != nil {
				t.Fatal(err)
			}
			if rep.SecurityFormat != tc.format || rep.SecurityFindings != len(tc.want) {
				t.Errorf("format %q, %d findings; want %q, %d", rep.SecurityFormat, rep.SecurityFindings, tc.format, len(tc.want))
			}
			var got []string
			for _, fl := range rep.Failures {
				if fl.Kind != glv1.FailureKind_FAILURE_KIND_SECURITY {
					t.Errorf("failure %+v: kind %v, want security", fl, fl.Kind)
				}
				got = append(got, strings.Join([]string{filepath.ToSlash(fl.File) + ":" + itoa(fl.Line), fl.Rule, fl.Severity}, " "))
				if tc.secret != "" && strings.Contains(fl.Message, tc.secret) {
					t.Errorf("%s: message shows the secret: %s", fl.Rule, fl.Message)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestSecurityLinesOutsideTheScan: FILE:LINE:TEXT lines are matches only
// after the secret scan's header, and outside the security phase nothing
// is a security finding.
func TestSecurityLinesOutsideTheScan(t *testing.T) {
	log := "./app.py:4:AKIAIOSFODNN7EXAMPLQ\n"
	cases := []struct {
		name  string
		phase glv1.Phase
		log   string
	}{
		{"no header", glv1.Phase_PHASE_SECURITY, log},
		{"lint phase", glv1.Phase_PHASE_LINT, "greenlight secret scan\n" + log},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			step := &glv1.Step{Name: "s", Phase: tc.phase, Workdir: "."}
			res := &glv1.StepResult{Name: "s", Status: glv1.StepStatus_STEP_STATUS_OK}
			rep, err := Step(context.Background(), Input{Step: step, Result: res, Log: strings.NewReader(tc.log)})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range rep.Failures {
				if f.Kind == glv1.FailureKind_FAILURE_KIND_SECURITY {
					t.Errorf("security finding %+v", f)
				}
			}
			if rep.SecurityFindings != 0 {
				t.Errorf("%d findings, want 0", rep.SecurityFindings)
			}
		})
	}
}

// TestSecretLike: the generic rule's entropy and placeholder filter.
func TestSecretLike(t *testing.T) {
	cases := []struct {
		v    string
		want bool
	}{
		{"x9Fq2LmZ8vR4tB7nK1pW3sYd", true},
		{"changeme-changeme-changeme", false},
		{"aaaaaaaaaaaaaaaaaaaa", false},
		{"your-api-key-goes-here-0000", false},
		{"EXAMPLEKEYq2LmZ8vR4tB7nK1", false},
	}
	for _, tc := range cases {
		if got := secretLike(tc.v); got != tc.want {
			t.Errorf("secretLike(%q) = %v (entropy %.2f), want %v", tc.v, got, entropy(tc.v), tc.want)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// The generic rule names only variables whose name ends in a secret word:
// a word that merely starts the name (six's setup.py author_email, a
// token_url) is no secret, whatever the value's entropy.
func TestGenericSecretNames(t *testing.T) {
	var generic *regexp.Regexp
	for _, r := range secretRules {
		if r.generic {
			generic = r.re
		}
	}
	const v = `"x9Fq2LmZ8vR4tB7nK1pW3sYd"`
	for _, tc := range []struct {
		line string
		want bool
	}{
		{"client_secret = " + v, true},
		{"SECRET_KEY = " + v, true},
		{"api_token: " + v, true},
		{"GITHUB_TOKEN=" + v, true},
		{"auth_token = " + v, true},
		{`"password": ` + v, true},
		{"private_key = " + v, true},
		{"author_email = " + v, false},
		{"token_url = " + v, false},
		{"password_hint = " + v, false},
	} {
		if got := generic.MatchString(tc.line); got != tc.want {
			t.Errorf("%q matched = %v, want %v", tc.line, got, tc.want)
		}
	}
}

// TestTestCode: findings in test code or test data are told from the
// project's own code by directory or file name.
func TestTestCode(t *testing.T) {
	var p securityParser
	p.lim, p.paths, p.seen = &Limits{MaxFailures: 10}, &Paths{}, map[string]bool{}
	p.add("testdata/key.pem", "1", "private-key", SeverityHigh, "private-key (high): a private key is committed", 0)
	if got := p.found[0]; got.Severity != SeverityLow || got.Message != "private-key (low: in test code or test data): a private key is committed" {
		t.Errorf("finding in test data: %s %q", got.Severity, got.Message)
	}
	for path, want := range map[string]bool{
		"testdata/key.pem": true, "pkg/x/testdata/k.pem": true, "tests/test_a.py": true, "src/__tests__/a.js": true,
		"lib/a.test.ts": true, "web/a.spec.mjs": true, "x_test.go": true, "test_x.py": true, "conftest.py": true,
		"app.py": false, "src/itsdangerous/signer.py": false, "contest/a.py": false, "latest/key.pem": false, "attestation.go": false,
	} {
		if got := testCode(path); got != want {
			t.Errorf("testCode(%q) = %v, want %v", path, got, want)
		}
	}
}

func TestIsTestFile(t *testing.T) {
	for p, want := range map[string]bool{
		"calc_test.go": true, "calc.go": false, "tests/util.py": true, "src/pkg/test_x.py": true, "pkg/x.py": false,
		"src/a.test.ts": true, "src/a.ts": false, "src/test/java/A.java": true, "src/main/java/A.java": false, "conftest.py": true,
	} {
		if IsTestFile(p) != want {
			t.Errorf("IsTestFile(%q) = %v", p, !want)
		}
	}
}
