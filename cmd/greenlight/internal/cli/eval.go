package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/progress"
	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/snapshot"
	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/stack"
	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/suite"
	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// sampleResult is one repair run of an eval.
type sampleResult struct {
	Case            string  `json:"case"`
	Sample          int     `json:"sample"`
	RunID           string  `json:"run_id"`
	Status          string  `json:"status"`
	Green           bool    `json:"green"`
	AttemptsToGreen int32   `json:"attempts_to_green"`
	TimeToGreenSec  float64 `json:"time_to_green_s"`
	PatchLines      int32   `json:"patch_lines"`
	Rollbacks       int32   `json:"rollbacks"`
	Rounds          int32   `json:"rounds"`
}

// evalReport is `greenlight eval --json`'s output.
type evalReport struct {
	Suite   string             `json:"suite"`
	Samples int                `json:"samples"`
	PassAtK map[string]float64 `json:"pass_at_k"`
	Cases   map[string]int     `json:"green_samples_per_case"`
	Results []sampleResult     `json:"results"`
}

func (a *app) evalCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "eval SUITE",
		Short: "Run a suite of failing workspaces through the repair loop and report pass@1 / pass@k",
		Long: `eval reads a suite file (YAML: name, samples, k, max_rounds, provider,
cases with dir), runs 'samples' repair runs per case and reports pass@k
(the unbiased estimator over the samples), attempts-to-green, time-to-green,
patch size and rollbacks per run.`,
		Args: exactArgs(1, "a suite file"),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := suite.Load(args[0])
			if err != nil {
				return usagef("%v", err)
			}
			ctx := cmd.Context()
			conn, err := a.connect(ctx)
			if err != nil {
				return err
			}
			defer conn.Close()
			rep, err := a.runSuite(ctx, conn, s)
			if err != nil {
				return err
			}
			if asJSON {
				b, err := json.MarshalIndent(rep, "", "  ")
				if err != nil {
					return err
				}
				return a.write(append(b, '\n'), nil)
			}
			a.printEval(rep, s)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	return cmd
}

// runSuite runs every sample of every case.
func (a *app) runSuite(ctx context.Context, conn *stack.Conn, s *suite.Suite) (*evalReport, error) {
	rep := &evalReport{Suite: s.Name, Samples: s.Samples, PassAtK: map[string]float64{}, Cases: map[string]int{}}
	perK := map[int][]float64{}
	for _, c := range s.Cases {
		green := 0
		for i := 1; i <= s.Samples; i++ {
			fmt.Fprintf(a.env.Stderr, "eval %s: case %s, sample %d/%d\n", s.Name, c.Name, i, s.Samples)
			res, err := a.evalSample(ctx, conn, s, c)
			if err != nil {
				return nil, fmt.Errorf("case %s, sample %d: %w", c.Name, i, err)
			}
			res.Sample = i
			if res.Green {
				green++
			}
			rep.Results = append(rep.Results, *res)
		}
		rep.Cases[c.Name] = green
		for _, k := range s.K {
			perK[k] = append(perK[k], suite.PassAtK(s.Samples, green, k))
		}
	}
	for k, xs := range perK {
		rep.PassAtK[fmt.Sprintf("pass@%d", k)] = suite.Mean(xs)
	}
	return rep, nil
}

// evalSample runs one repair run of a case.
func (a *app) evalSample(ctx context.Context, conn *stack.Conn, s *suite.Suite, c suite.Case) (*sampleResult, error) {
	packed, err := snapshot.Pack(ctx, c.Dir, 0, "")
	if err != nil {
		return nil, err
	}
	defer packed.Remove()
	if err := packed.Upload(ctx, conn.Blobs); err != nil {
		return nil, err
	}
	p := s.Provider
	prov := &glv1.ProviderConfig{Command: p.Command, BaseUrl: p.BaseURL, Model: p.Model, ApiKeyEnv: p.APIKeyEnv, RecordingId: p.RecordingID}
	prov.Kind = glv1.ProviderKind(glv1.ProviderKind_value["PROVIDER_KIND_"+upper(p.Kind)])
	if c.Recording != "" {
		prov.RecordingId = c.Recording
	}
	start := &glv1.FixStart{Snapshot: packed.Digest.Proto(), SourceDir: packed.Dir,
		Options: &glv1.FixOptions{Provider: prov, MaxRounds: s.MaxRounds}}
	run, err := a.runFix(ctx, conn, start, nil, &fixFlags{verifyFlags: verifyFlags{quiet: true}})
	if err != nil {
		return nil, err
	}
	m := run.GetMetrics()
	return &sampleResult{
		Case: c.Name, RunID: run.GetId(), Status: progress.RunStatus(run.GetStatus()),
		Green:           m.GetGreen() || run.GetResult().GetStatus() == glv1.Verdict_VERDICT_PASS,
		AttemptsToGreen: m.GetAttemptsToGreen(), TimeToGreenSec: m.GetTimeToGreen().AsDuration().Seconds(),
		PatchLines: m.GetPatchLines(), Rollbacks: m.GetRollbacks(), Rounds: m.GetRounds(),
	}, nil
}

// printEval writes the per-run table and the pass@k line.
func (a *app) printEval(rep *evalReport, s *suite.Suite) {
	tw := tabwriter.NewWriter(a.env.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "CASE\tSAMPLE\tRUN\tSTATUS\tGREEN\tATTEMPTS\tTIME\tPATCH LINES\tROLLBACKS")
	for _, r := range rep.Results {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%v\t%d\t%.1fs\t%d\t%d\n", r.Case, r.Sample, r.RunID, r.Status, r.Green,
			r.AttemptsToGreen, r.TimeToGreenSec, r.PatchLines, r.Rollbacks)
	}
	_ = tw.Flush()
	fmt.Fprintf(a.env.Stdout, "\nsuite %s: %d case(s) x %d sample(s):", rep.Suite, len(s.Cases), rep.Samples)
	for _, k := range s.K {
		key := fmt.Sprintf("pass@%d", k)
		fmt.Fprintf(a.env.Stdout, " %s=%.3f", key, rep.PassAtK[key])
	}
	fmt.Fprintln(a.env.Stdout)
}

// upper is strings.ToUpper for ASCII enum words.
func upper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}
