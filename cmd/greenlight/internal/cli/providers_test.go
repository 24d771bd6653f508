package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

func TestRouteProvider(t *testing.T) {
	out := filepath.Join(t.TempDir(), "ran")
	f := &fixFlags{provider: "command", command: "cat > '" + out + "'; echo patch"}
	prov, err := f.providerConfig(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	embedded := &app{env: Env{Getenv: func(string) string { return "" }}}
	r, err := embedded.routeProvider(f, prov)
	if err != nil {
		t.Fatal(err)
	}
	if r.answer != nil || len(r.profiles) != 1 || r.profiles[0].Command != f.command ||
		r.request.GetProfile() != cliProfile || r.request.GetCommand() != "" || r.request.GetKind() != glv1.ProviderKind_PROVIDER_KIND_COMMAND {
		t.Fatalf("embedded: %+v", r)
	}
	remote := &app{addr: "127.0.0.1:7070", env: Env{Getenv: func(string) string { return "" }}}
	r, err = remote.routeProvider(f, prov)
	if err != nil {
		t.Fatal(err)
	}
	if r.answer == nil || len(r.profiles) != 0 || r.request.GetKind() != glv1.ProviderKind_PROVIDER_KIND_CLIENT || r.request.GetCommand() != "" {
		t.Fatalf("remote: %+v", r)
	}
	reply, err := r.answer(context.Background(), &glv1.PatchRequest{Attempt: 3, FailingCommand: "pytest"})
	if err != nil || reply.GetPatch() != "patch\n" || reply.GetAttempt() != 3 {
		t.Fatalf("remote answer: %v, %v", reply, err)
	}
	// The same JSON the loop's command provider writes (protojson names).
	in, err := os.ReadFile(out)
	var got glv1.PatchRequest
	if err != nil || !strings.Contains(string(in), `"failingCommand"`) || protojson.Unmarshal(in, &got) != nil || got.GetFailingCommand() != "pytest" {
		t.Errorf("the command's stdin: %q, %v", in, err)
	}
	sel := &fixFlags{provider: "command", profile: "agent"}
	prov, _ = sel.providerConfig(func(string) string { return "" })
	if r, err := remote.routeProvider(sel, prov); err != nil || r.answer != nil || r.request.GetProfile() != "agent" {
		t.Fatalf("server profile: %+v, %v", r, err)
	}
	bad := &fixFlags{provider: "openai", baseURL: "ftp://h", model: "m"}
	prov, _ = bad.providerConfig(func(string) string { return "" })
	if _, err := embedded.routeProvider(bad, prov); err == nil {
		t.Error("embedded openai with an ftp URL accepted")
	}
}
