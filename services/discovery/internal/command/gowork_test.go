package command_test

import (
	"testing"
)

// With a go.work, every module with tests is still tested in its own
// workdir; a module the workspace does not use runs with GOWORK=off (go
// refuses to build it otherwise), the used ones keep workspace mode.
func TestGoWorkModules(t *testing.T) {
	_, _, cmds := extract(t, map[string]string{
		"go.work": "go 1.22\n\nuse (\n\t.\n\t./lib\n)\n",
		"go.mod":  "module example.com/a\n\ngo 1.22\n", "a_test.go": "package a\n",
		"lib/go.mod": "module example.com/a/lib\n\ngo 1.22\n", "lib/l_test.go": "package lib\n",
		"other/go.mod": "module example.com/other\n\ngo 1.22\n", "other/o_test.go": "package other\n",
	})
	want := map[string]string{"go-test": "", "lib:go-test": "", "other:go-test": "off", "other:go-build": "off"}
	seen := map[string]bool{}
	for _, c := range cmds {
		w, ok := want[c.Name]
		if !ok {
			continue
		}
		seen[c.Name] = true
		if got := c.Env["GOWORK"]; got != w {
			t.Errorf("%s: GOWORK=%q, want %q (workdir %s)", c.Name, got, w, c.Workdir)
		}
	}
	if len(seen) != len(want) {
		t.Errorf("planned %v, want every module's steps %v", seen, want)
	}
}
