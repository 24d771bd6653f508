package clientprovider_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/clientprovider"
)

func TestOpenAIAnswersWithTheCallersKey(t *testing.T) {
	var auth string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth = r.Header.Get("Authorization")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"choices": []map[string]any{{"index": 0, "message": map[string]any{"role": "assistant", "content": "<patch>--- a/x\n+++ b/x\n</patch>"}}},
			"usage":   map[string]any{"prompt_tokens": 900, "completion_tokens": 100},
		})
	}))
	defer srv.Close()
	answer, err := clientprovider.New(&glv1.ProviderConfig{Kind: glv1.ProviderKind_PROVIDER_KIND_OPENAI, BaseUrl: srv.URL + "/v1",
		Model: "m", ApiKeyEnv: "MY_KEY", CostPer_1KTokens: 2}, clientprovider.Options{Getenv: func(k string) string {
		return map[string]string{"MY_KEY": "sk-caller"}[k]
	}})
	if err != nil {
		t.Fatal(err)
	}
	reply, err := answer(context.Background(), &glv1.PatchRequest{Attempt: 2})
	if err != nil {
		t.Fatal(err)
	}
	if auth != "Bearer sk-caller" || reply.GetAttempt() != 2 || reply.GetPatch() == "" || reply.GetUsage().GetCost() != 2 {
		t.Fatalf("Authorization %q, reply %v", auth, reply)
	}
}

func TestCommandRunsInDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "fix.patch"), []byte("the patch\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	answer, err := clientprovider.New(&glv1.ProviderConfig{Kind: glv1.ProviderKind_PROVIDER_KIND_COMMAND, Command: "cat fix.patch"},
		clientprovider.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if reply, err := answer(context.Background(), &glv1.PatchRequest{Attempt: 1}); err != nil || reply.GetPatch() != "the patch\n" {
		t.Fatalf("%v, %v", reply, err)
	}
	if _, err := clientprovider.New(&glv1.ProviderConfig{Kind: glv1.ProviderKind_PROVIDER_KIND_REPLAY}, clientprovider.Options{}); !errors.Is(err, clientprovider.ErrConfig) {
		t.Errorf("replay: %v", err)
	}
}
