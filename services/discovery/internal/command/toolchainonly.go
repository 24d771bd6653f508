package command

import (
	"regexp"
	"strings"
	"sync"
)

// toolchainOnlyCommands are commands that run only a toolchain on the
// project's files and never execute code of the project or of its
// dependencies: the Go compiler and vet do not run what they compile (cgo
// flags are limited to the toolchain's allow list for exactly this
// reason), `go mod download` checks what it fetches against go.sum, and
// gosec type-checks through `go list` the same way. pip, npm, cargo, CMake
// and Maven installs and builds all run code the project names (setup.py,
// lifecycle scripts, build.rs, CMakeLists.txt, plugins), so none of theirs
// is here.
var toolchainOnlyCommands = map[string]bool{
	"go mod download": true,
	"go build ./...":  true,
	"go vet ./...":    true,
	GosecCommand:      true,
}

// secretScanText is the secret scan's command line: the image's grep by
// its absolute path reads the files and runs nothing of them. It comes
// first in a box since scans are planned by default, so without it a Go
// module's warm build state would never reach a trust point.
var secretScanText = sync.OnceValue(secretScanScript)

// toolchainOnlyEnv is the environment such a command may carry (what the
// Go pack sets, GOPATH mode included); anything else
// (GOFLAGS=-toolexec=..., CC=...) could make the toolchain run a program
// of the project's choosing.
var toolchainOnlyEnv = map[string]string{"GOWORK": "off", "GO111MODULE": "off", "GOPATH": gopathRoot, "GOFLAGS": ""}

// gopathLinkTarget finds the import path a GOPATH-mode command links the
// workspace at; the charset keeps the shell from seeing anything but a word.
var gopathLinkTarget = regexp.MustCompile(`ln -sfn "\$PWD" ` + regexp.QuoteMeta(gopathRoot) + `/src/([A-Za-z0-9._~/-]+) && `)

// ToolchainOnly says whether c runs only the toolchain on the project's
// files, so that what it leaves in the tools' caches may be kept as warm
// build state (Step.toolchain_only). It looks at the command as it will
// run, wherever it came from (default, CI, greenlight.yaml): only the
// exact command texts and environment above qualify.
func ToolchainOnly(c Command) bool {
	if !toolchainOnlyCommand(c.Command) {
		return false
	}
	for k, v := range c.Env {
		if want, ok := toolchainOnlyEnv[k]; !ok || want != v {
			return false
		}
	}
	return true
}

// toolchainOnlyCommand says whether cmd is one of the commands above, or
// one of them after the GOPATH-mode link gopath() writes before it.
func toolchainOnlyCommand(cmd string) bool {
	if toolchainOnlyCommands[cmd] || cmd == secretScanText() {
		return true
	}
	m := gopathLinkTarget.FindStringSubmatch(cmd)
	if m == nil || strings.Contains(m[1], "..") {
		return false
	}
	link := gopathLink(m[1])
	rest, ok := strings.CutPrefix(cmd, link)
	return ok && (rest == "go build ./..." || rest == "go vet ./...")
}
