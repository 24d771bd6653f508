package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/greenlight-dev/greenlight/pkg/contract"
)

// slowProject is a Python project whose only test sleeps for minutes.
func slowProject(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"pyproject.toml":     "[project]\nname = \"slow\"\nversion = \"0.1\"\n\n[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\n",
		"tests/test_slow.py": "import time\n\n\ndef test_slow():\n    time.sleep(600)\n",
		"tests/__init__.py":  "",
		"slow/__init__.py":   "",
	}
	writeFiles(t, dir, files)
	return dir
}

// verify --detach returns at once with the run id; the run goes on on the
// server; cancel stops it and it ends CANCELED.
func TestVerifyDetachThenCancel(t *testing.T) {
	requireDocker(t)
	u := newUser(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := startServe(t, ctx, u)
	remote := &user{t: t, home: t.TempDir(), env: []string{"GREENLIGHT_ADDR=" + srv.publicAddr(t)}}

	r := remote.run(nil, "verify", "--detach", slowProject(t))
	r.wantExit(t, 0, "verify --detach")
	id := strings.TrimSpace(r.stdout)
	if !runIDPattern.MatchString(id) || !strings.Contains(r.stderr, "greenlight cancel "+id) {
		t.Fatalf("verify --detach printed %q / %q", r.stdout, r.stderr)
	}
	// The CLI has exited; the run must still be going on the server.
	deadline := time.Now().Add(2 * time.Minute)
	for {
		s := remote.run(nil, "show", "--json", id)
		var res contract.Result
		if err := json.Unmarshal([]byte(s.stdout), &res); err != nil {
			t.Fatalf("show --json: %v\n%s", err, s.stdout)
		}
		if res.RunStatus == "RUNNING" && len(res.Steps) == 0 {
			break // running, its test sleeping
		}
		if res.Status != contract.StatusPending || time.Now().After(deadline) {
			t.Fatalf("detached run is %s/%s, want it running", res.Status, res.RunStatus)
		}
		time.Sleep(500 * time.Millisecond)
	}
	c := remote.run(nil, "cancel", id)
	c.wantExit(t, 0, "cancel")
	if !strings.Contains(c.stdout, "run "+id+": CANCELED") {
		t.Errorf("cancel printed %q", c.stdout)
	}
	again := remote.run(nil, "cancel", "--json", id)
	again.wantExit(t, 0, "cancel of a canceled run")
	wantContract(t, "cancel --json", []byte(again.stdout))
	if !strings.Contains(again.stdout, `"run_status": "CANCELED"`) {
		t.Errorf("second cancel: %s", again.stdout)
	}
	remote.run(nil, "cancel", "r_20000101T000000_nothere").wantExit(t, 2, "cancel of an unknown run")
	local := u.run(nil, "verify", "--detach", slowProject(t))
	local.wantExit(t, 2, "verify --detach without --addr")
	srv.stop(t)
}
