package pylaunch

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestProjectImportedByAPytestPlugin runs the real pytest of the Python
// sandbox image: a pytest plugin the image installs and the project
// declares (pytest-httpserver)
// imports werkzeug, which imports the image's markupsafe while pytest
// starts; the markupsafe project's own tests must still import the
// workspace's markupsafe, as in CI where installing the project replaces
// the installed copy.
func TestProjectImportedByAPytestPlugin(t *testing.T) {
	if os.Getenv("GREENLIGHT_INTEGRATION") == "" {
		t.Skip("set GREENLIGHT_INTEGRATION=1 (needs Docker and greenlight/sandbox-python:latest)")
	}
	ws := t.TempDir()
	writeFiles(t, ws, map[string]string{
		"pyproject.toml":             "[project]\nname = \"MarkupSafe\"\n[project.optional-dependencies]\ntest = [\"pytest-httpserver\"]\n",
		"src/markupsafe/__init__.py": "WHERE = 'workspace'\n",
		"tests/test_where.py": "import markupsafe, sys\n\ndef test_where():\n    assert markupsafe.WHERE == 'workspace', markupsafe.__file__\n\n" +
			"def test_plugin_kept_its_copy():\n    w = sys.modules.get('werkzeug')\n    assert w is not None and not w.__file__.startswith('/w/')\n",
	})
	if err := os.Chmod(ws, 0o777); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"src", "src/markupsafe", "tests"} {
		if err := os.Chmod(filepath.Join(ws, d), 0o777); err != nil {
			t.Fatal(err)
		}
	}
	cmd := Tool("python3", "pytest", "src") + " -q -p no:cacheprovider tests"
	out, err := exec.Command("docker", "run", "--rm", "--network", "none", "-v", ws+":/w", "-w", "/w",
		"greenlight/sandbox-python:latest", "sh", "-c", cmd).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "2 passed") {
		t.Fatalf("pytest through the launcher: %v\n%s", err, out)
	}
}
