package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInstallTLSFailureIsAnEnvironmentError: an install step whose
// downloads fail on an untrusted certificate ends the verification ERROR
// (exit 2, not FAIL's 1) with a reason that says so and names --ca-bundle.
// The step trusts no CA at all (SSL_CERT_FILE=/dev/null), so the TLS
// failure happens behind any proxy or none; on a machine with no network at
// all the download fails on DNS instead, which is an environment error too.
func TestInstallTLSFailureIsAnEnvironmentError(t *testing.T) {
	requireDocker(t)
	u := newUser(t)
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module x\n\ngo 1.22\n\nrequire golang.org/x/mod v0.17.0\n",
		"greenlight.yaml": "steps:\n" +
			"  - name: deps\n    phase: install\n    command: SSL_CERT_FILE=/dev/null SSL_CERT_DIR=/nonexistent GOPROXY=https://proxy.golang.org go mod download\n" +
			"  - name: unit\n    phase: smoke\n    command: go version\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := u.run(nil, "verify", dir)
	r.wantExit(t, 2, "verify with an install that cannot verify TLS")
	out := r.stdout + r.stderr
	if !strings.Contains(out, "environment: the install could not") {
		t.Fatalf("no environment reason in the output:\n%s", out)
	}
	if strings.Contains(out, "could not reach the package index") {
		t.Skipf("no network here: the install failed on DNS, classified as unreachable:\n%s", out)
	}
	for _, want := range []string{"x509: certificate signed by unknown authority", "--ca-bundle", "GREENLIGHT_CA_BUNDLE"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
}
