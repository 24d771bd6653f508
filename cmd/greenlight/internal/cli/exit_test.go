package cli

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/stack"
	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

func TestExitCode(t *testing.T) {
	tests := []struct {
		name string
		err  error
		code int
		line string
	}{
		{name: "success", err: nil, code: 0},
		{name: "FAIL verdict is quiet", err: failed(), code: 1},
		{name: "usage", err: usagef("--limit must be positive"), code: 2, line: "greenlight: runs: --limit must be positive"},
		{name: "multi-line error folds", err: errors.New("first\nsecond"), code: 2, line: "greenlight: runs: first second"},
		{name: "unreachable", err: status.Error(codes.Unavailable, "connection refused"), code: 2, line: "greenlight: runs: greenlight is not reachable: connection refused"},
		{name: "unauthenticated", err: fmt.Errorf("list: %w", status.Error(codes.Unauthenticated, "missing token")), code: 2,
			line: "greenlight: runs: not authenticated (pass --token or set GREENLIGHT_TOKEN): missing token"},
		{name: "interrupted", err: context.Canceled, code: 2, line: "greenlight: runs: interrupted"},
		{name: "locked home drops the command", err: &stack.LockedError{Home: "/h"}, code: 2,
			line: "greenlight: another greenlight process uses /h: pass --home DIR for a separate data directory, or --addr of the greenlight serve that uses it (default 127.0.0.1:7070)"},
		{name: "a home a serve holds names its address", err: &stack.LockedError{Home: "/h", Owner: &stack.Owner{PID: 7, Command: "serve", Addr: "127.0.0.1:9999"}}, code: 2,
			line: "greenlight: greenlight serve (pid 7) uses /h and listens on 127.0.0.1:9999: pass --addr 127.0.0.1:9999 to run through it, or --home DIR for a separate data directory"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, line := exitCode("runs", tc.err)
			if code != tc.code || line != tc.line {
				t.Errorf("exitCode = %d %q, want %d %q", code, line, tc.code, tc.line)
			}
		})
	}
}

func TestVerdictExit(t *testing.T) {
	tests := []struct {
		verdict glv1.Verdict
		code    int
	}{{glv1.Verdict_VERDICT_PASS, 0}, {glv1.Verdict_VERDICT_FAIL, 1}, {glv1.Verdict_VERDICT_ERROR, 2}, {glv1.Verdict_VERDICT_UNSPECIFIED, 2}}
	for _, tc := range tests {
		run := &glv1.Run{Id: "r_1", Status: glv1.RunStatus_RUN_STATUS_ERROR, Error: "engine down", Result: &glv1.Result{Status: tc.verdict}}
		code, line := exitCode("verify", verdictExit(run))
		if code != tc.code {
			t.Errorf("%v: exit %d, want %d", tc.verdict, code, tc.code)
		}
		if tc.code == 2 && line != "greenlight: verify: run r_1 ended ERROR: engine down" {
			t.Errorf("%v: line %q", tc.verdict, line)
		}
	}
}

func TestProviderConfig(t *testing.T) {
	env := func(vars map[string]string) func(string) string { return func(k string) string { return vars[k] } }
	tests := []struct {
		name    string
		flags   fixFlags
		env     map[string]string
		want    *glv1.ProviderConfig
		wantErr bool
	}{
		{name: "client", flags: fixFlags{provider: "client"}, want: &glv1.ProviderConfig{Kind: glv1.ProviderKind_PROVIDER_KIND_CLIENT}},
		{name: "command", flags: fixFlags{provider: "command", command: "./p.sh"}, want: &glv1.ProviderConfig{Kind: glv1.ProviderKind_PROVIDER_KIND_COMMAND, Command: "./p.sh"}},
		{name: "command without --command", flags: fixFlags{provider: "command"}, wantErr: true},
		{name: "openai with OPENAI_API_KEY", flags: fixFlags{provider: "openai", baseURL: "http://h/v1", model: "m"}, env: map[string]string{"OPENAI_API_KEY": "k"},
			want: &glv1.ProviderConfig{Kind: glv1.ProviderKind_PROVIDER_KIND_OPENAI, BaseUrl: "http://h/v1", Model: "m", ApiKeyEnv: "OPENAI_API_KEY"}},
		{name: "openai prefers GREENLIGHT_OPENAI_API_KEY", flags: fixFlags{provider: "openai", baseURL: "u", model: "m"},
			env:  map[string]string{"OPENAI_API_KEY": "k", "GREENLIGHT_OPENAI_API_KEY": "g"},
			want: &glv1.ProviderConfig{Kind: glv1.ProviderKind_PROVIDER_KIND_OPENAI, BaseUrl: "u", Model: "m", ApiKeyEnv: "GREENLIGHT_OPENAI_API_KEY"}},
		{name: "replay", flags: fixFlags{provider: "replay", recording: "r_1"}, want: &glv1.ProviderConfig{Kind: glv1.ProviderKind_PROVIDER_KIND_REPLAY, RecordingId: "r_1"}},
		{name: "replay without recording", flags: fixFlags{provider: "replay"}, wantErr: true},
		{name: "server command profile", flags: fixFlags{provider: "command", profile: "agent"},
			want: &glv1.ProviderConfig{Kind: glv1.ProviderKind_PROVIDER_KIND_COMMAND, Profile: "agent"}},
		{name: "server openai profile with a model", flags: fixFlags{provider: "openai", profile: "hosted", model: "m2"},
			want: &glv1.ProviderConfig{Kind: glv1.ProviderKind_PROVIDER_KIND_OPENAI, Profile: "hosted", Model: "m2"}},
		{name: "profile and command", flags: fixFlags{provider: "command", profile: "agent", command: "x"}, wantErr: true},
		{name: "profile and base url", flags: fixFlags{provider: "openai", profile: "hosted", baseURL: "http://h"}, wantErr: true},
		{name: "profile of a client", flags: fixFlags{provider: "client", profile: "agent"}, wantErr: true},
		{name: "unknown", flags: fixFlags{provider: "oracle"}, wantErr: true},
		{name: "threshold over 10", flags: fixFlags{provider: "client", threshold: 11}, wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.flags.providerConfig(env(tc.env))
			if tc.wantErr {
				var ue *usageError
				if !errors.As(err, &ue) {
					t.Fatalf("error = %v, want a usage error", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.String() != tc.want.String() {
				t.Errorf("provider = %v, want %v", got, tc.want)
			}
		})
	}
}
