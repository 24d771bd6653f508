package docker

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
)

// fakeEngine answers the Engine API's ping and version calls on a unix
// socket, counting the version calls.
type fakeEngine struct {
	mu       sync.Mutex
	api      string
	version  string
	versions int
	down     bool
	// hold, when set, keeps version calls waiting until it is closed;
	// asked gets one value per version call that arrived.
	hold  chan struct{}
	asked chan struct{}
}

func (f *fakeEngine) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.down {
		http.Error(w, "engine stopped", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Api-Version", f.api)
	switch {
	case r.URL.Path == "/_ping":
		_, _ = w.Write([]byte("OK"))
	case strings.HasSuffix(r.URL.Path, "/version"):
		f.versions++
		if f.hold != nil {
			hold := f.hold
			f.asked <- struct{}{}
			f.mu.Unlock()
			<-hold
			f.mu.Lock()
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"Version":"` + f.version + `","ApiVersion":"` + f.api + `","Os":"linux","Arch":"amd64",` +
			`"Components":[{"Name":"Engine","Version":"` + f.version + `"},{"Name":"docker-init","Version":"0.19.0"}]}`))
	default:
		http.NotFound(w, r)
	}
}

// serveFake serves fake on a unix socket and returns a Runtime for it.
func serveFake(t *testing.T, fake *fakeEngine) *Runtime {
	t.Helper()
	sock := filepath.Join(t.TempDir(), "engine.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: fake}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	rt, err := New("unix://"+sock, zap.NewNop())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rt.Close() })
	return rt
}

func (f *fakeEngine) set(fn func(f *fakeEngine)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	fn(f)
}

func (f *fakeEngine) versionCalls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.versions
}

// Engine asks the version call once and then, within engineTTL, only
// pings: a dead engine still fails, and a daemon that answers with
// another API version (an upgrade) or a TTL that ran out ask again.
func TestEngineAsksTheVersionOnceWhilePingsAnswer(t *testing.T) {
	fake := &fakeEngine{api: "1.41", version: "20.10.24"}
	rt := serveFake(t, fake)
	ctx := context.Background()

	steps := []struct {
		name         string
		change       func(f *fakeEngine)
		age          time.Duration // how old the recorded answer is made
		wantErr      bool
		wantVersion  string
		wantVersions int
	}{
		{name: "first call asks", wantVersion: "20.10.24", wantVersions: 1},
		{name: "second call pings", wantVersion: "20.10.24", wantVersions: 1},
		{name: "a dead engine fails", change: func(f *fakeEngine) { f.down = true }, wantErr: true, wantVersions: 1},
		{name: "back up, same API: pings", change: func(f *fakeEngine) { f.down = false }, wantVersion: "20.10.24", wantVersions: 1},
		{name: "upgraded daemon asks again", change: func(f *fakeEngine) { f.api, f.version = "1.43", "24.0.7" },
			wantVersion: "24.0.7", wantVersions: 2},
		{name: "TTL over asks again", age: engineTTL + time.Second, wantVersion: "24.0.7", wantVersions: 3},
	}
	for _, st := range steps {
		if st.change != nil {
			fake.set(st.change)
		}
		if st.age > 0 {
			rt.engineMu.Lock()
			rt.engineAt = time.Now().Add(-st.age)
			rt.engineMu.Unlock()
		}
		info, err := rt.Engine(ctx)
		if st.wantErr != (err != nil) {
			t.Fatalf("%s: err %v, want error %v", st.name, err, st.wantErr)
		}
		if err == nil && (info.Version != st.wantVersion || !info.Init) {
			t.Errorf("%s: Engine = %+v, want version %s with init", st.name, info, st.wantVersion)
		}
		if got := fake.versionCalls(); got != st.wantVersions {
			t.Errorf("%s: %d version calls, want %d", st.name, got, st.wantVersions)
		}
	}
	if _, err := rt.Engine(ctx); errors.Is(err, sandbox.ErrEngineUnavailable) {
		t.Errorf("a live engine reported unavailable: %v", err)
	}
}

// Engine calls made while a version call is in flight share it: the
// engine is asked once.
func TestConcurrentEngineCallsShareOneVersionCall(t *testing.T) {
	fake := &fakeEngine{api: "1.41", version: "20.10.24", hold: make(chan struct{}), asked: make(chan struct{}, 8)}
	rt := serveFake(t, fake)
	joined := make(chan struct{}, 8)
	rt.onJoin = func() { joined <- struct{}{} }
	const callers = 3
	errs := make(chan error, callers)
	call := func() {
		info, err := rt.Engine(context.Background())
		if err == nil && info.Version != "20.10.24" {
			err = fmt.Errorf("Engine = %+v", info)
		}
		errs <- err
	}
	go call()
	<-fake.asked // the first call is at the engine
	for range callers - 1 {
		go call()
		select {
		case <-joined:
		case <-fake.asked: // a call of its own: counted below
		}
	}
	close(fake.hold)
	for range callers {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if n := fake.versionCalls(); n != 1 {
		t.Errorf("%d callers at once made %d version calls, want 1", callers, n)
	}
}
