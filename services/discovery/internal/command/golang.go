package command

import (
	"fmt"
	"path"
)

func (e *extractor) golang() {
	if e.sp.Go.GopathImport != "" {
		e.gopath()
		return
	}
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
		cmd, reports := goTestCommand("go-test")
		e.add(Command{Name: "go-test", Phase: PhaseTest, Command: cmd, Display: goTestDisplay, ReportFiles: reports, Env: clone(env), Source: def("")})
	}
}

// goTestDisplay is what the go-test step's wrapper runs.
const goTestDisplay = "go test -json ./..."

// gopathRoot is the GOPATH GOPATH-mode steps build in (the sandbox's /tmp
// is writable and private to the step).
const gopathRoot = "/tmp/gopath"

// gopath plans GOPATH-era code (no go.mod) the way its CI built it: with
// GO111MODULE=off and the workspace linked at $GOPATH/src/IMPORT, so its
// own import path and the stack traces its tests expect resolve. go test
// runs with -vet=off: without a go.mod the language version is the image
// toolchain's, whose vet checks (printf's non-constant format strings,
// Go 1.24) the maintainers' toolchain never ran; the advisory go-vet step
// still reports them.
func (e *extractor) gopath() {
	imp := e.sp.Go.GopathImport
	src := Source{File: e.file(""), Key: "GOPATH " + imp, Origin: OriginDefault}
	env := map[string]string{"GO111MODULE": "off", "GOPATH": gopathRoot, "GOFLAGS": ""}
	link := gopathLink(imp)
	e.add(Command{Name: "go-build", Phase: PhaseBuild, Command: link + "go build ./...", Display: "go build ./...", Env: clone(env), Source: src})
	e.add(Command{Name: "go-vet", Phase: PhaseLint, Command: link + "go vet ./...", Display: "go vet ./...", Env: clone(env), Source: src})
	if e.sp.HasTests {
		const display = "go test -vet=off -json ./..."
		cmd, reports := goTestCommandOf("go-test", display)
		e.add(Command{Name: "go-test", Phase: PhaseTest, Command: link + cmd, Display: display, ReportFiles: reports, Env: clone(env), Source: src})
	}
}

// gopathLink is the shell prefix that links the workspace at
// $GOPATH/src/IMP and enters it (ToolchainOnly recognises it).
func gopathLink(imp string) string {
	dir := gopathRoot + "/src/" + imp
	return fmt.Sprintf(`mkdir -p %s && ln -sfn "$PWD" %s && cd %s && `, path.Dir(dir), dir, dir)
}

// goTestCommand runs `go test -json ./...` with its event stream teed into
// a report file, so the loop counts from the whole stream even when the log
// is cut at the per-step cap, while the live log still shows the events.
// Steps run under /bin/sh -c and dash has no pipefail: go test's exit
// status travels through a file next to the report (removed first, so a
// stale one never answers; missing, the step fails).
func goTestCommand(name string) (string, []string) { return goTestCommandOf(name, goTestDisplay) }

// goTestCommandOf wraps a `go test -json` command line the same way.
func goTestCommandOf(name, gotest string) (string, []string) {
	base := ReportDir + "/" + fileName(name)
	report, rc := base+".jsonl", base+".rc"
	cmd := fmt.Sprintf(`mkdir -p %s && rm -f %s && { %s; echo $? >%s; } | tee %s; exit "$(cat %s 2>/dev/null || echo 1)"`,
		ReportDir, rc, gotest, rc, report, rc)
	return cmd, []string{report}
}
