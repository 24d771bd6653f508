package cisource

import (
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/services/discovery/internal/command"
)

const gitlabYAML = `stages: [test, deploy]
variables:
  GOFLAGS: -mod=readonly
default:
  before_script:
    - go version
.template: &tpl
  script:
    - go test ./hidden/...
unit:
  stage: test
  script:
    - go vet ./...
    - - go test ./...
      - make -C tests
lint:
  <<: *tpl
  script: |
    golangci-lint run
pages:
  stage: deploy
  script:
    - mkdocs build
release:
  stage: deploy
  script: [goreleaser release]
.go-test:
  script:
    - go test -short ./...
short:
  extends: .go-test
`

func TestGitLab(t *testing.T) {
	l := Read(mapTree{".gitlab-ci.yml": gitlabYAML})
	vet := find(t, l, "go vet ./...")
	if vet.Phase != command.PhaseLint || vet.Source.Line != 13 || vet.Source.Key != "unit.script[0]" || vet.Env["GOFLAGS"] != "-mod=readonly" {
		t.Errorf("script item: %+v", vet)
	}
	if c := find(t, l, "make -C tests"); c.Phase != command.PhaseTest || c.Source.Line != 15 || !hasTool(c, "make", "tests") {
		t.Errorf("nested list item: %+v", c)
	}
	if c := find(t, l, "golangci-lint run"); c.Phase != command.PhaseLint || c.Source.Line != 19 {
		t.Errorf("block script: %+v", c)
	}
	for _, run := range []string{"mkdocs build", "goreleaser release"} {
		if c := find(t, l, run); !strings.Contains(c.Skip, "job ships") {
			t.Errorf("%s: skip = %q", run, c.Skip)
		}
	}
	if c := find(t, l, "go test -short ./..."); c.Source.Key != "short.script[0]" || c.Source.Line != 29 {
		t.Errorf("a job's script from extends: %+v", c)
	}
	for _, c := range l.Commands {
		if strings.Contains(c.Run, "hidden") {
			t.Errorf("a hidden template job is not a job: %+v", c)
		}
	}
}
