package detect

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"golang.org/x/mod/modfile"
)

// GoInfo holds what command extraction needs about a Go module.
type GoInfo struct {
	Module string
	// NeedsDownload is true when the module requires others and has no
	// vendor directory.
	NeedsDownload bool
	// GoSum is the workspace-relative go.sum path when it exists.
	GoSum string
	// OutsideWork is true when a root go.work exists and does not use this
	// module: go commands in it must run with GOWORK=off.
	OutsideWork bool
	// GopathImport is set for Go code without go.mod whose import path the
	// maintainers' CI names: go commands run in GOPATH mode with the
	// workspace linked at $GOPATH/src/GopathImport.
	GopathImport string
}

func detectGo(v *view, sp *Subproject, nested []string) error {
	file := join(sp.Root, "go.mod")
	sp.PackageManager = "go"
	info := &GoInfo{}
	sp.Go = info
	data, err := v.read(file)
	if err != nil {
		sp.Problems = append(sp.Problems, Problem{File: file, Msg: fmt.Sprintf("not read: %v", err)})
		return nil
	}
	mf, err := modfile.Parse(file, data, nil)
	if err != nil {
		sp.Problems = append(sp.Problems, goModProblem(file, err))
	} else {
		if mf.Module != nil {
			info.Module = mf.Module.Mod.Path
		}
		if mf.Go != nil {
			sp.Versions = append(sp.Versions, VersionHint{Tool: "go", Version: mf.Go.Version, Source: file + ":go"})
		}
		if mf.Toolchain != nil {
			sp.Versions = append(sp.Versions, VersionHint{Tool: "go", Version: strings.TrimPrefix(mf.Toolchain.Name, "go"), Source: file + ":toolchain"})
		}
		info.NeedsDownload = len(mf.Require) > 0 && !v.exists(join(sp.Root, "vendor/modules.txt"))
	}
	sp.Versions = append(sp.Versions, toolVersions(v, sp.Root, "golang", "go")...)
	if v.has(sp.Root, "go.sum") {
		info.GoSum = join(sp.Root, "go.sum")
		sp.Markers = append(sp.Markers, info.GoSum)
	}
	for _, f := range v.under(sp.Root, nested) {
		if strings.HasSuffix(f, "_test.go") {
			sp.HasTests = true
			break
		}
	}
	if sp.HasTests {
		sp.TestFrameworks = []string{"go test"}
	}
	info.OutsideWork = outsideWork(v, sp.Root)
	sp.Linters = []string{"go vet"}
	for _, n := range []string{".golangci.yml", ".golangci.yaml", ".golangci.toml", ".golangci.json"} {
		if hasFile(v, join(sp.Root, n)) || hasFile(v, n) {
			sp.Linters = append(sp.Linters, "golangci-lint")
			break
		}
	}
	return nil
}

// hasFile checks the unfiltered tree (dot files at a root are not ignored,
// but this also finds files the view dropped).
func hasFile(v *view, name string) bool {
	d, b := splitPath(name)
	return v.has(d, b)
}

// goModProblem turns a modfile error list into a Problem with its line.
func goModProblem(file string, err error) Problem {
	var list modfile.ErrorList
	if errors.As(err, &list) && len(list) > 0 {
		return Problem{File: file, Line: list[0].Pos.Line, Msg: list[0].Err.Error()}
	}
	return Problem{File: file, Msg: err.Error()}
}

// gopathGo reports Go code kept without go.mod (a GOPATH-era layout built
// by its Makefile) as Go: the Makefile's subproject runs in the Go image and
// the capabilities say why no go command is planned. Without a Makefile a
// root Go subproject without commands says the same.
func gopathGo(v *view, res *Result) {
	for _, sp := range res.Subprojects {
		if sp.Runtime == RuntimeGo {
			return
		}
	}
	hasGo, hasTests := false, false
	for _, f := range v.files {
		if strings.HasSuffix(f, ".go") {
			hasGo = true
			hasTests = hasTests || strings.HasSuffix(f, "_test.go")
		}
	}
	if !hasGo {
		return
	}
	why := "Go code without go.mod (GOPATH layout): module-mode go commands cannot build it, so greenlight plans none"
	var info *GoInfo
	if imp, src := gopathImportPath(v); imp != "" {
		info = &GoInfo{GopathImport: imp}
		why = fmt.Sprintf("Go code without go.mod (GOPATH layout): go commands run in GOPATH mode (GO111MODULE=off) "+
			"with the workspace at $GOPATH/src/%s (from %s), with the image's Go, not the one the maintainers' CI used", imp, src)
	}
	for i := range res.Subprojects {
		sp := &res.Subprojects[i]
		if sp.Runtime == RuntimeMake && sp.Root == "." {
			sp.Runtime = RuntimeGo
			sp.Markers = append(sp.Markers, "*.go")
			sp.HasTests = hasTests
			gopathSubproject(sp, info)
			res.Notes = append(res.Notes, fmt.Sprintf("%s; its Makefile targets run in the Go image", why))
			return
		}
	}
	if len(res.Subprojects) == 0 {
		sp := Subproject{Root: ".", Runtime: RuntimeGo, Markers: []string{"*.go"}, HasTests: hasTests}
		gopathSubproject(&sp, info)
		res.Subprojects = append(res.Subprojects, sp)
		if info == nil {
			why += "; add a go.mod or a greenlight.yaml with the build and test commands"
		}
		res.Notes = append(res.Notes, why)
	}
}

// gopathSubproject makes a GOPATH-mode Go subproject of sp when the import
// path is known (info non-nil).
func gopathSubproject(sp *Subproject, info *GoInfo) {
	if info == nil {
		return
	}
	sp.Go, sp.PackageManager = info, "go"
	sp.Linters = []string{"go vet"}
	if sp.HasTests {
		sp.TestFrameworks = []string{"go test"}
	}
}

// outsideWork reports whether the root go.work exists and does not "use"
// the module in root (go then refuses to build it: "current directory is
// contained in a module that is not one of the workspace modules").
func outsideWork(v *view, root string) bool {
	data, err := v.read("go.work")
	if err != nil {
		return false
	}
	wf, err := modfile.ParseWork("go.work", data, nil)
	if err != nil {
		return false
	}
	for _, u := range wf.Use {
		if path.Clean(u.Path) == root {
			return false
		}
	}
	return true
}
