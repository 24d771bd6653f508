package command

import "github.com/greenlight-dev/greenlight/pkg/toolchain"

// packPlanner is what extraction needs of a toolchain pack.
type packPlanner interface {
	Commands(p *toolchain.Project) []toolchain.Command
}

// pack adds the default commands of a subproject a toolchain pack detected
// (pkg/toolchain): the pack decides them, discovery names and tiers them.
func (e *extractor) pack(p packPlanner) {
	for _, c := range p.Commands(e.sp.Toolchain) {
		phase, err := ParsePhase(c.Phase)
		if err != nil {
			e.out.Notes = append(e.out.Notes, "toolchain "+e.sp.Runtime+": command "+c.Name+": "+err.Error())
			continue
		}
		e.add(Command{Name: c.Name, Phase: phase, Command: c.Command, Env: c.Env,
			CacheKeyFiles: c.CacheKeyFiles, Source: Source{File: c.Source, Origin: OriginDefault}})
	}
}
