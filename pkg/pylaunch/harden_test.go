package pylaunch

import (
	"strings"
	"testing"
)

func TestHarden(t *testing.T) {
	tests := []struct{ in, want string }{
		{"python -m pytest -q tests", Tool("python", "pytest") + " -q tests"},
		{"python3 -m pytest", Tool("python3", "pytest")},
		{".venv/bin/python -m unittest discover", Tool(".venv/bin/python", "unittest") + " discover"},
		{"CI=1 python3.12 -m mypy src", "CI=1 " + Tool("python3.12", "mypy") + " src"},
		{"cd sub && python -m pytest && python -m ruff check .", "cd sub && " + Tool("python", "pytest") + " && " + Tool("python", "ruff") + " check ."},
		{"python3 -m venv .venv && .venv/bin/python -m pip install -e .", "python3 -P -m venv .venv && .venv/bin/python -P -m pip install -e ."},
		{"if true; then python -m compileall -q .; fi", "if true; then python -P -m compileall -q .; fi"},
		{"time python -m pytest", "time " + Tool("python", "pytest")},
		{"python -m pytest\npython -m pip list", Tool("python", "pytest") + "\npython -P -m pip list"},
		// Left alone: quoted, an argument of another command, another
		// module, flags in between, already hardened, a tool by its name.
		{`sh -c "python -m pytest"`, `sh -c "python -m pytest"`},
		{"echo python -m pytest", "echo python -m pytest"},
		{"pip install pytest", "pip install pytest"},
		{"python -m build", "python -m build"},
		{"python -X dev -m pytest", "python -X dev -m pytest"},
		{"python -P -m pip install .", "python -P -m pip install ."},
		{"pytest -q", "pytest -q"},
		{"$PY -m pytest", "$PY -m pytest"},
		{"python -m 'pytest'", "python -m 'pytest'"},
		{"# python -m pytest\nmake", "# python -m pytest\nmake"},
	}
	for _, tt := range tests {
		got, changed := Harden(tt.in)
		if got != tt.want || changed != (tt.in != tt.want) {
			t.Errorf("Harden(%q) = %q, %v\nwant %q", tt.in, Readable(got), changed, Readable(tt.want))
		}
	}
	// A hardened command is a fixed point, and reads back as written
	// (but for the -P it gained).
	unP := func(s string) string { return strings.ReplaceAll(s, " -P -m ", " -m ") }
	for _, tt := range tests {
		h, _ := Harden(tt.in)
		if again, changed := Harden(h); changed || again != h {
			t.Errorf("Harden(Harden(%q)) changed it again", tt.in)
		}
		if unP(Readable(h)) != unP(tt.in) {
			t.Errorf("Readable(Harden(%q)) = %q", tt.in, Readable(h))
		}
	}
}
