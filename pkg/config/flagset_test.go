package config_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/greenlight-dev/greenlight/pkg/config"
)

// demo is a typed service configuration with defaults.
type demo struct {
	Addr    string
	Workers int
	Timeout time.Duration
	MaxSize int
	Tags    []string
	Mode    string
	Debug   bool
}

func defaultDemo() demo {
	return demo{Addr: "127.0.0.1:7000", Workers: 2, Timeout: time.Second, MaxSize: 1 << 20, Tags: []string{"a"}, Mode: "fast"}
}

func (d *demo) bind(fs *config.FlagSet) {
	fs.Addr(&d.Addr, "addr", "listen address")
	fs.Int(&d.Workers, "workers", "worker count")
	fs.Duration(&d.Timeout, "timeout", "request timeout")
	fs.Bytes(&d.MaxSize, "max-size", "largest upload")
	fs.Strings(&d.Tags, "tags", "tags")
	fs.Enum(&d.Mode, "mode", []string{"fast", "safe"}, "mode")
	fs.Bool(&d.Debug, "debug", "debug mode")
}

// parseDemo parses with the given file content ("" = no file), env and args.
func parseDemo(t *testing.T, file string, env map[string]string, args ...string) (demo, error) {
	t.Helper()
	if file != "" {
		path := filepath.Join(t.TempDir(), "demo.yaml")
		if err := os.WriteFile(path, []byte(file), 0o600); err != nil {
			t.Fatal(err)
		}
		env = mapWith(env, "GREENLIGHT_DEMO_CONFIG", path)
	}
	for k, v := range env {
		t.Setenv(k, v)
	}
	d := defaultDemo()
	fs := config.NewFlagSet("demo")
	d.bind(fs)
	err := fs.Parse(args, nil)
	return d, err
}

func mapWith(m map[string]string, k, v string) map[string]string {
	out := map[string]string{k: v}
	for key, val := range m {
		out[key] = val
	}
	return out
}

func TestPrecedence(t *testing.T) {
	const file = "workers: 10\nmode: safe\n"
	tests := []struct {
		name    string
		file    string
		env     map[string]string
		args    []string
		workers int
		mode    string
	}{
		{"defaults", "", nil, nil, 2, "fast"},
		{"file over defaults", file, nil, nil, 10, "safe"},
		{"env over file", file, map[string]string{"GREENLIGHT_DEMO_WORKERS": "20"}, nil, 20, "safe"},
		{"flag over env and file", file, map[string]string{"GREENLIGHT_DEMO_WORKERS": "20"}, []string{"--workers", "30"}, 30, "safe"},
		{"flag over defaults", "", nil, []string{"-mode=safe"}, 2, "safe"},
		{"env over defaults", "", map[string]string{"GREENLIGHT_DEMO_MODE": "safe"}, nil, 2, "safe"},
		{"config file named by flag", file, nil, nil, 10, "safe"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := parseDemo(t, tt.file, tt.env, tt.args...)
			if err != nil {
				t.Fatal(err)
			}
			if d.Workers != tt.workers || d.Mode != tt.mode {
				t.Fatalf("workers, mode = %d, %q; want %d, %q", d.Workers, d.Mode, tt.workers, tt.mode)
			}
		})
	}
}

func TestConfigFileByFlag(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.yaml")
	if err := os.WriteFile(path, []byte("timeout: 3s\nmax-size: 16MiB\ntags: [x, y]\ndebug: true\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	d := defaultDemo()
	fs := config.NewFlagSet("demo")
	d.bind(fs)
	if err := fs.Parse([]string{"--config", path}, nil); err != nil {
		t.Fatal(err)
	}
	want := demo{Addr: "127.0.0.1:7000", Workers: 2, Timeout: 3 * time.Second, MaxSize: 16 << 20, Tags: []string{"x", "y"}, Mode: "fast", Debug: true}
	if d.Addr != want.Addr || d.Timeout != want.Timeout || d.MaxSize != want.MaxSize || !slices.Equal(d.Tags, want.Tags) || !d.Debug {
		t.Fatalf("got %+v, want %+v", d, want)
	}
	if fs.ConfigFile() != path {
		t.Errorf("ConfigFile = %q, want %q", fs.ConfigFile(), path)
	}
}

func TestBadValuesNameTheirSource(t *testing.T) {
	tests := []struct {
		name  string
		file  string
		env   map[string]string
		args  []string
		wants []string
	}{
		{"flag", "", nil, []string{"--workers", "many"}, []string{"-workers", "many"}},
		{"env", "", map[string]string{"GREENLIGHT_DEMO_TIMEOUT": "soon"}, nil, []string{"GREENLIGHT_DEMO_TIMEOUT", "soon"}},
		{"file value", "max-size: lots\n", nil, nil, []string{`"max-size"`, "config file", "lots"}},
		{"file unknown key", "wokers: 3\n", nil, nil, []string{`"wokers"`}},
		{"file malformed", "workers: [\n", nil, nil, []string{"YAML"}},
		{"enum", "", map[string]string{"GREENLIGHT_DEMO_MODE": "reckless"}, nil, []string{"GREENLIGHT_DEMO_MODE", "fast, safe"}},
		{"addr", "", nil, []string{"--addr=localhost"}, []string{"-addr", "host:port"}},
		{"negative duration", "", nil, []string{"--timeout=-1s"}, []string{"-timeout", "negative"}},
		{"missing file", "", map[string]string{"GREENLIGHT_DEMO_CONFIG": "/nonexistent/demo.yaml"}, nil, []string{"/nonexistent/demo.yaml"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseDemo(t, tt.file, tt.env, tt.args...)
			if !errors.Is(err, config.ErrInvalid) {
				t.Fatalf("error = %v, want ErrInvalid", err)
			}
			for _, w := range tt.wants {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func TestStringsReplaceDefaultOnce(t *testing.T) {
	tests := []struct {
		name string
		env  string
		args []string
		want []string
	}{
		{"default", "", nil, []string{"a"}},
		{"env list", "b, c", nil, []string{"b", "c"}},
		{"repeated flag appends", "", []string{"--tags=b", "--tags=c,d"}, []string{"b", "c", "d"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := parseDemo(t, "", map[string]string{"GREENLIGHT_DEMO_TAGS": tt.env}, tt.args...)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(d.Tags, tt.want) {
				t.Fatalf("tags = %q, want %q", d.Tags, tt.want)
			}
		})
	}
}

func TestEnvVarNames(t *testing.T) {
	tests := []struct{ service, flag, want string }{
		{"loop", "addr", "GREENLIGHT_LOOP_ADDR"},
		{"gateway", "http-addr", "GREENLIGHT_GATEWAY_HTTP_ADDR"},
		{"executor", "log.level", "GREENLIGHT_EXECUTOR_LOG_LEVEL"},
	}
	for _, tt := range tests {
		if got := config.NewFlagSet(tt.service).EnvVar(tt.flag); got != tt.want {
			t.Errorf("EnvVar(%s, %s) = %s, want %s", tt.service, tt.flag, got, tt.want)
		}
	}
}

func TestHelpPrintsUsageWithEnvVars(t *testing.T) {
	d := defaultDemo()
	fs := config.NewFlagSet("demo")
	d.bind(fs)
	var out bytes.Buffer
	if err := fs.Parse([]string{"-h"}, &out); !errors.Is(err, config.ErrHelp) {
		t.Fatalf("Parse(-h) = %v, want ErrHelp", err)
	}
	for _, w := range []string{"-workers", "GREENLIGHT_DEMO_WORKERS", "GREENLIGHT_DEMO_CONFIG", "one of fast, safe"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("usage does not mention %q:\n%s", w, out.String())
		}
	}
}
