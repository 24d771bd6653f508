package toolchain

// Pack is one toolchain: its facts and the three things every service asks
// of it.
type Pack interface {
	// Spec returns the pack's declarative facts. It is called often: return
	// a value built once.
	Spec() *Spec
	// Detect fills p (whose Root is set) from the project's files. A file
	// that cannot be parsed is a Problem, never an error: detection goes on.
	Detect(t Tree, p *Project)
	// Commands returns the default commands of a detected project.
	Commands(p *Project) []Command
	// NewParser returns a parser of what the toolchain's test runner prints,
	// reporting to r; nil when the pack has none.
	NewParser(r Recorder) LineParser
}

// Narrower is a pack that can re-run only some tests of a step.
type Narrower interface {
	// Narrow returns the command that runs exactly the named tests (as the
	// pack's parser named them), or false when it cannot.
	Narrow(names []string) (string, bool)
}

// EnvDiagnoser is a pack that recognises, in a failed step's log, a cause
// that is the environment's and not the code's (a toolchain too old for the
// project, say).
type EnvDiagnoser interface {
	// DiagnoseEnv returns a one-line reason naming the cause and the remedy
	// when the log shows such a failure; image is the step's image.
	DiagnoseEnv(log, image string) (reason string, ok bool)
}

// Spec is what a pack declares about its toolchain.
type Spec struct {
	// Name is the canonical runtime name ("rust"); Aliases are other
	// spellings a configuration may use ("cargo").
	Name    string
	Aliases []string
	// Order sorts subprojects sharing a root: the lowest is the primary one
	// (it owns that directory's Makefile).
	Order int
	// Manifests are the base names that mark a project root ("Cargo.toml").
	Manifests []string
	// NestedModules says a root of this runtime nested in another one is
	// built from the outer one (Cargo workspace members).
	NestedModules bool
	// ContentFiles are the base names whose contents detection reads.
	ContentFiles []string

	Image Image

	// InstallFiles are base names that change what an install produces
	// (manifests, lockfiles, toolchain pins): they key the dependency cache.
	InstallFiles []string
	// ConfigFiles are directory-qualified install configuration files
	// (".cargo/config.toml"), also cache keys.
	ConfigFiles []string
	// OutputDirs are directories a build writes next to a manifest
	// ("target"): never part of a workspace snapshot.
	OutputDirs []string
	// Lockfiles may not be edited by a repair patch unless allowed.
	Lockfiles []string
	// DependencyManifests are TOML manifests that declare dependencies in
	// DependencySections (table-name prefixes): a patch that changes those
	// is refused unless lockfile edits are allowed.
	DependencyManifests []string
	DependencySections  []string

	Words Words

	// SourceExts are the extensions of the toolchain's source files (".rs");
	// DefinitionPattern matches a source line that defines a function, its
	// name in group 1 (locating a failure in the function a test calls).
	SourceExts        []string
	DefinitionPattern string
	// LibraryPaths are path fragments of frames outside the project
	// (registry sources, the toolchain's own sources).
	LibraryPaths []string
	// Format names the pack parser's results ("cargo"); Rank breaks ties
	// between parsers that recognised the same log (lower wins).
	Format string
	Rank   int
}

// Image is a toolchain's sandbox image.
type Image struct {
	// Offline is the image `make images` builds (no registry needed).
	Offline string
	// Upstream is the public image a connected user may configure instead;
	// "" when there is none.
	Upstream string
	// Tools are the commands the image provides that other images do not
	// ("cargo", "rustc"): a step whose log says one was not found ran in
	// the wrong image.
	Tools []string
}

// Words are command prefixes (after splitting a shell line at &&, || and
// ;) that classify a step's phase.
type Words struct {
	Install  []string
	Test     []string
	Lint     []string
	Security []string
	Build    []string
	// Publish commands are never run: the CI step is skipped with a reason.
	Publish []string
	// OfflineTest are test commands that need nothing beyond what the
	// install step put in place (no network).
	OfflineTest []string
	// VersionKeys are CI matrix keys and setup-action inputs that name the
	// toolchain's version ("rust", "toolchain").
	VersionKeys []string
	// SubcommandTools are programs whose first argument is a subcommand
	// ("cargo" in "cargo test"): CI steps are keyed on both.
	SubcommandTools []string
}
