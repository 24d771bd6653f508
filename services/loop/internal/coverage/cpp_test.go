package coverage

import (
	"os"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/image"
)

// wrapped is the environment of a step that builds through the wrappers.
func wrapped(path string) map[string]string {
	return map[string]string{"PATH": cppCoverageBin + ":" + path, "GCOV_ERROR_FILE": "/tmp/greenlight-coverage-libgcov-errors.log"}
}

// measured is wrapped plus the report the drivers write.
func measured(path, report string) map[string]string {
	env := wrapped(path)
	env[GcovEnv] = report
	return env
}

func TestInstrumentCpp(t *testing.T) {
	const ctestReport = "/tmp/greenlight-coverage-ctest.gcov.json.gz"
	cmake := func() []*glv1.Step {
		return []*glv1.Step{
			{Name: "cmake-configure", Phase: glv1.Phase_PHASE_BUILD, Command: "cmake -S . -B .greenlight-build"},
			{Name: "cmake-build", Phase: glv1.Phase_PHASE_BUILD, Command: "cmake --build .greenlight-build --parallel 2"},
			{Name: "ctest", Phase: glv1.Phase_PHASE_TEST, Command: "ctest --test-dir .greenlight-build --output-on-failure"},
		}
	}
	tests := []struct {
		name  string
		image string
		steps []*glv1.Step
		off   bool
		// env and reports per step, in order; nil env: left as planned.
		wantEnv     []map[string]string
		wantReports [][]string
	}{
		{
			name: "cmake: the builds compile through the wrappers, ctest writes gcov's report", image: image.OfflineCpp,
			steps:       cmake(),
			wantEnv:     []map[string]string{wrapped(cppImagePath), wrapped(cppImagePath), measured(cppImagePath, ctestReport)},
			wantReports: [][]string{nil, nil, {ctestReport}},
		},
		{
			name: "make test compiles in the test step", image: image.OfflineCpp,
			steps: []*glv1.Step{
				{Name: "make-lint", Phase: glv1.Phase_PHASE_LINT, Command: "make lint", Optional: true},
				{Name: "make-test", Phase: glv1.Phase_PHASE_TEST, Command: "make test"},
			},
			wantEnv:     []map[string]string{nil, measured(cppImagePath, "/tmp/greenlight-coverage-make-test.gcov.json.gz")},
			wantReports: [][]string{nil, {"/tmp/greenlight-coverage-make-test.gcov.json.gz"}},
		},
		{
			name: "a CI line through cd, with the step's own PATH kept behind the wrappers", image: image.OfflineCpp,
			steps: []*glv1.Step{
				{Name: "ci:build-and-test", Phase: glv1.Phase_PHASE_TEST, Command: "cd build && make test", Env: map[string]string{"PATH": "/opt/tools/bin:/usr/bin:/bin"}},
			},
			wantEnv:     []map[string]string{measured("/opt/tools/bin:/usr/bin:/bin", "/tmp/greenlight-coverage-ci-build-and-test.gcov.json.gz")},
			wantReports: [][]string{{"/tmp/greenlight-coverage-ci-build-and-test.gcov.json.gz"}},
		},
		{
			name: "install steps keep their environment", image: image.OfflineCpp,
			steps: []*glv1.Step{
				{Name: "deps", Phase: glv1.Phase_PHASE_INSTALL, Command: "make deps", Network: true},
				{Name: "make-check", Phase: glv1.Phase_PHASE_TEST, Command: "make check"},
			},
			wantEnv:     []map[string]string{nil, measured(cppImagePath, "/tmp/greenlight-coverage-make-check.gcov.json.gz")},
			wantReports: [][]string{nil, {"/tmp/greenlight-coverage-make-check.gcov.json.gz"}},
		},
		{
			name: "a test script no wrapped driver runs: nothing to convert, the build stays as planned", image: image.OfflineCpp,
			steps: []*glv1.Step{
				{Name: "make", Phase: glv1.Phase_PHASE_BUILD, Command: "make"},
				{Name: "ci:tests", Phase: glv1.Phase_PHASE_TEST, Command: "cd tests && ./unittest.sh"},
			},
			wantEnv:     []map[string]string{nil, nil},
			wantReports: [][]string{nil, nil},
		},
		{
			name: "a driver called by its path bypasses the wrappers", image: image.OfflineCpp,
			steps:       []*glv1.Step{{Name: "t", Phase: glv1.Phase_PHASE_TEST, Command: "/usr/bin/make test"}},
			wantEnv:     []map[string]string{nil},
			wantReports: [][]string{nil},
		},
		{
			name: "make in a word is not make", image: image.OfflineCpp,
			steps:       []*glv1.Step{{Name: "t", Phase: glv1.Phase_PHASE_TEST, Command: "./automake-tests"}},
			wantEnv:     []map[string]string{nil},
			wantReports: [][]string{nil},
		},
		{
			name: "another C image has no wrappers", image: "gcc:13",
			steps:       cmake(),
			wantEnv:     []map[string]string{nil, nil, nil},
			wantReports: [][]string{nil, nil, nil},
		},
		{
			name: "make test in the Go image is not C", image: image.OfflineGo,
			steps:       []*glv1.Step{{Name: "make-test", Phase: glv1.Phase_PHASE_TEST, Command: "make test"}},
			wantEnv:     []map[string]string{nil},
			wantReports: [][]string{nil},
		},
		{
			name: "coverage.measure: false", image: image.OfflineCpp, off: true,
			steps:       cmake(),
			wantEnv:     []map[string]string{nil, nil, nil},
			wantReports: [][]string{nil, nil, nil},
		},
		{
			name: "the plan's own report setting is left alone", image: image.OfflineCpp,
			steps:       []*glv1.Step{{Name: "ctest", Phase: glv1.Phase_PHASE_TEST, Command: "ctest", Env: map[string]string{GcovEnv: "/tmp/mine.json.gz"}}},
			wantEnv:     []map[string]string{{GcovEnv: "/tmp/mine.json.gz"}},
			wantReports: [][]string{nil},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := &glv1.Pipeline{Image: tt.image, Steps: tt.steps, CoverageOff: tt.off}
			in := proto.Clone(p)
			out := Instrument(p)
			if !proto.Equal(p, in) {
				t.Fatal("Instrument modified its input")
			}
			for i, s := range out.GetSteps() {
				want := tt.wantEnv[i]
				if want == nil {
					want = tt.steps[i].GetEnv()
				}
				if len(s.GetEnv()) != len(want) {
					t.Errorf("%s: env = %v, want %v", s.GetName(), s.GetEnv(), want)
				}
				for k, v := range want {
					if s.GetEnv()[k] != v {
						t.Errorf("%s: env %s = %q, want %q", s.GetName(), k, s.GetEnv()[k], v)
					}
				}
				if strings.Join(s.GetReportFiles(), ",") != strings.Join(tt.wantReports[i], ",") {
					t.Errorf("%s: reports = %v, want %v", s.GetName(), s.GetReportFiles(), tt.wantReports[i])
				}
				if s.GetCommand() != tt.steps[i].GetCommand() {
					t.Errorf("%s: command changed: %q", s.GetName(), s.GetCommand())
				}
			}
			// Idempotent: a pinned plan instrumented again stays the same.
			if again := Instrument(out); !proto.Equal(again, out) {
				t.Errorf("instrumenting twice changed the plan:\n%v\n%v", out, again)
			}
		})
	}
}

// A step whose own image is the C/C++ one is measured in a pipeline whose
// default image is another (a C library beside a Python package).
func TestInstrumentCppStepImage(t *testing.T) {
	p := &glv1.Pipeline{Image: image.OfflinePython, Steps: []*glv1.Step{
		{Name: "native:make", Phase: glv1.Phase_PHASE_BUILD, Command: "make", Image: image.OfflineCpp},
		{Name: "py:build", Phase: glv1.Phase_PHASE_BUILD, Command: "python3 -m compileall -q ."},
		{Name: "native:make-test", Phase: glv1.Phase_PHASE_TEST, Command: "make test", Image: image.OfflineCpp},
	}}
	out := Instrument(p).GetSteps()
	if !strings.HasPrefix(out[0].GetEnv()["PATH"], cppCoverageBin+":") || out[2].GetEnv()[GcovEnv] == "" {
		t.Errorf("C steps not instrumented: %v / %v", out[0].GetEnv(), out[2].GetEnv())
	}
	if len(out[1].GetEnv()) != 0 {
		t.Errorf("the Python build step got %v", out[1].GetEnv())
	}
}

// The constants name what the image recipe installs: the wrappers'
// directory (images/cpp/setup.sh) and the image's PATH (images/cpp/changes).
func TestCppConstantsMatchTheImageRecipe(t *testing.T) {
	setup, err := os.ReadFile("../../../../images/cpp/setup.sh")
	if err != nil {
		t.Fatal(err)
	}
	if dir := strings.TrimSuffix(cppCoverageBin, "/bin"); !strings.Contains(string(setup), "\ndir="+dir+"\n") {
		t.Errorf("images/cpp/setup.sh does not install into %s", dir)
	}
	changes, err := os.ReadFile("../../../../images/cpp/changes")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(changes), "ENV PATH="+cppImagePath+"\n") {
		t.Errorf("images/cpp/changes does not set PATH=%s:\n%s", cppImagePath, changes)
	}
	driver, err := os.ReadFile("../../../../images/cpp/coverage/driver.sh")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(driver), GcovEnv) {
		t.Errorf("images/cpp/coverage/driver.sh does not read %s", GcovEnv)
	}
}
