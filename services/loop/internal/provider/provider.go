package provider

import (
	"context"
	"fmt"
	"net/http"

	"go.uber.org/zap"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// Proposal is a provider's answer to one PatchRequest.
type Proposal struct {
	// Patch is the patch text (a unified diff or an envelope, possibly
	// with prose around it); empty when GiveUp is set.
	Patch string
	// Usage is the model usage the answer cost; nil when unknown.
	Usage *glv1.Usage
	// GiveUp means the provider has no patch to offer: stop the loop.
	GiveUp bool
}

// Provider proposes patches.
type Provider interface {
	// Propose answers one request. It returns the context's error when
	// ctx ends first.
	Propose(ctx context.Context, req *glv1.PatchRequest) (Proposal, error)
}

// Deps are what New needs beyond the configuration.
type Deps struct {
	// Client is the Fix stream's provider, required for the CLIENT kind.
	Client *Client
	// Recordings holds recorded sessions, required for the REPLAY kind.
	Recordings RecordingStore
	// HTTPClient is used by the OPENAI kind; nil means a default client.
	HTTPClient *http.Client
	// Getenv reads environment variables (API keys); nil means os.Getenv.
	Getenv func(string) string
	// Log receives retry and failure records; nil means none.
	Log *zap.Logger
}

// New builds the provider a configuration names.
func New(cfg *glv1.ProviderConfig, deps Deps) (Provider, error) {
	switch cfg.GetKind() {
	case glv1.ProviderKind_PROVIDER_KIND_CLIENT:
		if deps.Client == nil {
			return nil, fmt.Errorf("%w: the client provider needs a Fix stream", ErrConfig)
		}
		return deps.Client, nil
	case glv1.ProviderKind_PROVIDER_KIND_OPENAI:
		return NewOpenAI(OpenAIConfig{
			BaseURL: cfg.GetBaseUrl(), Model: cfg.GetModel(), APIKeyEnv: cfg.GetApiKeyEnv(),
			Timeout: cfg.GetTimeout().AsDuration(), CostPer1KTokens: cfg.GetCostPer_1KTokens(),
			HTTPClient: deps.HTTPClient, Getenv: deps.Getenv, Log: deps.Log,
		})
	case glv1.ProviderKind_PROVIDER_KIND_COMMAND:
		return NewCommand(CommandConfig{Command: cfg.GetCommand(), Timeout: cfg.GetTimeout().AsDuration()})
	case glv1.ProviderKind_PROVIDER_KIND_REPLAY:
		if deps.Recordings == nil {
			return nil, fmt.Errorf("%w: the replay provider needs a recording store", ErrConfig)
		}
		return NewReplay(deps.Recordings, cfg.GetRecordingId()), nil
	}
	return nil, fmt.Errorf("%w: provider kind %v is not one of client, openai, command, replay", ErrConfig, cfg.GetKind())
}
