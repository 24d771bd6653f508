package engine

import (
	"path"
	"regexp"
	"strings"

	"google.golang.org/protobuf/proto"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// pinnedPlan is a fix run's plan, decided once from the baseline snapshot
// before the first patch: the pipeline (test selection, tiers, images,
// commands) and the capabilities (configs, risk triggers, the patch
// allow-list). Every patched snapshot is verified with it; discovery never
// reads a patched tree, so a patch cannot choose its own checks.
type pinnedPlan struct {
	caps     *glv1.Capabilities
	pipeline *glv1.Pipeline
}

// Notes a fix run's DiscoveryDone events carry (Capabilities.notes).
const (
	pinNote = "fix run: this plan is pinned; every patched snapshot of the run is verified with this pipeline " +
		"and no configuration is read from a patched tree"
	reuseNote = "fix run: the plan pinned from the baseline snapshot is reused; discovery did not read this patched snapshot"
)

// withNote returns a copy of caps with one more note.
func withNote(caps *glv1.Capabilities, note string) *glv1.Capabilities {
	out := &glv1.Capabilities{}
	if caps != nil {
		out = proto.Clone(caps).(*glv1.Capabilities)
	}
	out.Notes = append(out.Notes, note)
	return out
}

// makeRun matches a command that runs make.
var makeRun = regexp.MustCompile(`(^|[\s;&|(])g?make(\s|$)`)

// scriptArg matches a command word that names a script in the workspace.
var scriptArg = regexp.MustCompile(`^(\./[^\s]+|[^\s-][^\s]*\.(sh|bash))$`)

// planReads lists the workspace files besides the well-known configs that
// decide what the pinned plan's commands do: the config files discovery
// read, the Makefiles of steps that run make and the scripts steps run.
// Patches may not change them unless config changes are allowed.
func (p *pinnedPlan) planReads() []string {
	if p == nil {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	add := func(name string) {
		name = path.Clean(name)
		if name == "." || strings.HasPrefix(name, "../") || strings.HasPrefix(name, "/") || seen[name] {
			return
		}
		seen[name] = true
		out = append(out, name)
	}
	for _, c := range p.caps.GetConfigs() {
		add(c.GetPath())
	}
	for _, s := range p.pipeline.GetSteps() {
		dir := s.GetWorkdir()
		if makeRun.MatchString(s.GetCommand()) {
			for _, mf := range []string{"Makefile", "makefile", "GNUmakefile"} {
				add(path.Join(dir, mf))
			}
		}
		for _, word := range strings.Fields(s.GetCommand()) {
			if scriptArg.MatchString(word) {
				add(path.Join(dir, word))
			}
		}
	}
	return out
}
