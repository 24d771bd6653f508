package verdict

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// installStep is a discovered install step with network, like npm ci.
func installStep() *glv1.Step {
	return &glv1.Step{Name: "npm-ci", Phase: glv1.Phase_PHASE_INSTALL, Network: true, Command: "npm ci"}
}

func fixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "installenv", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestInstallEnvOnRealLogs classifies real install failures (see
// testdata/installenv/README.md): TLS trust and unreachable indexes are
// the environment's; a package that does not exist or a dependency
// conflict is the code's.
func TestInstallEnvOnRealLogs(t *testing.T) {
	tests := []struct {
		file     string
		want     installTrouble
		evidence string
	}{
		{"npm-tls.log", troubleTLS, "npm ERR! code SELF_SIGNED_CERT_IN_CHAIN"},
		{"pip-tls.log", troubleTLS, "[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed"},
		{"go-tls.log", troubleTLS, "x509: certificate signed by unknown authority"},
		{"npm-offline.log", troubleUnreachable, "getaddrinfo EAI_AGAIN registry.npmjs.org"},
		{"pip-offline.log", troubleUnreachable, "Temporary failure in name resolution"},
		{"pip-pypi-unresolvable.log", troubleUnreachable, "Name or service not known"},
		{"go-offline.log", troubleUnreachable, "dial tcp: lookup proxy.golang.org"},
		{"npm-lockfile-gone.log", troubleGone, "404 Not Found - GET https://registry.npmjs.org/ms/-/ms-2.1.99.tgz"},
		{"npm9-lockfile-gone.log", troubleGone, "ms-2.1.99.tgz"},
		{"npm-404.log", troubleNone, ""},
		{"npm-eresolve.log", troubleNone, ""},
		{"pip-notfound.log", troubleNone, ""},
		{"pip-conflict.log", troubleNone, ""},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			r := &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: 1, Tail: fixture(t, tt.file)}
			got, line := installEnvTrouble(installStep(), r)
			if got != tt.want || !strings.Contains(line, tt.evidence) {
				t.Fatalf("installEnvTrouble = %v %q, want %v with %q", got, line, tt.want, tt.evidence)
			}
			out := installEnv(StepInput{Step: installStep(), Result: r})
			if tt.want == troubleNone {
				if out != r {
					t.Fatalf("a failure of the code was reclassified: %v", out)
				}
				return
			}
			if out.GetStatus() != glv1.StepStatus_STEP_STATUS_ERROR || !strings.HasPrefix(out.GetReason(), "environment: ") {
				t.Fatalf("result = %v %q, want ERROR with an environment reason", out.GetStatus(), out.GetReason())
			}
			if r.GetStatus() != glv1.StepStatus_STEP_STATUS_FAILED {
				t.Fatal("the input result was changed")
			}
		})
	}
}

// TestInstallEnvReasonNamesTheSetting: a TLS failure names the CA bundle
// flag and variable; an unreachable index names what can make it reachable.
func TestInstallEnvReasonNamesTheSetting(t *testing.T) {
	failed := func(tail string) *glv1.StepResult {
		return &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: 1, Tail: tail}
	}
	tls := installEnv(StepInput{Step: installStep(), Result: failed(fixture(t, "go-tls.log"))}).GetReason()
	for _, want := range []string{"TLS certificate", "x509: certificate signed by unknown authority", "--ca-bundle", "GREENLIGHT_CA_BUNDLE", "GREENLIGHT_EXECUTOR_CA_BUNDLE"} {
		if !strings.Contains(tls, want) {
			t.Errorf("TLS reason lacks %q: %s", want, tls)
		}
	}
	down := installEnv(StepInput{Step: installStep(), Result: failed(fixture(t, "pip-offline.log"))}).GetReason()
	for _, want := range []string{"could not reach the package index", "Temporary failure in name resolution", "--egress-allow", "PIP_INDEX_URL"} {
		if !strings.Contains(down, want) {
			t.Errorf("unreachable reason lacks %q: %s", want, down)
		}
	}
}

// TestInstallEnvOnlyForFailedInstallsWithNetwork: the same log from a test
// step, an install without network, or a timed-out install is left alone.
func TestInstallEnvOnlyForFailedInstallsWithNetwork(t *testing.T) {
	tail := fixture(t, "npm-tls.log")
	cases := map[string]struct {
		step *glv1.Step
		st   glv1.StepStatus
	}{
		"test step":          {&glv1.Step{Phase: glv1.Phase_PHASE_TEST, Network: false, Command: "npm test"}, glv1.StepStatus_STEP_STATUS_FAILED},
		"offline install":    {&glv1.Step{Phase: glv1.Phase_PHASE_INSTALL, Network: false, Command: "npm ci --offline"}, glv1.StepStatus_STEP_STATUS_FAILED},
		"timed-out install":  {installStep(), glv1.StepStatus_STEP_STATUS_TIMED_OUT},
		"successful install": {installStep(), glv1.StepStatus_STEP_STATUS_OK},
	}
	for name, c := range cases {
		r := &glv1.StepResult{Status: c.st, Tail: tail}
		if out := installEnv(StepInput{Step: c.step, Result: r}); out != r {
			t.Errorf("%s: reclassified as %v %q", name, out.GetStatus(), out.GetReason())
		}
	}
}

func TestMatchingLineClipsLongLines(t *testing.T) {
	long := strings.Repeat("a", 500) + " x509: certificate signed by unknown authority " + strings.Repeat("b", 500)
	got := matchingLine("first\n"+long+"\nlast", tlsSignatures)
	if !strings.Contains(got, "x509: certificate signed by unknown authority") || len(got) > maxEvidence+8 {
		t.Fatalf("clipped line = %q (%d bytes)", got, len(got))
	}
}

// TestInstallEnvCodeFailureWins: a network message next to a failure of
// the project's own dependencies (a retried fetch that later succeeded,
// then npm's ERESOLVE or pip's ResolutionImpossible) stays the code's, and
// a network message long before the error that ended the install is not
// the cause.
func TestInstallEnvCodeFailureWins(t *testing.T) {
	retried := strings.SplitN(fixture(t, "pip-pypi-unresolvable.log"), "\n", 2)[0] + "\n"
	for name, tail := range map[string]string{
		"npm ERESOLVE after a retried fetch":     retried + fixture(t, "npm-eresolve.log"),
		"pip conflict after a retried fetch":     retried + fixture(t, "pip-conflict.log"),
		"TLS message long before the last error": fixture(t, "go-tls.log") + strings.Repeat("building...\n", 60) + "make: *** [all] Error 1\n",
	} {
		r := &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: 1, Tail: tail}
		if got, line := installEnvTrouble(installStep(), r); got != troubleNone {
			t.Errorf("%s: classified %v (%q), want a failure of the code", name, got, line)
		}
	}
}

func TestTailLines(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{{"a\nb\nc\n", 2, "b\nc"}, {"a\nb\nc", 5, "a\nb\nc"}, {"", 3, ""}, {"a\nb\n", 1, "b"}} {
		if got := tailLines(tc.in, tc.n); got != tc.want {
			t.Errorf("tailLines(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}
