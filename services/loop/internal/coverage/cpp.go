package coverage

import (
	"regexp"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// C/C++ coverage in greenlight's offline C/C++ image (images/cpp/setup.sh
// installs the tools): gcc must compile and link with --coverage, and gcov
// must turn the counters the tests left (.gcda, next to the objects in the
// sandbox) into a report. Both go through wrappers the image keeps off its
// PATH: the compiler names in cppCoverageBin add --coverage and nothing
// else (a project's CFLAGS, CC and Makefile `CFLAGS ?=` defaults stay as
// they are; an environment CFLAGS would replace them), and the build
// drivers there (make, ctest, cmake, ninja) write gcov's JSON to
// GcovEnv's file when the outermost of them ends, keeping its exit
// status. Only the environment changes: PATH with the wrappers first, for
// the build steps and the measured test steps.
const (
	// cppCoverageBin holds the wrappers in the C/C++ image.
	cppCoverageBin = "/opt/greenlight/coverage/bin"
	// cppImagePath is the C/C++ image's own PATH (images/cpp/changes):
	// a step's PATH replaces the image's in the sandbox rather than
	// adding to it, so the wrappers go in front of it.
	cppImagePath = "/home/sandbox/.local/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
	// GcovEnv names the report file the image's driver wrappers write
	// gcov's JSON to; unset, they only run the real program.
	GcovEnv = "GREENLIGHT_COVERAGE_GCOV"
	// gcovErrorEnv is libgcov's own setting for where the instrumented
	// programs write its messages (a profile it cannot merge, say): a
	// file in /tmp rather than the tests' stderr, which a suite may
	// compare with an expected output.
	gcovErrorEnv  = "GCOV_ERROR_FILE"
	gcovErrorFile = reportPrefix + "libgcov-errors.log"
)

// cDriver finds a build or test driver the wrappers replace, called by
// its name (a driver called by its path, /usr/bin/make, bypasses them).
var cDriver = regexp.MustCompile(`(^|[\s;&|({])(make|ctest|cmake|ninja)(\s|$)`)

// isCppTest reports whether a test step can be measured with gcov: it
// runs in greenlight's C/C++ image and through a wrapped driver.
func isCppTest(s *glv1.Step, img string) bool {
	return img == cppImage && cDriver.MatchString(s.GetCommand())
}

// useCppWrappers puts the wrappers first on the step's PATH (its own, or
// the image's) and sends libgcov's messages to a file; idempotent.
func useCppWrappers(s *glv1.Step) {
	if s.Env == nil {
		s.Env = map[string]string{}
	}
	p := s.Env["PATH"]
	if p == "" {
		p = cppImagePath
	}
	if !strings.HasPrefix(p, cppCoverageBin+":") {
		p = cppCoverageBin + ":" + p
	}
	s.Env["PATH"] = p
	if _, set := s.Env[gcovErrorEnv]; !set {
		s.Env[gcovErrorEnv] = gcovErrorFile
	}
}

// instrumentCppBuilds gives the build steps that run in the C/C++ image
// the compiler wrappers, so what the measured test steps run was compiled
// with --coverage.
func instrumentCppBuilds(p *glv1.Pipeline) {
	for _, s := range p.GetSteps() {
		if s.GetPhase() == glv1.Phase_PHASE_BUILD && stepImage(p, s) == cppImage {
			useCppWrappers(s)
		}
	}
}

// stepImage is the image a step runs in.
func stepImage(p *glv1.Pipeline, s *glv1.Step) string {
	if img := s.GetImage(); img != "" {
		return img
	}
	return p.GetImage()
}
