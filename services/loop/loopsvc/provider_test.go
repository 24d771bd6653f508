package loopsvc_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/config"
	"github.com/greenlight-dev/greenlight/services/loop/internal/enginetest"
	"github.com/greenlight-dev/greenlight/services/loop/loopsvc"
)

const (
	kindCommand = glv1.ProviderKind_PROVIDER_KIND_COMMAND
	kindOpenAI  = glv1.ProviderKind_PROVIDER_KIND_OPENAI
)

// fixOutcome runs a Fix stream with a non-client provider to its end and
// returns its events and the stream's final error (nil after RunFinished).
func (e *env) fixOutcome(prov *glv1.ProviderConfig) ([]*glv1.RunEvent, error) {
	e.t.Helper()
	stream := e.fixStream(e.ctx(), &glv1.FixOptions{Provider: prov, MaxRounds: 1}, e.snapshot(enginetest.CalcFiles))
	_ = stream.CloseSend()
	var evs []*glv1.RunEvent
	for {
		resp, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return evs, nil
		}
		if err != nil {
			return evs, err
		}
		evs = append(evs, resp.GetEvent())
	}
}

// noRuns fails when the loop stored a run.
func (e *env) noRuns() {
	e.t.Helper()
	resp, err := e.runs.ListRuns(e.ctx(), &glv1.ListRunsRequest{})
	if err != nil || len(resp.GetRuns()) != 0 {
		e.t.Fatalf("runs stored after a refusal: %v, %v", resp.GetRuns(), err)
	}
}

// TestFixRefusesHostCommandsFromRequests is ADVERSARIAL row 31, COMMAND
// half: a gRPC client asks the loop to run its own shell command as the
// patch provider. Nothing may run on the loop's host.
func TestFixRefusesHostCommandsFromRequests(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "pwned")
	attack := "touch '" + marker + "'"
	agentDir := t.TempDir()
	agent := loopsvc.ProviderProfile{Name: "agent", Kind: kindCommand, Command: "cd '" + agentDir + "' && touch profile-ran"}
	cases := []struct {
		name     string
		profiles []loopsvc.ProviderProfile
		req      *glv1.ProviderConfig
		code     codes.Code
		text     string
	}{
		{"no profile, command in request", nil, &glv1.ProviderConfig{Kind: kindCommand, Command: attack}, codes.InvalidArgument, "server configuration"},
		{"profile configured, command in request", []loopsvc.ProviderProfile{agent},
			&glv1.ProviderConfig{Kind: kindCommand, Command: attack}, codes.InvalidArgument, "server configuration"},
		{"profile named, command in request", []loopsvc.ProviderProfile{agent},
			&glv1.ProviderConfig{Kind: kindCommand, Profile: "agent", Command: attack}, codes.InvalidArgument, "server configuration"},
		{"client kind carrying a command", nil, &glv1.ProviderConfig{Kind: glv1.ProviderKind_PROVIDER_KIND_CLIENT, Command: attack},
			codes.InvalidArgument, "server configuration"},
		{"no profile configured", nil, &glv1.ProviderConfig{Kind: kindCommand}, codes.PermissionDenied, "no COMMAND provider profile"},
		{"unknown profile", []loopsvc.ProviderProfile{agent}, &glv1.ProviderConfig{Kind: kindCommand, Profile: "root"},
			codes.PermissionDenied, "its COMMAND profiles: agent"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnvConfig(t, func(c *loopsvc.Config) { c.ProviderProfiles = tc.profiles }, enginetest.CalcSteps()...)
			evs, err := e.fixOutcome(tc.req)
			if _, serr := os.Stat(marker); !os.IsNotExist(serr) {
				t.Fatalf("the request's command ran on the loop's host (%s exists)", marker)
			}
			if status.Code(err) != tc.code || !strings.Contains(err.Error(), tc.text) {
				t.Fatalf("Fix: %v after %d events; want %s mentioning %q", err, len(evs), tc.code, tc.text)
			}
			if strings.Contains(err.Error(), agentDir) {
				t.Errorf("the refusal reveals a profile's command: %v", err)
			}
			if _, serr := os.Stat(filepath.Join(agentDir, "profile-ran")); !os.IsNotExist(serr) {
				t.Fatalf("a refused request ran the profile's command")
			}
			e.noRuns()
		})
	}
}

// captureServer is a loopback HTTP server that records every request.
type captureServer struct {
	*httptest.Server
	hits atomic.Int32
	auth atomic.Value
}

func newCaptureServer(t *testing.T) *captureServer {
	c := &captureServer{}
	c.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.hits.Add(1)
		c.auth.Store(r.Header.Get("Authorization"))
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"choices": []map[string]any{{"index": 0, "message": map[string]any{"role": "assistant", "content": enginetest.FixPatch}}},
			"usage":   map[string]any{"prompt_tokens": 100, "completion_tokens": 20},
		})
	}))
	t.Cleanup(c.Close)
	return c
}

// TestFixRefusesClientChosenOpenAIEndpoints is ADVERSARIAL row 31, OPENAI
// half: a client points the loop's OPENAI provider at its own server and
// names a variable of the loop's environment as the key. The server must
// receive nothing, and the refusal must read the same whether the
// variable exists or not.
func TestFixRefusesClientChosenOpenAIEndpoints(t *testing.T) {
	t.Setenv("GL_TEST_LOOP_SECRET", "s3cret-of-the-loop")
	capture := newCaptureServer(t)
	profiles := [][]loopsvc.ProviderProfile{nil, {{Name: "local", Kind: kindOpenAI, Model: "m", BaseURL: "http://127.0.0.1:1/v1"}}}
	for _, ps := range profiles {
		e := newEnvConfig(t, func(c *loopsvc.Config) { c.ProviderProfiles = ps }, enginetest.CalcSteps()...)
		var texts []string
		for _, keyEnv := range []string{"GL_TEST_LOOP_SECRET", "GL_TEST_NO_SUCH_VARIABLE"} {
			for _, req := range []*glv1.ProviderConfig{
				{Kind: kindOpenAI, BaseUrl: capture.URL + "/v1", ApiKeyEnv: keyEnv, Model: "m"},
				{Kind: kindOpenAI, Profile: "local", BaseUrl: capture.URL + "/v1", ApiKeyEnv: keyEnv},
				{Kind: kindOpenAI, ApiKeyEnv: keyEnv, Model: "m"},
			} {
				evs, err := e.fixOutcome(req)
				if status.Code(err) != codes.InvalidArgument {
					t.Fatalf("profiles %v, request %v: %v after %d events; want InvalidArgument", ps, req, err, len(evs))
				}
				texts = append(texts, status.Convert(err).Message())
			}
		}
		for i, txt := range texts {
			if txt != texts[i%3] {
				t.Errorf("the refusal depends on the loop's environment:\n%s\n%s", texts[i%3], txt)
			}
			if strings.Contains(txt, "s3cret") {
				t.Errorf("the refusal reveals a secret: %s", txt)
			}
		}
		e.noRuns()
	}
	if n := capture.hits.Load(); n != 0 {
		t.Fatalf("the client's server received %d requests (Authorization %q)", n, capture.auth.Load())
	}
}

// TestFixWithConfiguredProfiles shows that profiles the operator
// configured work end to end over gRPC: a COMMAND profile runs its own
// command, an OPENAI profile sends its key (from the loop's environment)
// to its own URL, and the stored run shows the profile's name, never its
// command line, URL or key variable.
func TestFixWithConfiguredProfiles(t *testing.T) {
	t.Setenv("GL_TEST_PROFILE_KEY", "sk-profile")
	dir := t.TempDir()
	enginetest.WriteFiles(t, dir, map[string]string{"fix.patch": enginetest.FixPatch})
	model := newCaptureServer(t)
	e := newEnvConfig(t, func(c *loopsvc.Config) {
		c.ProviderProfiles = []loopsvc.ProviderProfile{
			{Name: "cat", Kind: kindCommand, Command: "cd '" + dir + "' && cat fix.patch"},
			{Name: "model", Kind: kindOpenAI, Model: "m", BaseURL: model.URL + "/v1", KeyEnv: "GL_TEST_PROFILE_KEY", CostPer1KTokens: 1},
		}
	}, enginetest.CalcSteps()...)
	for _, req := range []*glv1.ProviderConfig{{Kind: kindCommand}, {Kind: kindOpenAI, Profile: "model"}} {
		evs, err := e.fixOutcome(req)
		if err != nil || len(evs) == 0 {
			t.Fatalf("%v: %v", req, err)
		}
		fin := evs[len(evs)-1].GetRunFinished()
		if fin.GetStatus() != glv1.RunStatus_RUN_STATUS_PASSED {
			t.Fatalf("%v: finished %s: %s", req, fin.GetStatus(), fin.GetResult().GetSummary())
		}
		got, err := e.runs.GetRun(e.ctx(), &glv1.GetRunRequest{RunId: evs[0].GetRunId()})
		if err != nil {
			t.Fatal(err)
		}
		p := got.GetRun().GetFixOptions().GetProvider()
		if p.GetProfile() == "" || p.GetCommand() != "" || p.GetBaseUrl() != "" || p.GetApiKeyEnv() != "" {
			t.Errorf("stored provider %v", p)
		}
	}
	if model.hits.Load() != 1 || model.auth.Load() != "Bearer sk-profile" {
		t.Errorf("model server: %d hits, Authorization %q", model.hits.Load(), model.auth.Load())
	}
}

func TestConfigValidateProviderProfiles(t *testing.T) {
	cfg := loopsvc.DefaultConfig()
	cfg.Getenv = func(string) string { return "" }
	cfg.ProviderProfiles = []loopsvc.ProviderProfile{{Name: "hosted", Kind: kindOpenAI, Model: "m", KeyEnv: "HOSTED_KEY"}}
	err := cfg.Validate()
	if !errors.Is(err, loopsvc.ErrConfig) || !strings.Contains(err.Error(), `"hosted"`) || !strings.Contains(err.Error(), "HOSTED_KEY") {
		t.Fatalf("missing key variable: %v", err)
	}
	cfg.Getenv = func(string) string { return "k" }
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	if _, err := loopsvc.ParseProviderProfile("name=x,kind=command"); err == nil {
		t.Error("a command profile without a command parsed")
	}
}

func TestProviderProfilesFromFlagsAndConfigFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "loop.yaml")
	yaml := "provider-profile:\n" +
		"  - name=agent,kind=command,timeout=2m,command=python3 agent.py --a,b\n" +
		"  - name=local,kind=openai,base-url=http://127.0.0.1:8000/v1,model=qwen\n"
	if err := os.WriteFile(file, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := loopsvc.DefaultConfig()
	fs := config.NewFlagSet("loop")
	cfg.RegisterFlags(fs)
	if err := fs.Parse([]string{"--config", file}, nil); err != nil {
		t.Fatal(err)
	}
	ps := cfg.ProviderProfiles
	if len(ps) != 2 || ps[0].Command != "python3 agent.py --a,b" || ps[1].Kind != kindOpenAI || ps[1].Model != "qwen" {
		t.Fatalf("profiles from the config file: %+v", ps)
	}
	cfg = loopsvc.DefaultConfig()
	fs = config.NewFlagSet("loop")
	cfg.RegisterFlags(fs)
	err := fs.Parse([]string{"--provider-profile", "name=a,kind=command,command=true", "--provider-profile", "name=b,kind=client"}, nil)
	if !errors.Is(err, config.ErrInvalid) || !strings.Contains(err.Error(), "client and replay need no profile") {
		t.Fatalf("a client profile: %v", err)
	}
}
