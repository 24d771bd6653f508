package cisource

import (
	"fmt"
	"strings"
)

// knownActions says what greenlight does instead of each common GitHub
// action a CI job uses: the sandbox already provides it, or it only
// reports, caches or publishes (nothing the verdict needs). Keys are the
// action without its version ("actions/checkout"); a key ending in "/"
// covers an owner's family. An action not here is named as unknown: its
// work is not checked, and the note says so.
var knownActions = map[string]string{
	"actions/checkout":                       "the workspace is already a checkout (a git repository whose commit is the snapshot)",
	"actions/setup-go":                       "the Go image's toolchain runs the steps",
	"actions/setup-python":                   "the Python image's interpreter runs the steps",
	"actions/setup-node":                     "the Node image runs the steps (Node 22, or Debian's 18 for projects whose CI tests only old Node)",
	"actions/setup-java":                     "the Java image's JDK runs the steps",
	"actions/setup-dotnet":                   "no .NET image: its steps are not run",
	"dtolnay/rust-toolchain":                 "the Rust image's toolchain runs the steps",
	"actions-rs/toolchain":                   "the Rust image's toolchain runs the steps",
	"actions-rust-lang/setup-rust-toolchain": "the Rust image's toolchain runs the steps",
	"pnpm/action-setup":                      "pnpm is in the Node image",
	"astral-sh/setup-uv":                     "uv is not in the Python image: installs use pip",
	"gradle/actions/":                        "the Java image's Gradle runs the build",
	"gradle/gradle-build-action":             "the Java image's Gradle runs the build",
	"actions/cache":                          "greenlight keeps its own dependency cache",
	"actions/cache/":                         "greenlight keeps its own dependency cache",
	"Swatinem/rust-cache":                    "greenlight keeps its own dependency cache",
	"actions/upload-artifact":                "publishing artifacts: greenlight stores its own (logs, reports)",
	"actions/download-artifact":              "artifacts of another job: not available",
	"codecov/codecov-action":                 "uploads coverage: a report, not a check",
	"coverallsapp/github-action":             "uploads coverage: a report, not a check",
	"actions/github-script":                  "scripts GitHub's API: nothing to verify",
	"actions/upload-pages-artifact":          "publishing docs: not a check",
	"actions/deploy-pages":                   "publishing docs: not a check",
	"softprops/action-gh-release":            "publishing a release: not a check",
	"pypa/gh-action-pypi-publish":            "publishing to PyPI: not a check",
	"docker/":                                "builds or pushes container images: not run in the sandbox",
	"github/codeql-action/":                  "CodeQL analysis: not run (greenlight's own lint and typecheck steps run)",
	"golangci/golangci-lint-action":          "runs golangci-lint: greenlight lints with go vet (golangci-lint is not in the Go image)",
	"pre-commit/action":                      "runs pre-commit hooks: greenlight runs the linters it finds as their own steps",
	"ruby/setup-ruby":                        "no Ruby image: its steps are not run",
	"msys2/setup-msys2":                      "Windows toolchain: not run",
	"ilammy/msvc-dev-cmd":                    "Windows toolchain: not run",
	"lukka/get-cmake":                        "the C/C++ image's CMake runs the build",
	"jwlawson/actions-setup-cmake":           "the C/C++ image's CMake runs the build",
	"egor-tensin/setup-gcc":                  "the C/C++ image's gcc runs the build",
	"egor-tensin/setup-clang":                "the C/C++ image's clang runs the build",
	"seanmiddleditch/gha-setup-ninja":        "the C/C++ image's ninja runs the build",
	"ljharb/actions/":                        "ljharb's Node test matrix: the Node image runs `npm test`",
	"step-security/harden-runner":            "hardens the runner: the sandbox is hardened on its own",
}

// actionNote says, in one line, what greenlight does instead of an action.
func actionNote(action string) string {
	if what, ok := knownActions[action]; ok {
		return what
	}
	for key, what := range knownActions {
		if strings.HasSuffix(key, "/") && strings.HasPrefix(action, key) {
			return what
		}
	}
	if strings.HasPrefix(action, "./") {
		return "a local action of the repository: not run, its work is not checked"
	}
	return "unknown to greenlight: not run, its work is not checked"
}

// actionNotes are the notes for the actions a workflow uses, one per
// action: what the sandbox does instead, or that its work is not checked.
func actionNotes(file string, uses []string) []string {
	notes := make([]string, 0, len(uses))
	for _, u := range uses {
		notes = append(notes, fmt.Sprintf("%s: uses %s: %s", file, u, actionNote(u)))
	}
	return notes
}
