package command

// toolchainOnlyCommands are commands that run only a toolchain on the
// project's files and never execute code of the project or of its
// dependencies: the Go compiler and vet do not run what they compile (cgo
// flags are limited to the toolchain's allow list for exactly this
// reason), and `go mod download` checks what it fetches against go.sum.
// pip, npm, cargo, CMake and Maven installs and builds all run code the
// project names (setup.py, lifecycle scripts, build.rs, CMakeLists.txt,
// plugins), so none of theirs is here.
var toolchainOnlyCommands = map[string]bool{
	"go mod download": true,
	"go build ./...":  true,
	"go vet ./...":    true,
}

// toolchainOnlyEnv is the environment such a command may carry (what the
// Go pack sets); anything else (GOFLAGS=-toolexec=..., CC=...) could make
// the toolchain run a program of the project's choosing.
var toolchainOnlyEnv = map[string]string{"GOWORK": "off"}

// ToolchainOnly says whether c runs only the toolchain on the project's
// files, so that what it leaves in the tools' caches may be kept as warm
// build state (Step.toolchain_only). It looks at the command as it will
// run, wherever it came from (default, CI, greenlight.yaml): only the
// exact command text and environment above qualify.
func ToolchainOnly(c Command) bool {
	if !toolchainOnlyCommands[c.Command] {
		return false
	}
	for k, v := range c.Env {
		if want, ok := toolchainOnlyEnv[k]; !ok || want != v {
			return false
		}
	}
	return true
}
