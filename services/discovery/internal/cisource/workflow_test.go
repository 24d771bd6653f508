package cisource

import (
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/services/discovery/internal/command"
)

const workflowYAML = `name: ci
on: [push, pull_request]
defaults:
  run:
    working-directory: .
jobs:
  test:
    strategy:
      matrix:
        go-version: [1.22.x, 1.23.x]
        command: ["go vet ./...", "go test -race ./..."]
    runs-on: ubuntu-latest
    defaults:
      run:
        working-directory: svc
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-go@v5
        with:
          go-version: ${{ matrix.go-version }}
      - name: Checks
        run: ${{ matrix.command }}
      - name: Web lint
        working-directory: web
        run: |
          npm ci
          npm run lint
      - name: Tests in tools
        run: |
          cd tools && \
            go test ./...
          echo done
      - name: Coverage
        run: bash <(curl -s https://codecov.io/bash)
      - name: Token
        run: ./scripts/notify.sh
        env:
          TOKEN: ${{ secrets.NOTIFY_TOKEN }}
      - name: Windows only
        shell: pwsh
        run: go test ./...
  deploy:
    runs-on: ubuntu-latest
    steps:
      - run: make test
  build:
    runs-on: ubuntu-latest
    steps:
      - name: Upload
        run: twine upload dist/*
      - name: Unit tests
        run: ./run-tests.sh
`

func TestWorkflow(t *testing.T) {
	l := Read(mapTree{".github/workflows/ci.yml": workflowYAML})

	vet := find(t, l, "go vet ./...")
	if vet.Workdir != "svc" || vet.Phase != command.PhaseLint || vet.Skip != "" || !vet.FromCI || !hasTool(vet, "go vet", "svc") {
		t.Errorf("matrix command: %+v", vet)
	}
	if vet.Source.File != ".github/workflows/ci.yml" || vet.Source.Line != 22 || vet.Source.Origin != Origin || vet.Label != "test/Checks" {
		t.Errorf("matrix command source: %+v label %q", vet.Source, vet.Label)
	}
	if test := find(t, l, "go test -race ./..."); test.Phase != command.PhaseTest {
		t.Errorf("second matrix value: %+v", test)
	}

	lint := find(t, l, "npm run lint")
	if lint.Workdir != "web" || lint.Phase != command.PhaseLint || lint.Source.Line != 27 || !hasTool(lint, "script:lint", "web") {
		t.Errorf("step working-directory: %+v", lint)
	}
	if ci := find(t, l, "npm ci"); ci.Phase != command.PhaseInstall {
		t.Errorf("npm ci: %+v", ci)
	}

	tools := find(t, l, "cd tools && go test ./...")
	if tools.Source.Line != 30 || !hasTool(tools, "go test", "svc/tools") || tools.Phase != command.PhaseTest {
		t.Errorf("continued line with cd: %+v", tools)
	}

	for run, want := range map[string][2]string{
		"bash <(curl -s https://codecov.io/bash)": {"downloads", "ci.yml:34: skipped `bash <(curl"},
		"./scripts/notify.sh":                     {"secrets", "ci.yml:36: step test/Token not learned from: needs repository secrets"},
		"make test":                               {"deploy job", "ci.yml:43: job deploy not learned from: a deploy job ships"},
		"twine upload dist/*":                     {"publishes a release", "ci.yml:50: skipped `twine upload dist/*`"},
	} {
		if c := find(t, l, run); !strings.Contains(c.Skip, want[0]) {
			t.Errorf("%s: skip = %q, want it to say %q", run, c.Skip, want[0])
		}
		if !hasNote(l, want[1]) {
			t.Errorf("no note %q: %q", want[1], l.Notes)
		}
	}
	if c := find(t, l, "go test ./..."); c.Skip == "" || !strings.Contains(c.Skip, "pwsh") {
		t.Errorf("pwsh step: %+v", c)
	}
	if c := find(t, l, "./run-tests.sh"); c.Phase != command.PhaseTest || c.Skip != "" {
		t.Errorf("step name classifies a script: %+v", c)
	}
	if !hasNote(l, "uses actions/checkout: the workspace is already a checkout") || !hasNote(l, "uses actions/setup-go: the Go image") {
		t.Errorf("uses: notes missing: %q", l.Notes)
	}
	if !hasNote(l, "job test tests go 1.22.x, 1.23.x") {
		t.Errorf("version note missing: %q", l.Notes)
	}
	for _, c := range l.Commands {
		if c.Run == "echo done" {
			t.Errorf("a builtin is not a learned command: %+v", c)
		}
	}
}

func TestWorkflowUnresolvedExpression(t *testing.T) {
	l := Read(mapTree{".github/workflows/t.yaml": "jobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: tox -e ${{ matrix.env || 'py' }}\n"})
	c := find(t, l, "tox -e ${{ matrix.env || 'py' }}")
	if !strings.Contains(c.Skip, "GitHub expression") || !hasTool(c, "tox", ".") {
		t.Errorf("unresolved expression: %+v", c)
	}
}

func TestWorkflowNotYAML(t *testing.T) {
	l := Read(mapTree{".github/workflows/bad.yml": "jobs: [\n"})
	if len(l.Commands) != 0 || !hasNote(l, "bad.yml", "not learned from") {
		t.Errorf("bad YAML: %+v", l)
	}
}

func TestWorkflowMatrixShell(t *testing.T) {
	wf := `jobs:
  test:
    strategy:
      matrix:
        platform:
          - {os: ubuntu-latest, shell: bash}
          - {os: windows-latest, shell: cmd}
    runs-on: ${{ matrix.platform.os }}
    defaults:
      run:
        shell: ${{ matrix.platform.shell }}
    steps:
      - run: npm test
  win:
    runs-on: ubuntu-latest
    steps:
      - shell: ${{ matrix.sh }}
        run: npm run lint
`
	l := Read(mapTree{".github/workflows/t.yml": wf})
	if c := find(t, l, "npm test"); c.Skip != "" || c.Phase != command.PhaseTest {
		t.Errorf("a matrix shell with a bash value is POSIX: %+v", c)
	}
	if c := find(t, l, "npm run lint"); !strings.Contains(c.Skip, "not a POSIX shell") {
		t.Errorf("an unresolvable shell is not POSIX: %+v", c)
	}
}

func TestWorkflowJobAndStepSkips(t *testing.T) {
	wf := `jobs:
  db:
    runs-on: ubuntu-latest
    services:
      postgres: {image: postgres}
    steps:
      - run: go test ./db/...
  mac:
    runs-on: macos-latest
    steps:
      - run: go test ./mac/...
  t:
    runs-on: ubuntu-latest
    steps:
      - working-directory: ${{ matrix.dir }}
        run: go test ./expr/...
      - working-directory: ../elsewhere
        run: go test ./outside/...
      - if: startsWith(github.ref, 'refs/tags/')
        run: go test ./tag/...
`
	l := Read(mapTree{".github/workflows/t.yml": wf})
	for run, why := range map[string]string{
		"go test ./db/...":      "service containers (postgres)",
		"go test ./mac/...":     "runs on macos-latest",
		"go test ./expr/...":    "working-directory is a GitHub expression",
		"go test ./outside/...": "outside the workspace",
		"go test ./tag/...":     "only for tags",
	} {
		if c := find(t, l, run); !strings.Contains(c.Skip, why) {
			t.Errorf("%s: skip %q, want %q", run, c.Skip, why)
		}
		if !hasNote(l, why) {
			t.Errorf("no note says %q: %q", why, l.Notes)
		}
	}
}

func TestWorkflowReusableWorkflowIsAUse(t *testing.T) {
	l := Read(mapTree{".github/workflows/t.yml": "jobs:\n  call:\n    uses: org/repo/.github/workflows/test.yml@v1\n"})
	if len(l.Commands) != 0 || !hasNote(l, "uses org/repo/.github/workflows/test.yml: unknown to greenlight: not run, its work is not checked") {
		t.Errorf("a reusable workflow call: %+v", l)
	}
}

// TestActionNotes checks what each kind of action turns into: a known one
// says what the sandbox does instead (a family by its owner's prefix), a
// local or unknown one says its work is not checked.
func TestActionNotes(t *testing.T) {
	for action, want := range map[string]string{
		"actions/checkout":              "already a checkout",
		"actions/cache/restore":         "its own dependency cache",
		"github/codeql-action/analyze":  "CodeQL analysis: not run",
		"docker/build-push-action":      "container images: not run",
		"./.github/actions/setup":       "a local action of the repository: not run, its work is not checked",
		"someone/obscure-test-action":   "unknown to greenlight: not run, its work is not checked",
		"golangci/golangci-lint-action": "golangci-lint",
	} {
		if got := actionNote(action); !strings.Contains(got, want) {
			t.Errorf("%s: %q, want %q", action, got, want)
		}
	}
}
