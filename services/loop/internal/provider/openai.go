package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"go.uber.org/zap"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/patch"
)

// OpenAI defaults.
const (
	DefaultOpenAIBaseURL = "https://api.openai.com/v1"
	DefaultOpenAITimeout = 120 * time.Second
	DefaultMaxRetries    = 3
	// maxReplyBytes bounds a chat-completions response body.
	maxReplyBytes = 8 << 20
)

// The environment variables read for the API key, in order, when the
// configuration names none.
var defaultKeyEnvs = []string{"GREENLIGHT_OPENAI_API_KEY", "OPENAI_API_KEY"}

// OpenAIConfig configures the OpenAI-compatible provider.
type OpenAIConfig struct {
	// BaseURL is the server's URL, with or without the trailing "/v1";
	// empty means DefaultOpenAIBaseURL.
	BaseURL string
	// Model is required.
	Model string
	// APIKeyEnv names the variable holding the key; empty means
	// GREENLIGHT_OPENAI_API_KEY, then OPENAI_API_KEY. Without a key no
	// Authorization header is sent (local servers need none).
	APIKeyEnv string
	// Timeout bounds one HTTP request; zero means DefaultOpenAITimeout.
	Timeout time.Duration
	// CostPer1KTokens prices prompt and completion tokens alike.
	CostPer1KTokens float64
	// MaxRetries bounds retries after a 429, a 5xx or a timeout; zero
	// means DefaultMaxRetries, negative none.
	MaxRetries int
	// Backoff is the first retry's delay, doubled each time (with
	// jitter) up to MaxBackoff; zero means 500 ms and 20 s.
	Backoff, MaxBackoff time.Duration
	// HTTPClient sends the requests; nil means a default client.
	HTTPClient *http.Client
	// Getenv reads the key; nil means os.Getenv.
	Getenv func(string) string
	// Log receives retry records; nil means none.
	Log *zap.Logger
}

// OpenAI asks an OpenAI-compatible chat-completions endpoint for patches.
type OpenAI struct {
	cfg    OpenAIConfig
	url    string
	key    string
	keyEnv string
	log    *zap.Logger
}

// NewOpenAI validates the configuration and reads the API key.
func NewOpenAI(cfg OpenAIConfig) (*OpenAI, error) {
	if cfg.Model == "" {
		return nil, fmt.Errorf("%w: the openai provider needs a model", ErrConfig)
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultOpenAIBaseURL
	}
	if !strings.HasPrefix(cfg.BaseURL, "http://") && !strings.HasPrefix(cfg.BaseURL, "https://") {
		return nil, fmt.Errorf("%w: openai base URL %q must start with http:// or https://", ErrConfig, cfg.BaseURL)
	}
	cfg = cfg.withDefaults()
	o := &OpenAI{cfg: cfg, url: chatURL(cfg.BaseURL), log: cfg.Log}
	if cfg.APIKeyEnv != "" {
		o.keyEnv, o.key = cfg.APIKeyEnv, cfg.Getenv(cfg.APIKeyEnv)
		if o.key == "" {
			return nil, fmt.Errorf("%w: environment variable %s (api_key_env) is empty", ErrConfig, cfg.APIKeyEnv)
		}
	} else {
		o.keyEnv = defaultKeyEnvs[0]
		for _, env := range defaultKeyEnvs {
			if k := cfg.Getenv(env); k != "" {
				o.keyEnv, o.key = env, k
				break
			}
		}
	}
	return o, nil
}

// withDefaults fills zero fields.
func (c OpenAIConfig) withDefaults() OpenAIConfig {
	if c.Timeout <= 0 {
		c.Timeout = DefaultOpenAITimeout
	}
	if c.MaxRetries == 0 {
		c.MaxRetries = DefaultMaxRetries
	}
	if c.Backoff <= 0 {
		c.Backoff = 500 * time.Millisecond
	}
	if c.MaxBackoff <= 0 {
		c.MaxBackoff = 20 * time.Second
	}
	if c.HTTPClient == nil {
		c.HTTPClient = &http.Client{}
	}
	if c.Getenv == nil {
		c.Getenv = os.Getenv
	}
	if c.Log == nil {
		c.Log = zap.NewNop()
	}
	return c
}

// chatURL appends the chat-completions path to a base URL that may or
// may not end in /v1.
func chatURL(base string) string {
	base = strings.TrimRight(base, "/")
	if strings.HasSuffix(base, "/v1") {
		return base + "/chat/completions"
	}
	return base + "/v1/chat/completions"
}

// chatRequest is the body of a chat-completions request.
type chatRequest struct {
	Model       string        `json:"model"`
	Messages    []chatMessage `json:"messages"`
	Temperature float64       `json:"temperature"`
}

type chatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// chatResponse is the part of a chat-completions response we read.
type chatResponse struct {
	Choices []struct {
		Message      chatMessage `json:"message"`
		FinishReason string      `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens     int64 `json:"prompt_tokens"`
		CompletionTokens int64 `json:"completion_tokens"`
	} `json:"usage"`
}

// Propose asks the model for a patch and extracts it from the reply.
func (o *OpenAI) Propose(ctx context.Context, req *glv1.PatchRequest) (Proposal, error) {
	body, err := json.Marshal(chatRequest{
		Model: o.cfg.Model,
		Messages: []chatMessage{
			{Role: "system", Content: systemPrompt(req.GetConstraints())},
			{Role: "user", Content: userPrompt(req)},
		},
	})
	if err != nil {
		return Proposal{}, fmt.Errorf("openai provider: %w", err)
	}
	resp, err := o.post(ctx, body)
	if err != nil {
		return Proposal{}, err
	}
	if len(resp.Choices) == 0 {
		return Proposal{}, fmt.Errorf("openai provider: %w: the reply from %s has no choices", ErrUpstream, o.url)
	}
	return Proposal{Patch: extractPatch(resp.Choices[0].Message.Content), Usage: o.usage(resp)}, nil
}

// Chat sends one system and one user message and returns the reply's
// text with its usage. The reviewer uses it, so that one HTTP client (its
// retries, key handling and bounds) serves fixing and reviewing alike.
func (o *OpenAI) Chat(ctx context.Context, system, user string) (string, *glv1.Usage, error) {
	body, err := json.Marshal(chatRequest{
		Model:    o.cfg.Model,
		Messages: []chatMessage{{Role: "system", Content: system}, {Role: "user", Content: user}},
	})
	if err != nil {
		return "", nil, fmt.Errorf("openai provider: %w", err)
	}
	resp, err := o.post(ctx, body)
	if err != nil {
		return "", nil, err
	}
	if len(resp.Choices) == 0 {
		return "", nil, fmt.Errorf("openai provider: %w: the reply from %s has no choices", ErrUpstream, o.url)
	}
	return resp.Choices[0].Message.Content, o.usage(resp), nil
}

// extractPatch returns the patch text proper when the reply holds a
// readable patch, and the whole reply otherwise, so that the loop's own
// parse reports what is wrong with it to the model.
func extractPatch(content string) string {
	p, err := patch.Parse(content)
	if err != nil {
		return content
	}
	return p.Text
}

// usage converts the reply's token counts and prices them.
func (o *OpenAI) usage(resp *chatResponse) *glv1.Usage {
	if resp.Usage == nil {
		return nil
	}
	u := &glv1.Usage{PromptTokens: resp.Usage.PromptTokens, CompletionTokens: resp.Usage.CompletionTokens}
	u.Cost = float64(u.PromptTokens+u.CompletionTokens) / 1000 * o.cfg.CostPer1KTokens
	return u
}

// post sends the request, retrying on 429, 5xx and timeouts.
func (o *OpenAI) post(ctx context.Context, body []byte) (*chatResponse, error) {
	var last error
	for try := 0; ; try++ {
		resp, retryAfter, err := o.once(ctx, body)
		if err == nil {
			return resp, nil
		}
		last = err
		var re *retryable
		if !errors.As(err, &re) || try >= max(o.cfg.MaxRetries, 0) || ctx.Err() != nil {
			break
		}
		wait := backoff(o.cfg.Backoff, o.cfg.MaxBackoff, try, retryAfter)
		o.log.Warn("openai provider: retrying", zap.String("url", o.url), zap.Int("try", try+1),
			zap.Duration("wait", wait), zap.Error(err))
		if err := sleep(ctx, wait); err != nil {
			return nil, fmt.Errorf("openai provider: %w (after %v)", err, last)
		}
	}
	if ctx.Err() != nil {
		return nil, fmt.Errorf("openai provider: %w (after %v)", ctx.Err(), last)
	}
	return nil, last
}

// retryable marks an error worth retrying.
type retryable struct{ err error }

func (r *retryable) Error() string { return r.err.Error() }
func (r *retryable) Unwrap() error { return r.err }

// once sends one request; it returns the server's Retry-After, if any.
func (o *OpenAI) once(ctx context.Context, body []byte) (*chatResponse, time.Duration, error) {
	rctx, cancel := context.WithTimeout(ctx, o.cfg.Timeout)
	defer cancel()
	hreq, err := http.NewRequestWithContext(rctx, http.MethodPost, o.url, bytes.NewReader(body))
	if err != nil {
		return nil, 0, fmt.Errorf("openai provider: %w: %w", ErrConfig, err)
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "application/json")
	if o.key != "" {
		hreq.Header.Set("Authorization", "Bearer "+o.key)
	}
	hresp, err := o.cfg.HTTPClient.Do(hreq)
	if err != nil {
		if rctx.Err() != nil && ctx.Err() == nil {
			return nil, 0, &retryable{fmt.Errorf("openai provider: %w: no reply from %s within %s", ErrUpstream, o.url, o.cfg.Timeout)}
		}
		return nil, 0, &retryable{fmt.Errorf("openai provider: %w: %w", ErrUpstream, err)}
	}
	defer hresp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(hresp.Body, maxReplyBytes+1))
	if err != nil {
		return nil, 0, &retryable{fmt.Errorf("openai provider: %w: reading the reply from %s: %w", ErrUpstream, o.url, err)}
	}
	if hresp.StatusCode != http.StatusOK {
		return nil, retryAfter(hresp.Header.Get("Retry-After")), o.statusError(hresp, data)
	}
	if len(data) > maxReplyBytes {
		return nil, 0, fmt.Errorf("openai provider: %w: the reply from %s is over %d bytes", ErrUpstream, o.url, maxReplyBytes)
	}
	var resp chatResponse
	if err := json.Unmarshal(data, &resp); err != nil {
		return nil, 0, fmt.Errorf("openai provider: %w: the reply from %s is not chat-completions JSON: %w (body starts %q)",
			ErrUpstream, o.url, err, snippet(data))
	}
	return &resp, 0, nil
}

// statusError explains a non-200 answer; 429 and 5xx are retryable.
func (o *OpenAI) statusError(hresp *http.Response, data []byte) error {
	err := fmt.Errorf("openai provider: %w: %s from %s", ErrUpstream, hresp.Status, o.url)
	switch code := hresp.StatusCode; {
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		return fmt.Errorf("%w: check %s", err, o.keyEnv)
	case code == http.StatusTooManyRequests || code >= 500:
		return &retryable{fmt.Errorf("%w: %s", err, snippet(data))}
	case code == http.StatusNotFound:
		return fmt.Errorf("%w: check the base URL and the model %q: %s", err, o.cfg.Model, snippet(data))
	}
	return fmt.Errorf("%w: %s", err, snippet(data))
}

// snippet returns the start of a body, for error messages.
func snippet(data []byte) string {
	const n = 300
	s := strings.TrimSpace(string(data))
	if len(s) > n {
		s = s[:n] + "…"
	}
	return s
}
