package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/greenlight-dev/greenlight/pkg/contract"
)

// runIDPattern finds a run id in output.
var runIDPattern = regexp.MustCompile(`r_\d{8}T\d{6}_[a-z0-9]+`)

func TestVerifyExamplesAsAUserWould(t *testing.T) {
	requireDocker(t)
	u := newUser(t)

	pass := u.run(nil, "verify", examples("pass"))
	pass.wantExit(t, 0, "verify examples/pass")
	for _, want := range []string{" PASS  execution passed", "pytest", "3 passed, 0 failed", "Score:", "level L4", "greenlight show r_"} {
		if !strings.Contains(pass.stdout, want) {
			t.Errorf("pass summary lacks %q:\n%s", want, pass.stdout)
		}
	}
	for _, want := range []string{"discovered python", "[4/4] pytest:", "✓ pytest OK", "run finished: PASSED"} {
		if !strings.Contains(pass.stderr, want) {
			t.Errorf("progress lacks %q:\n%s", want, pass.stderr)
		}
	}

	fail := u.run(nil, "verify", examples("fail"))
	fail.wantExit(t, 1, "verify examples/fail")
	for _, want := range []string{" FAIL ", "tests/test_temperature.py:17", "test_feels", "2 passed, 1 failed"} {
		if !strings.Contains(fail.stdout, want) {
			t.Errorf("fail summary lacks %q:\n%s", want, fail.stdout)
		}
	}

	for _, tc := range []struct {
		dir  string
		code int
		want string
	}{{examples("pass"), 0, contract.StatusPass}, {examples("fail"), 1, contract.StatusFail}} {
		r := u.run(nil, "verify", "--json", tc.dir)
		r.wantExit(t, tc.code, "verify --json "+tc.dir)
		wantContract(t, "verify --json", []byte(r.stdout))
		var res contract.Result
		if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
			t.Fatalf("--json output is not a contract Result: %v\n%s", err, r.stdout)
		}
		if res.Status != tc.want || res.RunID == "" || res.Manifest == nil || len(res.Manifest.CommandsExecuted) == 0 || res.Kind != "VERIFY" {
			t.Errorf("--json result: status %v run %q manifest %+v", res.Status, res.RunID, res.Manifest)
		}
	}
}

func TestRunsShowArtifactsAfterVerify(t *testing.T) {
	requireDocker(t)
	u := newUser(t)
	u.run(nil, "verify", "-q", examples("fail")).wantExit(t, 1, "verify examples/fail")
	id := runIDPattern.FindString(u.run(nil, "runs", "--status", "failed").stdout)
	if id == "" {
		t.Fatal("runs --status failed does not list the failed run")
	}
	runs := u.run(nil, "runs", "--status", "passed")
	if strings.Contains(runs.stdout, id) {
		t.Errorf("runs --status passed lists the failed run:\n%s", runs.stdout)
	}

	show := u.run(nil, "show", id)
	show.wantExit(t, 1, "show of a FAIL run (exit codes as for verify and watch)")
	if !strings.Contains(show.stdout, "tests/test_temperature.py:17") || !strings.Contains(show.stdout, " FAIL ") {
		t.Errorf("show lacks the failure:\n%s", show.stdout)
	}
	js := u.run(nil, "show", "--json", id)
	wantContract(t, "show --json", []byte(js.stdout))
	var res contract.Result
	if err := json.Unmarshal([]byte(js.stdout), &res); err != nil || res.RunID != id || res.Status != contract.StatusFail {
		t.Errorf("show --json: %+v %v", res, err)
	}
	md := u.run(nil, "show", "--markdown", id)
	if !strings.Contains(md.stdout, "## ❌ greenlight FAIL") || !strings.Contains(md.stdout, "**Run** `"+id+"`") {
		t.Errorf("show --markdown:\n%s", md.stdout)
	}

	out := t.TempDir()
	u.run(nil, "artifacts", id, "-o", out).wantExit(t, 0, "artifacts")
	base := filepath.Join(out, "runs", id)
	for _, f := range []string{"manifest.json", "logs/combined.log", "logs/step-04-pytest.log"} {
		b, err := os.ReadFile(filepath.Join(base, f))
		if err != nil || len(b) == 0 {
			t.Errorf("artifact %s: %v (%d bytes)", f, err, len(b))
		}
	}
	if b, _ := os.ReadFile(filepath.Join(base, "logs", "step-04-pytest.log")); !strings.Contains(string(b), "test_feels") {
		t.Errorf("the pytest log does not show the failing test:\n%s", b)
	}
}

func TestDiscoverPrintsCapabilities(t *testing.T) {
	requireDocker(t) // discovery needs no Docker, but the embedded executor's client is created
	u := newUser(t)
	r := u.run(nil, "discover", "--json", examples("pass"))
	r.wantExit(t, 0, "discover --json")
	for _, want := range []string{`"commands"`, `"name": "pytest"`, `"max_level": "L4"`, `"phase": "TEST"`} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("capabilities lack %s:\n%s", want, r.stdout)
		}
	}
	// Without --json (or with --json=false), a listing for people of what
	// verify would run.
	for _, args := range [][]string{{"discover"}, {"discover", "--json=false"}} {
		h := u.run(nil, append(args, examples("pass"))...)
		h.wantExit(t, 0, strings.Join(args, " "))
		for _, want := range []string{"1 subproject(s), 3 command(s), up to L4", "TIER  PHASE", "TEST   pytest", "python3 -m pytest -rA"} {
			if !strings.Contains(h.stdout, want) {
				t.Errorf("%s: the listing lacks %q:\n%s", strings.Join(args, " "), want, h.stdout)
			}
		}
		if strings.Contains(h.stdout, `"commands"`) {
			t.Errorf("%s printed JSON:\n%s", strings.Join(args, " "), h.stdout)
		}
	}
}

func TestOneShotVerifyLeavesNoContainer(t *testing.T) {
	requireDocker(t)
	dir := filepath.Join(t.TempDir(), "slow")
	copyDir(t, examples("pass"), dir)
	// A test slow enough to see the sandbox container while it runs.
	slow := "import time\n\n\ndef test_slow():\n    time.sleep(4)\n"
	if err := os.WriteFile(filepath.Join(dir, "tests", "test_slow.py"), []byte(slow), 0o644); err != nil {
		t.Fatal(err)
	}
	u := newUser(t)
	cmd := exec.Command(bin, "verify", "-q", dir)
	cmd.Env = u.environ()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	filter := "label=greenlight.pid=" + strconv.Itoa(cmd.Process.Pid)
	seen := false
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var waitErr error
poll:
	for {
		select {
		case waitErr = <-done:
			break poll
		case <-time.After(200 * time.Millisecond):
			if ids := dockerPS(t, filter); ids != "" {
				seen = true
			}
		}
	}
	if waitErr != nil {
		t.Fatalf("verify of a passing workspace: %v", waitErr)
	}
	if !seen {
		t.Fatalf("never saw a container with %s while the run went on: the check below would prove nothing", filter)
	}
	if ids := dockerPS(t, filter); ids != "" {
		t.Errorf("containers left behind by a one-shot verify: %s", ids)
	}
}

// dockerPS lists container ids (all states) matching a filter.
func dockerPS(t *testing.T, filter string) string {
	t.Helper()
	out, err := exec.Command("docker", "ps", "-aq", "--filter", filter).CombinedOutput()
	if err != nil {
		t.Fatalf("docker ps: %v\n%s", err, out)
	}
	return strings.TrimSpace(string(out))
}

func TestFixWithTheClientProvider(t *testing.T) {
	requireDocker(t)
	patch, err := os.Open(filepath.Join(examples(""), "fail.patch"))
	if err != nil {
		t.Fatal(err)
	}
	defer patch.Close()
	dir := filepath.Join(t.TempDir(), "ws")
	copyDir(t, examples("fail"), dir)
	before, _ := os.ReadFile(filepath.Join(dir, "temperature", "__init__.py"))
	u := newUser(t)

	r := u.run(patch, "fix", "-q", "--provider", "client", dir)
	r.wantExit(t, 0, "fix without --apply")
	if !strings.Contains(r.stdout, "+    if c >= 30:") || !strings.Contains(r.stdout, "not applied") {
		t.Errorf("fix should print the winning diff:\n%s", r.stdout)
	}
	if after, _ := os.ReadFile(filepath.Join(dir, "temperature", "__init__.py")); string(after) != string(before) {
		t.Fatal("fix without --apply modified the directory")
	}

	_, _ = patch.Seek(0, 0)
	r = u.run(patch, "fix", "-q", "--json", "--provider", "client", "--apply", dir)
	r.wantExit(t, 0, "fix --apply")
	wantContract(t, "fix --json", []byte(r.stdout))
	if !strings.Contains(r.stdout, `"green": true`) || !strings.Contains(r.stderr, "modify temperature/__init__.py") {
		t.Errorf("fix --json --apply output (the changes go to stderr, stdout is JSON):\n%s\n%s", r.stdout, r.stderr)
	}
	u.run(nil, "verify", "-q", dir).wantExit(t, 0, "verify after fix --apply")
}

func TestServeWithGRPCClientsVerifyAndWatch(t *testing.T) {
	requireDocker(t)
	u := newUser(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := startServe(t, ctx, u)

	checkServeAPI(t, srv)
	remote := &user{t: t, home: t.TempDir(), env: []string{"GREENLIGHT_ADDR=" + srv.publicAddr(t)}}
	v := remote.run(nil, "verify", examples("pass"))
	v.wantExit(t, 0, "verify --addr (against serve)")
	id := runIDPattern.FindString(v.stdout)
	if id == "" {
		t.Fatalf("no run id in:\n%s", v.stdout)
	}
	w := remote.run(nil, "watch", id)
	w.wantExit(t, 0, "watch")
	for _, want := range []string{"run " + id + " created", "✓ pytest OK", "run finished: PASSED"} {
		if !strings.Contains(w.stderr, want) {
			t.Errorf("watch replay lacks %q:\n%s", want, w.stderr)
		}
	}
	w = remote.run(nil, "watch", "--json", "--after", "2", id)
	w.wantExit(t, 0, "watch --json --after 2")
	if strings.Contains(w.stdout, `"seq":1,`) || strings.Contains(w.stdout, `"seq":2,`) || !strings.Contains(w.stdout, `"kind":"run_finished"`) {
		t.Errorf("watch --after 2 must start at seq 3 and end with run_finished:\n%s", w.stdout)
	}
	// A one-shot command on the same home must not fight serve for the
	// lock, and is told the address serve really listens on.
	local := u.run(nil, "verify", examples("pass"))
	local.wantExit(t, 2, "embedded verify while serve holds the home")
	local.wantOneLineError(t, "listens on "+srv.publicAddr(t)+": pass --addr "+srv.publicAddr(t))

	srv.stop(t)
}
