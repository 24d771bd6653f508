package engine

import (
	"context"
	"io"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/services/loop/internal/events"
	"github.com/greenlight-dev/greenlight/services/loop/internal/provider"
	"github.com/greenlight-dev/greenlight/services/loop/internal/store"
)

// Blobs is the loop's content-addressed store: snapshots are read from it,
// patched snapshots written to it, step logs read back from it. *blob.Store
// and *blob.Client implement it.
type Blobs interface {
	Open(ctx context.Context, d blob.Digest) (io.ReadCloser, error)
	Put(ctx context.Context, r io.Reader) (blob.Digest, error)
	Stat(ctx context.Context, d blob.Digest) (size int64, found bool, err error)
}

// Proposal is a patch provider's answer to a PatchRequest.
type Proposal = provider.Proposal

// Provider proposes patches (see package provider). A provider that gives
// up returns a Proposal with GiveUp, or an error wrapping ErrGaveUp,
// provider.ErrClosed or provider.ErrReplayExhausted; any other error costs
// the round and is fed back with the next request.
type Provider = provider.Provider

// ProviderFactory builds the provider of a Fix run for every kind but
// PROVIDER_KIND_CLIENT, which the engine serves itself over the Fix stream.
// It is called before the run is created, so a bad configuration is
// refused (wrap ErrInvalidArgument or provider.ErrConfig) with nothing
// stored. For COMMAND and OPENAI, cfg is the selected server profile's
// configuration (Config.Profiles): command, base URL and key variable come
// from the profile, never from the request.
type ProviderFactory func(ctx context.Context, runID string, cfg *glv1.ProviderConfig) (Provider, error)

// Deps are the engine's collaborators.
type Deps struct {
	Store     *store.Store
	Hub       *events.Hub
	Blobs     Blobs
	Discovery glv1.DiscoveryServiceClient
	Executor  glv1.ExecutorServiceClient
	// Providers builds non-client patch providers; nil means package
	// provider's (OPENAI, COMMAND, REPLAY from the run store's recordings).
	Providers ProviderFactory
}
