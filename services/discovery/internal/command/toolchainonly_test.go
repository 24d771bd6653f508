package command

import "testing"

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
	} {
		if got := ToolchainOnly(c.cmd); got != c.want {
			t.Errorf("%s: ToolchainOnly = %v, want %v", c.name, got, c.want)
		}
	}
}
