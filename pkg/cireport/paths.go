package cireport

import (
	"os"
	"path"
	"path/filepath"
	"strings"

	"google.golang.org/protobuf/proto"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// RepoPrefix is the verified directory dir relative to its repository's
// root, slash-separated ("services/api" for `greenlight verify
// services/api`, or the Action's directory: input, in a monorepo), or ""
// when dir is the root or no root is found. Failures are located relative
// to the verified directory; GitHub annotations and SARIF must name paths
// from the repository root, or GitHub puts them on the wrong file or none.
// The root is the nearest directory above dir holding .git (a directory,
// or a file in a worktree or submodule), else $GITHUB_WORKSPACE when dir
// lies under it.
func RepoPrefix(dir string, getenv func(string) string) string {
	if dir == "" {
		return ""
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	for d := abs; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return relPrefix(d, abs)
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	if getenv != nil {
		if ws := getenv("GITHUB_WORKSPACE"); ws != "" {
			if real, err := filepath.EvalSymlinks(ws); err == nil {
				ws = real
			}
			return relPrefix(ws, abs)
		}
	}
	return ""
}

// relPrefix is dir relative to root, slash-separated; "" when dir is root
// or not under it.
func relPrefix(root, dir string) string {
	rel, err := filepath.Rel(root, dir)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return ""
	}
	return filepath.ToSlash(rel)
}

// rebase returns run with every workspace-relative file path of its
// result (failures, their frames, tests) under prefix. Absolute paths,
// pseudo-files ("<string>") and runtime frames (node:internal/…) stay as
// they are; run itself is not changed.
func rebase(run *glv1.Run, prefix string) *glv1.Run {
	prefix = strings.Trim(path.Clean("/"+filepath.ToSlash(prefix)), "/")
	if prefix == "" || run.GetResult() == nil {
		return run
	}
	out := proto.Clone(run).(*glv1.Run)
	res := out.GetResult()
	for _, f := range res.GetFailures() {
		f.File = underPrefix(prefix, f.GetFile())
		for _, fr := range f.GetFrames() {
			fr.File = underPrefix(prefix, fr.GetFile())
		}
	}
	for _, t := range res.GetTests() {
		t.File = underPrefix(prefix, t.GetFile())
	}
	return out
}

// underPrefix joins a workspace-relative file to prefix.
func underPrefix(prefix, file string) string {
	// node:internal/…, file://…, C:\…: not a workspace path.
	if file == "" || strings.HasPrefix(file, "/") || strings.HasPrefix(file, "<") || strings.Contains(file, ":") {
		return file
	}
	return path.Join(prefix, file)
}
