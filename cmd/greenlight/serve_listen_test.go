package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// freeBase returns a loopback port P with P..P+3 free (serve's gateway,
// discovery, executor and loop under --listen), trying random ones.
func freeBase(t *testing.T) int {
	t.Helper()
	for range 20 {
		base := 20000 + rand.IntN(40000)
		var held []net.Listener
		ok := true
		for off := range 4 {
			l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", base+off))
			if err != nil {
				ok = false
				break
			}
			held = append(held, l)
		}
		for _, l := range held {
			_ = l.Close()
		}
		if ok {
			return base
		}
	}
	t.Fatal("no four consecutive free ports found")
	return 0
}

// TestServeListenMovesEveryService: `serve --listen HOST:PORT` puts the
// gateway on PORT and discovery, executor and loop on PORT+1..+3, while an
// address flag given as well (here --http-addr, instead of PORT+10) wins.
func TestServeListenMovesEveryService(t *testing.T) {
	requireDocker(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	u := newUser(t)
	base := freeBase(t)
	cmd := exec.CommandContext(ctx, bin, "serve", "--listen", fmt.Sprintf("127.0.0.1:%d", base), "--http-addr", "127.0.0.1:0",
		"--pool-size", "0", "--log-level", "warn")
	cmd.Env = append(u.environ(), "GREENLIGHT_SERVICE_TOKEN="+serveServiceToken)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &served{cmd: cmd, done: make(chan struct{})}
	ready := make(chan []string, 1)
	go s.scan(stderr, ready)
	t.Cleanup(func() { _ = cmd.Process.Kill(); <-s.done })
	var m []string
	select {
	case m = <-ready:
	case <-s.done:
		t.Fatalf("serve exited before serving:\n%s", s.output())
	case <-time.After(30 * time.Second):
		t.Fatalf("serve did not start within 30s:\n%s", s.output())
	}
	s.gateway, s.loop, s.discovery, s.executor = m[1], m[3], m[4], m[5]
	want := func(off int) string { return fmt.Sprintf("127.0.0.1:%d", base+off) }
	if s.gateway != want(0) || s.discovery != want(1) || s.executor != want(2) || s.loop != want(3) {
		t.Errorf("serve --listen %s: gateway %s, discovery %s, executor %s, loop %s; want ports +0..+3",
			want(0), s.gateway, s.discovery, s.executor, s.loop)
	}
	if m[2] == want(10) {
		t.Errorf("report pages on %s: --http-addr should have won over --listen", m[2])
	}
	checkServeAPI(t, s)
	s.stop(t)
}

// A serve that fails while starting its services (here: a gateway token
// too short) says why in one line and exits 2, not with a panic.
func TestServeWithATooShortTokenExit2(t *testing.T) {
	requireDocker(t)
	u := newUser(t)
	r := u.run(nil, "serve", "--listen", "127.0.0.1:0", "--token", "short")
	r.wantExit(t, 2, "serve --token short")
	// serve logs at info level on stderr; the error is the last line.
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, "greenlight: serve: ") || !strings.Contains(last, "token too short") ||
		strings.Contains(r.stderr, "panic") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
}
