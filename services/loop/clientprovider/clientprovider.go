// Package clientprovider runs a COMMAND or OPENAI patch provider in the
// caller's own process and turns its proposals into PatchReply messages,
// so that the caller of a Fix stream answers PatchRequested events as a
// CLIENT provider.
//
// This is how `greenlight fix --addr ... --provider command|openai` and
// `greenlight eval` run their programs and models: on the caller's machine,
// with the caller's environment and key. The loop never runs a command or
// reads a key on a request's behalf; it offers only the profiles its
// operator configured.
package clientprovider

import (
	"context"
	"fmt"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/provider"
)

// ErrConfig is wrapped by New's errors.
var ErrConfig = provider.ErrConfig

// Answer answers one patch request. An error means the local provider
// failed (the program exited non-zero, the endpoint refused): the caller
// should stop, since nobody else will answer.
type Answer func(ctx context.Context, req *glv1.PatchRequest) (*glv1.PatchReply, error)

// Options are what New needs beyond the provider configuration.
type Options struct {
	// Dir is the COMMAND program's working directory; empty means the
	// current one.
	Dir string
	// Getenv reads the OPENAI key; nil means os.Getenv.
	Getenv func(string) string
}

// New builds a local provider from cfg: COMMAND runs cfg.command with
// /bin/sh -c, the PatchRequest as JSON on stdin (exactly as the loop's
// COMMAND provider does), the patch on stdout, killed with its process
// group at cfg.timeout (default 5m); OPENAI calls cfg.base_url with
// cfg.model and the key of cfg.api_key_env (default
// GREENLIGHT_OPENAI_API_KEY, then OPENAI_API_KEY; none sends no key),
// pricing tokens at cfg.cost_per_1k_tokens.
func New(cfg *glv1.ProviderConfig, opts Options) (Answer, error) {
	var p provider.Provider
	var err error
	timeout := cfg.GetTimeout().AsDuration()
	switch cfg.GetKind() {
	case glv1.ProviderKind_PROVIDER_KIND_COMMAND:
		p, err = provider.NewCommand(provider.CommandConfig{Command: cfg.GetCommand(), Timeout: timeout, Dir: opts.Dir})
	case glv1.ProviderKind_PROVIDER_KIND_OPENAI:
		p, err = provider.NewOpenAI(provider.OpenAIConfig{BaseURL: cfg.GetBaseUrl(), Model: cfg.GetModel(), APIKeyEnv: cfg.GetApiKeyEnv(),
			Timeout: timeout, CostPer1KTokens: cfg.GetCostPer_1KTokens(), Getenv: opts.Getenv})
	default:
		return nil, fmt.Errorf("%w: only command and openai providers run locally, not %v", ErrConfig, cfg.GetKind())
	}
	if err != nil {
		return nil, err
	}
	return answer(p), nil
}

// answer adapts a provider to Answer.
func answer(p provider.Provider) Answer {
	return func(ctx context.Context, req *glv1.PatchRequest) (*glv1.PatchReply, error) {
		prop, err := p.Propose(ctx, req)
		if err != nil {
			return nil, err
		}
		return &glv1.PatchReply{Attempt: req.GetAttempt(), Patch: prop.Patch, GiveUp: prop.GiveUp, Usage: prop.Usage}, nil
	}
}

// Local reports whether a provider kind must run on the caller's side when
// the caller is not the server (COMMAND and OPENAI), with New.
func Local(kind glv1.ProviderKind) bool {
	return kind == glv1.ProviderKind_PROVIDER_KIND_COMMAND || kind == glv1.ProviderKind_PROVIDER_KIND_OPENAI
}
