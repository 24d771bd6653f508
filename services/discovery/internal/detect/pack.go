package detect

import "github.com/greenlight-dev/greenlight/pkg/toolchain"

// packTree is the read-only view a toolchain pack detects in.
type packTree struct{ v *view }

func (t packTree) Read(name string) ([]byte, error) { return t.v.read(name) }
func (t packTree) Has(dir, base string) bool        { return t.v.has(dir, base) }
func (t packTree) Under(root string) []string       { return t.v.under(root, nil) }

// detectPack asks a toolchain pack about the subproject and copies what it
// found into sp; its Facts stay in sp.Toolchain for command extraction.
func detectPack(v *view, p toolchain.Pack, sp *Subproject) {
	tp := &toolchain.Project{Root: sp.Root}
	p.Detect(packTree{v}, tp)
	sp.Toolchain = tp
	sp.PackageManager = tp.PackageManager
	sp.TestFrameworks = append(sp.TestFrameworks, tp.TestFrameworks...)
	sp.Linters = append(sp.Linters, tp.Linters...)
	sp.Markers = append(sp.Markers, tp.Markers...)
	sp.HasTests = sp.HasTests || tp.HasTests
	for _, ver := range tp.Versions {
		sp.Versions = append(sp.Versions, VersionHint{Tool: ver.Tool, Version: ver.Version, Source: ver.Source})
	}
	for _, pr := range tp.Problems {
		sp.Problems = append(sp.Problems, Problem{File: pr.File, Line: pr.Line, Msg: pr.Msg})
	}
}
