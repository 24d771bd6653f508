package parse

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// Formats of the security scanners' output.
const (
	// FormatSecretScan is greenlight's secret scan (discovery's
	// secret-scan step): grep -o lines FILE:LINE:MATCH after its header.
	FormatSecretScan = "secret-scan"
	// FormatBandit is bandit's custom format as the planned bandit step
	// asks for it: "bandit: FILE:LINE: B602 HIGH message".
	FormatBandit = "bandit"
	// FormatFlawfinder is flawfinder's --singleline output:
	// "FILE:LINE:  [4] (buffer) strcpy:message".
	FormatFlawfinder = "flawfinder"
	// FormatGosec is gosec's golint format: "FILE:LINE:COL: [CWE-n]
	// message (Rule:G304, Severity:MEDIUM, Confidence:HIGH)".
	FormatGosec = "gosec"
)

// Severities of security findings, lowest first.
const (
	SeverityLow    = "low"
	SeverityMedium = "medium"
	SeverityHigh   = "high"
)

// secretScanHeader is the first line the secret-scan step prints: only
// after it are FILE:LINE:MATCH lines read as matches.
const secretScanHeader = "greenlight secret scan"

// secretRule is one kind of committed secret. The expressions mirror the
// grep patterns of discovery's secret-scan step
// (services/discovery/internal/command/security.go).
type secretRule struct {
	id, what, severity string
	re                 *regexp.Regexp
	// generic rules match a secret-named assignment: only a value with
	// the entropy of a key counts.
	generic bool
}

var secretRules = []secretRule{
	{id: "private-key", what: "a private key", severity: SeverityHigh, re: regexp.MustCompile(`-----BEGIN ([A-Z]+ )?PRIVATE KEY( BLOCK)?-----`)},
	{id: "aws-access-key-id", what: "an AWS access key id", severity: SeverityHigh, re: regexp.MustCompile(`(AKIA|ASIA)[0-9A-Z]{16}`)},
	{id: "github-token", what: "a GitHub token", severity: SeverityHigh, re: regexp.MustCompile(`gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{60,}`)},
	{id: "slack-token", what: "a Slack token", severity: SeverityHigh, re: regexp.MustCompile(`xox[abposr]-[0-9A-Za-z-]{10,}`)},
	{id: "slack-webhook", what: "a Slack webhook URL", severity: SeverityHigh, re: regexp.MustCompile(`hooks\.slack\.com/services/T[A-Za-z0-9_]+/B[A-Za-z0-9_]+/[A-Za-z0-9_]+`)},
	{id: "google-api-key", what: "a Google API key", severity: SeverityHigh, re: regexp.MustCompile(`AIza[0-9A-Za-z_-]{35}`)},
	{id: "stripe-live-key", what: "a Stripe live key", severity: SeverityHigh, re: regexp.MustCompile(`[sr]k_live_[0-9A-Za-z]{20,}`)},
	{id: "generic-secret", what: "a secret-like value assigned to a secret-named variable", severity: SeverityMedium, generic: true,
		re: regexp.MustCompile(`(?i)(secret([_-]?key)?|token|passw(or)?d|api[_-]?key|access[_-]?key|private[_-]?key|auth[_-]?token|authorization)["']?\s*[:=]+\s*["']([^"'\s]{16,})["']`)},
}

// minSecretEntropy is the Shannon entropy (bits per character) a generic
// match's value needs: random keys have 4 and more, words and repeated
// placeholders ("changeme-changeme") stay under it.
const minSecretEntropy = 3.5

// placeholderWords mark a generic match's value as an example, not a key.
var placeholderWords = []string{"example", "xxxx", "${", "{{", "<", "your", "placeholder", "dummy", "changeme", "redacted"}

var (
	secretLineRe = regexp.MustCompile(`^(?:\./)?([^:\s][^:]*):(\d+):(.+)$`)
	banditLineRe = regexp.MustCompile(`^bandit: (?:\./)?(.+?):(\d+): (B\d+) (LOW|MEDIUM|HIGH|UNDEFINED) (.*)$`)
	// gosecLineRe: file, line, message, rule, severity, confidence.
	gosecLineRe = regexp.MustCompile(`^(.+?):(\d+):\d+: \[[^\]]*\] (.*) \(Rule:(G\d+), Severity:(LOW|MEDIUM|HIGH), Confidence:(LOW|MEDIUM|HIGH)\)$`)
	// flawfinderLineRe: file, line, risk level, category, function, text.
	flawfinderLineRe = regexp.MustCompile(`^(?:\./)?([^:\s][^:]*):(\d+):\s+\[([0-5])\] \(([a-z]+)\) ([A-Za-z_][A-Za-z0-9_]*):\s*(.*)$`)
)

// flawfinderSeverity maps flawfinder's risk level (0-5) to a severity:
// 5 (a race on a file name, a shell command from input) is high, 4
// (strcpy, sprintf) medium, lower low.
func flawfinderSeverity(level string) string {
	switch level {
	case "5":
		return SeverityHigh
	case "4":
		return SeverityMedium
	}
	return SeverityLow
}

// securityParser reads the findings of a security step's scanners.
type securityParser struct {
	paths   *Paths
	lim     *Limits
	secrets bool
	format  string
	found   []Failure
	seen    map[string]bool
	omitted int
}

func newSecurityParser(lim *Limits, paths *Paths) *securityParser {
	return &securityParser{lim: lim, paths: paths, seen: map[string]bool{}}
}

func (p *securityParser) feed(ln line) {
	t := strings.TrimSpace(string(ln.text))
	if t == secretScanHeader {
		p.secrets, p.format = true, FormatSecretScan
		return
	}
	if p.secrets {
		p.secretLine(t, ln.off)
		return
	}
	for _, read := range []func(string, int64) bool{p.banditLine, p.gosecLine, p.flawfinderLine} {
		if read(t, ln.off) {
			return
		}
	}
}

// banditLine reads a line of bandit's custom format.
func (p *securityParser) banditLine(t string, off int64) bool {
	m := banditLineRe.FindStringSubmatch(t)
	if m == nil {
		return false
	}
	p.format = FormatBandit
	sev := strings.ToLower(m[4])
	if sev == "undefined" {
		sev = SeverityLow
	}
	p.add(m[1], m[2], m[3], sev, m[3]+" ("+sev+"): "+m[5], off)
	return true
}

// gosecLine reads a line of gosec's golint format.
func (p *securityParser) gosecLine(t string, off int64) bool {
	m := gosecLineRe.FindStringSubmatch(t)
	if m == nil {
		return false
	}
	p.format = FormatGosec
	sev := strings.ToLower(m[5])
	if m[6] == "LOW" {
		sev = SeverityLow // gosec itself doubts it
	}
	p.add(m[1], m[2], m[4], sev, m[4]+" ("+sev+"): "+m[3], off)
	return true
}

// flawfinderLine reads a line of flawfinder's --singleline output. The
// rule is the function flawfinder flags: its hits of one kind share a
// SARIF rule.
func (p *securityParser) flawfinderLine(t string, off int64) bool {
	m := flawfinderLineRe.FindStringSubmatch(t)
	if m == nil {
		return false
	}
	p.format = FormatFlawfinder
	sev := flawfinderSeverity(m[3])
	p.add(m[1], m[2], "flawfinder-"+m[5], sev, fmt.Sprintf("%s (%s): [%s] (%s) %s", m[5], sev, m[3], m[4], strings.TrimSpace(m[6])), off)
	return true
}

// secretLine reads a FILE:LINE:MATCH line of the secret scan: the first
// rule that matches names it; a generic match counts only with the
// entropy of a key.
func (p *securityParser) secretLine(t string, off int64) {
	m := secretLineRe.FindStringSubmatch(t)
	if m == nil {
		return
	}
	for _, r := range secretRules {
		sm := r.re.FindStringSubmatch(m[3])
		if sm == nil {
			continue
		}
		value := sm[0]
		if r.generic {
			value = sm[len(sm)-1]
			if !secretLike(value) {
				return
			}
		}
		p.add(m[1], m[2], r.id, r.severity, fmt.Sprintf("%s (%s): %s is committed (%s)", r.id, r.severity, r.what, redact(r.id, value)), off)
		return
	}
}

// add records a finding once per file, line and scanner: the secret scan's
// generic pattern repeats a line a strict one already named. p.format
// names the scanner of the line.
func (p *securityParser) add(file, line, rule, severity, msg string, off int64) {
	rel, _ := p.paths.Normalize(file)
	n, _ := strconv.Atoi(line)
	// Once per scanner: a line bandit and the secret scan both flag is
	// two findings; flawfinder names each function of a line.
	scanner := p.format
	if scanner == FormatFlawfinder {
		scanner += ":" + rule
	}
	key := fmt.Sprintf("%s:%d:%s", rel, n, scanner)
	if p.seen[key] {
		return
	}
	p.seen[key] = true
	if len(p.found) >= p.lim.MaxFailures {
		p.omitted++
		return
	}
	if testCode(rel) && severity != SeverityLow {
		// A key in testdata/ or a password in a test is a fixture far
		// more often than a leak (chi's testdata/key.pem, itsdangerous'
		// test signers): still reported, at low severity, saying where.
		msg = strings.Replace(msg, "("+severity+")", "(low: in test code or test data)", 1)
		severity = SeverityLow
	}
	p.found = append(p.found, Failure{File: rel, Line: n, Kind: glv1.FailureKind_FAILURE_KIND_SECURITY, Rule: rule, Severity: severity, Message: msg, Offset: off})
}

// findings is the number of findings, kept or not.
func (p *securityParser) findings() int { return len(p.found) + p.omitted }

// secretLike reports whether a generic match's value looks like a key.
func secretLike(v string) bool {
	low := strings.ToLower(v)
	for _, w := range placeholderWords {
		if strings.Contains(low, w) {
			return false
		}
	}
	return entropy(v) >= minSecretEntropy
}

// entropy is the Shannon entropy of s in bits per character.
func entropy(s string) float64 {
	if s == "" {
		return 0
	}
	counts := map[rune]int{}
	n := 0
	for _, r := range s {
		counts[r]++
		n++
	}
	e := 0.0
	for _, c := range counts {
		q := float64(c) / float64(n)
		e -= q * math.Log2(q)
	}
	return e
}

// redact shows enough of a secret to find it, never the secret: its first
// four characters and its length. A private key's header is no secret.
func redact(rule, v string) string {
	if rule == "private-key" {
		return v
	}
	if len(v) <= 8 {
		return strings.Repeat("*", len(v))
	}
	return fmt.Sprintf("%s… %d characters", v[:4], len(v))
}
