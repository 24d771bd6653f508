package verdict

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	"google.golang.org/protobuf/proto"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/image"
	"github.com/greenlight-dev/greenlight/pkg/pylaunch"
)

// shellExitNotFound is the exit status /bin/sh gives a command it cannot find.
const shellExitNotFound = 127

// envAssign is a leading "NAME=value" word of a shell command.
var envAssign = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)

// stepProgram returns the program a step's command runs first and, for
// "python -m MODULE", the module (which is then the step's real tool).
//
// The interpreter's flags before -m (-P, -I, -B, ...) are skipped, and
// greenlight's launcher (pylaunch), which runs the tool it names as
// `python -m` would, counts as `python -m TOOL`.
func stepProgram(command string) (program, module string) {
	words := strings.Fields(command)
	for len(words) > 0 && envAssign.MatchString(words[0]) {
		words = words[1:]
	}
	if len(words) == 0 {
		return "", ""
	}
	program = words[0]
	if !isPython(path.Base(program)) {
		return program, ""
	}
	if f, ok := pylaunch.Find(command); ok && f.Python == program && onlyAssignments(command[:f.Start]) {
		return program, f.Tool
	}
	rest := words[1:]
	for len(rest) > 0 && interpreterFlag.MatchString(rest[0]) {
		rest = rest[1:]
	}
	if len(rest) > 1 && rest[0] == "-m" {
		module = rest[1]
	}
	return program, module
}

// onlyAssignments reports whether s holds nothing but NAME=value words.
func onlyAssignments(s string) bool {
	for _, w := range strings.Fields(s) {
		if !envAssign.MatchString(w) {
			return false
		}
	}
	return true
}

// interpreterFlag is a Python option that takes no value (-P, -I, -u, -BP).
var interpreterFlag = regexp.MustCompile(`^-[bBdEhiIOPqsSuvx]+$`)

var pythonName = regexp.MustCompile(`^python[0-9.]*$`)

func isPython(base string) bool { return pythonName.MatchString(base) }

// missingTool names the tool a failed step could not find in its image:
// only the step's own program counts (the shell's "not found" for the first
// word with exit 127, or the interpreter's "No module named" for "python -m
// MODULE"), so a script that exits 127 because something it calls is
// missing is a genuine failure, not a missing tool.
func missingTool(s *glv1.Step, r *glv1.StepResult) (string, bool) {
	if r.GetStatus() != glv1.StepStatus_STEP_STATUS_FAILED {
		return "", false
	}
	program, module := stepProgram(s.GetCommand())
	if program == "" {
		return "", false
	}
	tail := r.GetTail()
	if module != "" {
		re := regexp.MustCompile(`(?m)^\S*python[0-9.]*: No module named ` + regexp.QuoteMeta(module) + `\s*$`)
		if r.GetExitCode() == 1 && re.MatchString(tail) {
			return module, true
		}
	}
	if path.Base(program) == "make" {
		return makeMissingTool(r)
	}
	if r.GetExitCode() != shellExitNotFound {
		return "", false
	}
	// dash: "/bin/sh: 1: ruff: not found"; bash as sh: "sh: line 1: ruff:
	// command not found" or "sh: ruff: command not found".
	re := regexp.MustCompile(`(?m)^(?:\S*/)?(?:sh|bash|dash): (?:(?:line )?1: )?` + regexp.QuoteMeta(program) + `: (?:command )?not found\s*$`)
	if re.MatchString(tail) {
		return program, true
	}
	return "", false
}

// makeExitError is make's exit status when a recipe failed.
const makeExitError = 2

var (
	// make runs a simple recipe line itself: "make: clang-tidy: No such
	// file or directory", or through the shell: "/bin/sh: 1: cmake: not
	// found"; then "make: *** [Makefile:28: lint] Error 127".
	reMakeNoSuchFile = regexp.MustCompile(`(?m)^make(?:\[\d+\])?: ([^\s:]+): No such file or directory\s*$`)
	reMakeShNotFound = regexp.MustCompile(`(?m)^(?:\S*/)?(?:sh|bash|dash): (?:(?:line )?\d+: )?([^\s:]+): (?:command )?not found\s*$`)
	reMakeError127   = regexp.MustCompile(`(?m)^make(?:\[\d+\])?: \*\*\* \[[^\]]*\] Error 127\s*$`)
)

// makeMissingTool names the program a make target's recipe could not find
// (jsmn's `make lint` runs clang-tidy): the target is that tool's check, so
// its absence is the same as a missing step program.
func makeMissingTool(r *glv1.StepResult) (string, bool) {
	tail := r.GetTail()
	if r.GetExitCode() != makeExitError || !reMakeError127.MatchString(tail) {
		return "", false
	}
	for _, re := range []*regexp.Regexp{reMakeNoSuchFile, reMakeShNotFound} {
		if m := re.FindStringSubmatch(tail); m != nil {
			return m[1], true
		}
	}
	return "", false
}

// toolUnavailable turns a step that failed only because its tool is not
// in the image into what it is: an advisory step is SKIPPED (it checks
// nothing the maintainers require), a required one is an ERROR (the
// verification could not be carried out) that says how to add the tool.
// Any other result is returned unchanged.
func toolUnavailable(in StepInput) *glv1.StepResult {
	s, r := in.Step, in.Result
	tool, ok := missingTool(s, r)
	if !ok {
		return r
	}
	img := r.GetImage()
	if img == "" {
		img = s.GetImage()
	}
	out := proto.Clone(r).(*glv1.StepResult)
	reason := fmt.Sprintf("tool not available in %s: %s", img, tool)
	if s.GetOptional() || r.GetOptional() {
		out.Status, out.Reason = glv1.StepStatus_STEP_STATUS_SKIPPED, reason
		return out
	}
	out.Status = glv1.StepStatus_STEP_STATUS_ERROR
	out.Reason = reason + "; this step is required: use an image that has " + tool +
		" (greenlight.yaml `images: {RUNTIME: IMAGE}`, from the server's allow-list) or " + addTool(img)
	return out
}

// addTool says how to add a tool to an image: for an offline image, its
// recipe and the command that rebuilds just it.
func addTool(img string) string {
	if rt, ok := image.OfflineRuntime(img); ok {
		return fmt.Sprintf("add it to images/%s/packages and rebuild with `%s`", rt, image.BuildCommand(rt))
	}
	return "add it to the sandbox image"
}
