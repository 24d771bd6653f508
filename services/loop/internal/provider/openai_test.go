package provider

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// chatServer is a loopback chat-completions server whose answers are
// scripted per call; it records what it received.
type chatServer struct {
	*httptest.Server
	calls   atomic.Int32
	lastReq chatRequest
	headers http.Header
	path    string
	answer  func(call int32, w http.ResponseWriter, r *http.Request)
}

func newChatServer(t *testing.T, answer func(call int32, w http.ResponseWriter, r *http.Request)) *chatServer {
	s := &chatServer{answer: answer}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := s.calls.Add(1)
		body, _ := io.ReadAll(r.Body)
		s.headers, s.path = r.Header.Clone(), r.URL.Path
		_ = json.Unmarshal(body, &s.lastReq)
		s.answer(n, w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

// okReply writes a chat-completions answer holding content.
func okReply(w http.ResponseWriter, content string) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"id": "x", "object": "chat.completion",
		"choices": []map[string]any{{"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": content}}},
		"usage": map[string]any{"prompt_tokens": 1200, "completion_tokens": 300, "total_tokens": 1500},
	})
}

// newTestOpenAI builds a provider for the server with fast retries.
func newTestOpenAI(t *testing.T, base string, mod func(*OpenAIConfig)) *OpenAI {
	cfg := OpenAIConfig{BaseURL: base, Model: "test-model", CostPer1KTokens: 0.5,
		Backoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond, Timeout: 5 * time.Second,
		Getenv: func(k string) string { return map[string]string{"GREENLIGHT_OPENAI_API_KEY": "sk-test"}[k] }}
	if mod != nil {
		mod(&cfg)
	}
	o, err := NewOpenAI(cfg)
	must(t, err)
	return o
}

// TestOpenAIRequestShape checks path, headers, model, messages, the patch
// extraction and the usage count, with base URLs with and without /v1.
func TestOpenAIRequestShape(t *testing.T) {
	for _, suffix := range []string{"", "/", "/v1", "/v1/"} {
		t.Run("base"+suffix, func(t *testing.T) {
			s := newChatServer(t, func(_ int32, w http.ResponseWriter, _ *http.Request) {
				okReply(w, "The sign is wrong.\n<patch>\n"+calcPatch+"</patch>\nThat should do it.")
			})
			o := newTestOpenAI(t, s.URL+suffix, nil)
			p, err := o.Propose(context.Background(), request(1))
			must(t, err)
			if s.path != "/v1/chat/completions" {
				t.Errorf("path %q", s.path)
			}
			if got := s.headers.Get("Authorization"); got != "Bearer sk-test" {
				t.Errorf("Authorization %q", got)
			}
			if ct := s.headers.Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type %q", ct)
			}
			if s.lastReq.Model != "test-model" || len(s.lastReq.Messages) != 2 ||
				s.lastReq.Messages[0].Role != "system" || s.lastReq.Messages[1].Role != "user" {
				t.Fatalf("request %+v", s.lastReq)
			}
			sys, user := s.lastReq.Messages[0].Content, s.lastReq.Messages[1].Content
			for _, want := range []string{"<patch>", "MINIMAL", "1 to 10 lines", "At most 20 changed lines"} {
				if !strings.Contains(sys, want) {
					t.Errorf("system message lacks %q", want)
				}
			}
			for _, want := range []string{"`python -m pytest -q tests/test_calc.py`", "`svc`", "exit code: 1",
				"   2     return a - b", "assert -1 == 3\n +  where -1 = add(1, 2)", "E       assert -1 == 3", "calc.py:2 (add)"} {
				if !strings.Contains(user, want) {
					t.Errorf("user message lacks %q:\n%s", want, user)
				}
			}
			if p.Patch != calcPatch {
				t.Errorf("patch %q, want the diff alone", p.Patch)
			}
			if p.Usage.GetPromptTokens() != 1200 || p.Usage.GetCompletionTokens() != 300 || p.Usage.GetCost() != 0.75 {
				t.Errorf("usage %+v", p.Usage)
			}
		})
	}
}

// TestOpenAIPromptOverride checks that a prompt the loop rendered is sent
// as the user message verbatim, and that a reply without a patch is passed
// on whole for the loop's parser to judge.
func TestOpenAIPromptOverride(t *testing.T) {
	s := newChatServer(t, func(_ int32, w http.ResponseWriter, _ *http.Request) { okReply(w, "I cannot fix this.") })
	o := newTestOpenAI(t, s.URL, nil)
	req := request(2)
	req.Prompt = "## Rendered by the loop\nexact evidence here\n"
	p, err := o.Propose(context.Background(), req)
	must(t, err)
	if s.lastReq.Messages[1].Content != req.Prompt {
		t.Errorf("user message %q", s.lastReq.Messages[1].Content)
	}
	if p.Patch != "I cannot fix this." {
		t.Errorf("patch %q", p.Patch)
	}
}

// TestOpenAIRetries checks which answers are retried and how.
func TestOpenAIRetries(t *testing.T) {
	cases := []struct {
		name      string
		answer    func(call int32, w http.ResponseWriter, r *http.Request)
		mod       func(*OpenAIConfig)
		calls     int32
		err       string // "" means success
		minWait   time.Duration
		retriable bool
	}{
		{name: "500 then 200", calls: 2, answer: func(n int32, w http.ResponseWriter, _ *http.Request) {
			if n == 1 {
				http.Error(w, `{"error":"boom"}`, http.StatusInternalServerError)
				return
			}
			okReply(w, calcPatch)
		}},
		{name: "429 with Retry-After", calls: 2, minWait: 900 * time.Millisecond, answer: func(n int32, w http.ResponseWriter, _ *http.Request) {
			if n == 1 {
				w.Header().Set("Retry-After", "1")
				http.Error(w, `{"error":"slow down"}`, http.StatusTooManyRequests)
				return
			}
			okReply(w, calcPatch)
		}},
		{name: "401 not retried", calls: 1, err: "401 Unauthorized from http://127.0.0.1:", answer: func(_ int32, w http.ResponseWriter, _ *http.Request) {
			http.Error(w, `{"error":"bad key"}`, http.StatusUnauthorized)
		}},
		{name: "403 not retried", calls: 1, err: "check GREENLIGHT_OPENAI_API_KEY", answer: func(_ int32, w http.ResponseWriter, _ *http.Request) {
			http.Error(w, "forbidden", http.StatusForbidden)
		}},
		{name: "400 not retried", calls: 1, err: "context length exceeded", answer: func(_ int32, w http.ResponseWriter, _ *http.Request) {
			http.Error(w, `{"error":{"message":"context length exceeded"}}`, http.StatusBadRequest)
		}},
		{name: "404 not retried", calls: 1, err: `check the base URL and the model "test-model"`, answer: func(_ int32, w http.ResponseWriter, _ *http.Request) {
			http.Error(w, `{"error":"model not found"}`, http.StatusNotFound)
		}},
		{name: "503 until retries run out", calls: 3, err: "503 Service Unavailable", retriable: true,
			mod: func(c *OpenAIConfig) { c.MaxRetries = 2 },
			answer: func(_ int32, w http.ResponseWriter, _ *http.Request) {
				http.Error(w, "overloaded", http.StatusServiceUnavailable)
			}},
		{name: "timeout is retried then fails", calls: 2, err: "no reply from http://127.0.0.1:", retriable: true,
			mod: func(c *OpenAIConfig) { c.Timeout, c.MaxRetries = 100*time.Millisecond, 1 },
			answer: func(_ int32, w http.ResponseWriter, r *http.Request) {
				<-r.Context().Done()
			}},
		{name: "malformed JSON not retried", calls: 1, err: "not chat-completions JSON", answer: func(_ int32, w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"choices": [ {"message": `)
		}},
		{name: "no choices", calls: 1, err: "no choices", answer: func(_ int32, w http.ResponseWriter, _ *http.Request) {
			io.WriteString(w, `{"choices": []}`)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newChatServer(t, c.answer)
			o := newTestOpenAI(t, s.URL, c.mod)
			start := time.Now()
			p, err := o.Propose(context.Background(), request(1))
			if got := s.calls.Load(); got != c.calls {
				t.Errorf("%d calls, want %d", got, c.calls)
			}
			if c.err == "" {
				must(t, err)
				if p.Patch != calcPatch {
					t.Errorf("patch %q", p.Patch)
				}
				if waited := time.Since(start); waited < c.minWait {
					t.Errorf("retried after %s, want at least %s", waited, c.minWait)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.err) || !errors.Is(err, ErrUpstream) {
				t.Fatalf("error %v, want ErrUpstream saying %q", err, c.err)
			}
			if !strings.HasPrefix(err.Error(), "openai provider: ") {
				t.Errorf("error %q does not name the provider", err)
			}
		})
	}
}

// TestOpenAICancelDuringBackoff checks that ctx ends a retry wait.
func TestOpenAICancelDuringBackoff(t *testing.T) {
	s := newChatServer(t, func(_ int32, w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Retry-After", "30")
		http.Error(w, "later", http.StatusTooManyRequests)
	})
	o := newTestOpenAI(t, s.URL, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := o.Propose(ctx, request(1))
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 5*time.Second {
		t.Fatalf("error %v after %s", err, time.Since(start))
	}
}

// TestOpenAIKeys checks where the API key comes from.
func TestOpenAIKeys(t *testing.T) {
	env := map[string]string{"OPENAI_API_KEY": "sk-openai", "MY_KEY": "sk-mine", "EMPTY": ""}
	getenv := func(k string) string { return env[k] }
	cases := []struct {
		name, keyEnv, wantHeader string
		env                      func(string) string
		wantErr                  error
	}{
		{"named variable", "MY_KEY", "Bearer sk-mine", getenv, nil},
		{"falls back to OPENAI_API_KEY", "", "Bearer sk-openai", getenv, nil},
		{"no key sends no header", "", "", func(string) string { return "" }, nil},
		{"named but empty", "EMPTY", "", getenv, ErrConfig},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newChatServer(t, func(_ int32, w http.ResponseWriter, _ *http.Request) { okReply(w, calcPatch) })
			o, err := NewOpenAI(OpenAIConfig{BaseURL: s.URL, Model: "m", APIKeyEnv: c.keyEnv, Getenv: c.env})
			if c.wantErr != nil {
				if !errors.Is(err, c.wantErr) || !strings.Contains(err.Error(), c.keyEnv) {
					t.Fatalf("error %v, want %v naming %s", err, c.wantErr, c.keyEnv)
				}
				return
			}
			must(t, err)
			_, err = o.Propose(context.Background(), request(1))
			must(t, err)
			if got := s.headers.Get("Authorization"); got != c.wantHeader {
				t.Errorf("Authorization %q, want %q", got, c.wantHeader)
			}
		})
	}
	if _, err := NewOpenAI(OpenAIConfig{BaseURL: "http://127.0.0.1:1"}); !errors.Is(err, ErrConfig) {
		t.Errorf("missing model accepted: %v", err)
	}
	if _, err := NewOpenAI(OpenAIConfig{BaseURL: "ftp://x", Model: "m"}); !errors.Is(err, ErrConfig) {
		t.Errorf("bad scheme accepted: %v", err)
	}
}

// TestNewFromConfig checks the factory.
func TestNewFromConfig(t *testing.T) {
	cases := []struct {
		cfg  *glv1.ProviderConfig
		deps Deps
		ok   bool
	}{
		{&glv1.ProviderConfig{Kind: glv1.ProviderKind_PROVIDER_KIND_COMMAND, Command: "true"}, Deps{}, true},
		{&glv1.ProviderConfig{Kind: glv1.ProviderKind_PROVIDER_KIND_COMMAND}, Deps{}, false},
		{&glv1.ProviderConfig{Kind: glv1.ProviderKind_PROVIDER_KIND_OPENAI, Model: "m", BaseUrl: "http://127.0.0.1:9"}, Deps{Getenv: func(string) string { return "" }}, true},
		{&glv1.ProviderConfig{Kind: glv1.ProviderKind_PROVIDER_KIND_CLIENT}, Deps{}, false},
		{&glv1.ProviderConfig{Kind: glv1.ProviderKind_PROVIDER_KIND_CLIENT}, Deps{Client: NewClient(nil)}, true},
		{&glv1.ProviderConfig{Kind: glv1.ProviderKind_PROVIDER_KIND_REPLAY, RecordingId: "r"}, Deps{}, false},
		{&glv1.ProviderConfig{Kind: glv1.ProviderKind_PROVIDER_KIND_REPLAY, RecordingId: "r"}, Deps{Recordings: newMemStore()}, true},
		{nil, Deps{}, false},
	}
	for i, c := range cases {
		p, err := New(c.cfg, c.deps)
		if c.ok != (err == nil) || (err != nil && !errors.Is(err, ErrConfig)) || (c.ok && p == nil) {
			t.Errorf("case %d (%v): provider %T, error %v", i, c.cfg.GetKind(), p, err)
		}
	}
}
