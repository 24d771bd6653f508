package cli

import (
	"context"
	"io"
	"os"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/greenlight-dev/greenlight/pkg/image"
	"github.com/greenlight-dev/greenlight/services/loop/loopsvc"
)

// Env is the process around the CLI: streams, environment, version.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Getenv reads the environment (os.Getenv in main).
	Getenv func(string) string
	// Version is the build's version string and Commit the revision it was
	// built from, both stamped by make build (-ldflags -X); empty ones are
	// read from what Go recorded in the binary.
	Version string
	Commit  string
	// Program is how hints name greenlight ("greenlight show RUN"): main
	// sets it with ProgramName; empty means "greenlight".
	Program string
}

// app holds the global flags and the environment of one invocation.
type app struct {
	env Env

	addr      string
	token     string
	home      string
	reportURL string
	logLevel  string
	color     string
	// caBundleFlag is --ca-bundle: PEM trusted by embedded install steps.
	caBundleFlag string
	// imageSet is --images: the embedded stack's image set.
	imageSet string
	// command is the running command's name (recorded as a home's holder).
	command string
	// tls chooses the transport to --addr (--tls, --plaintext, --ca-file, ...).
	tls clientTLS
	// profiles are provider profiles the embedded loop offers to every
	// run of this process (verify --reviewer's definition).
	profiles []loopsvc.ProviderProfile
}

// Main runs the CLI with args (without the program name) and returns the
// exit code. Errors are printed as one line on Stderr.
func Main(ctx context.Context, args []string, env Env) int {
	if env.Getenv == nil {
		env.Getenv = func(string) string { return "" }
	}
	a := &app{env: env}
	root := a.root()
	root.SetArgs(args)
	root.SetIn(env.Stdin)
	root.SetOut(env.Stdout)
	root.SetErr(env.Stderr)
	cmd, err := root.ExecuteContextC(ctx)
	name := ""
	if cmd != nil {
		name = cmd.Name()
	}
	code, msg := exitCode(name, err)
	code = interruptedExit(ctx, code)
	if msg != "" {
		_, _ = io.WriteString(env.Stderr, msg+"\n")
	}
	return code
}

// root builds the command tree.
func (a *app) root() *cobra.Command {
	root := &cobra.Command{
		Use:   "greenlight",
		Short: "Verify code changes by really running them in hardened sandboxes",
		Long: `greenlight runs a workspace's install, build, typecheck, lint and test
commands in a throw-away Docker sandbox and reports, with evidence, whether
execution passed.

Without --addr every command runs the whole greenlight stack inside this
process (state under $GREENLIGHT_HOME, default ~/.local/share/greenlight);
with --addr it talks to a running gateway (greenlight serve, docker compose).

Exit codes (verify, fix, watch and show alike): 0 PASS, 1 FAIL, 2 no verdict
(an ERROR or canceled run, bad usage, greenlight not reachable), 130 when
Ctrl-C stopped the command (143 for SIGTERM). serve exits 0 when a signal
stops it cleanly.`,
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	b := a.build()
	root.Version = b.Version
	root.SetVersionTemplate(b.line() + "\n")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &usageError{err: err} })
	root.PersistentPreRun = func(cmd *cobra.Command, _ []string) { a.command = cmd.Name() }
	pf := root.PersistentFlags()
	pf.StringVar(&a.addr, "addr", a.env.Getenv("GREENLIGHT_ADDR"), "gateway address host:port (env GREENLIGHT_ADDR); empty runs greenlight embedded")
	pf.StringVar(&a.token, "token", a.env.Getenv("GREENLIGHT_TOKEN"), "bearer token for the gateway (env GREENLIGHT_TOKEN)")
	pf.StringVar(&a.home, "home", a.env.Getenv("GREENLIGHT_HOME"), "data directory of embedded mode (env GREENLIGHT_HOME; default ~/.local/share/greenlight)")
	pf.StringVar(&a.reportURL, "report-url", a.env.Getenv("GREENLIGHT_REPORT_URL"), "base URL of the report pages (env GREENLIGHT_REPORT_URL; default derived from --addr)")
	pf.StringVar(&a.logLevel, "log-level", envOr(a.env.Getenv("GREENLIGHT_LOG_LEVEL"), ""), "service log level on stderr: debug, info, warn, error (default: off, info for serve)")
	pf.StringVar(&a.color, "color", "auto", "colors and spinner: auto, always, never")
	pf.StringVar(&a.caBundleFlag, "ca-bundle", envOr(a.env.Getenv("GREENLIGHT_CA_BUNDLE"), "auto"),
		"PEM file install steps trust in embedded mode and serve (env GREENLIGHT_CA_BUNDLE): auto = "+HostCABundle+" when present, none = only the image's CAs")
	pf.StringVar(&a.imageSet, "images", envOr(a.env.Getenv("GREENLIGHT_IMAGES"), image.SetOffline),
		"sandbox image `set` in embedded mode and serve (env GREENLIGHT_IMAGES): offline = the images make images builds, "+
			"upstream = public images (node:20-slim, python:3.12-slim, golang:...) pulled from their registry when missing")
	a.tls.register(root, a.env.Getenv)
	root.AddCommand(
		a.verifyCmd(), a.discoverCmd(), a.fixCmd(), a.runsCmd(), a.showCmd(), a.watchCmd(),
		a.artifactsCmd(), a.evalCmd(), a.serveCmd(), a.versionCmd(), a.cancelCmd(), a.manCmd(),
	)
	return root
}

// envOr returns v, or def when v is empty.
func envOr(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// terminal reports whether w is a terminal we may draw on.
func (a *app) terminal(w io.Writer) bool {
	switch a.color {
	case "always":
		return true
	case "never":
		return false
	}
	if a.env.Getenv("TERM") == "dumb" || a.env.Getenv("NO_COLOR") != "" {
		return false
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// width is the terminal width of w (80 when unknown).
func (a *app) width(w io.Writer) int {
	if f, ok := w.(*os.File); ok {
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols > 0 {
			return cols
		}
	}
	return 80
}
