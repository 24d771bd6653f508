package patch

import (
	"strconv"
	"testing"
)

// depFiles is a workspace with one manifest of each kind.
var depFiles = tree{
	"src/app.py":       "def f():\n    return 1\n",
	"go.mod":           "module example.com/m\n\ngo 1.22\n\nrequire github.com/stretchr/testify v1.9.0\n",
	"requirements.txt": "pytest==8.0.0\n# tools\n",
	"web/package.json": "{\n  \"name\": \"web\",\n  \"devDependencies\": {\n    \"jest\": \"29.0.0\"\n  }\n}\n",
	"pyproject.toml":   "[project]\nname = \"x\"\nversion = \"1\"\ndependencies = [\n    \"attrs\",\n]\n",
	"setup.py":         "from setuptools import setup\n\nsetup(name=\"x\", install_requires=[\"attrs\"])\n",
}

// TestDependencyChangesAreRefused checks the dependencies rule: a patch
// that swaps a test tool or assertion library for a local copy, or adds
// or changes any dependency, is refused unless lockfile edits are allowed.
func TestDependencyChangesAreRefused(t *testing.T) {
	cases := []struct {
		name, reply, path string
		// audited: the suspicion audit also refuses it (a local copy).
		audited bool
	}{
		{"go.mod replace with a local fake", editLines("go.mod", "require github.com/stretchr/testify v1.9.0",
			"require github.com/stretchr/testify v1.9.0", "", "replace github.com/stretchr/testify => ./fake"), "go.mod", true},
		{"go.mod require bumped", edit("go.mod", "require github.com/stretchr/testify v1.9.0", "require github.com/stretchr/testify v1.8.0"), "go.mod", false},
		{"requirements: a local pytest", edit("requirements.txt", "pytest==8.0.0", "-e ./pytest"), "requirements.txt", true},
		{"package.json: jest from a local dir", edit("web/package.json", `    "jest": "29.0.0"`, `    "jest": "file:./jest"`), "web/package.json", true},
		{"pyproject: a multi-line dependency added", editLines("pyproject.toml", `    "attrs",`, `    "attrs",`, `    "fakeassert",`), "pyproject.toml", false},
		{"setup.py install_requires", edit("setup.py", `setup(name="x", install_requires=["attrs"])`, `setup(name="x", install_requires=["attrs", "x"])`), "setup.py", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := refusal(t, applyErr(t, depFiles, c.reply, Guardrails{}), RuleDependencies)
			if r.Path != c.path {
				t.Errorf("refused %q, want %q", r.Path, c.path)
			}
			if c.audited {
				return // the suspicion audit refuses it whatever the caller allows
			}
			applyOK(t, depFiles, c.reply, Guardrails{AllowLockfileEdits: true})
		})
	}
}

// TestNonDependencyManifestEditsPass checks that editing a manifest
// elsewhere (a comment, the module's go version) is no dependency change.
func TestNonDependencyManifestEditsPass(t *testing.T) {
	for _, reply := range []string{
		edit("requirements.txt", "# tools", "# test tools"),
		edit("go.mod", "go 1.22", "go 1.23"),
	} {
		applyOK(t, depFiles, reply, Guardrails{})
	}
}

// editLines is a patch replacing one line of path with several.
func editLines(path, old string, new ...string) string {
	out := "--- a/" + path + "\n+++ b/" + path + "\n@@ -1 +1," + strconv.Itoa(len(new)) + " @@\n-" + old + "\n"
	for _, l := range new {
		out += "+" + l + "\n"
	}
	return out
}
