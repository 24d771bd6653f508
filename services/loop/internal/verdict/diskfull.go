package verdict

import (
	"fmt"
	"regexp"
	"strings"

	"google.golang.org/protobuf/proto"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
)

// RuleDiskFull: a step failed because a size-capped mount of the sandbox
// was full. A CI runner has a disk of many gigabytes; the sandbox's /tmp,
// home directory (where the tools keep their caches) and workspace are
// tmpfs mounts with caps, so a large module cache or build tree can fill
// one where CI had room. The code was not judged: ERROR, naming the mount
// and the setting that raises its cap.
const RuleDiskFull = "disk-full"

// noSpaceSignatures are how ENOSPC reads in the tools' output: the C
// library's and Go's strerror ("No space left on device", from dd, gcc,
// ld, make, Go, Rust's "(os error 28)", Java's IOException), Node's error
// code (npm's "ENOSPC: no space left on device", node:test's "code:
// 'ENOSPC'"), Python's "OSError: [Errno 28]".
var noSpaceSignatures = regexp.MustCompile(`(?i)no space left on device|\bENOSPC\b|\[Errno 28\]`)

// sandboxMount is one size-capped mount of the sandbox (the executor's
// layout, services/executor/internal/sandbox/hardening.go) and the
// executor setting that raises its cap.
type sandboxMount struct {
	path, what, flag string
}

// sandboxMounts are the sandbox's writable mounts, each a tmpfs whose cap
// the executor fits under the memory limit.
var sandboxMounts = []sandboxMount{
	{"/home/sandbox", "the home directory /home/sandbox (the tools' caches)", "--home-size"},
	{"/workspace", "the workspace /workspace", "--workspace"},
	{"/tmp", "/tmp", "--tmpfs"},
}

// absPath finds absolute paths in a line: a "/" at the start of the line
// or after a space, quote, parenthesis, "=" or ",", not the "//" of a URL.
var absPath = regexp.MustCompile(`(?:^|[\s'"(=,])(/[^/\s'":,)][^\s'":,)]*)`)

// diskFull makes a failed required step an ERROR of the environment when
// its output says a device had no space left and no test failed for
// another reason: every failed test's message says so too, or no test
// failed (a build, an install or a lint stopped on it). Tests that failed
// on their own assertions keep the step FAILED: the code is wrong whatever
// else happened.
func diskFull(in StepInput) *glv1.StepResult {
	s, r, rep := in.Step, in.Result, in.Report
	if r.GetStatus() != glv1.StepStatus_STEP_STATUS_FAILED || s.GetOptional() {
		return r
	}
	line := noSpaceLine(r.GetTail(), rep)
	if line == "" || !onlyNoSpaceFailures(rep) {
		return r
	}
	out := proto.Clone(r).(*glv1.StepResult)
	out.Status = glv1.StepStatus_STEP_STATUS_ERROR
	out.Rule = RuleDiskFull
	out.Reason = diskFullReason(line)
	return out
}

// diskFullReason names the mount the line shows full and the setting that
// raises its cap, or every mount's when the line shows no path of one.
func diskFullReason(line string) string {
	const budget = ", within the memory limit (--memory; greenlight.yaml `limits: memory:`) that every tmpfs cap fits under"
	quote := matchingLine(line, noSpaceSignatures)
	if m, ok := mountOf(line); ok {
		return fmt.Sprintf("environment: no space left on %s, a size-capped tmpfs where a CI runner has a disk (%q); "+
			"no test failed otherwise. Raise its cap: the executor's %s (%s)%s", m.what, quote, m.flag, envName(m.flag), budget)
	}
	return fmt.Sprintf("environment: no space left on a size-capped tmpfs of the sandbox where a CI runner has a disk (%q); "+
		"no test failed otherwise. Raise the caps: the executor's --home-size (the tools' caches), --workspace, --tmpfs%s", quote, budget)
}

// noSpaceLine returns the first line of the step's output (its parsed
// failures' messages, decoded from a JSON report, then its tail) that says
// a device had no space left, whole: the path of the mount may be far from
// the message.
func noSpaceLine(tail string, rep *parse.StepReport) string {
	var texts []string
	if rep != nil {
		for _, f := range rep.Failures {
			texts = append(texts, f.Message)
		}
	}
	texts = append(texts, tail)
	for _, text := range texts {
		loc := noSpaceSignatures.FindStringIndex(text)
		if loc == nil {
			continue
		}
		start := strings.LastIndexByte(text[:loc[0]], '\n') + 1
		end := len(text)
		if i := strings.IndexByte(text[loc[1]:], '\n'); i >= 0 {
			end = loc[1] + i
		}
		return strings.TrimSpace(text[start:end])
	}
	return ""
}

// mountOf finds the sandbox mount a no-space line names: the last path of
// a mount before the message (Go's and the assembler's "write PATH: no
// space left"), else the first after it (Python's "[Errno 28] No space
// left on device: 'PATH'").
func mountOf(line string) (sandboxMount, bool) {
	loc := noSpaceSignatures.FindStringIndex(line)
	if loc == nil {
		return sandboxMount{}, false
	}
	var before, after []sandboxMount
	for _, m := range absPath.FindAllStringSubmatchIndex(line, -1) {
		mnt, ok := mountFor(line[m[2]:m[3]])
		switch {
		case !ok:
		case m[2] < loc[0]:
			before = append(before, mnt)
		default:
			after = append(after, mnt)
		}
	}
	switch {
	case len(before) > 0:
		return before[len(before)-1], true
	case len(after) > 0:
		return after[0], true
	}
	return sandboxMount{}, false
}

// mountFor returns the sandbox mount holding an absolute path.
func mountFor(p string) (sandboxMount, bool) {
	for _, m := range sandboxMounts {
		if p == m.path || strings.HasPrefix(p, m.path+"/") {
			return m, true
		}
	}
	return sandboxMount{}, false
}

// onlyNoSpaceFailures reports whether every failed test of the report
// failed on a device with no space left (true when no test failed: a
// build, install or lint step, a compile error of a test package).
// Failures without a test (compiler or installer diagnostics) do not
// count: with the disk full they are its consequences as often as not.
// Tests counted as failed but not listed keep the step FAILED: one of
// them may have failed on its assertion.
func onlyNoSpaceFailures(rep *parse.StepReport) bool {
	if rep == nil {
		return true
	}
	_, seen, all := testFailures(rep, noSpaceSignatures)
	if !all {
		return false
	}
	if rep.Counts.Failed > 0 && (seen == 0 || rep.FailuresOmitted > 0) {
		return false
	}
	return true
}

// envName is the executor's environment variable of a flag
// (--home-size: GREENLIGHT_EXECUTOR_HOME_SIZE).
func envName(flag string) string {
	return "GREENLIGHT_EXECUTOR_" + strings.ToUpper(strings.ReplaceAll(strings.TrimPrefix(flag, "--"), "-", "_"))
}
