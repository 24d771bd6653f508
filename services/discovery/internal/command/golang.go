package command

func (e *extractor) golang() {
	gomod := e.file("go.mod")
	def := func(key string) Source { return Source{File: gomod, Key: key, Origin: OriginDefault} }
	info := e.sp.Go
	if info.NeedsDownload {
		c := Command{Name: "go-mod-download", Phase: PhaseInstall, Command: "go mod download", Source: def("require")}
		c.CacheKeyFiles = []string{gomod}
		if info.GoSum != "" {
			c.CacheKeyFiles = append(c.CacheKeyFiles, info.GoSum)
		}
		e.add(c)
	}
	e.add(Command{Name: "go-build", Phase: PhaseBuild, Command: "go build ./...", Source: def("")})
	e.add(Command{Name: "go-vet", Phase: PhaseLint, Command: "go vet ./...", Source: def("")})
	if e.sp.HasTests {
		e.add(Command{Name: "go-test", Phase: PhaseTest, Command: "go test -json ./...", Source: def("")})
	}
}
