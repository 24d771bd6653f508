package provider

import (
	"errors"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

const (
	kindCommand = glv1.ProviderKind_PROVIDER_KIND_COMMAND
	kindOpenAI  = glv1.ProviderKind_PROVIDER_KIND_OPENAI
)

func TestParseProfile(t *testing.T) {
	p, err := ParseProfile("name=agent,kind=command,timeout=90s,command=python3 agent.py --a,b")
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "agent" || p.Kind != kindCommand || p.Command != "python3 agent.py --a,b" || p.Timeout != 90*time.Second {
		t.Fatalf("%+v", p)
	}
	p, err = ParseProfile("name=local, kind=openai, base-url=http://127.0.0.1:8000/v1, model=qwen, key-env=K, allow-model=true, cost-per-1k=0.5")
	if err != nil {
		t.Fatal(err)
	}
	if p.Kind != kindOpenAI || p.BaseURL != "http://127.0.0.1:8000/v1" || p.Model != "qwen" || p.KeyEnv != "K" || !p.AllowModel || p.CostPer1KTokens != 0.5 {
		t.Fatalf("%+v", p)
	}
	if s := p.String(); s != "local (openai)" {
		t.Errorf("String() = %q", s)
	}
	for _, bad := range []string{
		"", "name=x", "name=x,kind=client", "name=x,kind=command", "name=bad name,kind=command,command=true",
		"name=x,kind=openai", "name=x,kind=openai,model=m,base-url=ftp://h", "name=x,kind=command,model=m,command=true",
		"name=x,kind=openai,model=m,command=true", "name=x,kind=command,colour=red,command=true", "name=x,kind=command,timeout=soon,command=true",
		"name=x,kind", "name=x,kind=command,timeout=-1s,command=true",
	} {
		if _, err := ParseProfile(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestProfilesCheck(t *testing.T) {
	env := func(k string) string { return map[string]string{"SET": "v"}[k] }
	ok := Profiles{{Name: "a", Kind: kindCommand, Command: "true"}, {Name: "b", Kind: kindOpenAI, Model: "m", KeyEnv: "SET"}}
	if err := ok.Check(env); err != nil {
		t.Fatal(err)
	}
	err := Profiles{{Name: "b", Kind: kindOpenAI, Model: "m", KeyEnv: "UNSET_VAR"}}.Check(env)
	if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), `"b"`) || !strings.Contains(err.Error(), "UNSET_VAR") {
		t.Errorf("missing key: %v", err)
	}
	if err := append(ok, ok[0]).Check(env); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("duplicate: %v", err)
	}
}

func TestProfilesSelect(t *testing.T) {
	ps := Profiles{
		{Name: "agent", Kind: kindCommand, Command: "./agent", Timeout: time.Minute},
		{Name: "fixed", Kind: kindOpenAI, Model: "m1", BaseURL: "http://h/v1", KeyEnv: "K", CostPer1KTokens: 2},
		{Name: "open", Kind: kindOpenAI, Model: "m2", AllowModel: true},
	}
	got, err := ps.Select(&glv1.ProviderConfig{Kind: kindCommand, Timeout: durationpb.New(time.Hour)})
	if err != nil || got.GetProfile() != "agent" || got.GetCommand() != "./agent" || got.GetTimeout().AsDuration() != time.Minute {
		t.Fatalf("only command profile: %v, %v", got, err)
	}
	got, err = ps.Select(&glv1.ProviderConfig{Kind: kindCommand, Timeout: durationpb.New(time.Second)})
	if err != nil || got.GetTimeout().AsDuration() != time.Second {
		t.Fatalf("shorter timeout: %v, %v", got, err)
	}
	got, err = ps.Select(&glv1.ProviderConfig{Kind: kindOpenAI, Profile: "fixed", CostPer_1KTokens: 0.001})
	if err != nil || got.GetModel() != "m1" || got.GetBaseUrl() != "http://h/v1" || got.GetApiKeyEnv() != "K" || got.GetCostPer_1KTokens() != 2 {
		t.Fatalf("fixed: %v, %v", got, err)
	}
	got, err = ps.Select(&glv1.ProviderConfig{Kind: kindOpenAI, Profile: "open", Model: "other"})
	if err != nil || got.GetModel() != "other" {
		t.Fatalf("model override: %v, %v", got, err)
	}
	client := &glv1.ProviderConfig{Kind: glv1.ProviderKind_PROVIDER_KIND_CLIENT}
	if got, err := ps.Select(client); err != nil || got != client {
		t.Fatalf("client: %v, %v", got, err)
	}
	refusals := []struct {
		req  *glv1.ProviderConfig
		want error
		text string
	}{
		{&glv1.ProviderConfig{Kind: kindCommand, Command: "touch /tmp/x"}, ErrServerSetting, "server configuration"},
		{&glv1.ProviderConfig{Kind: kindCommand, Profile: "agent", Command: "touch /tmp/x"}, ErrServerSetting, "server configuration"},
		{&glv1.ProviderConfig{Kind: glv1.ProviderKind_PROVIDER_KIND_CLIENT, Command: "x"}, ErrServerSetting, "server configuration"},
		{&glv1.ProviderConfig{Kind: kindOpenAI, Profile: "fixed", BaseUrl: "http://evil"}, ErrServerSetting, "server configuration"},
		{&glv1.ProviderConfig{Kind: kindOpenAI, Profile: "fixed", ApiKeyEnv: "HOME"}, ErrServerSetting, "server configuration"},
		{&glv1.ProviderConfig{Kind: kindOpenAI}, ErrProfileChoice, "fixed, open"},
		{&glv1.ProviderConfig{Kind: kindOpenAI, Profile: "nope"}, ErrNoProfile, "fixed, open"},
		{&glv1.ProviderConfig{Kind: kindOpenAI, Profile: "agent"}, ErrNoProfile, "fixed, open"},
		{&glv1.ProviderConfig{Kind: kindOpenAI, Profile: "fixed", Model: "m9"}, ErrProfileChoice, "allow-model"},
		{&glv1.ProviderConfig{Kind: kindCommand, Model: "m9"}, ErrProfileChoice, "OPENAI"},
		{&glv1.ProviderConfig{Kind: glv1.ProviderKind_PROVIDER_KIND_REPLAY, Profile: "agent"}, ErrProfileChoice, "takes none"},
	}
	for _, r := range refusals {
		_, err := ps.Select(r.req)
		if !errors.Is(err, r.want) || !strings.Contains(err.Error(), r.text) {
			t.Errorf("%v: %v, want %v mentioning %q", r.req, err, r.want, r.text)
		}
		if err != nil && (strings.Contains(err.Error(), "./agent") || strings.Contains(err.Error(), "http://h/v1")) {
			t.Errorf("%v: error reveals a profile's settings: %v", r.req, err)
		}
	}
	if _, err := (Profiles{}).Select(&glv1.ProviderConfig{Kind: kindCommand}); !errors.Is(err, ErrNoProfile) ||
		!strings.Contains(err.Error(), "CLIENT") {
		t.Errorf("no profiles: %v", err)
	}
}
