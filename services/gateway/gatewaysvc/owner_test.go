package gatewaysvc

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"google.golang.org/grpc/metadata"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/server"
	"github.com/greenlight-dev/greenlight/services/gateway/internal/auth"
	"github.com/greenlight-dev/greenlight/services/gateway/internal/loopfake"
)

// The loop learns who a call is for only from the gateway: the identity of
// the token (or anonymous@loopback), never a value the client sent. It
// keeps dependency-cache entries apart (ADVERSARIAL row 34).
func TestOwnerIsTheGatewaysIdentityOfTheClient(t *testing.T) {
	sum := sha256.Sum256([]byte(testToken))
	for name, c := range map[string]struct {
		token, want string
	}{
		"token":    {testToken, "token:" + hex.EncodeToString(sum[:6])},
		"no token": {"", auth.AnonymousIdentity},
	} {
		t.Run(name, func(t *testing.T) {
			g := startGateway(t, func(cfg *Config, _ *server.Config) { cfg.Token = c.token })
			g.loop.Put(loopfake.PassingFixRun("run-1", nil))
			ctx := metadata.AppendToOutgoingContext(context.Background(),
				"authorization", "Bearer "+c.token, server.OwnerKey, "victim", server.OwnerKey, "victim2")
			if _, err := g.runs.GetRun(ctx, &glv1.GetRunRequest{RunId: "run-1"}); err != nil {
				t.Fatal(err)
			}
			if got := g.loop.LastMetadata().Get(server.OwnerKey); len(got) != 1 || got[0] != c.want {
				t.Errorf("owner upstream = %q, want [%s]", got, c.want)
			}
			stream, err := g.runs.Verify(ctx, &glv1.VerifyRequest{Snapshot: &glv1.Digest{Hash: "ab", SizeBytes: 1}})
			if err != nil {
				t.Fatal(err)
			}
			for {
				if _, err := stream.Recv(); err != nil {
					break
				}
			}
			if got := g.loop.LastMetadata().Get(server.OwnerKey); len(got) != 1 || got[0] != c.want {
				t.Errorf("owner upstream of Verify = %q, want [%s]", got, c.want)
			}
		})
	}
}
