package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestPipStepsListedByWhatTheyDo: for a pip project, `greenlight discover`
// (the listing verify's progress lines share: display.Brief of the step)
// shows pip-install as the install a person would type and pip-fallback
// as what it checks, not the first words of a 1-2 KB script with its size;
// `discover --json` keeps each whole script as the command that runs.
func TestPipStepsListedByWhatTheyDo(t *testing.T) {
	requireDocker(t) // discovery needs no Docker, but the embedded executor's client is created
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"pyproject.toml":   "[project]\nname = \"p\"\nversion = \"1\"\n[project.optional-dependencies]\ntest = [\"pytest\"]\n",
		"requirements.txt": "requests\n",
		"p/__init__.py":    "X = 1\n",
		"tests/test_p.py":  "from p import X\n\n\ndef test_x():\n    assert X == 1\n",
	})
	u := newUser(t)
	r := u.run(nil, "discover", dir)
	r.wantExit(t, 0, "discover")
	wantLines := map[string]string{
		"pip-install":  "python3 -m venv .venv && .venv/bin/python -m pip install -r requirements.txt -e '.[test]'",
		"pip-fallback": "greenlight checks pip-install: a failed install fails here; offline, installs the project without its dependencies",
	}
	for step, want := range wantLines {
		line := ""
		for _, l := range strings.Split(r.stdout, "\n") {
			if strings.Contains(l, " "+step+" ") {
				line = l
			}
		}
		if !strings.Contains(line, want) || strings.Contains(line, "bytes)") {
			t.Errorf("discover lists %s as %q, want %q:\n%s", step, line, want, r.stdout)
		}
	}

	j := u.run(nil, "discover", "--json", dir)
	j.wantExit(t, 0, "discover --json")
	var caps struct {
		Commands []struct {
			Name           string `json:"name"`
			Command        string `json:"command"`
			DisplayCommand string `json:"display_command"`
		} `json:"commands"`
	}
	if err := json.Unmarshal([]byte(j.stdout), &caps); err != nil {
		t.Fatalf("discover --json: %v\n%s", err, j.stdout)
	}
	found := 0
	for _, c := range caps.Commands {
		if want, ok := wantLines[c.Name]; ok {
			found++
			if c.DisplayCommand != want || len(c.Command) < 300 || !strings.Contains(c.Command, ".venv/greenlight-") {
				t.Errorf("%s: display_command %q, command %.120q…; want the display and the whole script", c.Name, c.DisplayCommand, c.Command)
			}
		}
	}
	if found != 2 {
		t.Errorf("discover --json has %d of the two pip steps:\n%.2000s", found, j.stdout)
	}
}
