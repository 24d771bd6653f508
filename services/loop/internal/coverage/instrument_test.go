package coverage

import (
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/image"
	"github.com/greenlight-dev/greenlight/pkg/pylaunch"
)

func TestInstrument(t *testing.T) {
	pytest := pylaunch.Tool(".venv/bin/python", "pytest") + " -rA"
	tests := []struct {
		name       string
		step       *glv1.Step
		image      string
		wantReport string
		wantEnv    map[string]string
	}{
		{
			name:       "go test gets -coverprofile in GOFLAGS",
			step:       &glv1.Step{Name: "go-test", Phase: glv1.Phase_PHASE_TEST, Command: "go test -json ./..."},
			wantReport: "/tmp/greenlight-coverage-go-test.coverprofile",
			wantEnv:    map[string]string{"GOFLAGS": "-coverprofile=/tmp/greenlight-coverage-go-test.coverprofile"},
		},
		{
			name:       "GOFLAGS of the plan is kept",
			step:       &glv1.Step{Name: "web:go test", Phase: glv1.Phase_PHASE_TEST, Command: "cd x && go test ./...", Env: map[string]string{"GOFLAGS": "-mod=vendor"}},
			wantReport: "/tmp/greenlight-coverage-web-go-test.coverprofile",
			wantEnv:    map[string]string{"GOFLAGS": "-mod=vendor -coverprofile=/tmp/greenlight-coverage-web-go-test.coverprofile"},
		},
		{
			name:    "go build is not a test step",
			step:    &glv1.Step{Name: "go-build", Phase: glv1.Phase_PHASE_BUILD, Command: "go build ./..."},
			wantEnv: map[string]string{},
		},
		{
			name:    "a test step that only mentions go test in a word",
			step:    &glv1.Step{Name: "t", Phase: glv1.Phase_PHASE_TEST, Command: "cargo test --features nogo test"},
			wantEnv: map[string]string{},
		},
		{
			name: "pytest in greenlight's Python image", image: image.OfflinePython,
			step:       &glv1.Step{Name: "pytest", Phase: glv1.Phase_PHASE_TEST, Command: pytest},
			wantReport: "/tmp/greenlight-coverage-pytest.lcov",
			// No pytest option: the launcher measures (a project's own
			// pytest-cov settings must run as in its CI).
			wantEnv: map[string]string{"GREENLIGHT_COVERAGE_LCOV": "/tmp/greenlight-coverage-pytest.lcov"},
		},
		{
			name:       "npm test gets NODE_V8_COVERAGE",
			step:       &glv1.Step{Name: "npm-test", Phase: glv1.Phase_PHASE_TEST, Command: "npm test"},
			wantReport: "/tmp/greenlight-coverage-npm-test.v8/*.json",
			wantEnv:    map[string]string{"NODE_V8_COVERAGE": "/tmp/greenlight-coverage-npm-test.v8"},
		},
		{
			name:       "a runner through node_modules/.bin",
			step:       &glv1.Step{Name: "jest", Phase: glv1.Phase_PHASE_TEST, Command: "node_modules/.bin/jest --ci"},
			wantReport: "/tmp/greenlight-coverage-jest.v8/*.json",
			wantEnv:    map[string]string{"NODE_V8_COVERAGE": "/tmp/greenlight-coverage-jest.v8"},
		},
		{
			name:    "the plan's own NODE_V8_COVERAGE is left alone",
			step:    &glv1.Step{Name: "npm-test", Phase: glv1.Phase_PHASE_TEST, Command: "npm test", Env: map[string]string{"NODE_V8_COVERAGE": "cov"}},
			wantEnv: map[string]string{"NODE_V8_COVERAGE": "cov"},
		},
		{
			name: "pytest in another image: pytest-cov may be missing", image: "python:3.12",
			step:    &glv1.Step{Name: "pytest", Phase: glv1.Phase_PHASE_TEST, Command: pytest},
			wantEnv: map[string]string{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := &glv1.Pipeline{Image: tt.image, Steps: []*glv1.Step{tt.step}}
			out := Instrument(p)
			s := out.GetSteps()[0]
			if len(tt.step.GetReportFiles()) != 0 {
				t.Fatal("Instrument modified its input")
			}
			var reports []string
			for _, r := range s.GetReportFiles() {
				if IsReport(r) {
					reports = append(reports, r)
				}
			}
			switch {
			case tt.wantReport == "" && len(reports) != 0:
				t.Fatalf("reports = %v, want none", reports)
			case tt.wantReport != "" && (len(reports) != 1 || reports[0] != tt.wantReport):
				t.Fatalf("reports = %v, want [%s]", reports, tt.wantReport)
			}
			for k, v := range tt.wantEnv {
				if s.GetEnv()[k] != v {
					t.Errorf("env %s = %q, want %q", k, s.GetEnv()[k], v)
				}
			}
			if len(s.GetEnv()) != len(tt.wantEnv) {
				t.Errorf("env = %v, want %v", s.GetEnv(), tt.wantEnv)
			}
			if s.GetCommand() != tt.step.GetCommand() {
				t.Errorf("command changed: %q", s.GetCommand())
			}
			// Idempotent: a pinned plan instrumented again stays the same.
			again := Instrument(out).GetSteps()[0]
			if len(again.GetReportFiles()) != len(s.GetReportFiles()) || again.GetEnv()["GOFLAGS"] != s.GetEnv()["GOFLAGS"] ||
				again.GetEnv()["GREENLIGHT_COVERAGE_LCOV"] != s.GetEnv()["GREENLIGHT_COVERAGE_LCOV"] {
				t.Errorf("instrumenting twice changed the step: %v", again)
			}
		})
	}
}

// greenlight.yaml's coverage.measure: false (Pipeline.coverage_off) leaves
// every step as discovery planned it.
func TestInstrumentOff(t *testing.T) {
	p := &glv1.Pipeline{CoverageOff: true, Steps: []*glv1.Step{{Name: "go-test", Phase: glv1.Phase_PHASE_TEST, Command: "go test ./..."}}}
	s := Instrument(p).GetSteps()[0]
	if len(s.GetReportFiles()) != 0 || len(s.GetEnv()) != 0 {
		t.Errorf("coverage_off still instrumented the step: %v", s)
	}
}

// A narrowed run keeps Go's coverage (its compile is reused) and drops
// coverage.py's and Node's, and a Node setting of the project's own.
func TestForNarrowedRun(t *testing.T) {
	py := &glv1.Step{Env: map[string]string{pylaunch.CoverageEnv: "/tmp/greenlight-coverage-pytest.lcov", "X": "1"}}
	ForNarrowedRun(py)
	if _, ok := py.Env[pylaunch.CoverageEnv]; ok || py.Env["X"] != "1" {
		t.Errorf("pytest step env after ForNarrowedRun: %v", py.Env)
	}
	node := &glv1.Step{Env: map[string]string{"NODE_V8_COVERAGE": "/tmp/greenlight-coverage-npm-test.v8"}}
	ForNarrowedRun(node)
	if _, ok := node.Env["NODE_V8_COVERAGE"]; ok {
		t.Errorf("greenlight's V8 coverage kept: %v", node.Env)
	}
	own := &glv1.Step{Env: map[string]string{"NODE_V8_COVERAGE": "coverage/tmp"}}
	ForNarrowedRun(own)
	if own.Env["NODE_V8_COVERAGE"] != "coverage/tmp" {
		t.Errorf("the project's own V8 coverage setting was removed: %v", own.Env)
	}
	gostep := &glv1.Step{Env: map[string]string{"GOFLAGS": "-coverprofile=/tmp/greenlight-coverage-go-test.coverprofile"}}
	ForNarrowedRun(gostep)
	if gostep.Env["GOFLAGS"] == "" {
		t.Errorf("Go's coverage was removed from a narrowed run: %v", gostep.Env)
	}
	ForNarrowedRun(&glv1.Step{}) // no environment: nothing to do, no panic
}
