package main

import (
	"bytes"
	"net"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A command stopped by a signal exits 128+n as shells expect: 130 for
// Ctrl-C (SIGINT), 143 for SIGTERM, with one line on stderr. The command
// waits on a gateway that accepted the connection and never answers; the
// signal comes once the CLI is connected.
func TestSignalExitCodes(t *testing.T) {
	tests := []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}}
	for _, tc := range tests {
		t.Run(tc.sig.String(), func(t *testing.T) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			accepted := make(chan net.Conn, 1)
			go func() {
				if c, err := ln.Accept(); err == nil {
					accepted <- c
				}
			}()
			u := newUser(t)
			cmd := exec.Command(bin, "--addr", ln.Addr().String(), "runs")
			cmd.Env = u.environ()
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			select {
			case c := <-accepted:
				defer c.Close()
			case <-time.After(time.Minute):
				_ = cmd.Process.Kill()
				t.Fatal("the CLI never connected")
			}
			if err := cmd.Process.Signal(tc.sig); err != nil {
				t.Fatal(err)
			}
			_ = cmd.Wait()
			if got := cmd.ProcessState.ExitCode(); got != tc.code {
				t.Errorf("exit %d after %v, want %d; stderr:\n%s", got, tc.sig, tc.code, stderr.String())
			}
			if lines := strings.Split(strings.TrimSpace(stderr.String()), "\n"); len(lines) != 1 || !strings.Contains(lines[0], "interrupted") {
				t.Errorf("stderr after %v, want one line saying interrupted:\n%s", tc.sig, stderr.String())
			}
		})
	}
}
