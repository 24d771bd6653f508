package cli

import (
	"errors"
	"strings"
	"testing"
)

func TestServeListen(t *testing.T) {
	addrFlags := []string{"gateway-addr", "discovery-addr", "executor-addr", "loop-addr", "http-addr"}
	tests := []struct {
		name string
		args []string
		want []string // addrFlags' values, in order
		err  string
	}{
		{"defaults", nil,
			[]string{"127.0.0.1:7070", "127.0.0.1:7071", "127.0.0.1:7072", "127.0.0.1:7073", "127.0.0.1:7080"}, ""},
		{"base address", []string{"--listen", "0.0.0.0:9000"},
			[]string{"0.0.0.0:9000", "0.0.0.0:9001", "0.0.0.0:9002", "0.0.0.0:9003", "0.0.0.0:9010"}, ""},
		{"ipv6", []string{"--listen", "[::1]:8000"},
			[]string{"[::1]:8000", "[::1]:8001", "[::1]:8002", "[::1]:8003", "[::1]:8010"}, ""},
		{"individual flags win, in any order", []string{"--loop-addr", "127.0.0.1:5555", "--listen", "127.0.0.1:9000", "--http-addr", "127.0.0.1:8080"},
			[]string{"127.0.0.1:9000", "127.0.0.1:9001", "127.0.0.1:9002", "127.0.0.1:5555", "127.0.0.1:8080"}, ""},
		{"port 0: a free port each", []string{"--listen", "127.0.0.1:0"},
			[]string{"127.0.0.1:0", "127.0.0.1:0", "127.0.0.1:0", "127.0.0.1:0", "127.0.0.1:0"}, ""},
		{"highest port", []string{"--listen", "127.0.0.1:65525"},
			[]string{"127.0.0.1:65525", "127.0.0.1:65526", "127.0.0.1:65527", "127.0.0.1:65528", "127.0.0.1:65535"}, ""},
		{"report port past 65535", []string{"--listen", "127.0.0.1:65530"}, nil, "PORT from 0 to 65525"},
		{"no port", []string{"--listen", "127.0.0.1"}, nil, `--listen "127.0.0.1"`},
		{"bad port", []string{"--listen", "127.0.0.1:http"}, nil, "want HOST:PORT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := &app{env: Env{Getenv: func(string) string { return "" }}}
			cmd := a.serveCmd()
			if err := cmd.ParseFlags(tt.args); err != nil {
				t.Fatal(err)
			}
			listen, _ := cmd.Flags().GetString("listen")
			err := applyListen(cmd, listen)
			if tt.err != "" {
				var ue *usageError
				if !errors.As(err, &ue) || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("applyListen = %v, want a usage error containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for i, name := range addrFlags {
				if got, _ := cmd.Flags().GetString(name); got != tt.want[i] {
					t.Errorf("--%s = %s, want %s", name, got, tt.want[i])
				}
			}
		})
	}
}

// TestServeHelpNamesListen: the help says what --listen does.
func TestServeHelpNamesListen(t *testing.T) {
	cmd := (&app{env: Env{Getenv: func(string) string { return "" }}}).serveCmd()
	usage := cmd.Flags().FlagUsages()
	if !strings.Contains(usage, "--listen host:port") || !strings.Contains(usage, "PORT+10") || !strings.Contains(cmd.Long, "--listen HOST:PORT") {
		t.Errorf("serve help does not explain --listen:\n%s", usage)
	}
}
