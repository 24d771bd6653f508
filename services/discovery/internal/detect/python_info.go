package detect

// Located is a key in a file, for CommandSource.
type Located struct {
	File string
	Key  string
	Line int
}

// EntryPoint is a console script: name = "module:function".
type EntryPoint struct {
	Name   string
	Module string
	Func   string
	Source Located
}

// Named is a named thing in a file (a tox env, a nox session).
type Named struct {
	Name   string
	Source Located
}

// PythonInfo holds what command extraction needs about a Python project.
type PythonInfo struct {
	// Name is the distribution name (project.name, tool.poetry.name,
	// metadata.name).
	Name string
	// Requirements are root-level requirement files (workspace-relative).
	Requirements []string
	// Pyproject is the workspace-relative pyproject.toml when it declares
	// dependencies installable with pip ("pip install -e .").
	Pyproject string
	// HasDeps is true when anything declares third-party dependencies.
	HasDeps bool
	// Extras are optional-dependency groups worth installing for
	// verification (dev, test, tests, testing, lint).
	Extras []string
	// Packages are importable top-level packages (directories with
	// __init__.py in the root or in src/).
	Packages []string
	// SrcLayout is true when packages live in src/.
	SrcLayout bool
	Scripts   []EntryPoint
	ToxEnvs   []Named
	// Doctests are the doctest options and targets tox's test command
	// passes pytest (nil when it passes none).
	Doctests *Doctests
	toxTest  *toxTest
	Nox      []Named
	// Tools maps "pytest", "ruff", "mypy" to where they are configured.
	Tools map[string]Located
	// MypyFiles is true when mypy's config names the files to check.
	MypyFiles bool
	// TestsDir is "tests" or "test" when such a directory exists.
	TestsDir string
	// TestsDirIsPackage is true when TestsDir holds __init__.py.
	TestsDirIsPackage bool
	// LockFiles key the dependency cache (workspace-relative).
	LockFiles []string
	// MentionsUnittest is true when the project's own Makefile, tox.ini,
	// noxfile, setup.cfg or pyproject.toml run "unittest".
	MentionsUnittest bool
	// Invalid is true when pyproject.toml could not be parsed.
	Invalid bool
	// ProjectFile is the pyproject.toml or setup.py through which pip
	// installs the project itself, with Extras ("" when it is not
	// installed; see decideProjectInstall).
	ProjectFile string
	// HasProject and BuildSystem: pyproject.toml has a [project] table, a
	// [build-system] table.
	HasProject, BuildSystem bool
	// Groups are the PEP 735 dependency groups that name tests; GroupDeps
	// their flattened requirement strings.
	Groups, GroupDeps []string
	// MentionsPytest is true when the project's dependencies or tool
	// files name pytest: it decides pytest over unittest discovery.
	MentionsPytest bool
	// BuildBackend is pyproject.toml's build-system.build-backend
	// ("flit_core.buildapi"); "" when not declared.
	BuildBackend string
	// ToxDeps are the plain requirement strings of tox.ini's [testenv]
	// deps (factor-conditional lines and substitutions left out).
	ToxDeps []string
}
