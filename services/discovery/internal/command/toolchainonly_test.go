package command

import (
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/services/discovery/internal/detect"
)

func TestToolchainOnly(t *testing.T) {
	for _, c := range []struct {
		name string
		cmd  Command
		want bool
	}{
		{"go build", Command{Command: "go build ./..."}, true},
		{"go vet with GOWORK=off", Command{Command: "go vet ./...", Env: map[string]string{"GOWORK": "off"}}, true},
		{"go mod download", Command{Command: "go mod download"}, true},
		{"go test runs the project's code", Command{Command: "go test ./..."}, false},
		{"a wrapped command", Command{Command: "go build ./... && ./bin/app"}, false},
		{"toolexec through GOFLAGS", Command{Command: "go build ./...", Env: map[string]string{"GOFLAGS": "-toolexec=./x"}}, false},
		{"another compiler", Command{Command: "go build ./...", Env: map[string]string{"CC": "./cc"}}, false},
		{"pip install runs setup.py", Command{Command: "python3 -m pip install -e ."}, false},
		{"make", Command{Command: "make build"}, false},
		{"the secret scan greps", Command{Command: secretScanScript()}, true},
		{"a grep of the project's choosing", Command{Command: "grep -r x . && ./x"}, false},
		{"gosec type-checks", Command{Command: GosecCommand}, true},
		{"GOPATH-mode build", gopathStep("github.com/a/b", "go build ./..."), true},
		{"GOPATH-mode vet", gopathStep("gopkg.in/yaml.v2", "go vet ./..."), true},
		{"GOPATH-mode test runs the project's code", gopathStep("github.com/a/b", "go test ./..."), false},
		{"GOPATH link then more", gopathStep("github.com/a/b", "go build ./... && ./b"), false},
		{"GOPATH link out of the tree", gopathStep("github.com/../../x", "go build ./..."), false},
		{"GOPATH link with a shell word", Command{Command: `mkdir -p /tmp/gopath/src/a && ln -sfn "$PWD" /tmp/gopath/src/a;x && cd /tmp/gopath/src/a;x && go build ./...`}, false},
		{"another GOPATH", Command{Command: gopathLink("github.com/a/b") + "go build ./...", Env: map[string]string{"GOPATH": "/workspace/gp"}}, false},
	} {
		if got := ToolchainOnly(c.cmd); got != c.want {
			t.Errorf("%s: ToolchainOnly = %v, want %v", c.name, got, c.want)
		}
	}
}

// gopathStep is a command as gopath() plans it: the link, then cmd.
func gopathStep(imp, cmd string) Command {
	return Command{Command: gopathLink(imp) + cmd, Env: map[string]string{"GO111MODULE": "off", "GOPATH": gopathRoot, "GOFLAGS": ""}}
}

// TestPlannedGoStepsAreToolchainOnly checks the Go pack's own build and vet
// steps qualify in both layouts, and its test step never does.
func TestPlannedGoStepsAreToolchainOnly(t *testing.T) {
	for _, imp := range []string{"", "github.com/dustin/go-humanize"} {
		sp := detect.Subproject{Go: &detect.GoInfo{GopathImport: imp}, HasTests: true}
		e := &extractor{sp: sp, names: map[string]bool{}}
		e.golang()
		for _, c := range e.out.Commands {
			want := !strings.HasSuffix(c.Name, "go-test")
			if got := ToolchainOnly(c); got != want {
				t.Errorf("GOPATH import %q: %s ToolchainOnly = %v, want %v", imp, c.Name, got, want)
			}
		}
	}
}
