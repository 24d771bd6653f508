package patch

import (
	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"

	"encoding/json"
	"path"
	"reflect"
	"slices"
	"strings"
)

// configGlobs are the paths that decide how a workspace is verified:
// greenlight's own config and the files discovery reads instead of it,
// CI definitions, and test-runner configuration. A patch that edits one
// can change which checks run, so it is refused unless the caller's
// options allow config changes (Guardrails.AllowConfigChanges). The repair
// loop pins its plan from the baseline snapshot anyway; this rule also
// covers what a pinned command reads from the patched tree (conftest.py,
// pytest.ini, jest.config.js…).
var configGlobs = []string{
	// greenlight and the configs discovery falls back to.
	"**/greenlight.{yaml,yml}", "**/.greenlight.{yaml,yml}", "**/agent.{yaml,yml}", "**/runr.config.json",
	// CI.
	".github/workflows/**", ".github/actions/**", "**/.gitlab-ci.yml", ".gitlab-ci/**", ".circleci/**",
	"**/azure-pipelines.{yml,yaml}", "**/Jenkinsfile", "**/.travis.yml", "**/bitbucket-pipelines.yml",
	".buildkite/**", ".woodpecker.{yml,yaml}", ".woodpecker/**", ".drone.{yml,yaml}",
	// Python test runners.
	"**/pytest.ini", "**/.pytest.ini", "**/conftest.py", "**/tox.ini", "**/noxfile.py",
	// JavaScript test runners.
	"**/jest.config.*", "**/jest.setup.*", "**/vitest.config.*", "**/vitest.workspace.*", "**/vite.config.*",
	"**/.mocharc*", "**/karma.conf.*", "**/ava.config.*", "**/playwright.config.*", "**/cypress.config.*",
	// Go workspaces choose which modules `go test` builds.
	"**/go.work",
	// Files that change what a pinned command runs without naming a test:
	// npm/yarn settings (script-shell) and Python start-up hooks.
	"**/.npmrc", "**/.yarnrc", "**/.yarnrc.yml", "**/sitecustomize.py", "**/usercustomize.py", "**/.coveragerc",
	// Python path hooks run code at every interpreter start.
	"**/*.pth",
	// Modules named like the tools greenlight runs, which a workspace on
	// sys.path would put in their place; node's and npm's hook points.
	"**/pytest.py", "**/pytest/**", "**/_pytest/**", "**/pluggy/**", "**/pluggy.py", "**/pip/**", "**/pip.py",
	"**/setuptools/**", "**/unittest/**", "**/unittest.py", "**/site.py",
	"**/.pnpmfile.cjs", "**/.node-options", "**/.nvmrc", "**/.node-version", "**/.python-version", "**/.tool-versions",
	// Installed dependencies: a patch may not write into them.
	"**/node_modules/**", "**/.venv/**", "**/venv/**", "**/site-packages/**",
}

// isConfigPath reports whether a workspace path is verification config,
// by name or because the caller listed it (Guardrails.ConfigPaths).
func isConfigPath(p string, extra []string) bool {
	for _, g := range configGlobs {
		if match(g, p) {
			return true
		}
	}
	for _, e := range extra {
		if path.Clean(e) == p {
			return true
		}
	}
	return false
}

// checkConfig refuses, unless config changes are allowed, a patch that
// adds, edits, deletes or renames a verification config file.
func checkConfig(p *Patch, g Guardrails) *Refusal {
	if g.AllowConfigChanges {
		return nil
	}
	for _, f := range p.Files {
		for _, name := range f.Paths() {
			if isConfigPath(name, g.ConfigPaths) {
				return refuse(RuleConfig, name, "%s; fix the code, not the checks", configHint)
			}
		}
	}
	return nil
}

// configHint explains the config rule to the model and the caller.
const configHint = "verification configuration (greenlight/CI/test-runner config) may not be changed by a patch: " +
	"it decides which checks run (the caller can allow it with allow_config_changes)"

// checkConfigContent refuses, unless config changes are allowed, a change
// of the keys or sections of a shared manifest that decide what a test
// command does: package.json's scripts/jest/vitest/mocha, the pytest/tox
// sections of pyproject.toml and setup.cfg. old and new are the file's
// content before and after (nil when it did not or will not exist).
func checkConfigContent(name string, old, new []byte, g Guardrails) *Refusal {
	if g.AllowConfigChanges {
		return nil
	}
	var changed string
	switch path.Base(name) {
	case "package.json":
		changed = changedJSONKeys(old, new, packageJSONKeys)
	case "pyproject.toml":
		changed = changedSections(old, new, pyprojectSections)
	case "setup.cfg":
		changed = changedSections(old, new, setupCfgSections)
	case "setup.py":
		changed = changedHookLines(old, new)
	}
	if changed == "" {
		return nil
	}
	return refuse(RuleConfig, name, "changes %s, which decides what the test command runs: %s", changed, configHint)
}

// The keys and sections watched by checkConfigContent.
var (
	// package.json: scripts (with their pre/post hooks), runner config,
	// and what npm runs or links at install (bin, workspaces, overrides).
	packageJSONKeys = []string{"scripts", "jest", "vitest", "mocha", "ava", "c8", "nyc", "tap", "bin",
		"workspaces", "overrides", "resolutions", "pnpm", "config", "husky"}
	// pyproject.toml: runner config and entry points (a pytest11 entry point
	// of the project itself loads a plugin into every pytest run).
	pyprojectSections = []string{"tool.pytest", "tool.tox", "tool.hatch.envs", "tool.poe", "tool.nox", "tool.coverage",
		"project.entry-points", "project.scripts", "tool.poetry.plugins", "tool.poetry.scripts", "tool.setuptools.cmdclass",
		"build-system"}
	setupCfgSections = []string{"tool:pytest", "pytest", "tox", "testenv", "coverage:", "options.entry_points", "options.cmdclass"}
)

// setupHooks matches the setup.py keywords through which installing the
// project registers or runs code beyond the package itself: entry points
// (pytest11 plugins), custom commands, build-time requirements.
var setupHooks = lazyregexp.New(`\b(entry_points|pytest11|cmdclass|setup_requires|tests_require|test_suite|distclass|ext_modules)\b`)

// changedHookLines names the setup.py hook keyword a change adds or
// removes ("" when none): the lines mentioning one must be the same
// before and after.
func changedHookLines(old, new []byte) string {
	pick := func(b []byte) []string {
		var out []string
		for _, line := range strings.Split(string(b), "\n") {
			if m := setupHooks.FindString(line); m != "" {
				out = append(out, strings.TrimSpace(line))
			}
		}
		return out
	}
	a, b := pick(old), pick(new)
	if slices.Equal(a, b) {
		return ""
	}
	for _, l := range append(b, a...) {
		if !slices.Contains(a, l) || !slices.Contains(b, l) {
			return "the setup() argument " + setupHooks.FindString(l)
		}
	}
	return "the setup() entry points"
}

// isKeyedConfig reports whether a path is a manifest whose watched keys
// are checked against the tree (checkConfigContent).
func isKeyedConfig(name string) bool {
	switch path.Base(name) {
	case "package.json", "pyproject.toml", "setup.cfg", "setup.py":
		return true
	}
	return false
}

// sectionName returns the name of an INI/TOML section header line
// ("[tool.pytest.ini_options]" → "tool.pytest.ini_options"), or "".
func sectionName(line string) string {
	t := strings.TrimSpace(line)
	if !strings.HasPrefix(t, "[") {
		return ""
	}
	t = strings.Trim(strings.SplitN(t, "]", 2)[0]+"]", "[] \t")
	return strings.Trim(t, `"'`)
}

// watchedSection reports whether a section name is, or is below, one of
// the watched prefixes.
func watchedSection(name string, watched []string) bool {
	for _, w := range watched {
		if strings.HasSuffix(w, ":") && strings.HasPrefix(name, w) {
			return true
		}
		if name == w || strings.HasPrefix(name, w+".") || strings.HasPrefix(name, w+":") {
			return true
		}
	}
	return false
}

// sectionBodies collects the text of the watched sections of an INI or
// TOML file, by section name: the lines of a watched section, and key
// lines whose dotted path is watched wherever they are (TOML allows
// `tool.pytest.ini_options.addopts = ...` at the top or under [tool]).
func sectionBodies(b []byte, watched []string) map[string]string {
	out := map[string]string{}
	section := ""
	// open is the watched key whose multi-line array or table value is
	// still open, and depth how many brackets it has left open.
	open, depth := "", 0
	for _, line := range strings.Split(string(b), "\n") {
		if depth > 0 {
			out[open] += strings.TrimSpace(line) + "\n"
			depth += bracketDepth(line)
			continue
		}
		if name := sectionName(line); name != "" {
			section = name
			if watchedSection(name, watched) {
				out[name] += "\n" // a header alone counts as present
			}
			continue
		}
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, ";") {
			continue
		}
		if watchedSection(section, watched) {
			out[section] += t + "\n"
			continue
		}
		if key, _, ok := strings.Cut(t, "="); ok {
			full := strings.Trim(strings.TrimSpace(key), `"'`)
			if section != "" {
				full = section + "." + full
			}
			if watchedSection(full, watched) {
				out[full] += t + "\n"
				if d := bracketDepth(t); d > 0 {
					open, depth = full, d
				}
			}
		}
	}
	return out
}

// bracketDepth is how many brackets or braces a line opens and does not
// close (strings and comments are not told apart: a rough count that can
// only make more lines count as the key's).
func bracketDepth(line string) int {
	return strings.Count(line, "[") + strings.Count(line, "{") - strings.Count(line, "]") - strings.Count(line, "}")
}

// changedSections names the first watched section whose content differs
// between old and new ("" when none does). Comments and blank lines do not
// count.
func changedSections(old, new []byte, watched []string) string {
	a, b := sectionBodies(old, watched), sectionBodies(new, watched)
	for name, body := range a {
		if b[name] != body {
			return "the [" + name + "] section"
		}
	}
	for name := range b {
		if _, ok := a[name]; !ok {
			return "the [" + name + "] section"
		}
	}
	return ""
}

// changedJSONKeys names the first watched top-level key whose value
// differs between two JSON documents ("" when none does). A new document
// that is not a JSON object cannot be compared and counts as a change of
// the first watched key it mentions (the runner would fail on it anyway).
func changedJSONKeys(old, new []byte, watched []string) string {
	a, _ := jsonObject(old)
	b, err := jsonObject(new)
	if err != nil {
		for _, k := range watched {
			if strings.Contains(string(new), `"`+k+`"`) {
				return `the "` + k + `" key (the file is not a JSON object after the patch)`
			}
		}
		return ""
	}
	for _, k := range watched {
		if !reflect.DeepEqual(a[k], b[k]) {
			return `the "` + k + `" key`
		}
	}
	return ""
}

// jsonObject decodes a JSON object; empty content is an empty object.
func jsonObject(b []byte) (map[string]any, error) {
	out := map[string]any{}
	if len(strings.TrimSpace(string(b))) == 0 {
		return out, nil
	}
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, err
	}
	return out, nil
}
