package detect

import (
	"errors"
	"fmt"
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
