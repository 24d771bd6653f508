package stack

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestAHomeHeldByServeNamesItsRealAddress: a second command on a serve's
// home is told the address the serve really listens on (here a port the
// kernel chose), not a default where nothing listens.
func TestAHomeHeldByServeNamesItsRealAddress(t *testing.T) {
	home := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	free := "127.0.0.1:0"
	st, err := Start(ctx, Options{Home: home, Listen: true, Gateway: true, Command: "serve",
		Addrs: Addrs{Gateway: free, GatewayHTTP: free, Discovery: free, Executor: free, Loop: free}})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	waited := false
	_, err = Start(ctx, Options{Home: home, Waiting: func(*LockedError) { waited = true }})
	var le *LockedError
	if !errors.As(err, &le) || waited {
		t.Fatalf("second Start: %v (waited %t), want a LockedError at once", err, waited)
	}
	addr := st.Addrs().Gateway
	if strings.HasSuffix(addr, ":0") || !strings.Contains(err.Error(), "--addr "+addr) {
		t.Errorf("message %q does not name the serve's address %s", err, addr)
	}
}

// TestASecondCommandWaitsForTheFirst: two one-shot commands on one home
// share it safely: the second says it waits, then runs once the first is
// done.
func TestASecondCommandWaitsForTheFirst(t *testing.T) {
	home := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	first, err := Start(ctx, Options{Home: home, Command: "verify"})
	if err != nil {
		t.Fatal(err)
	}
	var told atomic.Int32
	var holder atomic.Value
	done := make(chan error, 1)
	go func() {
		st, err := Start(ctx, Options{Home: home, Command: "fix", Waiting: func(e *LockedError) {
			told.Add(1)
			holder.Store(e.Owner.Command)
		}})
		if err == nil {
			err = st.Close()
		}
		done <- err
	}()
	time.Sleep(1500 * time.Millisecond)
	select {
	case err := <-done:
		t.Fatalf("the second command did not wait: %v", err)
	default:
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("the second command after the first: %v", err)
	}
	if told.Load() != 1 || holder.Load() != "verify" {
		t.Errorf("told %d times, holder %v; want once, verify", told.Load(), holder.Load())
	}
}
