package detect

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
)

// devExtras are optional-dependency groups installed for verification.
var devExtras = map[string]bool{"dev": true, "test": true, "tests": true, "testing": true, "lint": true}

// testExtras are the dependency groups (PEP 735) and setup.py extras that
// name tests.
var testExtras = map[string]bool{"dev": true, "test": true, "tests": true, "testing": true}

// notPackages are directories that hold __init__.py but are not the
// project's importable code.
var notPackages = map[string]bool{"tests": true, "test": true, "docs": true, "examples": true, "scripts": true, "benchmarks": true}

func detectPython(v *view, sp *Subproject, nested []string) error {
	info := &PythonInfo{Tools: map[string]Located{}}
	sp.Python = info
	root := sp.Root
	if v.has(root, "pyproject.toml") {
		readPyproject(v, sp, join(root, "pyproject.toml"))
	}
	if v.has(root, "setup.cfg") {
		readSetupCfg(v, sp, join(root, "setup.cfg"))
	}
	if v.has(root, "setup.py") {
		readSetupPy(v, sp, join(root, "setup.py"))
	}
	readRequirements(v, sp)
	if v.has(root, "Pipfile") {
		readPipfile(v, sp, join(root, "Pipfile"))
	}
	if v.has(root, "tox.ini") {
		readTox(v, sp, join(root, "tox.ini"))
	}
	if v.has(root, "noxfile.py") {
		readNox(v, sp, join(root, "noxfile.py"))
	}
	for _, n := range []string{"pytest.ini", ".pytest.ini"} {
		if v.has(root, n) {
			info.Tools["pytest"] = Located{File: join(root, n), Key: "pytest"}
			break
		}
	}
	for _, n := range []string{"ruff.toml", ".ruff.toml"} {
		if v.has(root, n) {
			info.Tools["ruff"] = Located{File: join(root, n), Key: "ruff"}
		}
	}
	for _, n := range []string{"mypy.ini", ".mypy.ini"} {
		if v.has(root, n) {
			info.Tools["mypy"] = Located{File: join(root, n), Key: "mypy"}
		}
	}
	if mf := firstExisting(v, root, makefileNames); mf != "" {
		if data, err := v.read(mf); err == nil {
			mentions(info, data)
		}
	}
	pythonPackageManager(v, sp)
	sp.Versions = append(sp.Versions, fileVersion(v, root, ".python-version", "python")...)
	sp.Versions = append(sp.Versions, toolVersions(v, root, "python", "python")...)
	pythonLayout(v, sp, nested)
	pythonFrameworks(v, sp, nested)
	decideProjectInstall(sp)
	if t := info.toxTest; t != nil {
		info.Doctests = toxDoctests(t, info.Packages, info.SrcLayout)
	}
	return nil
}

// readPyproject reads PEP 621 metadata, Poetry metadata and tool sections.
func readPyproject(v *view, sp *Subproject, file string) {
	info := sp.Python
	data, err := v.read(file)
	if err != nil {
		sp.Problems = append(sp.Problems, Problem{File: file, Msg: fmt.Sprintf("not read: %v", err)})
		return
	}
	var doc map[string]any
	if _, err := toml.Decode(string(data), &doc); err != nil {
		info.Invalid = true
		sp.Problems = append(sp.Problems, tomlProblem(file, err))
		return
	}
	project := table(doc, "project")
	poetry := table(table(doc, "tool"), "poetry")
	info.HasProject = project != nil
	info.BuildSystem = table(doc, "build-system") != nil
	info.BuildBackend = str(table(doc, "build-system"), "build-backend")
	readDependencyGroups(info, doc)
	mentions(info, data)
	info.Name = str(project, "name")
	if info.Name == "" {
		info.Name = str(poetry, "name")
	}
	if rp := str(project, "requires-python"); rp != "" {
		sp.Versions = append(sp.Versions, VersionHint{Tool: "python", Version: rp, Source: file + ":project.requires-python"})
	}
	if py := str(table(poetry, "dependencies"), "python"); py != "" {
		sp.Versions = append(sp.Versions, VersionHint{Tool: "python", Version: py, Source: file + ":tool.poetry.dependencies.python"})
	}
	if deps, _ := project["dependencies"].([]any); len(deps) > 0 {
		info.HasDeps = true
	}
	for group := range table(project, "optional-dependencies") {
		if devExtras[group] {
			info.Extras = append(info.Extras, group)
			info.HasDeps = true
		}
	}
	sort.Strings(info.Extras)
	if info.HasDeps {
		info.Pyproject = file
	}
	if len(table(poetry, "dependencies")) > 1 || len(table(poetry, "group")) > 0 {
		info.HasDeps = true
	}
	addScripts(info, table(project, "scripts"), file, "project.scripts", data)
	addScripts(info, table(poetry, "scripts"), file, "tool.poetry.scripts", data)
	tool := table(doc, "tool")
	if _, ok := table(tool, "pytest")["ini_options"]; ok {
		info.Tools["pytest"] = Located{File: file, Key: "tool.pytest.ini_options", Line: tomlLine(data, "tool.pytest.ini_options")}
	}
	if _, ok := tool["ruff"]; ok {
		info.Tools["ruff"] = Located{File: file, Key: "tool.ruff", Line: tomlLine(data, "tool.ruff")}
	}
	if m, ok := tool["mypy"]; ok {
		info.Tools["mypy"] = Located{File: file, Key: "tool.mypy", Line: tomlLine(data, "tool.mypy")}
		if mm, _ := m.(map[string]any); mm["files"] != nil {
			info.MypyFiles = true
		}
	}
	for _, other := range []string{"pylint", "black", "flake8", "isort"} {
		if _, ok := tool[other]; ok {
			sp.Linters = appendUnique(sp.Linters, other)
		}
	}
	if _, ok := tool["poetry"]; ok {
		sp.PackageManager = "poetry"
	}
}

// addScripts records console scripts "name = module:function".
func addScripts(info *PythonInfo, scripts map[string]any, file, key string, data []byte) {
	for _, name := range sortedKeys(scripts) {
		target, _ := scripts[name].(string)
		mod, fn, ok := strings.Cut(target, ":")
		if !ok {
			continue
		}
		line := tomlLine(data, key)
		info.Scripts = append(info.Scripts, EntryPoint{Name: name, Module: strings.TrimSpace(mod), Func: strings.TrimSpace(fn),
			Source: Located{File: file, Key: key + "." + name, Line: line}})
	}
}

// readSetupCfg reads setuptools metadata and tool sections.
func readSetupCfg(v *view, sp *Subproject, file string) {
	info := sp.Python
	data, err := v.read(file)
	if err != nil {
		return
	}
	s := parseINI(data)
	if info.Name == "" && s["metadata"] != nil {
		info.Name = s["metadata"].Keys["name"].Value
	}
	if o := s["options"]; o != nil && len(iniList(o.Keys["install_requires"].Value)) > 0 {
		info.HasDeps = true
	}
	if ep := s["options.entry_points"]; ep != nil {
		k := ep.Keys["console_scripts"]
		for _, item := range iniList(k.Value) {
			name, target, ok := strings.Cut(item, "=")
			mod, fn, ok2 := strings.Cut(target, ":")
			if ok && ok2 {
				info.Scripts = append(info.Scripts, EntryPoint{Name: strings.TrimSpace(name), Module: strings.TrimSpace(mod),
					Func: strings.TrimSpace(fn), Source: Located{File: file, Key: "options.entry_points.console_scripts", Line: k.Line}})
			}
		}
	}
	if sec := s["tool:pytest"]; sec != nil {
		setTool(info, "pytest", Located{File: file, Key: "tool:pytest", Line: sec.Line})
	}
	if sec := s["mypy"]; sec != nil {
		setTool(info, "mypy", Located{File: file, Key: "mypy", Line: sec.Line})
		if _, ok := sec.Keys["files"]; ok {
			info.MypyFiles = true
		}
	}
	if s["flake8"] != nil {
		sp.Linters = appendUnique(sp.Linters, "flake8")
	}
	if ex := s["options.extras_require"]; ex != nil {
		for k := range ex.Keys {
			if testExtras[k] {
				info.Extras = appendUnique(info.Extras, k)
			}
		}
		sort.Strings(info.Extras)
	}
	mentions(info, data)
}

// mentions records which test runners a project file names.
func mentions(info *PythonInfo, data []byte) {
	if bytes.Contains(data, []byte("unittest")) {
		info.MentionsUnittest = true
	}
	if bytes.Contains(data, []byte("pytest")) {
		info.MentionsPytest = true
	}
}

// readTox lists tox environments (whitelisted at tier2: tox builds its own
// virtualenvs, which usually needs the network).
func readTox(v *view, sp *Subproject, file string) {
	info := sp.Python
	data, err := v.read(file)
	if err != nil {
		return
	}
	s := parseINI(data)
	seen := map[string]bool{}
	if tox := s["tox"]; tox != nil {
		k := tox.Keys["envlist"]
		if k.Value == "" {
			k = tox.Keys["env_list"] // tox 4's spelling
		}
		for _, env := range toxEnvList(k.Value) {
			if !seen[env] {
				seen[env] = true
				info.ToxEnvs = append(info.ToxEnvs, Named{Name: env, Source: Located{File: file, Key: "tox.envlist", Line: k.Line}})
			}
		}
	}
	for _, name := range sortedKeys(s) {
		envs, ok := strings.CutPrefix(name, "testenv:")
		if !ok {
			continue
		}
		for _, env := range toxEnvList(envs) {
			if !seen[env] {
				seen[env] = true
				info.ToxEnvs = append(info.ToxEnvs, Named{Name: env, Source: Located{File: file, Key: name, Line: s[name].Line}})
			}
		}
	}
	if env := s["testenv"]; env != nil {
		cd := env.Keys["changedir"].Value
		info.toxTest = &toxTest{commands: env.Keys["commands"].Value,
			loc:         Located{File: file, Key: "testenv.commands", Line: env.Keys["commands"].Line},
			changedirOK: cd == "" || cd == "{toxinidir}" || cd == "{tox_root}"}
		if info.toxTest.commands == "" {
			info.toxTest = nil
		}
		info.ToxDeps = toxDeps(env.Keys["deps"].Value)
		if len(info.ToxDeps) > 0 {
			info.HasDeps = true
		}
	}
	if sec := s["pytest"]; sec != nil {
		setTool(info, "pytest", Located{File: file, Key: "pytest", Line: sec.Line})
	}
	if s["flake8"] != nil {
		sp.Linters = appendUnique(sp.Linters, "flake8")
	}
	mentions(info, data)
}

var (
	noxDecorator = regexp.MustCompile(`^\s*@nox\.session\b(.*)$`)
	noxDef       = regexp.MustCompile(`^\s*def\s+([A-Za-z_]\w*)\s*\(`)
	noxName      = regexp.MustCompile(`name\s*=\s*["']([\w.\-]+)["']`)
)

// readNox finds @nox.session functions (name= overrides the function name).
func readNox(v *view, sp *Subproject, file string) {
	data, err := v.read(file)
	if err != nil {
		return
	}
	lines := strings.Split(string(data), "\n")
	for i := 0; i < len(lines); i++ {
		m := noxDecorator.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		name := ""
		if n := noxName.FindStringSubmatch(m[1]); n != nil {
			name = n[1]
		}
		for j := i + 1; j < len(lines) && j < i+10 && name == ""; j++ {
			if d := noxDef.FindStringSubmatch(lines[j]); d != nil {
				name = d[1]
			}
		}
		if name != "" {
			sp.Python.Nox = append(sp.Python.Nox, Named{Name: name, Source: Located{File: file, Key: "nox.session", Line: i + 1}})
		}
	}
	mentions(sp.Python, data)
}

// readRequirements lists requirement files in the root and its
// requirements/ directory.
func readRequirements(v *view, sp *Subproject) {
	info := sp.Python
	for _, dir := range []string{sp.Root, join(sp.Root, "requirements")} {
		for _, base := range sortedKeys(v.dirs[dir]) {
			if !isRequirements(base) && !(dir != sp.Root && strings.HasSuffix(base, ".txt")) || auxiliaryRequirement(base) {
				continue
			}
			name := join(dir, base)
			data, err := v.read(name)
			if err != nil {
				continue
			}
			info.Requirements = append(info.Requirements, name)
			info.LockFiles = append(info.LockFiles, name)
			if requirementLines(data) > 0 {
				info.HasDeps = true
			}
			if bytes.Contains(bytes.ToLower(data), []byte("pytest")) {
				setTool(info, "pytest", Located{File: name, Key: "pytest"})
			}
		}
	}
}

// requirementLines counts non-comment lines.
func requirementLines(data []byte) int {
	n := 0
	for _, l := range strings.Split(string(data), "\n") {
		l = strings.TrimSpace(l)
		if l != "" && !strings.HasPrefix(l, "#") {
			n++
		}
	}
	return n
}

// readPipfile reads Pipenv's TOML manifest.
func readPipfile(v *view, sp *Subproject, file string) {
	data, err := v.read(file)
	if err != nil {
		return
	}
	var doc map[string]any
	if _, err := toml.Decode(string(data), &doc); err != nil {
		sp.Problems = append(sp.Problems, tomlProblem(file, err))
		return
	}
	if len(table(doc, "packages"))+len(table(doc, "dev-packages")) > 0 {
		sp.Python.HasDeps = true
	}
	if pv := str(table(doc, "requires"), "python_version"); pv != "" {
		sp.Versions = append(sp.Versions, VersionHint{Tool: "python", Version: pv, Source: file + ":requires.python_version"})
	}
}

// pythonPackageManager picks the tool by lockfile first, then manifest.
func pythonPackageManager(v *view, sp *Subproject) {
	info, root := sp.Python, sp.Root
	switch {
	case v.has(root, "uv.lock"):
		sp.PackageManager = "uv"
		info.LockFiles = append([]string{join(root, "uv.lock")}, info.LockFiles...)
	case v.has(root, "poetry.lock"):
		sp.PackageManager = "poetry"
		info.LockFiles = append([]string{join(root, "poetry.lock")}, info.LockFiles...)
	case sp.PackageManager == "poetry":
	case v.has(root, "Pipfile.lock") || v.has(root, "Pipfile"):
		sp.PackageManager = "pipenv"
		if v.has(root, "Pipfile.lock") {
			info.LockFiles = append([]string{join(root, "Pipfile.lock")}, info.LockFiles...)
		}
	default:
		sp.PackageManager = "pip"
	}
	if info.Pyproject != "" || (sp.PackageManager != "pip" && v.has(root, "pyproject.toml")) {
		info.LockFiles = append(info.LockFiles, join(root, "pyproject.toml"))
	}
	for _, l := range info.LockFiles {
		if !contains(sp.Markers, l) {
			sp.Markers = append(sp.Markers, l)
		}
	}
}

// pythonLayout finds importable packages and the tests directory.
func pythonLayout(v *view, sp *Subproject, nested []string) {
	info, root := sp.Python, sp.Root
	for _, base := range []string{"src", "."} {
		dir := root
		if base == "src" {
			dir = join(root, "src")
		}
		for _, f := range v.files {
			d, b := splitPath(f)
			if b != "__init__.py" {
				continue
			}
			parent, pkg := splitPath(d)
			if parent != dir || notPackages[pkg] || !validIdent(pkg) || isNestedRoot(d, root, nested) {
				continue
			}
			info.Packages = appendUnique(info.Packages, pkg)
			if base == "src" {
				info.SrcLayout = true
			}
		}
		if len(info.Packages) > 0 {
			break
		}
	}
	if len(info.Packages) == 0 && info.Name != "" {
		mod := strings.ReplaceAll(strings.ToLower(info.Name), "-", "_")
		if v.has(root, mod+".py") {
			info.Packages = []string{mod}
		}
	}
	for _, t := range []string{"tests", "test"} {
		dir := join(root, t)
		if len(v.dirs[dir]) > 0 || hasSubdir(v, dir) {
			info.TestsDir = t
			info.TestsDirIsPackage = v.has(dir, "__init__.py")
			break
		}
	}
}

// pythonFrameworks decides between pytest and unittest and sets HasTests.
// pytest when the project uses it (configuration, conftest.py, pytest in
// its dependencies or tool files); unittest discovery when its files name
// only unittest (more-itertools' Makefile and tox.ini, tomli's
// [tool.tox]); pytest otherwise, since it also runs unittest.TestCase
// classes while unittest silently skips plain test functions. Test files
// are not read: discovery keeps only manifests' content.
func pythonFrameworks(v *view, sp *Subproject, nested []string) {
	info := sp.Python
	conftest := false
	testDirs := map[string]bool{}
	for _, f := range v.under(sp.Root, nested) {
		b := path.Base(f)
		switch {
		case b == "conftest.py":
			conftest = true
		case strings.HasSuffix(b, ".py") && (strings.HasPrefix(b, "test_") || strings.HasSuffix(b, "_test.py")):
			sp.HasTests = true
			testDirs[path.Dir(f)] = true
		case info.TestsDir != "" && within(join(sp.Root, info.TestsDir), f) && strings.HasPrefix(b, "test") && strings.HasSuffix(b, ".py"):
			sp.HasTests = true
		}
	}
	unittestStart(v, sp, testDirs)
	_, pytestConfigured := info.Tools["pytest"]
	switch {
	case pytestConfigured || conftest || info.MentionsPytest:
		if sp.HasTests || pytestConfigured || conftest {
			sp.TestFrameworks = []string{"pytest"}
		}
	case sp.HasTests && info.MentionsUnittest:
		sp.TestFrameworks = []string{"unittest"}
	case sp.HasTests:
		sp.TestFrameworks = []string{"pytest"}
	}
	for _, t := range []string{"ruff", "mypy"} {
		if _, ok := info.Tools[t]; ok {
			sp.Linters = appendUnique(sp.Linters, t)
		}
	}
	sort.Strings(sp.Linters)
}

// isNestedRoot reports whether dir belongs to a nested subproject.
func isNestedRoot(dir, root string, nested []string) bool {
	for _, n := range nested {
		if n != root && within(root, n) && within(n, dir) {
			return true
		}
	}
	return false
}

func hasSubdir(v *view, dir string) bool {
	for d := range v.dirs {
		if strings.HasPrefix(d, dir+"/") {
			return true
		}
	}
	return false
}

func setTool(info *PythonInfo, tool string, loc Located) {
	if _, ok := info.Tools[tool]; !ok {
		info.Tools[tool] = loc
	}
}

var identRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func validIdent(s string) bool { return identRe.MatchString(s) }

// tomlLine finds the line of a [table] header (or [table.sub]); 0 when the
// table is written inline or as dotted keys.
func tomlLine(data []byte, table string) int {
	re := regexp.MustCompile(`^\s*\[\s*` + regexp.QuoteMeta(table) + `\s*[\].]`)
	for i, l := range strings.Split(string(data), "\n") {
		if re.MatchString(l) {
			return i + 1
		}
	}
	return 0
}

// tomlProblem extracts the line of a TOML parse error.
func tomlProblem(file string, err error) Problem {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		return Problem{File: file, Line: pe.Position.Line, Msg: "invalid TOML: " + pe.Message}
	}
	return Problem{File: file, Msg: "invalid TOML: " + err.Error()}
}

func table(m map[string]any, key string) map[string]any {
	t, _ := m[key].(map[string]any)
	return t
}

func str(m map[string]any, key string) string {
	s, _ := m[key].(string)
	return s
}

func firstExisting(v *view, dir string, names []string) string {
	for _, n := range names {
		if v.has(dir, n) {
			return join(dir, n)
		}
	}
	return ""
}

func appendUnique(list []string, s string) []string {
	if contains(list, s) {
		return list
	}
	return append(list, s)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// unittestStart makes the one directory that holds every test file the
// start of unittest's discovery when it is no package and no tests
// directory was found: discovery from the root does not enter a directory
// without __init__.py, so typing_extensions' src/test_typing_extensions.py
// ran 0 tests (its CI runs them from src/).
func unittestStart(v *view, sp *Subproject, testDirs map[string]bool) {
	info := sp.Python
	if info.TestsDir != "" || len(testDirs) != 1 {
		return
	}
	for dir := range testDirs {
		rel := strings.TrimPrefix(strings.TrimPrefix(dir, sp.Root), "/")
		if sp.Root == "." {
			rel = dir
		}
		if rel == "" || rel == "." || v.has(dir, "__init__.py") {
			return
		}
		info.TestsDir, info.TestsDirIsPackage = rel, false
	}
}
