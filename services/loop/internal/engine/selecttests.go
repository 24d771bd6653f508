package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"google.golang.org/protobuf/proto"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/pylaunch"
	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
)

// selectTests narrows a planned pipeline to the tests VerifyOptions.tests
// names: each test step runs only them, with its runner's own selector
// (parse.SelectCommand, the code that narrows a re-run of failing tests);
// install and build steps stay, since the tests need what they make; the
// other steps (lint, typecheck, smoke) and the test steps whose runner
// cannot select tests do not run, each with a note. When no test step can
// be narrowed the verification cannot be carried out (infra): running
// every test instead would answer another question than the one asked.
func (r *run) selectTests(ctx context.Context, v *verification, tr *trees, ids []string) {
	var (
		kept, names, dropped []string
		steps                []*glv1.Step
		tree                 fs.FS
	)
	script := func(workdir string) string {
		if tree == nil && tr != nil && v.spec.snapshot.GetSizeBytes() <= maxParseTreeBytes {
			tree, _ = tr.fs(ctx, v.spec.snapshot)
		}
		return testScript(tree, workdir)
	}
	v.selected = map[string]bool{}
	for _, s := range v.pipeline.GetSteps() {
		switch {
		case s.GetPhase() == glv1.Phase_PHASE_INSTALL || s.GetPhase() == glv1.Phase_PHASE_BUILD:
			steps = append(steps, s)
			continue
		case s.GetPhase() != glv1.Phase_PHASE_TEST && s.GetLevel() != glv1.Level_LEVEL_L4:
			dropped = append(dropped, s.GetName())
			continue
		}
		names = append(names, s.GetName())
		sc := ""
		if parse.RunsTestScript(s.GetCommand()) {
			sc = script(s.GetWorkdir())
		}
		cmd, ok := parse.SelectCommand(s.GetCommand(), sc, ids)
		if !ok {
			v.caps = withNote(v.caps, fmt.Sprintf("--test: step %q does not run: greenlight cannot select tests of its command (%s)",
				s.GetName(), displayOf(s)))
			continue
		}
		ns := proto.Clone(s).(*glv1.Step)
		ns.Command, ns.DisplayCommand, ns.ReportFiles = cmd, "", nil
		if d := pylaunch.Readable(cmd); d != cmd {
			ns.DisplayCommand = d
		}
		v.selected[s.GetName()] = true
		kept = append(kept, s.GetName())
		steps = append(steps, ns)
	}
	if len(kept) == 0 {
		which := "the pipeline has no test step"
		if len(names) > 0 {
			which = "no test step's runner can select tests (test steps: " + strings.Join(names, ", ") + ")"
		}
		v.infra = fmt.Sprintf("cannot run only the tests %s: %s", strings.Join(ids, ", "), which)
		return
	}
	if len(dropped) > 0 {
		v.caps = withNote(v.caps, "--test: steps not needed by the selected tests do not run: "+strings.Join(dropped, ", "))
	}
	v.caps = withNote(v.caps, fmt.Sprintf("--test: %s narrowed to %s", strings.Join(kept, ", "), strings.Join(ids, ", ")))
	v.pipeline = proto.Clone(v.pipeline).(*glv1.Pipeline)
	v.pipeline.Steps = steps
}

// displayOf is the command a step shows.
func displayOf(s *glv1.Step) string {
	if d := s.GetDisplayCommand(); d != "" {
		return d
	}
	return s.GetCommand()
}

// testScript is the test script of the package.json in workdir ("" when
// there is none or the tree is unknown).
func testScript(tree fs.FS, workdir string) string {
	if tree == nil {
		return ""
	}
	dir := path.Clean(strings.TrimPrefix(workdir, "/workspace"))
	dir = strings.TrimPrefix(dir, "/")
	if dir == "" {
		dir = "."
	}
	b, err := fs.ReadFile(tree, path.Join(dir, "package.json"))
	if err != nil {
		return ""
	}
	var m struct {
		Scripts map[string]string `json:"scripts"`
	}
	if json.Unmarshal(b, &m) != nil {
		return ""
	}
	return m.Scripts["test"]
}

// partialOf is what part of the project a verification with options o
// runs, or nil when it runs the whole pipeline.
func partialOf(o *glv1.VerifyOptions) *glv1.Partial {
	if len(o.GetSelection()) == 0 && len(o.GetTests()) == 0 {
		return nil
	}
	p := &glv1.Partial{Tests: o.GetTests()}
	for _, s := range o.GetSelection() {
		name := s.GetName()
		if name == "" {
			name = s.GetCommand()
		}
		p.Steps = append(p.Steps, name)
	}
	return p
}

// partialSummary is the summary's note that a verdict is a part's.
func partialSummary(p *glv1.Partial) string {
	var what []string
	if len(p.GetSteps()) > 0 {
		what = append(what, "steps "+strings.Join(p.GetSteps(), ", "))
	}
	if len(p.GetTests()) > 0 {
		what = append(what, "tests "+strings.Join(p.GetTests(), ", "))
	}
	return "; partial: selected " + strings.Join(what, " and ") + ", not the whole project"
}

// selectedTests are the test ids step s was narrowed to (nil: not narrowed).
func (v *verification) selectedTests(s *glv1.Step) []string {
	if !v.selected[s.GetName()] {
		return nil
	}
	return v.spec.opts.GetTests()
}
