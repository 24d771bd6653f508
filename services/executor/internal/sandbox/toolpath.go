package sandbox

import (
	"path"
	"strings"
)

// toolPath is the PATH a sandbox process searches for the tools a step
// names (go, node, npm, python3): the image's directories first, in their
// order. A relative entry or one inside the workspace is dropped (a tool
// found there would be the repository's file, not the image's), and the
// directories the sandbox user can write (home, tmp: ~/.local/bin,
// ~/.npm-global/bin, ~/go/bin) move after the read-only ones, so what an
// install step writes there (a dependency's script, `pip install --user`,
// `npm i -g`) adds tools but never replaces one of the image's.
func toolPath(p string) string {
	var fixed, writable []string
	for _, dir := range strings.Split(p, ":") {
		switch {
		case dir == "" || !path.IsAbs(dir):
		case within(dir, WorkspaceDir):
		case within(dir, HomeDir) || within(dir, TmpDir):
			writable = append(writable, dir)
		default:
			fixed = append(fixed, dir)
		}
	}
	return strings.Join(append(fixed, writable...), ":")
}

// within reports whether dir is root or below it.
func within(dir, root string) bool {
	c := path.Clean(dir)
	return c == root || strings.HasPrefix(c, root+"/")
}
