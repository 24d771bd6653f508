package verdict

import (
	"fmt"
	"io/fs"
	"regexp"
	"strings"

	"google.golang.org/protobuf/proto"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// indexUnreachableMarker is what Python's pip-fallback step prints when
// pip-install failed only because the package index could not be reached
// (services/discovery/internal/command/pyinstall.go).
const indexUnreachableMarker = "greenlight: the package index is unreachable"

// missingModule finds the module a test run could not import; pytest's
// "unrecognized arguments" is what a plugin that was never installed
// (pytest-cov's --cov, say) leaves behind.
// missingMetadata is a distribution that was never installed, asked for
// by name (importlib.metadata.version, pkg_resources): when the project
// itself could not be installed offline (no build backend), its own
// version lookup fails this way, which is the environment's failure too.
var (
	missingModule   = regexp.MustCompile(`No module named '([A-Za-z_][A-Za-z0-9_.]*)'`)
	missingPlugin   = regexp.MustCompile(`error: unrecognized arguments: (\S+)`)
	missingMetadata = regexp.MustCompile(`PackageNotFoundError: (?:No package metadata was found for )?'?([A-Za-z0-9_.-]+)'?|DistributionNotFound: The '([A-Za-z0-9_.-]+)`)
)

// IndexUnreachable reports whether an install step of the run said the
// package index could not be reached (StepInput.IndexUnreachable).
func IndexUnreachable(steps []*glv1.Step, results []*glv1.StepResult) bool {
	for i, s := range steps {
		if i < len(results) && s.GetPhase() == glv1.Phase_PHASE_INSTALL && strings.Contains(results[i].GetTail(), indexUnreachableMarker) {
			return true
		}
	}
	return false
}

// missingDeps turns a required test step that failed only because a
// third-party package could not be installed (the index was unreachable,
// and the tests stopped at importing a module that is not the project's
// own, or at an option of a plugin that was never installed) into an
// ERROR saying so: the code was not shown wrong, the environment could
// not run its tests. Anything else is returned unchanged. The tree (may
// be nil) tells the project's own modules apart.
func missingDeps(in StepInput) *glv1.StepResult {
	s, r, tree := in.Step, in.Result, in.Tree
	if !in.IndexUnreachable || s.GetOptional() || s.GetPhase() != glv1.Phase_PHASE_TEST || r.GetStatus() != glv1.StepStatus_STEP_STATUS_FAILED {
		return r
	}
	var why string
	if m := missingModule.FindStringSubmatch(r.GetTail()); m != nil && !projectModule(tree, s.GetWorkdir(), m[1]) {
		why = fmt.Sprintf("the tests could not import %s", m[1])
	} else if m != nil && generatedModule(tree, s.GetWorkdir(), m[1]) {
		why = fmt.Sprintf("the tests import %s, which is not in the tree: the project's build backend writes it when the project is installed "+
			"(a version file), and the project could not be built offline", m[1])
	} else if m := missingPlugin.FindStringSubmatch(r.GetTail()); m != nil {
		why = fmt.Sprintf("the test runner does not know the option %s (a plugin that could not be installed)", m[1])
	} else if m := missingMetadata.FindStringSubmatch(r.GetTail()); m != nil {
		why = fmt.Sprintf("the tests asked for the installed metadata of %s, which could not be installed", m[1]+m[2])
	}
	if why == "" {
		return r
	}
	out := proto.Clone(r).(*glv1.StepResult)
	out.Status = glv1.StepStatus_STEP_STATUS_ERROR
	out.Reason = "environment: " + why + ", and the package index was unreachable when the dependencies were installed " +
		"(see pip-fallback); " + egressSetting
	return out
}

// generatedModule reports whether module is a submodule of the project's
// own package that the tree does not hold and that the project's build
// writes at install time: its file is named in pyproject.toml, setup.py,
// setup.cfg or .gitignore (hatch-vcs's version-file, setuptools-scm's
// write_to), or it is a version module (_version, version, __version__).
// Any other missing module of the project's own stays a failure of the
// code (an import a change broke).
func generatedModule(tree fs.FS, workdir, module string) bool {
	if tree == nil || !strings.Contains(module, ".") || !projectModule(tree, workdir, module) {
		return false
	}
	rel := strings.ReplaceAll(module, ".", "/")
	base := strings.Trim(workdir, "/")
	if base == "" {
		base = "."
	}
	for _, dir := range []string{base, base + "/src"} {
		for _, p := range []string{dir + "/" + rel + ".py", dir + "/" + rel + "/__init__.py", dir + "/" + rel} {
			if _, err := fs.Stat(tree, strings.TrimPrefix(p, "./")); err == nil {
				return false
			}
		}
	}
	switch rel[strings.LastIndexByte(rel, '/')+1:] {
	case "_version", "version", "__version__":
		return true
	}
	for _, f := range []string{"pyproject.toml", "setup.py", "setup.cfg", ".gitignore"} {
		data, err := fs.ReadFile(tree, strings.TrimPrefix(base+"/"+f, "./"))
		if err == nil && strings.Contains(string(data), rel+".py") {
			return true
		}
	}
	return false
}

// projectModule reports whether module's top-level package is part of the
// project (at the workdir's root or under src/), so a broken import of
// the project's own code stays a failure of the code.
func projectModule(tree fs.FS, workdir, module string) bool {
	if tree == nil {
		return false
	}
	top, _, _ := strings.Cut(module, ".")
	base := strings.Trim(workdir, "/")
	if base == "" || base == "." {
		base = "."
	}
	for _, dir := range []string{base, base + "/src"} {
		for _, p := range []string{dir + "/" + top, dir + "/" + top + ".py"} {
			if _, err := fs.Stat(tree, strings.TrimPrefix(p, "./")); err == nil {
				return true
			}
		}
	}
	return false
}

// unpinnedCheck turns a failed lint or type check that the
// repository's CI requires into an ERROR when the package index was
// unreachable: the tool version the project pins (uv.lock, requirements,
// tox deps) could not be installed, so the image's version ran, and a
// different mypy or ruff finds different things (markupsafe: mypy 1.0 in
// the image, 1.15 locked). Its findings cannot decide the verdict either
// way. A check greenlight.yaml made required stays decisive: the person
// who configured it chose the tool greenlight has.
func unpinnedCheck(in StepInput) *glv1.StepResult {
	s, r := in.Step, in.Result
	if !in.IndexUnreachable || s.GetOptional() || r.GetStatus() != glv1.StepStatus_STEP_STATUS_FAILED {
		return r
	}
	if p := s.GetPhase(); p != glv1.Phase_PHASE_LINT && p != glv1.Phase_PHASE_TYPECHECK {
		return r
	}
	by := ciRequirement(s)
	if by == nil {
		return r
	}
	out := proto.Clone(r).(*glv1.StepResult)
	out.Status = glv1.StepStatus_STEP_STATUS_ERROR
	out.Reason = fmt.Sprintf("environment: the maintainers' CI requires %s (%s:%d), but the package index was unreachable "+
		"(see pip-fallback), so the version the project pins was not installed and the image's ran: its findings cannot decide the verdict; "+
		"%s, or make it advisory (greenlight.yaml `advisory: [%s]`)", s.GetName(), by.GetFile(), by.GetLine(), egressSetting, s.GetName())
	return out
}

// ciRequirement is the CI line that makes a step required: the promotion
// of a discovered check, or the step's own source when CI is where it was
// learned.
func ciRequirement(s *glv1.Step) *glv1.CommandSource {
	if rb := s.GetRequiredBy(); rb != nil {
		if rb.GetOrigin() == ciOrigin {
			return rb
		}
		return nil
	}
	if src := s.GetSource(); src.GetOrigin() == ciOrigin {
		return src
	}
	return nil
}

// ciOrigin is the CommandSource origin of what discovery learned from the
// repository's CI files.
const ciOrigin = "ci"
