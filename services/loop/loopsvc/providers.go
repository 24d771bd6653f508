package loopsvc

import (
	"context"
	"fmt"

	"go.uber.org/zap"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/engine"
	"github.com/greenlight-dev/greenlight/services/loop/internal/store"
)

// defaultProviders builds the OPENAI, COMMAND and REPLAY providers.
func defaultProviders(_ *store.Store, _ *zap.Logger) engine.ProviderFactory {
	return func(_ context.Context, _ string, cfg *glv1.ProviderConfig) (engine.Provider, error) {
		return nil, fmt.Errorf("%w: provider %s is not available yet; use CLIENT", engine.ErrInvalidArgument, cfg.GetKind())
	}
}
