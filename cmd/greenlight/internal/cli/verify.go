package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/snapshot"
	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/stack"
	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/summary"
	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/config"
)

// verifyFlags are verify's own flags (fix shares most of them).
type verifyFlags struct {
	json       bool
	quiet      bool
	logs       bool
	maxBytes   string
	changed    []string
	highRisk   bool
	milestone  bool
	runEnd     bool
	budget     time.Duration
	attempts   int32
	commit     string
	rerun      bool
	maxByteVal int64
	out        formatFlags
	detach     bool
	// steps and tests make a selective run (selectflags.go).
	steps []string
	tests []string
	// planFile is --plan; plan is its text (planflag.go).
	planFile string
	plan     string
	watch    watchFlags
	// reviewer is --reviewer; reviewName the profile it selects (reviewflag.go).
	reviewer, reviewName string
	// security is --security; securityMode its value (securityflag.go).
	security     string
	securityMode glv1.SecurityMode
}

// bind adds the flags to cmd.
func (f *verifyFlags) bind(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.BoolVar(&f.json, "json", false, "print the result (output contract) as JSON on stdout")
	fl.BoolVarP(&f.quiet, "quiet", "q", false, "no live progress")
	fl.BoolVar(&f.logs, "logs", false, "print every log line as it arrives (plain output)")
	fl.StringVar(&f.maxBytes, "max-workspace-bytes", "1GiB", "refuse a workspace whose files add up to more than this `size` (the sandbox's default workspace cap)")
	fl.StringSliceVar(&f.changed, "changed", nil, "files the change touched (selects risk-triggered tier 1 checks)")
	fl.BoolVar(&f.highRisk, "high-risk", false, "treat the change as high risk (selects tier 1)")
	fl.BoolVar(&f.milestone, "milestone-end", false, "this is a milestone's end (selects tier 1)")
	fl.BoolVar(&f.runEnd, "run-end", false, "this is the run's end (selects tier 2)")
	fl.DurationVar(&f.budget, "time-budget", 0, "budget for the whole verification (default: the server's, 600s)")
	fl.Int32Var(&f.attempts, "max-attempts", 0, "attempts of the retry policy (default: the server's, 3)")
	fl.StringVar(&f.commit, "commit", "", "commit sha to record in the manifest")
	fl.BoolVar(&f.rerun, "rerun-failed", false, "re-run failing tests once to detect flaky ones")
}

// bindDetach adds verify's --detach.
func (f *verifyFlags) bindDetach(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&f.detach, "detach", false,
		"start the run on the server (--addr) and print its id at once; follow it with watch, stop it with cancel")
}

// parse checks flag values.
func (f *verifyFlags) parse() error {
	n, err := config.ParseBytes(f.maxBytes)
	if err != nil || n <= 0 {
		return usagef("--max-workspace-bytes: %q is not a positive size", f.maxBytes)
	}
	f.maxByteVal = int64(n)
	if f.budget < 0 || f.attempts < 0 {
		return usagef("--time-budget and --max-attempts must not be negative")
	}
	if err := f.parseSecurity(); err != nil {
		return err
	}
	if err := f.parseSelect(); err != nil {
		return err
	}
	return f.readPlan()
}

// options builds VerifyOptions.
func (f *verifyFlags) options() *glv1.VerifyOptions {
	o := &glv1.VerifyOptions{
		ChangedFiles: f.changed, HighRisk: f.highRisk, MilestoneEnd: f.milestone, RunEnd: f.runEnd,
		MaxAttempts: f.attempts, CommitSha: f.commit, RerunFailed: f.rerun,
	}
	if f.budget > 0 {
		o.TimeBudget = durationpb.New(f.budget)
	}
	f.selectOptions(o)
	f.planOptions(o)
	f.reviewOptions(o)
	f.securityOptions(o)
	return o
}

func (a *app) verifyCmd() *cobra.Command {
	var f verifyFlags
	cmd := &cobra.Command{
		Use:   "verify [DIR]",
		Short: "Verify a workspace: discover its checks, run them in a sandbox, report PASS or FAIL",
		Long: `verify packs DIR (default: the current directory; in a git work tree the
files git would commit), uploads it, and runs the checks greenlight
discovers (install, build, typecheck, lint, test) in a throw-away sandbox,
showing live progress. It ends with a summary and exits 0 on PASS, 1 on
FAIL and 2 when verification could not be carried out.

--step NAME and --test ID run a part of the project (the summary and the
JSON result say partial: a PASS of one test is not the project's).
--watch verifies again each time a file changes, until Ctrl-C.`,
		Args: maxArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.parse(); err != nil {
				return err
			}
			if err := a.parseReview(&f); err != nil {
				return err
			}
			if f.watch.on {
				return a.verifyWatch(cmd.Context(), dirArg(args), &f)
			}
			if f.detach && (a.addr == "" || f.out.requested()) {
				return usagef("--detach needs --addr (a running greenlight serve: an embedded run ends with this process) and no --format")
			}
			return a.verify(cmd.Context(), dirArg(args), &f)
		},
	}
	f.bind(cmd)
	f.bindDetach(cmd)
	f.bindSelect(cmd)
	f.bindPlan(cmd)
	f.bindReview(cmd)
	f.bindSecurity(cmd)
	f.watch.bind(cmd)
	f.out.bind(cmd, "json")
	return cmd
}

// verify packs, uploads, verifies and reports.
func (a *app) verify(ctx context.Context, dir string, f *verifyFlags) error {
	packed, conn, err := a.packAndConnect(ctx, dir, f.maxByteVal)
	if err != nil {
		return err
	}
	defer packed.Remove()
	defer conn.Close()
	if err := packed.Upload(ctx, conn.Blobs); err != nil {
		return err
	}
	if f.detach {
		return a.startDetached(ctx, conn, &glv1.VerifyRequest{
			Snapshot: packed.Digest.Proto(), Options: f.options(), SourceDir: packed.Dir}, f.json)
	}
	stream, err := conn.Run.Verify(ctx, &glv1.VerifyRequest{
		Snapshot: packed.Digest.Proto(), Options: f.options(), SourceDir: packed.Dir,
	})
	if err != nil {
		return err
	}
	recv := func() (*glv1.RunEvent, error) {
		m, err := stream.Recv()
		return m.GetEvent(), err
	}
	run, err := a.followAndReport(ctx, conn, recv, f.quiet, f.logs)
	if err != nil {
		return err
	}
	if f.out.requested() {
		return a.verifyFormat(conn, run, &f.out)
	}
	return a.finish(conn, run, f.json)
}

// followAndReport shows progress until the run finishes and fetches it.
func (a *app) followAndReport(ctx context.Context, conn *stack.Conn, recv recvFunc, quiet, logs bool) (*glv1.Run, error) {
	var sink eventSink = nopSink{}
	if !quiet {
		r := a.newRenderer(a.env.Stderr, logs)
		defer r.Close()
		sink = r
	}
	runID, fin, err := follow(ctx, conn, recv, sink)
	if err != nil {
		return nil, err
	}
	return finalRun(ctx, conn, runID, fin), nil
}

// finish prints the summary (or the JSON result) and picks the exit code.
func (a *app) finish(conn *stack.Conn, run *glv1.Run, asJSON bool) error {
	if asJSON {
		b, err := summary.JSON(run)
		if err != nil {
			return err
		}
		if _, err := a.env.Stdout.Write(b); err != nil {
			return err
		}
	} else {
		a.printSummary(conn, run)
	}
	return verdictExit(run)
}

// printSummary writes the human summary of run to stdout.
func (a *app) printSummary(conn *stack.Conn, run *glv1.Run) {
	opts := summary.Options{Color: a.terminal(a.env.Stdout), ReportURL: conn.ReportURL(run.GetId()), ReportNeedsToken: a.token != "" && !conn.Embedded}
	if opts.ReportURL == "" && conn.Embedded {
		opts.Hint = embeddedHint(a.program(), run.GetId())
	} else if opts.ReportURL == "" {
		opts.Hint = fmt.Sprintf("%s --addr %s show %s", a.program(), a.addr, run.GetId())
	}
	opts.Program = a.program()
	fmt.Fprintln(a.env.Stdout)
	summary.Text(a.env.Stdout, run, opts)
}

// dirArg is the DIR argument, "." by default.
func dirArg(args []string) string {
	if len(args) > 0 {
		return args[0]
	}
	return "."
}

// maxArgs is cobra.MaximumNArgs with a usage error.
func maxArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) > n {
			return usagef("takes at most %d argument(s), got %d (see greenlight %s --help)", n, len(args), cmd.Name())
		}
		return nil
	}
}

// exactArgs is cobra.ExactArgs with a usage error.
func exactArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return usagef("needs %s (see greenlight %s --help)", what, cmd.Name())
		}
		return nil
	}
}

// packAndConnect packs dir and connects. They overlap unless the embedded
// home has no run database yet: starting the stack (the run store, the
// services, the executor's first engine calls) needs nothing of the pack,
// and the two are most of a one-shot verify's time before its sandbox is
// created. On a fresh home the pack comes first, so that a refused
// workspace creates no run database. A pack error wins over a connect
// error, as when they ran one after the other, and what succeeded is
// undone when the other failed.
func (a *app) packAndConnect(ctx context.Context, dir string, maxBytes int64) (*snapshot.Packed, *stack.Conn, error) {
	if a.addr == "" && !stack.HasRunStore(a.dataDir()) {
		packed, err := snapshot.Pack(ctx, dir, maxBytes, "")
		if err != nil {
			return nil, nil, err
		}
		conn, err := a.connect(ctx)
		if err != nil {
			packed.Remove()
			return nil, nil, err
		}
		return packed, conn, nil
	}
	type connected struct {
		conn *stack.Conn
		err  error
	}
	cctx, cancel := context.WithCancel(ctx) // the stack, once started, does not depend on it
	defer cancel()
	done := make(chan connected, 1)
	go func() {
		conn, err := a.connect(cctx)
		done <- connected{conn, err}
	}()
	packed, err := snapshot.Pack(ctx, dir, maxBytes, "")
	if err != nil {
		cancel() // a connect still waiting for the home stops waiting
	}
	c := <-done
	switch {
	case err != nil:
		if c.conn != nil {
			_ = c.conn.Close()
		}
		return nil, nil, err
	case c.err != nil:
		packed.Remove()
		return nil, nil, c.err
	}
	return packed, c.conn, nil
}
