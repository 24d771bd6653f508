package executorsvc

import (
	"strings"
	"testing"
	"time"

	"github.com/greenlight-dev/greenlight/pkg/config"
)

// --cpus and --max-cpus take positive numbers and reach the sandbox's
// defaults and maxima.
func TestCPUFlags(t *testing.T) {
	cfg := DefaultConfig("")
	fs := config.NewFlagSet("executor")
	cfg.RegisterFlags(fs)
	if err := fs.Parse([]string{"--cpus", "1.5", "--max-cpus", "3"}, nil); err != nil {
		t.Fatal(err)
	}
	if sc := cfg.sandboxConfig(); sc.Defaults.CPUs != 1.5 || sc.Max.CPUs != 3 {
		t.Errorf("cpus %v, max %v; want 1.5 and 3", sc.Defaults.CPUs, sc.Max.CPUs)
	}
	if got := fs.Std().Lookup("cpus").Value.String(); got != "1.5" {
		t.Errorf("--cpus prints %q", got)
	}
	for _, bad := range []string{"0", "-1", "many"} {
		cfg := DefaultConfig("")
		fs := config.NewFlagSet("executor")
		cfg.RegisterFlags(fs)
		if err := fs.Parse([]string{"--cpus", bad}, nil); err == nil || !strings.Contains(err.Error(), "positive number") {
			t.Errorf("--cpus %s: %v", bad, err)
		}
	}
	if got := (floatValue{}).String(); got != "" {
		t.Errorf("an unbound float flag prints %q", got)
	}
}

// Validate names the flag of the first unusable setting.
func TestValidateNamesTheFlag(t *testing.T) {
	cases := []struct {
		name string
		edit func(c *Config)
		want string // "" means valid
	}{
		{"defaults", func(*Config) {}, ""},
		{"image entry without runtime", func(c *Config) { c.Images = []string{"=python:3"} }, "images"},
		{"unknown image set", func(c *Config) { c.Images = []string{"nightly"} }, "images"},
		{"bad allowed image", func(c *Config) { c.AllowedImages = []string{"UPPER CASE"} }, "allowed-images"},
		{"no sandboxes", func(c *Config) { c.MaxSandboxes = 0 }, "max-sandboxes"},
		{"huge pool", func(c *Config) { c.PoolSize = 33 }, "pool-size"},
		{"bad install env", func(c *Config) { c.InstallEnv = []string{"NOVALUE"} }, "install-env"},
		{"bad egress instance", func(c *Config) { c.EgressInstance = "Has-Dashes" }, "egress-instance"},
		{"reaper off", func(c *Config) { c.ReapEvery = 0 }, "reap-every"},
		{"cache without age", func(c *Config) { c.CacheDir, c.CacheMaxAge = "/tmp/x", 0 }, "cache-max-age"},
		{"negative run timeout", func(c *Config) { c.RunTimeout = -time.Second }, "default limit must be positive"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := DefaultConfig("")
			tc.edit(&cfg)
			err := cfg.Validate()
			if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
				t.Errorf("Validate = %v, want an error naming %q", err, tc.want)
			}
		})
	}
}
