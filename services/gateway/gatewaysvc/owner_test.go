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
	const operatorToken = "test-operator-token-0123456789"
	sum := sha256.Sum256([]byte(testToken))
	opSum := sha256.Sum256([]byte(operatorToken))
	for name, c := range map[string]struct {
		token, want string
		operator    bool
	}{
		"token":    {testToken, "token:" + hex.EncodeToString(sum[:6]), false},
		"operator": {operatorToken, "operator:" + hex.EncodeToString(opSum[:6]), true},
		"no token": {"", auth.AnonymousIdentity, false},
	} {
		t.Run(name, func(t *testing.T) {
			g := startGateway(t, func(cfg *Config, _ *server.Config) {
				if c.token != "" {
					cfg.Token, cfg.OperatorToken = testToken, operatorToken
				}
			})
			g.loop.Put(loopfake.PassingFixRun("run-1", nil))
			// The client's own owner and operator claims never travel on.
			ctx := metadata.AppendToOutgoingContext(context.Background(),
				"authorization", "Bearer "+c.token, server.OwnerKey, "victim", server.OwnerKey, "victim2", server.OperatorKey, "true")
			if _, err := g.runs.GetRun(ctx, &glv1.GetRunRequest{RunId: "run-1"}); err != nil {
				t.Fatal(err)
			}
			md := g.loop.LastMetadata()
			if got := md.Get(server.OwnerKey); len(got) != 1 || got[0] != c.want {
				t.Errorf("owner upstream = %q, want [%s]", got, c.want)
			}
			if got := md.Get(server.OperatorKey); (len(got) == 1 && got[0] == "true") != c.operator || len(got) > 1 {
				t.Errorf("operator upstream = %q, want operator %v", got, c.operator)
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
