package cli

import (
	"errors"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/contract"
	"github.com/greenlight-dev/greenlight/services/loop/eval"
)

func TestEvalProviderOverride(t *testing.T) {
	getenv := func(k string) string { return map[string]string{"OPENAI_API_KEY": "k"}[k] }
	tests := []struct {
		name    string
		flags   evalFlags
		want    *glv1.ProviderConfig
		wantErr string
	}{
		{name: "none: each task.yaml's", flags: evalFlags{}, want: nil},
		{name: "command", flags: evalFlags{provider: "command", command: "./propose.sh"},
			want: &glv1.ProviderConfig{Kind: glv1.ProviderKind_PROVIDER_KIND_COMMAND, Command: "./propose.sh"}},
		{name: "openai key env as for fix", flags: evalFlags{provider: "openai", baseURL: "http://h/v1", model: "m"},
			want: &glv1.ProviderConfig{Kind: glv1.ProviderKind_PROVIDER_KIND_OPENAI, BaseUrl: "http://h/v1", Model: "m", ApiKeyEnv: "OPENAI_API_KEY"}},
		{name: "replay", flags: evalFlags{provider: "replay", recording: "r_1"},
			want: &glv1.ProviderConfig{Kind: glv1.ProviderKind_PROVIDER_KIND_REPLAY, RecordingId: "r_1"}},
		{name: "client refused", flags: evalFlags{provider: "client"}, wantErr: "nobody to answer"},
		{name: "flags without --provider", flags: evalFlags{model: "m"}, wantErr: "need --provider"},
		{name: "unknown", flags: evalFlags{provider: "oracle"}, wantErr: "unknown provider"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.flags.override(getenv)
			if tc.wantErr != "" {
				var ue *usageError
				if !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error = %v, want a usage error with %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.String() != tc.want.String() || (got == nil) != (tc.want == nil) {
				t.Errorf("override = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestSampleLine(t *testing.T) {
	yes := true
	tests := []struct {
		name string
		s    eval.Sample
		want string
	}{
		{name: "passed", s: eval.Sample{RunID: "r_1", Passed: true, Green: true, ReferencePassed: &yes, AttemptsToGreen: 1, PatchLines: 2, TimeToGreenSeconds: 1.64},
			want: "eval: t run 1/3: passed after 1 patch(es), 2 line(s), 1.6s  [r_1]"},
		{name: "green but reference failed", s: eval.Sample{RunID: "r_2", Green: true},
			want: "eval: t run 1/3: green, but the reference check failed  [r_2]"},
		{name: "failed", s: eval.Sample{RunID: "r_3", Status: "FAIL", RunStatus: "FAILED", StopReason: "max_rounds", Rounds: 2, Patches: 2, Rollbacks: 1},
			want: "eval: t run 1/3: failed (max_rounds) after 2 round(s): 2 patch(es), 1 rolled back  [r_3]"},
		{name: "run error", s: eval.Sample{RunID: "r_4", Status: "ERROR", RunStatus: "ERROR", Summary: "ERROR: executor:\nengine down"},
			want: "eval: t run 1/3: not measured: ERROR: executor: engine down  [r_4]"},
		{name: "rpc error", s: eval.Sample{Error: "rpc error: code = Unavailable"},
			want: "eval: t run 1/3: not measured: rpc error: code = Unavailable"},
	}
	for _, tc := range tests {
		if got := sampleLine("t", 0, 3, tc.s); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

func TestUnmeasuredExit(t *testing.T) {
	report := func(runs ...eval.Sample) *eval.Report {
		return &eval.Report{EvalReport: contract.EvalReport{Tasks: []eval.TaskReport{{Name: "t", Runs: runs}}}}
	}
	tests := []struct {
		name string
		rep  *eval.Report
		code int
		line string
	}{
		{name: "some measured", rep: report(eval.Sample{Status: "ERROR", RunStatus: "ERROR", Summary: "x"}, eval.Sample{Status: "FAIL", RunStatus: "FAILED"}), code: ExitPass},
		{name: "all failed is a measurement", rep: report(eval.Sample{Status: "FAIL", RunStatus: "FAILED"}, eval.Sample{Status: "FAIL", RunStatus: "FAILED"}), code: ExitPass},
		{name: "all errors", rep: report(eval.Sample{Status: "ERROR", RunStatus: "ERROR", Summary: "ERROR: engine down"}, eval.Sample{Error: "rpc"}), code: ExitError,
			line: "greenlight: eval: every run of the eval ended in error, nothing was measured; the first: ERROR: engine down"},
		{name: "rpc error first", rep: report(eval.Sample{Error: "get run: gone"}), code: ExitError,
			line: "greenlight: eval: every run of the eval ended in error, nothing was measured; the first: get run: gone"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, line := exitCode("eval", unmeasuredExit(tc.rep, "greenlight"))
			if code != tc.code || line != tc.line {
				t.Errorf("exit %d %q, want %d %q", code, line, tc.code, tc.line)
			}
		})
	}
}
