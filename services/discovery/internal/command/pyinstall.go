package command

import (
	"strings"

	"github.com/greenlight-dev/greenlight/pkg/pylaunch"
)

// Files pip-install leaves in the venv: its log and exit status, which
// pip-fallback reads to tell an unreachable package index from a broken
// install, and the marker of a complete install (cached with the venv, so
// a cache hit still says the install was complete: only a successful
// pip-install is ever cached).
const (
	pipLog  = ".venv/greenlight-pip.log"
	pipRC   = ".venv/greenlight-pip.rc"
	pipDone = ".venv/greenlight-installed"
)

// indexUnreachable matches pip's output when it could not reach the
// package index (DNS, connection, proxy or TLS failures, retried and then
// reported as "Could not fetch URL"). A failed install without any of
// them is a failure of the project's install.
const indexUnreachable = `Temporary failure in name resolution|Name or service not known|No address associated with hostname|` +
	`Failed to establish a new connection|Network is unreachable|No route to host|Connection refused|Connection reset by peer|Max retries exceeded|` +
	`Read timed out|ProxyError|SSLError|CERTIFICATE_VERIFY_FAILED|Could not fetch URL`

// pipInstall adds the two install steps of a pip (or uv) project.
//
// pip-install installs into a venv the requirement files, the test
// dependency groups, tox's deps and the project itself (editable, with
// its test extras): first without build isolation, so a setuptools
// project builds with the image's setuptools and no index, then with
// isolation for a backend the image lacks (flit_core, hatchling). It is
// advisory: when it fails, nothing is cached and pip-fallback decides.
//
// pip-fallback (required, never cached) does nothing after a complete
// install. After a failed one it reads pip-install's log: with no sign of
// an unreachable index the install itself is broken and the step fails;
// offline, it installs the project without dependencies from the image's
// backend when it can, says what is missing, and lets the tests decide
// (the test steps import from the checkout: PYTHONPATH=src in a src
// layout).
func (e *extractor) pipInstall(c Command) {
	info := e.sp.Python
	args := e.pipArgs()
	c.Name = "pip-install"
	c.Source = Source{File: info.ProjectFile, Origin: OriginDefault}
	if len(info.Requirements) > 0 {
		c.Source.File = info.Requirements[0]
	}
	if e.sp.PackageManager == "uv" {
		c.Source.File = e.file("uv.lock")
		e.note("%s: uv.lock: installed with pip into .venv (the project, its test extras and dependency groups): uv is not in the sandbox image; a greenlight.yaml step can run `uv sync` in an image that has uv", e.sp.Root)
	}
	if c.Source.File == "" {
		c.Source.File = e.sp.Markers[0]
	}
	pip := pylaunch.Module(".venv/bin/python", "pip") + " install "
	attempts := pip + strings.Join(args, " ")
	if info.ProjectFile != "" {
		attempts = pip + "--no-build-isolation " + strings.Join(args, " ") + " || " + attempts
	}
	c.Command = pylaunch.Module("python3", "venv") + " --system-site-packages .venv && rm -f " + pipDone + " && { { " + attempts + "; }; echo $? >" + pipRC + "; } 2>&1 | tee " + pipLog +
		` && [ "$(cat ` + pipRC + `)" = 0 ] && touch ` + pipDone
	c.Display = pipInstallDisplay(args)
	e.add(c)
	last := &e.out.Commands[len(e.out.Commands)-1]
	last.Optional, last.ContinueOnFailure = true, true

	installName := last.Name
	e.add(Command{Name: "pip-fallback", Phase: PhaseInstall, Command: e.pipFallback(args), Display: pipFallbackDisplay(info.ProjectFile != ""), Source: c.Source})
	last = &e.out.Commands[len(e.out.Commands)-1]
	// Offline by design (it acts when the index was unreachable, and
	// installs the project with --no-deps --no-build-isolation): without
	// the network, a re-verification whose pip-install restores from the
	// cache never attaches the sandbox to it.
	last.CacheKeyFiles, last.Completes, last.Network = nil, installName, false
}

// pipInstallDisplay is pip-install's display: the install as a person
// would type it. The script that runs is a kilobyte or two (the
// no-isolation attempt, the log and status pip-fallback reads, the
// completion marker); progress lines and the report page show this, the
// log page and the JSON result keep the whole script.
func pipInstallDisplay(args []string) string {
	return "python3 -m venv .venv && .venv/bin/python -m pip install " + strings.Join(args, " ")
}

// pipFallbackDisplay says in one line what pip-fallback does: it is
// greenlight's check of pip-install, not a command of the project.
// (Discovery reads the programs a step needs from its display: these
// words name none.)
func pipFallbackDisplay(project bool) string {
	offline := "lets the tests decide"
	if project {
		offline = "installs the project without its dependencies"
	}
	return "greenlight checks pip-install: a failed install fails here; offline, " + offline
}

// pipArgs are pip install's arguments: requirement files, dependency
// group and tox requirement strings, and the project with its extras.
func (e *extractor) pipArgs() []string {
	info := e.sp.Python
	var args []string
	for _, r := range info.Requirements {
		args = append(args, "-r "+ShellQuote(e.rel(r)))
	}
	for _, d := range info.GroupDeps {
		args = append(args, ShellQuote(d))
	}
	for _, d := range info.ToxDeps {
		if !contains(info.GroupDeps, d) {
			args = append(args, ShellQuote(d))
		}
	}
	if info.ProjectFile != "" {
		target := "."
		if len(info.Extras) > 0 {
			target = ShellQuote(".[" + strings.Join(info.Extras, ",") + "]")
		}
		args = append(args, "-e "+target)
	}
	return args
}

// pipFallback is pip-fallback's script (see pipInstall).
func (e *extractor) pipFallback(args []string) string {
	info := e.sp.Python
	say := func(msg string) string { return "printf '%s\\n' " + ShellQuote("greenlight: "+msg) }
	s := "if [ -f " + pipDone + " ]; then " + say("pip-install installed everything") + "; exit 0; fi; " +
		// No log: a configured step replaced pip-install (nothing of ours
		// to check when it left a venv), or the venv could not be made.
		"if [ ! -f " + pipLog + " ]; then if [ -x .venv/bin/python ]; then " + say("the venv was not made by greenlight's pip-install: nothing to check") +
		"; exit 0; fi; " + say("pip-install did not create .venv (see pip-install)") + "; exit 1; fi; " +
		"if ! grep -qE '" + indexUnreachable + "' " + pipLog + " 2>/dev/null; then " +
		say("pip-install failed and its log shows no unreachable package index: the install itself failed (see pip-install)") +
		"; tail -n 5 " + pipLog + " 2>/dev/null; exit 1; fi; " +
		say("the package index is unreachable: pip-install could not install "+strings.Join(args, " ")) + "; " +
		"grep -o 'No matching distribution found for .*' " + pipLog + " | sort -u; "
	if info.ProjectFile != "" {
		backend := info.BuildBackend
		if backend == "" {
			backend = "setuptools"
		}
		where := "from the checkout"
		if info.SrcLayout {
			where += " with PYTHONPATH=src"
		}
		s += "if " + pylaunch.Module(".venv/bin/python", "pip") + " install -q --no-deps --no-build-isolation -e . >" + pipLog + ".project 2>&1; then " +
			say("installed the project without its dependencies (none could be fetched)") + "; else grep -E '(Error|Exception): ' " + pipLog + ".project | tail -n 1; " +
			say("project not installed (build backend "+backend+" unavailable offline, or the image's version rejects the project's metadata): tests run "+where) + "; fi; "
	}
	return s + say("the tests decide the verdict: a test that needs a package that is not installed fails at import")
}
