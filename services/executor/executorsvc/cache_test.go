package executorsvc

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/executor/internal/testenv"
)

// installStep is an install step whose result is cached: it "installs"
// deps/ from requirements.txt, slowly (3 s), and says so in its log.
func installStep() *glv1.Step {
	return &glv1.Step{Name: "install", Phase: glv1.Phase_PHASE_INSTALL, Network: true,
		Command:       "sleep 3; mkdir -p deps && cp requirements.txt deps/installed.txt && echo lib-v1 > deps/lib.txt && echo INSTALL-RAN",
		CacheKeyFiles: []string{"requirements.txt"}, CachePaths: []string{"deps"}}
}

// The second run of an unchanged project restores the installed state and
// skips install (cache_hit); changing the lockfile runs install again.
// Row 29: a test that writes into the restored dependencies does not affect
// the next run.
func TestDependencyCacheHitAndIsolation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	files := map[string]testenv.File{"requirements.txt": {Body: "requests==2.0\n"}, "app.py": {Body: "print(1)\n"}}
	tamper := sh("test", "cat deps/lib.txt deps/installed.txt && echo TAMPERED > deps/lib.txt && rm deps/installed.txt")

	first := e.mustExecute(context.Background(), e.request(files, installStep(), tamper))
	if got := first.result(0); got.GetCacheHit() || !strings.Contains(got.GetTail(), "INSTALL-RAN") {
		t.Fatalf("first run: cache_hit=%v tail %q", got.GetCacheHit(), got.GetTail())
	}
	start := time.Now()
	second := e.mustExecute(context.Background(), e.request(files, installStep(), tamper))
	install, test := second.result(0), second.result(1)
	if !install.GetCacheHit() || install.GetStatus() != glv1.StepStatus_STEP_STATUS_OK || strings.Contains(second.output(0), "INSTALL-RAN") {
		t.Errorf("second run: cache_hit=%v %s output %q", install.GetCacheHit(), statusOf(install), second.output(0))
	}
	if install.GetDuration().AsDuration() > 2500*time.Millisecond {
		t.Errorf("a cache hit took %s (the install sleeps 3s)", install.GetDuration().AsDuration())
	}
	if got := test.GetTail(); !strings.Contains(got, "lib-v1\nrequests==2.0") || strings.Contains(got, "TAMPERED") {
		t.Errorf("the restored dependencies were affected by the previous run: %q", got)
	}
	t.Logf("second run with a warm dependency cache: %s", time.Since(start).Round(time.Millisecond))

	files["requirements.txt"] = testenv.File{Body: "requests==3.0\n"}
	third := e.mustExecute(context.Background(), e.request(files, installStep(), tamper))
	if got := third.result(0); got.GetCacheHit() || !strings.Contains(got.GetTail(), "INSTALL-RAN") {
		t.Errorf("a changed lockfile still hit the cache: %q", got.GetTail())
	}
}

// Row 20: collecting what an install produced is bounded in size and time
// and never follows links: a 1 TiB sparse file is not stored, and a link to
// / is kept as a link.
func TestCacheCollectionIsBoundedAndFollowsNoLinks(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *Config) { c.CacheMaxEntry = 4 << 20 })
	files := map[string]testenv.File{"package-lock.json": {Body: "{}\n"}}
	step := func(cmd string) *glv1.Step {
		return &glv1.Step{Name: "install", Phase: glv1.Phase_PHASE_INSTALL, Command: cmd,
			CacheKeyFiles: []string{"package-lock.json"}, CachePaths: []string{"node_modules"}}
	}
	start := time.Now()
	big := e.mustExecute(context.Background(), e.request(files,
		step("mkdir -p node_modules && truncate -s 1T node_modules/huge && echo made")))
	if took := time.Since(start); took > 20*time.Second {
		t.Errorf("caching a sparse 1 TiB file took %s", took)
	}
	if got := big.result(0); got.GetStatus() != glv1.StepStatus_STEP_STATUS_OK || !strings.Contains(systemText(big, 0), "not saved") {
		t.Errorf("%s, system messages %q", statusOf(got), systemText(big, 0))
	}

	files["package-lock.json"] = testenv.File{Body: "{\"v\": 2}\n"}
	links := step("mkdir -p node_modules/deep && ln -s / node_modules/root && ln -s /etc/passwd node_modules/deep/pw && echo made")
	e.mustExecute(context.Background(), e.request(files, links))
	again := e.mustExecute(context.Background(), e.request(files, links, sh("check", "readlink node_modules/root node_modules/deep/pw")))
	if got := again.result(1).GetTail(); !again.result(0).GetCacheHit() || got != "/\n/etc/passwd\n" {
		t.Errorf("cache_hit=%v, restored links %q", again.result(0).GetCacheHit(), got)
	}
	if n := dirSize(t, e.svc.cfg.CacheDir); n > 1<<20 {
		t.Errorf("the cache holds %d bytes: links were followed", n)
	}
}

func systemText(r *run, i int) string {
	var sb strings.Builder
	for _, ev := range r.events {
		if c := ev.GetLogChunk(); c != nil && c.GetIndex() == int32(i) && c.GetStream() == glv1.Stream_STREAM_SYSTEM {
			sb.WriteString(c.GetData())
		}
	}
	return sb.String()
}

func dirSize(t *testing.T, dir string) int64 {
	var n int64
	_ = filepath.Walk(dir, func(_ string, info os.FileInfo, err error) error {
		if err == nil && info.Mode().IsRegular() {
			n += info.Size()
		}
		return nil
	})
	return n
}
