package executorsvc

import (
	"context"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/executor/internal/testenv"
)

// TestInstallEnvFromMirrors checks what --mirror and --install-env put in
// install steps' environment, and that a malformed entry is refused naming
// the flag and what it expects.
func TestInstallEnvFromMirrors(t *testing.T) {
	c := Config{Mirrors: []string{"pip=https://pypi.corp.example/simple", "npm=https://npm.corp.example/", "go=https://goproxy.corp.example,direct"},
		InstallEnv: []string{"PIP_EXTRA_INDEX_URL=https://extra.example/simple", "GOPROXY=https://other.example"}}
	env, err := c.installEnv()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"PIP_INDEX_URL": "https://pypi.corp.example/simple", "UV_DEFAULT_INDEX": "https://pypi.corp.example/simple",
		"NPM_CONFIG_REGISTRY": "https://npm.corp.example/", "YARN_NPM_REGISTRY_SERVER": "https://npm.corp.example/",
		"GOPROXY": "https://other.example", "PIP_EXTRA_INDEX_URL": "https://extra.example/simple",
	}
	for k, v := range want {
		if env[k] != v {
			t.Errorf("%s = %q, want %q (install-env wins over a mirror)", k, env[k], v)
		}
	}
	for _, bad := range []struct {
		cfg  Config
		want string
	}{
		{Config{Mirrors: []string{"cargo=https://crates.example"}}, "KIND one of go, npm, pip"},
		{Config{Mirrors: []string{"pip"}}, "KIND one of"},
		{Config{Mirrors: []string{"pip=ftp://x"}}, `mirror pip: "ftp://x" is not an http or https URL`},
		{Config{Mirrors: []string{"go=https://p.example|off"}}, ""},
		{Config{InstallEnv: []string{"1BAD=x"}}, "install-env"},
		{Config{InstallEnv: []string{"NOVALUE"}}, "install-env"},
	} {
		_, err := bad.cfg.installEnv()
		if bad.want == "" {
			if err != nil {
				t.Errorf("%v: %v", bad.cfg, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%v: error %v, want it to say %q", bad.cfg, err, bad.want)
		}
	}
}

// TestMirrorReachesInstallStepsOnly runs a real sandbox: the mirror's
// variables are in an install step's environment and not in a test step's.
func TestMirrorReachesInstallStepsOnly(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *Config) {
		c.Mirrors = []string{"npm=https://npm.corp.example/"}
		c.InstallEnv = []string{"GL_MIRROR_PROBE=yes"}
	})
	probe := "echo registry=${NPM_CONFIG_REGISTRY:-none} probe=${GL_MIRROR_PROBE:-none}"
	r := e.mustExecute(context.Background(), e.request(map[string]testenv.File{"a.txt": {Body: "x\n"}},
		&glv1.Step{Name: "install", Phase: glv1.Phase_PHASE_INSTALL, Command: probe},
		sh("test", probe)))
	if got := r.result(0).GetTail(); !strings.Contains(got, "registry=https://npm.corp.example/ probe=yes") {
		t.Errorf("install step's environment: %q", got)
	}
	if got := r.result(1).GetTail(); !strings.Contains(got, "registry=none probe=none") {
		t.Errorf("test step's environment: %q", got)
	}
}
