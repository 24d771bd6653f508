package executorsvc

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
	"github.com/greenlight-dev/greenlight/services/executor/internal/testenv"
)

// waitIdle waits until the pool holds n idle containers for the Python image.
func waitIdle(t *testing.T, e *env, n int) {
	t.Helper()
	waitPool(t, "idle", n, 30*time.Second, func() int { return e.svc.pool.Idle(testenv.PythonImage) })
}

// waitPool waits until count says the pool holds n containers of a kind.
func waitPool(t *testing.T, kind string, n int, limit time.Duration, count func() int) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for count() != n {
		if time.Now().After(deadline) {
			t.Fatalf("pool holds %d %s containers, want %d", count(), kind, n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A run takes a pre-started container from the pool (no create on its
// path), attaches it to the network for install and detaches it after; the
// pool refills in the background, never above its size; each pooled
// container serves one run and is removed; Close drains the pool.
func TestWarmPool(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *Config) { c.PoolSize, c.Images = 1, []string{"python=" + testenv.PythonImage} })
	e.svc.Warm(context.Background())
	waitIdle(t, e, 1)
	pooled := testenv.Containers(t, e.rt, e.svc.cfg.Owner)
	if len(pooled) != 1 || pooled[0].Labels[sandbox.LabelPool] != testenv.PythonImage {
		t.Fatalf("pool containers: %+v", pooled)
	}
	creates := e.rt.creates.Load()

	ifaces := `python3 -c "print(sorted(l.split(':')[0].strip() for l in open('/proc/net/dev').readlines()[2:]))"`
	r := e.mustExecute(context.Background(), e.request(nil,
		&glv1.Step{Name: "install", Phase: glv1.Phase_PHASE_INSTALL, Network: true, Command: ifaces},
		sh("test", ifaces+"; cat README")))
	if got := r.result(0).GetTail(); got != "['eth0', 'lo']\n" {
		t.Errorf("install step in a pooled container: %q", got)
	}
	if got := r.result(1).GetTail(); got != "['lo']\nhello\n" {
		t.Errorf("test step in a pooled container: %q", got)
	}
	e.svc.runner.Wait()
	if _, err := e.rt.State(context.Background(), pooled[0].ID); err == nil {
		t.Errorf("the pooled container %s survived its run", pooled[0].ID[:12])
	}
	waitIdle(t, e, 1)
	if got := e.rt.creates.Load() - creates; got != 1 {
		t.Errorf("%d creates after one pooled run, want exactly the one refill", got)
	}
	if n := len(testenv.Containers(t, e.rt, e.svc.cfg.Owner)); n != 1 {
		t.Errorf("%d pool containers, want 1 (never above the size)", n)
	}
	if err := e.svc.Close(); err != nil {
		t.Fatal(err)
	}
	if n := len(testenv.Containers(t, e.rt, e.svc.cfg.Owner)); n != 0 {
		t.Errorf("%d pool containers after Close", n)
	}
	if !strings.Contains(e.readBlob(r.finished.GetCombinedLog()), "hello") {
		t.Errorf("combined log incomplete")
	}
}

// Warm-pool containers carry readable names on the real engine
// (greenlight-pool-IMAGE-RANDOM: `docker ps` says what the pool holds),
// and two executors sharing one engine, each with its own owner, fill
// their pools side by side without a name clash (the engine refuses a
// name twice, which would leave a pool short).
func TestWarmPoolContainerNames(t *testing.T) {
	t.Parallel()
	name := regexp.MustCompile(`^greenlight-pool-sandbox-python-[0-9a-f]{8}$`)
	a := newEnv(t, func(c *Config) { c.PoolSize, c.Images = 2, []string{"python=" + testenv.PythonImage} })
	b := newEnv(t, func(c *Config) {
		c.PoolSize, c.Images, c.Owner = 2, []string{"python=" + testenv.PythonImage}, c.Owner+"-second"
	})
	a.svc.Warm(context.Background())
	b.svc.Warm(context.Background())
	waitIdle(t, a, 2)
	waitIdle(t, b, 2)
	seen := map[string]string{}
	for _, e := range []*env{a, b} {
		owner := e.svc.cfg.Owner
		list := testenv.Containers(t, e.rt, owner)
		if len(list) != 2 {
			t.Fatalf("owner %s: %d pool containers, want 2", owner, len(list))
		}
		for _, c := range list {
			if !name.MatchString(c.Name) {
				t.Errorf("owner %s: pool container %s is named %q, want greenlight-pool-sandbox-python-<8 hex digits>", owner, c.ID[:12], c.Name)
			}
			if other, dup := seen[c.Name]; dup {
				t.Errorf("name %q used by owners %s and %s", c.Name, other, owner)
			}
			seen[c.Name] = owner
		}
	}
}
