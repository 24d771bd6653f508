package sandbox

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"go.uber.org/zap"
)

// A warm developer machine keeps more than what the toolchain-only steps
// compile: `go test` compiles every package again with its test files and
// coverage instrumentation, and on a re-verify that compile was the larger
// part of the test step (chi: 4.2 s of go test after a restore, 0.65 s
// with it warm). It happens inside the test step, after the trust point,
// so it could never be kept. The warm compile does the same compile before
// the trust point, in the toolchain-only steps' directories and with their
// environment, without running anything of the project: `go test
// -exec=/bin/true` hands each linked test binary to /bin/true instead of
// running it (no TestMain, no init of the project ever executes), and the
// go command's own vet pass is the toolchain's. The state saved right
// after it then holds the instrumented test compile of the snapshot's
// packages (and of their dependencies, which is what stays valid while the
// lockfiles do). A compile that fails (a test file that does not build)
// or runs out of time still leaves only complete cache entries (the go
// command writes an entry's output before its index line, and a killed
// process group leaves no writer behind), so the state is saved either way.

// LabelWarmCompile is an image label holding the warm compile command (run
// by /bin/sh as the sandbox user). It overrides defaultWarmCompile; an
// empty value turns it off.
const LabelWarmCompile = "greenlight.warm.compile"

// warmCompileTimeout bounds the warm compile in each directory; the whole
// process group is killed then (coreutils timeout signals its group).
const warmCompileTimeout = 90 * time.Second

// defaultWarmCompile is the warm compile of greenlight's images, by kind.
// -cover because greenlight measures coverage by default (the test step's
// GOFLAGS=-coverprofile compiles the same actions as -cover); -count=1 and
// -run keep it out of the test result cache. A directory without go.mod
// (GOPATH mode) is left alone.
var defaultWarmCompile = map[string]string{
	"go": fmt.Sprintf(`[ -f go.mod ] || exit 0; exec timeout -s KILL %d go test -count=1 -run='^$' -exec=/bin/true -cover ./... >/dev/null 2>&1`,
		int(warmCompileTimeout.Seconds())),
}

// warmCompileCmd is img's warm compile command, "" for none.
func warmCompileCmd(img ImageInfo) string {
	if l, ok := img.Labels[LabelWarmCompile]; ok {
		return strings.TrimSpace(l)
	}
	return defaultWarmCompile[img.Labels[labelImageKind]]
}

// warmDir is where a toolchain-only step ran, with its environment (only
// what ToolchainOnly allows: GOWORK, GO111MODULE, GOPATH, an empty GOFLAGS).
type warmDir struct {
	workdir string
	env     map[string]string
}

// ranIn remembers the directory and environment of toolchain-only step s,
// once per directory: the environment with the most settings is the
// toolchain's (the Go steps' GOWORK=off), not the secret scan's none.
func (ws *warmState) ranIn(s *Step) {
	if ws.compile == "" {
		return
	}
	for i, d := range ws.dirs {
		if d.workdir == s.Workdir {
			if len(s.Env) > len(d.env) {
				ws.dirs[i].env = s.Env
			}
			return
		}
	}
	ws.dirs = append(ws.dirs, warmDir{workdir: s.Workdir, env: s.Env})
}

// warmCompile runs the box's warm compile in every directory its
// toolchain-only steps ran in, while there is time left in the run, and
// returns what it did for the saved-state message ("" when nothing ran).
// ok is false when an exec failed (the engine, the runner, our own
// deadline): a compile may still be writing, so nothing is saved.
func (rn *run) warmCompile(ctx context.Context, b *box) (note string, ok bool) {
	ws := b.warm
	if ws.compile == "" || len(ws.dirs) == 0 {
		return "", true
	}
	start, ran := time.Now(), 0
	for _, d := range ws.dirs {
		if time.Until(rn.deadline()) < 3*warmCompileTimeout {
			break // a run near its end needs its time for the tests
		}
		cctx, cancel := context.WithTimeout(ctx, warmCompileTimeout+30*time.Second)
		env := make([]string, 0, len(d.env))
		for _, k := range slices.Sorted(maps.Keys(d.env)) {
			env = append(env, k+"="+d.env[k])
		}
		res, err := rn.r.exec(cctx, b, ExecSpec{Cmd: []string{"/bin/sh", "-c", ws.compile}, User: SandboxUser,
			WorkDir: workdirPath(d.workdir), Env: env})
		cancel()
		if err != nil {
			rn.log.Info("the warm compile failed; the warm build state is not saved", zap.String("workdir", d.workdir), zap.Error(err))
			return "", false
		}
		if res.code != 0 {
			rn.log.Debug("the warm compile exited with an error", zap.String("workdir", d.workdir), zap.Int("exit_code", res.code))
		}
		ran++
	}
	if ran == 0 {
		return "", true
	}
	return fmt.Sprintf(", after compiling the tests without running them in %s", time.Since(start).Round(time.Millisecond)), true
}
