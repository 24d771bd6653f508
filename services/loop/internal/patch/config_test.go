package patch

import (
	"strings"
	"testing"
)

// configFiles is the workspace the config-rule tests patch.
var configFiles = tree{
	"src/app.py":          "def f():\n    return 1\n",
	"greenlight.yaml":     "steps:\n  - name: test\n    run: python -m pytest\n",
	"pytest.ini":          "[pytest]\naddopts = -q\n",
	"tests/conftest.py":   "import pytest\n",
	"Makefile":            "test:\n\tpytest\n",
	"scripts/run.sh":      "#!/bin/sh\npytest\n",
	"web/jest.config.js":  "module.exports = {}\n",
	"go.work":             "go 1.22\n\nuse ./a\n",
	"web/package.json":    "{\n  \"name\": \"web\",\n  \"version\": \"1.0.0\",\n  \"scripts\": {\n    \"test\": \"jest\"\n  }\n}\n",
	"pyproject.toml":      "[project]\nname = \"x\"\nversion = \"1\"\n\n[tool.pytest.ini_options]\naddopts = \"-q\"\n",
	"setup.cfg":           "[metadata]\nname = x\n\n[tool:pytest]\naddopts = -q\n",
	".github/workflows/c": "on: push\n",
	"setup.py":            "from setuptools import setup\n\nsetup(\n    name=\"x\",\n    packages=[\"x\"],\n)\n",
}

// TestConfigRefusals checks the config rule: every kind of verification
// config is refused by default, with rule "config" and the path.
func TestConfigRefusals(t *testing.T) {
	add := func(path, line string) string {
		return "--- /dev/null\n+++ b/" + path + "\n@@ -0,0 +1 @@\n+" + line + "\n"
	}
	cases := []struct {
		name, reply string
		g           Guardrails
		path, msg   string
	}{
		{"add greenlight.yaml", add("greenlight.yml", "steps: [{name: t, run: pytest tests/test_ok.py}]"), Guardrails{}, "greenlight.yml", "verification configuration"},
		{"edit greenlight.yaml", edit("greenlight.yaml", "steps:", "steps: []"), Guardrails{}, "greenlight.yaml", "allow_config_changes"},
		{"nested greenlight.yaml", add("svc/greenlight.yaml", "steps: []"), Guardrails{}, "svc/greenlight.yaml", "fix the code"},
		{"add agent.yaml", add("agent.yaml", "verification: {}"), Guardrails{}, "agent.yaml", ""},
		{"add runr.config.json", add("runr.config.json", "{}"), Guardrails{}, "runr.config.json", ""},
		{"edit pytest.ini", edit("pytest.ini", "[pytest]", "[pytest] # -k 'not test_sub'"), Guardrails{}, "pytest.ini", ""},
		{"add conftest.py anywhere", add("src/conftest.py", "collect_ignore = ['tests']"), Guardrails{}, "src/conftest.py", ""},
		{"conftest.py even with test changes allowed", edit("tests/conftest.py", "import pytest", "import os"), Guardrails{AllowTestChanges: true}, "tests/conftest.py", ""},
		{"add tox.ini", add("tox.ini", "[tox]"), Guardrails{}, "tox.ini", ""},
		{"add noxfile.py", add("noxfile.py", "import nox"), Guardrails{}, "noxfile.py", ""},
		{"edit jest.config", edit("web/jest.config.js", "module.exports = {}", "module.exports = {testPathIgnorePatterns: ['.']}"), Guardrails{}, "web/jest.config.js", ""},
		{"add vitest.config", add("vitest.config.ts", "export default {}"), Guardrails{}, "vitest.config.ts", ""},
		{"add .mocharc", add(".mocharc.yml", "spec: none"), Guardrails{}, ".mocharc.yml", ""},
		{"add .npmrc (script-shell)", add("web/.npmrc", "script-shell=/bin/true"), Guardrails{}, "web/.npmrc", ""},
		{"add sitecustomize.py", add("sitecustomize.py", "import os"), Guardrails{}, "sitecustomize.py", ""},
		{"edit go.work", edit("go.work", "use ./a", "use ./b"), Guardrails{}, "go.work", ""},
		{"edit workflow", edit(".github/workflows/c", "on: push", "on: pull_request"), Guardrails{}, ".github/workflows/c", ""},
		{"add gitlab ci", add(".gitlab-ci.yml", "test: {script: [true]}"), Guardrails{}, ".gitlab-ci.yml", ""},
		{"delete pytest.ini", "*** Begin Patch\n*** Delete File: pytest.ini\n*** End Patch\n", Guardrails{}, "pytest.ini", ""},
		{"rename greenlight.yaml away", "*** Begin Patch\n*** Update File: greenlight.yaml\n*** Move to: old.yaml\n*** End Patch\n", Guardrails{}, "greenlight.yaml", ""},
		{"repo allow-list naming the config does not unlock it", edit("greenlight.yaml", "steps:", "steps: []"),
			Guardrails{AllowedGlobs: []string{"greenlight.yaml", "src/**"}}, "greenlight.yaml", ""},
		{"Makefile the plan runs", edit("Makefile", "\tpytest", "\ttrue"), Guardrails{ConfigPaths: []string{"Makefile"}}, "Makefile", ""},
		{"script the plan runs", edit("scripts/run.sh", "pytest", "true"), Guardrails{ConfigPaths: []string{"scripts/run.sh"}}, "scripts/run.sh", ""},
		{"setup.py pytest11 entry point", edit("setup.py", `    packages=["x"],`, `    packages=["x"], entry_points={"pytest11": ["x = x.plugin"]},`), Guardrails{}, "setup.py", "entry_points"},
		{"setup.py cmdclass", edit("setup.py", `    packages=["x"],`, "    packages=[\"x\"], cmdclass={\"install\": Evil},"), Guardrails{}, "setup.py", "cmdclass"},
		{"pyproject entry point section", edit("pyproject.toml", `version = "1"`, `entry-points.pytest11.x = "x.plugin"`), Guardrails{}, "pyproject.toml", "project.entry-points"},
		{"a .pth start-up hook", add("src/zz.pth", "import x.plugin"), Guardrails{}, "src/zz.pth", ""},
		{"a module shadowing pytest", add("pytest/__main__.py", "import sys; sys.exit(0)"), Guardrails{}, "pytest/__main__.py", ""},
		{"a module shadowing pip", add("pip/__main__.py", "import os"), Guardrails{}, "pip/__main__.py", ""},
		{"a file inside node_modules", add("web/node_modules/jest/bin/jest.js", "process.exit(0)"), Guardrails{}, "web/node_modules/jest/bin/jest.js", ""},
		{"package.json posttest hook", edit("web/package.json", `    "test": "jest"`, `    "test": "jest", "posttest": "true"`), Guardrails{}, "web/package.json", `"scripts" key`},
		{"package.json scripts", edit("web/package.json", `    "test": "jest"`, `    "test": "true"`), Guardrails{}, "web/package.json", `"scripts" key`},
		{"package.json jest key added", edit("web/package.json", `  "version": "1.0.0",`, `  "version": "1.0.0", "jest": {"testMatch": []},`), Guardrails{}, "web/package.json", `"jest" key`},
		{"package.json broken around scripts", edit("web/package.json", `    "test": "jest"`, `    "test": "true",,`), Guardrails{}, "web/package.json", `not a JSON object`},
		{"new package.json with scripts", add("api/package.json", `{"scripts": {"test": "true"}}`), Guardrails{}, "api/package.json", `"scripts" key`},
		{"pyproject pytest section", edit("pyproject.toml", `addopts = "-q"`, `addopts = "-q --deselect tests/test_app.py::test_f"`), Guardrails{}, "pyproject.toml", "[tool.pytest.ini_options]"},
		{"pyproject pytest section added", "--- a/pyproject.toml\n+++ b/pyproject.toml\n@@ -3 +3,3 @@\n-version = \"1\"\n+version = \"1\"\n+[tool.pytest]\n+x = 1\n", Guardrails{}, "pyproject.toml", "[tool.pytest]"},
		{"pyproject top-level dotted key", "--- a/pyproject.toml\n+++ b/pyproject.toml\n@@ -1 +1,2 @@\n+tool.pytest.ini_options.addopts = \"-k 'not test_f'\"\n [project]\n", Guardrails{}, "pyproject.toml", "[tool.pytest.ini_options.addopts]"},
		{"pyproject key under [tool]", "--- a/pyproject.toml\n+++ b/pyproject.toml\n@@ -3 +3,3 @@\n version = \"1\"\n+[tool]\n+pytest.ini_options = {addopts = \"-x\"}\n", Guardrails{}, "pyproject.toml", "[tool.pytest.ini_options]"},
		{"setup.cfg pytest section", edit("setup.cfg", "addopts = -q", "addopts = -q -k 'not test_f'"), Guardrails{}, "setup.cfg", "[tool:pytest]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := refusal(t, applyErr(t, configFiles, c.reply, c.g), RuleConfig)
			if r.Path != c.path {
				t.Errorf("refusal path %q, want %q", r.Path, c.path)
			}
			if !strings.Contains(r.Reason, c.msg) {
				t.Errorf("reason %q does not say %q", r.Reason, c.msg)
			}
		})
	}
}

// TestConfigAllowed checks what the config rule lets through: the caller's
// switch admits config edits, and the rest of a shared manifest stays
// editable.
func TestConfigAllowed(t *testing.T) {
	cases := []struct {
		name, reply string
		g           Guardrails
		path, want  string
	}{
		{"allowed by the caller", edit("pytest.ini", "addopts = -q", "addopts = -q -x"), Guardrails{AllowConfigChanges: true}, "pytest.ini", "[pytest]\naddopts = -q -x\n"},
		{"package.json version", edit("web/package.json", `  "version": "1.0.0",`, `  "version": "1.0.1",`), Guardrails{}, "web/package.json",
			"{\n  \"name\": \"web\",\n  \"version\": \"1.0.1\",\n  \"scripts\": {\n    \"test\": \"jest\"\n  }\n}\n"},
		{"pyproject project section", edit("pyproject.toml", `version = "1"`, `version = "2"`), Guardrails{}, "pyproject.toml",
			"[project]\nname = \"x\"\nversion = \"2\"\n\n[tool.pytest.ini_options]\naddopts = \"-q\"\n"},
		{"setup.cfg metadata", edit("setup.cfg", "name = x", "name = y"), Guardrails{}, "setup.cfg", "[metadata]\nname = y\n\n[tool:pytest]\naddopts = -q\n"},
		{"Makefile no plan runs", edit("Makefile", "\tpytest", "\tpytest -q"), Guardrails{}, "Makefile", "test:\n\tpytest -q\n"},
		{"new package.json without scripts", "--- /dev/null\n+++ b/lib/package.json\n@@ -0,0 +1 @@\n+{\"name\": \"lib\"}\n", Guardrails{}, "lib/package.json", "{\"name\": \"lib\"}\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, _ := applyOK(t, configFiles, c.reply, c.g)
			if got[c.path] != c.want {
				t.Errorf("%s = %q, want %q", c.path, got[c.path], c.want)
			}
		})
	}
}

// TestConfigFromProto checks that the caller's switch survives the API.
func TestConfigFromProto(t *testing.T) {
	g, err := GuardrailsFromProto(Guardrails{AllowConfigChanges: true}.Proto())
	must(t, err)
	if !g.AllowConfigChanges {
		t.Error("allow_config_changes lost in conversion")
	}
}
