package verdict

import (
	"fmt"
	"regexp"
	"strings"

	"google.golang.org/protobuf/proto"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// installTrouble is why an install step could not reach its package index.
type installTrouble int

const (
	troubleNone installTrouble = iota
	// troubleTLS: the index's certificate is not trusted in the sandbox
	// (a TLS-intercepting proxy whose CA the sandbox lacks).
	troubleTLS
	// troubleUnreachable: the index's name did not resolve or no
	// connection could be made.
	troubleUnreachable
	// troubleGone: the index answered 404/410 for an archive a lockfile
	// pins by URL (npm's resolved tarball, a wheel, a crate): the
	// registry no longer serves what the lockfile names.
	troubleGone
)

// goneSignatures are an index refusing a pinned archive: the URL of a
// tarball, wheel, zip or crate answered 404 or 410 (npm, Yarn, pip, cargo,
// Go's proxy). A package or version that does not exist at all fails on
// its metadata URL or with "no matching version" instead, and stays the
// code's failure.
var goneSignatures = regexp.MustCompile(`(?:404|410)[^\n]*https?://\S+\.(?:tgz|tar\.gz|whl|zip|crate)\b|` +
	`https?://\S+\.(?:tgz|tar\.gz|whl|zip|crate)\b[^\n]*(?:404 Not Found|410 Gone|is not in this registry)`)

// tlsSignatures are the messages package managers print when a
// certificate is not trusted: Go ("x509: certificate signed by unknown
// authority"), npm and yarn (SELF_SIGNED_CERT_IN_CHAIN,
// UNABLE_TO_GET_ISSUER_CERT_LOCALLY), pip (CERTIFICATE_VERIFY_FAILED),
// curl and cargo ("SSL certificate problem"), Maven and Gradle ("PKIX path
// building failed").
var tlsSignatures = regexp.MustCompile(`x509: certificate signed by unknown authority|` +
	`x509: certificate is not trusted|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_GET_ISSUER_CERT_LOCALLY|` +
	`DEPTH_ZERO_SELF_SIGNED_CERT|CERTIFICATE_VERIFY_FAILED|unable to get local issuer certificate|` +
	`self[- ]signed certificate in certificate chain|SSL certificate problem|PKIX path building failed`)

// unreachableSignatures are the messages of a name that does not resolve
// or a connection that cannot be made: glibc ("Temporary failure in name
// resolution", "Name or service not known"), Node (getaddrinfo ENOTFOUND
// or EAI_AGAIN), Go ("dial tcp: lookup HOST", "connect: network is
// unreachable"), pip/urllib3 ("Failed to establish a new connection"),
// curl and cargo ("Could not resolve host").
var unreachableSignatures = regexp.MustCompile(`Temporary failure in name resolution|Name or service not known|` +
	`getaddrinfo (?:ENOTFOUND|EAI_AGAIN)|dial tcp: lookup \S+|` +
	`connect: network is unreachable|Failed to establish a new connection|Could(?: not|n't) resolve host`)

// codeSignatures are failures of the project's own dependency declarations
// or install scripts: when one shows, a network message elsewhere in the
// log (a retried fetch that later succeeded) does not make the failure the
// environment's. npm: unresolvable tree, no such package or version, a
// failing lifecycle script; pip: conflicting requirements; Go: a module
// or version that does not exist, a missing go.sum entry.
var codeSignatures = regexp.MustCompile(`npm ERR! code (?:ERESOLVE|E404|ETARGET|ELIFECYCLE|EBADENGINE)|` +
	`ResolutionImpossible|conflicting dependencies|subprocess-exited-with-error|` +
	`missing go\.sum entry|invalid version: unknown revision|404 Not Found`)

// recentLines is how much of a failed install's tail is searched: the
// package managers print the error that ended them last.
const recentLines = 40

// installEnvTrouble says whether a failed install step with network failed
// because the sandbox could not reach its package index, and quotes the
// line that shows it. Only clear TLS and DNS/connection signatures count:
// a dependency that does not exist or does not resolve (npm ERESOLVE, E404,
// pip's "No matching distribution" without a connection error) stays a
// failure of the code.
func installEnvTrouble(s *glv1.Step, r *glv1.StepResult) (installTrouble, string) {
	if r.GetStatus() != glv1.StepStatus_STEP_STATUS_FAILED || s.GetPhase() != glv1.Phase_PHASE_INSTALL || !s.GetNetwork() {
		return troubleNone, ""
	}
	tail := tailLines(r.GetTail(), recentLines)
	if line := matchingLine(tail, goneSignatures); line != "" {
		return troubleGone, line
	}
	if codeSignatures.MatchString(tail) {
		return troubleNone, ""
	}
	if line := matchingLine(tail, tlsSignatures); line != "" {
		return troubleTLS, line
	}
	if line := matchingLine(tail, unreachableSignatures); line != "" {
		return troubleUnreachable, line
	}
	return troubleNone, ""
}

// tailLines returns the last n lines of text.
func tailLines(text string, n int) string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// maxEvidence bounds the quoted log line in a reason.
const maxEvidence = 240

// matchingLine returns the first line of text re matches, trimmed and
// clipped, or "".
func matchingLine(text string, re *regexp.Regexp) string {
	loc := re.FindStringIndex(text)
	if loc == nil {
		return ""
	}
	start := strings.LastIndexByte(text[:loc[0]], '\n') + 1
	end := len(text)
	if i := strings.IndexByte(text[loc[1]:], '\n'); i >= 0 {
		end = loc[1] + i
	}
	line := strings.TrimSpace(text[start:end])
	if len(line) > maxEvidence {
		// Keep the signature in view: clip around it.
		from := max(0, loc[0]-start-maxEvidence/2)
		line = "…" + strings.TrimSpace(text[start+from:min(end, start+from+maxEvidence)]) + "…"
	}
	return line
}

// The settings a reason names. The loop does not know whether its
// executor is embedded or standalone, so it names both.
const (
	caBundleSetting = "the CLI's --ca-bundle FILE (env GREENLIGHT_CA_BUNDLE; default auto, the host's " +
		"/etc/ssl/certs/ca-certificates.crt) or the standalone executor's --ca-bundle (GREENLIGHT_EXECUTOR_CA_BUNDLE)"
	egressSetting = "the executor's --egress-allow for a mirror or proxy in a private range (GREENLIGHT_EXECUTOR_EGRESS_ALLOW), " +
		"or point installs at a mirror the sandbox can reach (the executor's --mirror pip=URL,npm=URL,go=URL, env GREENLIGHT_EXECUTOR_MIRROR, " +
		"also read by the CLI's embedded mode; or a greenlight.yaml install step's env, e.g. PIP_INDEX_URL or npm_config_registry)"
)

// installEnv turns an install step that failed only because the sandbox
// could not reach its package index into an ERROR saying so and naming
// the setting that fixes it: a verification that could not install its
// dependencies has not shown that the code is wrong. Any other result is
// returned unchanged.
func installEnv(in StepInput) *glv1.StepResult {
	r := in.Result
	trouble, line := installEnvTrouble(in.Step, r)
	if trouble == troubleNone {
		return r
	}
	out := proto.Clone(r).(*glv1.StepResult)
	out.Status = glv1.StepStatus_STEP_STATUS_ERROR
	switch trouble {
	case troubleTLS:
		out.Reason = fmt.Sprintf("environment: the install could not verify the package index's TLS certificate (%s); "+
			"behind a TLS-intercepting proxy give install steps its CA with %s", line, caBundleSetting)
	case troubleUnreachable:
		out.Reason = fmt.Sprintf("environment: the install could not reach the package index (%s); "+
			"check the host's network and DNS, %s", line, egressSetting)
	case troubleGone:
		out.Reason = fmt.Sprintf("environment: the lockfile pins an archive the package index no longer serves (%s); "+
			"the code was never installed. Regenerate the lockfile, or point installs at a mirror that keeps it (%s)", line, egressSetting)
	}
	return out
}
