package command

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/greenlight-dev/greenlight/services/discovery/internal/detect"
)

// modernNodePath is the node image's PATH with its pinned Node 22 (and npm
// 10) first: images/node/releases installs it in /opt/node-22 next to
// Debian's Node 18, the image's default `node`. In an image without
// /opt/node-22 (an upstream node image) the rest of the PATH finds the
// image's own node.
const modernNodePath = "/opt/node-22/bin:/home/sandbox/.npm-global/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

// modernNodeMajor is the oldest Node major that needs the image's Node 22
// rather than Debian's Node 18.
const modernNodeMajor = 20

// majorRE finds the version numbers of a range alternative (">=20.11",
// "^22", "v20", "20.x").
var majorRE = regexp.MustCompile(`\d+`)

// needsModernNode returns the version hint that asks for Node 20 or newer:
// every alternative of an engines/volta range, or an .nvmrc/.node-version
// line, starts at 20 or later. "lts/*", "node" and "*" ask for nothing.
func needsModernNode(hints []detect.VersionHint) (detect.VersionHint, bool) {
	for _, h := range hints {
		if h.Tool != "node" {
			continue
		}
		if lowest, ok := lowestMajor(h.Version); ok && lowest >= modernNodeMajor {
			return h, true
		}
	}
	return detect.VersionHint{}, false
}

// lowestMajor is the smallest major version any alternative of a range
// admits; false when an alternative has no lower bound ("<20", "*").
func lowestMajor(rng string) (int, bool) {
	lowest, found := 0, false
	for _, alt := range strings.Split(rng, "||") {
		alt = strings.TrimSpace(alt)
		m := majorRE.FindString(alt)
		if m == "" || strings.HasPrefix(alt, "<") {
			return 0, false
		}
		n, err := strconv.Atoi(m)
		if err != nil {
			return 0, false
		}
		if !found || n < lowest {
			lowest, found = n, true
		}
	}
	return lowest, found
}

// nodeEnv is the environment of a Node subproject's steps: the package
// manager's (managerEnv) plus, when the project asks for Node 20 or newer,
// a PATH that runs the image's Node 22.
func (e *extractor) nodeEnv() map[string]string {
	env := managerEnv(e.sp.PackageManager)
	if _, ok := needsModernNode(e.sp.Versions); ok {
		if env == nil {
			env = map[string]string{}
		}
		env["PATH"] = modernNodePath
	}
	return env
}

// nodeVersionNote says which Node the steps run on when it is not the
// image's default.
func (e *extractor) nodeVersionNote() {
	if h, ok := needsModernNode(e.sp.Versions); ok {
		e.note("%s: Node 22 (/opt/node-22 in the node image) runs its steps: %s asks for %q", e.sp.Root, h.Source, h.Version)
	}
}
