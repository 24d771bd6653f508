package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/termtext"
	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/contract"
	"github.com/greenlight-dev/greenlight/services/loop/eval"
)

// maxEvalRuns bounds -k: every run is a repair loop in real sandboxes.
const maxEvalRuns = 100

// evalFlags are eval's flags. The provider flags, when --provider is
// given, replace every task's provider section.
type evalFlags struct {
	runs      int
	json      bool
	provider  string
	command   string
	baseURL   string
	model     string
	recording string
	// allowConfig lets every task's patches edit verification config.
	allowConfig bool
	// swebench, root and predictions select a SWE-bench evaluation.
	swebench, root, predictions string
}

func (a *app) evalCmd() *cobra.Command {
	var f evalFlags
	cmd := &cobra.Command{
		Use:   "eval SUITE [-k N] [--json] [--provider command|openai|replay ...] | eval --swebench FILE [--predictions FILE]",
		Short: "Run a suite of failing workspaces through the repair loop and report pass@1 / pass@k",
		Long: `eval runs the repair loop -k times on every task of SUITE and reports, per
task and for the suite, pass@1, pass@k (the unbiased estimator, k = -k),
the median patch size, attempts-to-green and time-to-green of the passing
runs, and the rollback rate (rolled-back patches / proposed patches), as a
table or, with --json, as JSON. Progress goes to stderr.

SUITE is a directory with one subdirectory per task; a task is a directory
holding a task.yaml and its workspace (repo/ when present, else the task
directory itself):

  name: off-by-one          # optional, default: the directory name
  provider:                 # optional when --provider is given
    kind: command           # command, openai or replay (not client)
    command: cat fix.patch
  max_rounds: 2
  reference_check: pytest   # optional: must also pass on the final snapshot
  allow_config_changes: false  # optional: let patches edit greenlight.yaml, CI, test config
  hidden_tests: hidden/        # optional: tests the model never sees (a diff file or a
                               # directory laid over the workspace); they grade every patch
  hidden_targets: [test_x]     # optional: the hidden tests that must pass

Command and openai providers run here, in this CLI, which answers the
loop's patch requests as a client provider (a server runs such providers
only as profiles its operator configured): a command with /bin/sh -c in
the task directory (so "cat fix.patch" reads SUITE/TASK/fix.patch), the
patch request as JSON on stdin and the patch on stdout; a model with the
key from this process's environment. Embedded or with --addr alike.

--swebench FILE grades SWE-bench instance records instead (instance_id,
patch, test_patch, FAIL_TO_PASS, PASS_TO_PASS; base trees checked out at
--instances-root/INSTANCE_ID or each record's base_dir): the gold patch
(or --predictions' model_patch) in one round, graded with the test patch as
hidden tests (laid over the candidate for grading only, never shown to a
model --provider may name),
graded as swebench.harness.grading grades (a skipped or missing
FAIL_TO_PASS test fails, PASS_TO_PASS tests must keep passing); --json
prints swebench's run-report shape with each instance's tests_status.

Exit codes: 0 the eval ran (whatever the pass rate), 2 bad usage or suite,
or every run ended in error (nothing was measured).`,
		Args: maxArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.swebench != "" {
				if len(args) > 0 {
					return usagef("--swebench FILE takes no SUITE directory")
				}
				return a.evalSWEBench(cmd.Context(), &f)
			}
			if len(args) == 0 {
				return usagef("eval needs a suite directory (or --swebench FILE)")
			}
			return a.eval(cmd.Context(), args[0], &f)
		},
	}
	fl := cmd.Flags()
	fl.IntVarP(&f.runs, "runs", "k", 1, "repair runs per task: the n of the samples and the k of pass@k")
	fl.BoolVar(&f.json, "json", false, "print the report as JSON")
	fl.StringVar(&f.provider, "provider", "", "patch provider for every task: command, openai or replay (default: each task.yaml's)")
	fl.StringVar(&f.command, "command", "", "command: the program (run by this CLI in each task directory)")
	fl.StringVar(&f.baseURL, "base-url", "", "openai: the endpoint's base URL, e.g. http://127.0.0.1:8000/v1")
	fl.StringVar(&f.model, "model", "", "openai: the model name")
	fl.StringVar(&f.recording, "recording", "", "replay: the run id whose recorded session to play back")
	fl.StringVar(&f.swebench, "swebench", "", "evaluate SWE-bench instance records (JSON or JSON lines) instead of a suite")
	fl.StringVar(&f.root, "instances-root", "", "--swebench: directory holding each instance's base tree as ROOT/INSTANCE_ID (default: the file's directory)")
	fl.StringVar(&f.predictions, "predictions", "", "--swebench: SWE-bench prediction records to grade (default: the gold patches)")
	fl.BoolVar(&f.allowConfig, "allow-config-changes", false,
		"let patches edit verification config in every task (default: each task.yaml's allow_config_changes, off)")
	return cmd
}

// override returns the provider that replaces the tasks' own (nil when
// --provider is not given).
func (f *evalFlags) override(getenv func(string) string) (*glv1.ProviderConfig, error) {
	if f.provider == "" {
		if f.command != "" || f.baseURL != "" || f.model != "" || f.recording != "" {
			return nil, usagef("--command, --base-url, --model and --recording need --provider")
		}
		return nil, nil
	}
	if f.provider == "client" {
		return nil, usagef("--provider client: an eval has nobody to answer patch requests; use command, openai or replay")
	}
	ff := fixFlags{provider: f.provider, command: f.command, baseURL: f.baseURL, model: f.model, recording: f.recording}
	return ff.providerConfig(getenv)
}

// eval loads and checks the suite, then runs it through greenlight
// (embedded or --addr) and prints the report.
func (a *app) eval(ctx context.Context, dir string, f *evalFlags) error {
	if f.runs < 1 || f.runs > maxEvalRuns {
		return usagef("-k/--runs must be 1..%d, got %d", maxEvalRuns, f.runs)
	}
	prov, err := f.override(a.env.Getenv)
	if err != nil {
		return err
	}
	tasks, err := eval.LoadSuite(dir)
	if err == nil {
		err = eval.Validate(tasks, prov)
	}
	if err != nil {
		return usagef("%v", err)
	}
	conn, err := a.connectWith(ctx, nil, roundsPool)
	if err != nil {
		return err
	}
	defer conn.Close()
	rep, err := eval.Run(ctx, conn.Run, conn.Blobs, tasks, eval.Options{
		Samples: f.runs, K: f.runs, Provider: prov, AllowConfigChanges: f.allowConfig,
		Started: func(task string, i int) { fmt.Fprintf(a.env.Stderr, "eval: %s run %d/%d…\n", task, i+1, f.runs) },
		Progress: func(task string, i int, s eval.Sample) {
			fmt.Fprintln(a.env.Stderr, termtext.Clean(sampleLine(task, i, f.runs, s)))
		},
	})
	if err != nil {
		return err
	}
	if f.json {
		err = a.write(rep.JSON())
	} else {
		_, err = fmt.Fprint(a.env.Stdout, rep.Table())
	}
	if err != nil {
		return err
	}
	return unmeasuredExit(rep, a.program())
}

// evalSWEBench grades SWE-bench instances: each base tree with its test
// patch applied gets the gold patch (or the prediction) in one round, and
// the report has swebench's run-report shape (--json) or is a table.
func (a *app) evalSWEBench(ctx context.Context, f *evalFlags) error {
	if f.provider != "" || f.runs != 1 {
		return usagef("--swebench grades the given patches once: drop --provider and -k")
	}
	instances, err := eval.LoadInstances(f.swebench, f.root)
	if err != nil {
		return usagef("%v", err)
	}
	var preds map[string]eval.Prediction
	if f.predictions != "" {
		if preds, err = eval.LoadPredictions(f.predictions); err != nil {
			return usagef("%v", err)
		}
	}
	conn, err := a.connectWith(ctx, nil, roundsPool)
	if err != nil {
		return err
	}
	defer conn.Close()
	rep, err := eval.Run(ctx, conn.Run, conn.Blobs, eval.Tasks(instances, preds), eval.Options{
		Samples: 1, K: 1, AllowConfigChanges: f.allowConfig,
		Progress: func(task string, i int, s eval.Sample) {
			fmt.Fprintln(a.env.Stderr, termtext.Clean(sampleLine(task, i, 1, s)+" "+s.Resolution))
		},
	})
	if err != nil {
		return err
	}
	swe := eval.SWEReportOf(instances, eval.Patches(instances, preds), rep)
	if f.json {
		err = a.write(swe.JSON(), nil)
	} else {
		_, err = fmt.Fprintf(a.env.Stdout, "%sresolved %d of %d instances (%d empty patches, %d errors)\n", rep.Table(),
			swe.ResolvedInstances, swe.TotalInstances, swe.EmptyPatchInstances, swe.ErrorInstances)
	}
	if err != nil {
		return err
	}
	return unmeasuredExit(rep, a.program())
}

// sampleLine is the progress line after one run.
func sampleLine(task string, i, n int, s eval.Sample) string {
	var b strings.Builder
	fmt.Fprintf(&b, "eval: %s run %d/%d: ", task, i+1, n)
	switch {
	case s.Error != "":
		fmt.Fprintf(&b, "not measured: %s", oneLine(s.Error))
	case s.Passed:
		fmt.Fprintf(&b, "passed after %d patch(es), %d line(s), %.1fs", s.AttemptsToGreen, s.PatchLines, s.TimeToGreenSeconds)
	case s.Green:
		b.WriteString("green, but the reference check failed")
	case s.Status == contract.StatusError:
		fmt.Fprintf(&b, "not measured: %s", oneLine(s.Summary))
	default:
		fmt.Fprintf(&b, "%s (%s) after %d round(s): %d patch(es), %d rolled back", strings.ToLower(s.RunStatus), s.StopReason, s.Rounds, s.Patches, s.Rollbacks)
	}
	if s.RunID != "" {
		b.WriteString("  [" + s.RunID + "]")
	}
	return b.String()
}

// errNothingMeasured is the exit-2 error of an eval whose every run ended
// in error: its pass@ figures would be zeros that mean nothing.
var errNothingMeasured = errors.New("every run of the eval ended in error, nothing was measured")

// unmeasuredExit fails (exit 2) when no run measured anything; prog is
// how the user runs greenlight (app.program), for the hint.
func unmeasuredExit(rep *eval.Report, prog string) error {
	n, total := rep.Unmeasured()
	if total == 0 || n < total {
		return nil
	}
	s := rep.Tasks[0].Runs[0]
	why := s.Error
	if why == "" {
		why = s.Summary
	}
	if why == "" {
		why = "see " + prog + " show " + s.RunID
	}
	return fmt.Errorf("%w; the first: %s", errNothingMeasured, why)
}
