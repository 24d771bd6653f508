package coverage

import (
	"regexp"
	"slices"
	"strings"

	"google.golang.org/protobuf/proto"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/image"
	"github.com/greenlight-dev/greenlight/pkg/pylaunch"
)

// cppImage is greenlight's offline C/C++ image, the one with the coverage
// wrappers.
const cppImage = image.OfflineCpp

// reportPrefix starts the coverage files' paths in the sandbox: /tmp,
// private to the step, collected after it, and always there. Not
// discovery's report directory, which only its own wrappers create: a
// command run as given (a CI line, a narrowed `go test -run`) would have
// go test fail on a profile it cannot create.
const reportPrefix = "/tmp/greenlight-coverage-"

// Report file suffixes: how the loop tells a coverage report from a test
// report among a step's report files.
const (
	goSuffix   = ".coverprofile"
	lcovSuffix = ".lcov"
	// v8Suffix is the pattern of a NODE_V8_COVERAGE directory's files.
	v8Suffix = ".v8/*.json"
	// gcovSuffix is gcov's JSON as the C/C++ image's gcov-report writes it.
	gcovSuffix = ".gcov.json.gz"
)

// IsReport reports whether a step's report file is a coverage report.
func IsReport(p string) bool {
	return strings.HasSuffix(p, goSuffix) || strings.HasSuffix(p, lcovSuffix) || IsV8(p) || IsGcov(p)
}

// IsGcov reports whether a report file is gcov's JSON (C/C++).
func IsGcov(p string) bool { return strings.HasSuffix(p, gcovSuffix) }

// IsV8 reports whether a report file pattern names Node's V8 coverage.
func IsV8(p string) bool { return strings.HasSuffix(p, v8Suffix) }

// IsGo reports whether a report file is a Go coverage profile.
func IsGo(p string) bool { return strings.HasSuffix(p, goSuffix) }

// goTest finds a `go test` invocation in a shell command.
var goTest = regexp.MustCompile(`(^|[\s;&|({])go\s+test(\s|$)`)

// nodeRunner finds a command that runs Node: a package manager or a test
// runner started through it, or node itself.
var nodeRunner = regexp.MustCompile(`(^|[\s;&|({/])(npm|npx|yarn|pnpm|node|jest|mocha|vitest|ava|tap)(\s|$)`)

// unsafeName is what a report file name may not hold.
var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

// Instrument returns p with coverage collection added to its test steps,
// through the environment only so the command runs exactly as planned:
//
//   - a step running `go test` gets -coverprofile in GOFLAGS (the go
//     command applies a GOFLAGS flag only to the subcommands that know it,
//     so go build and go vet in the same line are unaffected, and a
//     -coverprofile on the command line still wins);
//   - a pytest step the launcher runs in greenlight's Python image (which
//     ships coverage.py) gets GREENLIGHT_COVERAGE_LCOV: the launcher
//     measures with coverage.py and writes an LCOV report, unless the
//     project's own pytest-cov is active (then its settings, e.g.
//     --cov-fail-under, stay exactly as in its CI and nothing is measured);
//   - a step in greenlight's C/C++ image that runs make, ctest, cmake or
//     ninja gets the image's coverage wrappers first on PATH and
//     GREENLIGHT_COVERAGE_GCOV (see cpp.go): gcc compiles with
//     --coverage, and the driver writes gcov's JSON when it ends; the
//     image's build steps then get the compiler wrappers too;
//   - a step that runs Node (npm, yarn, pnpm, node, a test runner) gets
//     NODE_V8_COVERAGE, Node's own coverage (no package needed): every
//     Node process the step starts writes its V8 coverage there on exit.
//
// Steps already instrumented are left as they are; p is not modified.
func Instrument(p *glv1.Pipeline) *glv1.Pipeline {
	if p == nil {
		return nil
	}
	if p.GetCoverageOff() {
		return p // greenlight.yaml's coverage.measure: false
	}
	out := proto.Clone(p).(*glv1.Pipeline)
	cpp := false
	for _, s := range out.GetSteps() {
		if s.GetPhase() != glv1.Phase_PHASE_TEST {
			continue
		}
		base := reportPrefix + strings.Trim(unsafeName.ReplaceAllString(s.GetName(), "-"), ".-")
		img := stepImage(out, s)
		switch {
		case goTest.MatchString(s.GetCommand()):
			addReport(s, base+goSuffix, "GOFLAGS", "-coverprofile="+base+goSuffix)
		case isPytest(s.GetCommand()) && img == image.OfflinePython:
			// The launcher measures with coverage.py itself (pylaunch's
			// launcher.py): no pytest option the project's own pytest-cov
			// configuration could clash with.
			addReport(s, base+lcovSuffix, pylaunch.CoverageEnv, base+lcovSuffix)
		case isCppTest(s, img):
			report := base + gcovSuffix
			if own, set := s.GetEnv()[GcovEnv]; set && own != report {
				continue // the plan's own setting is left alone
			}
			cpp = true
			useCppWrappers(s)
			s.Env[GcovEnv] = report
			if !slices.Contains(s.GetReportFiles(), report) {
				s.ReportFiles = append(s.ReportFiles, report)
			}
		case nodeRunner.MatchString(s.GetCommand()):
			if _, set := s.GetEnv()["NODE_V8_COVERAGE"]; !set {
				addReport(s, base+v8Suffix, "NODE_V8_COVERAGE", base+strings.TrimSuffix(v8Suffix, "/*.json"))
			}
		}
	}
	if cpp {
		instrumentCppBuilds(out)
	}
	return out
}

// isPytest reports whether a command runs pytest through the launcher.
func isPytest(cmd string) bool {
	f, ok := pylaunch.Find(cmd)
	return ok && f.Tool == "pytest"
}

// addReport adds the coverage report file and appends flags to the
// environment variable env; false when the step already has the report.
func addReport(s *glv1.Step, report, env, flags string) bool {
	if slices.Contains(s.GetReportFiles(), report) {
		return false
	}
	s.ReportFiles = append(s.ReportFiles, report)
	if s.Env == nil {
		s.Env = map[string]string{}
	}
	s.Env[env] = strings.TrimSpace(s.Env[env] + " " + flags)
	return true
}

// ForNarrowedRun removes from a test step narrowed to a few tests (a
// fail-fast probe, a flaky re-run) the coverage Instrument added where it
// only costs: coverage.py's tracing under pytest (it slows the tests and
// its import alone takes ~40 ms) and Node's V8 coverage files. Nobody reads
// a narrowed run's coverage. Go's -coverprofile stays: the probe's
// instrumented compile is what the whole go test step reuses from the
// build cache when the probe passes. The step is modified in place.
func ForNarrowedRun(s *glv1.Step) {
	if s.GetEnv() == nil {
		return
	}
	delete(s.Env, pylaunch.CoverageEnv)
	if strings.HasPrefix(s.Env["NODE_V8_COVERAGE"], reportPrefix) {
		delete(s.Env, "NODE_V8_COVERAGE")
	}
}
