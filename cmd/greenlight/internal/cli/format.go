package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/progress"
	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/stack"
	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/cireport"
)

// formatFlags are --format and --output of verify and show: the run in a
// format CI systems read (pkg/cireport).
type formatFlags struct {
	format string
	output string
	parsed cireport.Format
}

// bind adds the flags to cmd and checks them before the command runs, so
// a bad --format is a usage error before anything is verified. exclusive
// names the command's boolean flags that choose another output (--json).
func (f *formatFlags) bind(cmd *cobra.Command, exclusive ...string) {
	fl := cmd.Flags()
	fl.StringVar(&f.format, "format", "", "print the result for CI as `FORMAT`: "+cireport.FormatNames()+
		" (github: annotations on stdout and a Markdown summary appended to $GITHUB_STEP_SUMMARY)")
	fl.StringVar(&f.output, "output", "", "write the --format output to `FILE` instead of stdout (the human summary then still goes to stdout)")
	next := cmd.PreRunE
	cmd.PreRunE = func(c *cobra.Command, args []string) error {
		if err := f.check(c, exclusive); err != nil {
			return err
		}
		if next != nil {
			return next(c, args)
		}
		return nil
	}
}

// check validates the flags.
func (f *formatFlags) check(cmd *cobra.Command, exclusive []string) error {
	if f.format == "" {
		if f.output != "" {
			return usagef("--output needs --format (one of %s)", cireport.FormatNames())
		}
		return nil
	}
	p, err := cireport.ParseFormat(f.format)
	if err != nil {
		return usagef("--format: %v", err)
	}
	for _, name := range exclusive {
		if on, _ := cmd.Flags().GetBool(name); on {
			return usagef("--%s and --format exclude each other", name)
		}
	}
	f.parsed = p
	return nil
}

// requested reports whether --format was given.
func (f *formatFlags) requested() bool { return f.format != "" }

// toFile reports whether the output goes to a file rather than stdout.
func (f *formatFlags) toFile() bool { return f.output != "" && f.output != "-" }

// verifyFormat ends verify --format: the report, the human summary too
// when the report went to a file, and the verdict's exit code (0 PASS,
// 1 FAIL, 2 ERROR) as without --format.
func (a *app) verifyFormat(conn *stack.Conn, run *glv1.Run, f *formatFlags) error {
	if err := a.writeFormat(conn, run, f); err != nil {
		return err
	}
	if f.toFile() {
		a.printSummary(conn, run)
	}
	return verdictExit(run)
}

// showFormat is show --format: a run still going has nothing to report.
func (a *app) showFormat(conn *stack.Conn, run *glv1.Run, f *formatFlags) error {
	if run.GetResult() == nil {
		return fmt.Errorf("run %s has no result yet (%s): try %s watch %s", run.GetId(), progress.RunStatus(run.GetStatus()), a.program(), run.GetId())
	}
	return a.writeFormat(conn, run, f)
}

// writeFormat renders run to --output or stdout.
func (a *app) writeFormat(conn *stack.Conn, run *glv1.Run, f *formatFlags) error {
	// Failures are located from the verified directory; CI systems read
	// paths from the repository's root (verify SUBDIR in a monorepo).
	opts := cireport.Options{Version: a.version(), ReportURL: conn.ReportURL(run.GetId()),
		PathPrefix: cireport.RepoPrefix(run.GetSourceDir(), a.env.Getenv)}
	if f.parsed == cireport.GitHub {
		opts.StepSummary = a.env.Getenv("GITHUB_STEP_SUMMARY")
	}
	write := func(w io.Writer) error { return cireport.Write(w, f.parsed, run, opts) }
	if !f.toFile() {
		return write(a.env.Stdout)
	}
	return writeAtomic(f.output, write)
}

// writeAtomic writes a file through a temporary file in the same
// directory and a rename, so a CI step reading it never sees half a
// report and a failed write leaves an older report as it was.
func writeAtomic(path string, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("--output: %w", err)
	}
	defer os.Remove(tmp.Name()) // after the rename there is nothing to remove
	if err := write(tmp); err != nil {
		_ = tmp.Close()
		return fmt.Errorf("--output %s: %w", path, err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		_ = tmp.Close()
		return fmt.Errorf("--output %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("--output %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("--output: %w", err)
	}
	return nil
}
