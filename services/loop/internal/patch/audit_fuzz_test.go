package patch

import (
	"strings"
	"testing"
)

// FuzzAudit feeds arbitrary old and new content to the audit under every
// language: reading a model's text must never panic, and every finding
// must point at an added line.
func FuzzAudit(f *testing.F) {
	for _, seed := range []string{
		pyLib + "\nimport unittest\nunittest.TestCase.assertEqual = lambda *a, **k: None\n",
		pyLib + "\nclass R:\n    def __eq__(self, other): return True\n\"\"\"unterminated",
		goLib + "\nfunc init() {\n\tgo func() { os.Exit(0) }()\n}\nvar _ = func() int {\n",
		jsLib + "class M { [Symbol.toPrimitive] (h) { return `${1}` } }\nprocess.on('exit', () => {\n",
		"/* unterminated ` ' \" \\",
		"def f(:\n  return (\n",
	} {
		f.Add(byte(0), "", seed)
		f.Add(byte(1), pyLib, seed)
	}
	paths := []string{"calc.py", "calc/calc.go", "src/add.js", "src/add.ts", "go.mod", "package.json", "bin/cli.js", "calc/__main__.py", "pyproject.toml"}
	f.Fuzz(func(t *testing.T, which byte, old, new string) {
		path := paths[int(which)%len(paths)]
		for _, s := range auditOf(path, old, new) {
			lines := splitLines(new)
			if s.line < 1 || s.line > len(lines) || strings.TrimSpace(s.kind) == "" {
				t.Fatalf("finding %+v outside the file's %d lines", s, len(lines))
			}
		}
	})
}
