package executorsvc

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/executor/internal/testenv"
)

// The tests of the dependency cache's trust boundary (ADVERSARIAL rows 34
// and 35): what one repository installs never becomes another's verdict,
// and an entry that cannot be restored is evicted instead of breaking every
// later run.

// forcePassPth is a planted .pth file: Python runs its import line at
// every interpreter start, and it makes every exit look like success (a
// pytest plugin marking failures passed has the same effect).
const forcePassPth = "import atexit, os; atexit.register(lambda: os._exit(0))\n"

// venvSitePackages is where the sandbox-python image's virtualenvs keep
// their packages.
const venvSitePackages = ".venv/lib/python3.11/site-packages"

// pipInstall is discovery's pip install step (offline: the requirements
// are empty), plus extra shell at the end.
func pipInstall(extra string) *glv1.Step {
	return &glv1.Step{Name: "pip-install", Phase: glv1.Phase_PHASE_INSTALL,
		Command:       "python3 -m venv --system-site-packages .venv && .venv/bin/python -m pip install -q -r requirements.txt" + extra,
		CacheKeyFiles: []string{"requirements.txt"}, CachePaths: []string{".venv"}}
}

// pytestStep runs the suite with the virtualenv's interpreter.
func pytestStep() *glv1.Step {
	return sh("pytest", ".venv/bin/python -m pytest -q -p no:cacheprovider")
}

// victimFiles is a project whose test fails.
func victimFiles() map[string]testenv.File {
	return map[string]testenv.File{
		"requirements.txt": {Body: "\n"},
		"test_app.py":      {Body: "def test_bug():\n    assert 1 + 1 == 3\n"},
	}
}

// Row 34, same owner: an attacker's snapshot ships .venv with a planted
// plugin and the victim's requirements file. The cache is not used for a
// snapshot that already holds a cache path (the result says so), so the
// victim's failing suite still fails.
func TestSnapshotHoldingACachePathDisablesTheCache(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	attacker := victimFiles()
	attacker[venvSitePackages+"/zz_force_pass.pth"] = testenv.File{Body: forcePassPth}

	first := e.mustExecute(context.Background(), e.request(attacker, pipInstall(""), pytestStep()))
	install := first.result(0)
	if install.GetStatus() != glv1.StepStatus_STEP_STATUS_OK || install.GetCacheHit() ||
		!strings.Contains(install.GetCacheNote(), "the snapshot already contains .venv/") {
		t.Errorf("attacker install: %s cache_hit=%v cache_note %q", statusOf(install), install.GetCacheHit(), install.GetCacheNote())
	}
	if n := entries(t, e); n != 0 {
		t.Errorf("the attacker's run saved %d cache entries", n)
	}

	victim := e.mustExecute(context.Background(), e.request(victimFiles(), pipInstall(""), pytestStep()))
	if got := victim.result(0); got.GetCacheHit() {
		t.Errorf("the victim's install was restored from the attacker's tree")
	}
	if got := victim.result(1); got.GetStatus() != glv1.StepStatus_STEP_STATUS_FAILED {
		t.Errorf("the victim's failing suite ended %s: %q", statusOf(got), got.GetTail())
	}
}

// Row 34, different owners: a tree planted by something the key does not
// cover (here a file the install copies in) stays the planter's own; the
// victim, another owner with the same requirements and command, installs
// cold and fails. The victim's own second run does hit the cache.
func TestCacheNotSharedAcrossOwners(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	install := pipInstall(" && if [ -d plugins ]; then cp plugins/* " + venvSitePackages + "/; fi")
	attacker := victimFiles()
	attacker["plugins/zz_force_pass.pth"] = testenv.File{Body: forcePassPth}

	req := e.request(attacker, install, pytestStep())
	req.Owner = e.owner + "-attacker"
	poisoned := e.mustExecute(context.Background(), req)
	if got := poisoned.result(1); got.GetStatus() != glv1.StepStatus_STEP_STATUS_OK {
		t.Fatalf("the planted plugin did not work in the attacker's own run (%s): the test proves nothing", statusOf(got))
	}
	if n := entries(t, e); n != 1 {
		t.Fatalf("the attacker's install left %d cache entries, want 1", n)
	}

	for i := range 2 {
		req := e.request(victimFiles(), install, pytestStep())
		req.Owner = e.owner + "-victim"
		victim := e.mustExecute(context.Background(), req)
		if got := victim.result(0).GetCacheHit(); got != (i == 1) {
			t.Errorf("victim run %d: cache_hit=%v, want %v", i+1, got, i == 1)
		}
		if got := victim.result(1); got.GetStatus() != glv1.StepStatus_STEP_STATUS_FAILED {
			t.Errorf("victim run %d: the failing suite ended %s", i+1, statusOf(got))
		}
	}
}

// The key covers every file that can change an install, not only the
// listed lockfile: a setup.py (pip install -e .), a Maven module's pom.xml,
// Gradle settings and version catalogs, and the manifests in the workdir's
// ancestors (a workspace root, an .npmrc). Files that cannot change the
// install do not invalidate it.
func TestCacheKeyCoversInstallFiles(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	step := &glv1.Step{Name: "install", Phase: glv1.Phase_PHASE_INSTALL, Workdir: "svc",
		Command:       "mkdir -p deps && echo installed > deps/lib && echo INSTALL-RAN",
		CacheKeyFiles: []string{"svc/requirements.txt"}, CachePaths: []string{"deps"}}
	files := map[string]testenv.File{
		"svc/requirements.txt":          {Body: "lib==1\n"},
		"svc/setup.py":                  {Body: "from setuptools import setup\nsetup(name='a')\n"},
		"svc/mod/pom.xml":               {Body: "<project>a</project>\n"},
		"svc/settings.gradle.kts":       {Body: "include(\"a\")\n"},
		"svc/gradle/libs.versions.toml": {Body: "[versions]\na = \"1\"\n"},
		".npmrc":                        {Body: "registry=https://a.example\n"},
		"svc/app.py":                    {Body: "print(1)\n"},
		"other/package.json":            {Body: "{}\n"},
	}
	hit := func(what string) bool {
		t.Helper()
		r := e.mustExecute(context.Background(), e.request(files, step))
		if got := r.result(0); got.GetStatus() != glv1.StepStatus_STEP_STATUS_OK {
			t.Fatalf("%s: install %s", what, statusOf(got))
		}
		return r.result(0).GetCacheHit()
	}
	if hit("first run") {
		t.Fatal("the first run hit an empty cache")
	}
	cases := []struct {
		file, body string
		wantHit    bool
	}{
		{"svc/app.py", "print(2)\n", true},
		{"other/package.json", "{\"a\": 1}\n", true},
		{"svc/setup.py", "from setuptools import setup\nsetup(name='b')\n", false},
		{"svc/mod/pom.xml", "<project>b</project>\n", false},
		{"svc/settings.gradle.kts", "include(\"b\")\n", false},
		{"svc/gradle/libs.versions.toml", "[versions]\na = \"2\"\n", false},
		{".npmrc", "registry=https://b.example\n", false},
	}
	for _, c := range cases {
		files[c.file] = testenv.File{Body: c.body}
		if got := hit("changed " + c.file); got != c.wantHit {
			t.Errorf("after changing %s: cache_hit=%v, want %v", c.file, got, c.wantHit)
		}
	}
}

// deepTreeInstall "installs" deps/ holding a directory tree deeper than
// PATH_MAX: tar archives it, but cannot extract it. mkdir (without -p)
// fails when a partial restore was left behind.
func deepTreeInstall() *glv1.Step {
	return &glv1.Step{Name: "install", Phase: glv1.Phase_PHASE_INSTALL,
		Command: `mkdir deps && echo v1 > deps/top && python3 -c "` +
			`import os; os.chdir('deps'); [(os.mkdir('d' * 16), os.chdir('d' * 16)) for _ in range(300)]; open('f', 'w').write('deep')` +
			`" && echo INSTALL-RAN`,
		CacheKeyFiles: []string{"requirements.txt"}, CachePaths: []string{"deps"}}
}

// Row 35: an entry that fails to restore halfway is evicted, its partial
// tree is removed, the run installs cold and passes; later runs install
// cold without a failed restore (the key is not stored again).
func TestUnrestorableCacheEntryIsEvicted(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	files := map[string]testenv.File{"requirements.txt": {Body: "deep==1\n"}}
	check := sh("check", "cat deps/top")
	first := e.mustExecute(context.Background(), e.request(files, deepTreeInstall(), check))
	if got := first.result(0); got.GetStatus() != glv1.StepStatus_STEP_STATUS_OK || entries(t, e) != 1 {
		t.Fatalf("first run: install %s, %d cache entries (want a saved entry); note %q output %q", statusOf(got), entries(t, e), got.GetCacheNote(), first.output(0))
	}
	for i := 2; i <= 3; i++ {
		r := e.mustExecute(context.Background(), e.request(files, deepTreeInstall(), check))
		install := r.result(0)
		if install.GetStatus() != glv1.StepStatus_STEP_STATUS_OK || install.GetCacheHit() || !strings.Contains(r.output(0), "INSTALL-RAN") {
			t.Errorf("run %d: install %s cache_hit=%v output %q note %q", i, statusOf(install), install.GetCacheHit(), r.output(0), install.GetCacheNote())
		}
		if got := r.result(1); got.GetStatus() != glv1.StepStatus_STEP_STATUS_OK {
			t.Errorf("run %d: check %s", i, statusOf(got))
		}
		t.Logf("run %d: cache_note %q", i, install.GetCacheNote())
		restoreFailed := strings.Contains(install.GetCacheNote(), "could not be restored")
		if restoreFailed != (i == 2) {
			t.Errorf("run %d: cache_note %q", i, install.GetCacheNote())
		}
		if n := entries(t, e); n != 0 {
			t.Errorf("run %d: %d cache entries left: the unrestorable entry was kept or stored again", i, n)
		}
	}
}

// An entry changed on disk fails verification: it is evicted, the run
// installs cold and passes, and the fresh entry serves the next run.
func TestCorruptCacheEntryEvicted(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	files := map[string]testenv.File{"requirements.txt": {Body: "lib==1\n"}}
	install := installStep()
	e.mustExecute(context.Background(), e.request(files, install))
	paths, _ := filepath.Glob(filepath.Join(e.svc.cfg.CacheDir, "*.tar"))
	if len(paths) != 1 {
		t.Fatalf("%d cache entries after the first run", len(paths))
	}
	b, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-600] ^= 0x20 // inside the tar's last member or padding
	if err := os.WriteFile(paths[0], b, 0o600); err != nil {
		t.Fatal(err)
	}
	second := e.mustExecute(context.Background(), e.request(files, install))
	got := second.result(0)
	if got.GetCacheHit() || got.GetStatus() != glv1.StepStatus_STEP_STATUS_OK || !strings.Contains(got.GetCacheNote(), "failed verification") {
		t.Errorf("corrupt entry: %s cache_hit=%v note %q", statusOf(got), got.GetCacheHit(), got.GetCacheNote())
	}
	third := e.mustExecute(context.Background(), e.request(files, install))
	if !third.result(0).GetCacheHit() {
		t.Errorf("the re-saved entry did not serve the next run: note %q", third.result(0).GetCacheNote())
	}
}

// entries counts the dependency cache's entries.
func entries(t *testing.T, e *env) int {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(e.svc.cfg.CacheDir, "*.tar"))
	if err != nil {
		t.Fatal(err)
	}
	return len(paths)
}
