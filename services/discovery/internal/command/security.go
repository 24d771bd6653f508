package command

import (
	"strings"

	"github.com/greenlight-dev/greenlight/services/discovery/internal/detect"
)

// The security phase greenlight offers by itself (issue 27): scanners that
// work offline from the sandbox image. They are in every whitelist but
// planned only when asked (OptIn): greenlight.yaml "advisory: [secret-scan]"
// plans one as advisory (it runs, its findings are reported and scored,
// the verdict ignores it), "required: [secret-scan]" makes it decide the
// verdict, a selection naming it runs it. Advisory includes PhaseSecurity.

// SecretScanDisplay is what the secret-scan step shows instead of its
// generated script.
const SecretScanDisplay = "greenlight secret scan (private keys, cloud and chat tokens)"

// secretExcludes are directories never scanned: dependencies, virtualenvs,
// build output and git's own data are not the project's committed code.
var secretExcludes = []string{".git", "node_modules", ".venv", "venv", "vendor", "target", "build", "dist", "__pycache__", ".tox", ".nox"}

// SecretPatterns are the secret scan's strict patterns (POSIX ERE, as
// grep -E reads them): any match fails the step. The loop's parser
// (services/loop/internal/parse/security.go) names the rule of each match
// with the same expressions.
var SecretPatterns = []string{
	`-----BEGIN ([A-Z]+ )?PRIVATE KEY( BLOCK)?-----`,
	`(AKIA|ASIA)[0-9A-Z]{16}`,
	`gh[pousr]_[A-Za-z0-9]{36,}`,
	`github_pat_[A-Za-z0-9_]{60,}`,
	`xox[abposr]-[0-9A-Za-z-]{10,}`,
	`hooks\.slack\.com/services/T[A-Za-z0-9_]+/B[A-Za-z0-9_]+/[A-Za-z0-9_]+`,
	`AIza[0-9A-Za-z_-]{35}`,
	`[sr]k_live_[0-9A-Za-z]{20,}`,
}

// GenericSecretPattern finds candidate assignments of a secret-named
// variable to a long literal. Its matches only print (they never fail the
// step): the loop keeps those whose value has the entropy of a real key.
//
// The name must end in the secret word (client_secret, SECRET_KEY,
// api_token, auth_token): a word merely starting the name (author_email,
// token_url, password_hint) names no secret.
const GenericSecretPattern = `(secret([_-]?key)?|token|passw(or)?d|api[_-]?key|access[_-]?key|private[_-]?key|auth[_-]?token|authorization)["']?[[:space:]]*[:=]+[[:space:]]*["'][^"'[:space:]]{16,}["']`

// secretScanScript runs the image's grep (by its absolute path: an install
// step cannot put another one first on PATH) over the subproject: the
// strict patterns decide the exit status (1 when one matched), the generic
// one only prints. grep -o prints FILE:LINE:MATCH, the parser's input.
func secretScanScript() string {
	var x strings.Builder
	for _, d := range secretExcludes {
		x.WriteString(" --exclude-dir=" + d)
	}
	var strict strings.Builder
	for _, p := range SecretPatterns {
		strict.WriteString(" -e " + shellQuote(p))
	}
	return "echo 'greenlight secret scan'; /usr/bin/grep -rnoIE" + x.String() + strict.String() + " .; s=$?; " +
		"/usr/bin/grep -rnoIiE" + x.String() + " -e " + shellQuote(GenericSecretPattern) + " .; " +
		`case $s in 0) exit 1;; 1) exit 0;; *) exit $s;; esac`
}

// shellQuote single-quotes s for sh.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// BanditCommand runs the Python image's bandit with one line per finding
// the loop's parser reads. The system interpreter in isolated mode (-I: no
// user site, no PYTHON* variables, no workspace on sys.path) imports the
// image's bandit, never one an install step planted. B101 (assert used)
// is skipped: pytest suites are made of asserts.
const BanditCommand = `/usr/bin/python3 -I -m bandit -r . -q --skip B101 -x ./.venv,./node_modules,./.tox,./.nox,./build,./dist ` +
	`-f custom --msg-template 'bandit: {relpath}:{line}: {test_id} {severity} {msg}'`

// FlawfinderCommand runs the C/C++ image's flawfinder (Debian's) over the
// subproject, one line per hit: "FILE:LINE:  [LEVEL] (CATEGORY) NAME:MSG".
// Risk levels 0-2 are left out (statically sized arrays, every strlen):
// level 3 and up are reported, and any of them fails the step. The
// system interpreter in isolated mode runs the image's script, never one
// an install step planted. --falsepositive drops hits flawfinder can tell
// are constant (a sprintf of literals).
const FlawfinderCommand = `/usr/bin/python3 -I /usr/bin/flawfinder --minlevel=3 --error-level=3 --falsepositive --dataonly --quiet --singleline .`

// GosecCommand runs the Go image's gosec (built by images/go/setup.sh)
// over the module's packages, one line per finding:
// "FILE:LINE:COL: [CWE-n] message (Rule:G304, Severity:MEDIUM,
// Confidence:HIGH)". Test files are left out (gosec's default); G104
// (unhandled errors) is left to the linters. By its absolute path: an
// install step cannot put another gosec first on PATH.
const GosecCommand = `/usr/local/bin/gosec -quiet -fmt=golint -exclude=G104 ./...`

// ModuleScoped names the scans that read one module, not a directory
// tree: a scan at an enclosing root does not stand for a nested module's.
var ModuleScoped = map[string]bool{"gosec": true}

// Security returns the opt-in security steps of a subproject (named like
// its other commands: "web:secret-scan").
func Security(sp detect.Subproject) []Command {
	e := &extractor{sp: sp, names: map[string]bool{}}
	e.security()
	return e.out.Commands
}

// security adds the planned security steps of the subproject: the secret
// scan for every toolchain, bandit for Python, flawfinder for C/C++, gosec
// for Go.
func (e *extractor) security() {
	def := Source{File: e.file(""), Key: "security", Origin: OriginDefault}
	if len(e.sp.Markers) > 0 {
		def.File = e.sp.Markers[0]
	}
	e.add(Command{Name: "secret-scan", Phase: PhaseSecurity, Command: secretScanScript(), Display: SecretScanDisplay, Source: def, OptIn: true})
	if e.sp.Python != nil {
		e.add(Command{Name: "bandit", Phase: PhaseSecurity, Command: BanditCommand, Source: def, OptIn: true})
	}
	if e.sp.Go != nil {
		// Tier 1: gosec type-checks every package from source (6-9 s on
		// pflag and chi here, more than their tests), so by default it
		// runs when tier 1 does (a risky change, a milestone's end);
		// asking for the security phase plans it always.
		e.add(Command{Name: "gosec", Phase: PhaseSecurity, Command: GosecCommand, Source: def, OptIn: true, Tier: Tier1})
	}
	if e.sp.Cpp != nil {
		e.add(Command{Name: "flawfinder", Phase: PhaseSecurity, Command: FlawfinderCommand, Source: def, OptIn: true})
	}
}
