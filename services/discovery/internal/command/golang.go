package command

func (e *extractor) golang() {
	gomod := e.file("go.mod")
	def := func(key string) Source { return Source{File: gomod, Key: key, Origin: OriginDefault} }
	info := e.sp.Go
	var env map[string]string
	if info.OutsideWork {
		// go.work lists the modules it builds; this one is not among them.
		env = map[string]string{"GOWORK": "off"}
		e.note("%s: not used by go.work; its go commands run with GOWORK=off", e.sp.Root)
	}
	if info.NeedsDownload {
		c := Command{Name: "go-mod-download", Phase: PhaseInstall, Command: "go mod download", Env: clone(env), Source: def("require")}
		c.CacheKeyFiles = []string{gomod}
		if info.GoSum != "" {
			c.CacheKeyFiles = append(c.CacheKeyFiles, info.GoSum)
		}
		e.add(c)
	}
	e.add(Command{Name: "go-build", Phase: PhaseBuild, Command: "go build ./...", Env: clone(env), Source: def("")})
	e.add(Command{Name: "go-vet", Phase: PhaseLint, Command: "go vet ./...", Env: clone(env), Source: def("")})
	if e.sp.HasTests {
		e.add(Command{Name: "go-test", Phase: PhaseTest, Command: "go test -json ./...", Env: clone(env), Source: def("")})
	}
}
