package parse

import (
	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"

	"path"
	"strings"
)

// FormatMakeTarget is a test step's failed make recipe when nothing else
// in its output says which test failed: suites of shell scripts or
// programs that stop at their first failed check (zstd's playTests.sh,
// zlib's `make test`) print no runner's format, and GNU make's `make[1]:
// *** [Makefile:330: test-zstd] Error 1` names the target whose recipe
// failed and the Makefile line of that recipe.
const FormatMakeTarget = "make-target"

var (
	// `make[1]: *** [Makefile:330: test-zstd] Error 1`; make before 4.2
	// prints no location: `make: *** [test] Error 1`.
	reMakeFailed = lazyregexp.New(`^g?make(?:\[(\d+)\])?: \*\*\* \[(?:(.+?):(\d+): )?([^\]]+)\] (.+)$`)
	// `make[1]: Entering directory '/workspace/tests'`, by level.
	reMakeLevelDir = lazyregexp.New(`^g?make(?:\[(\d+)\])?: Entering directory [` + "`" + `']([^']+)'$`)
)

// makeContext is how many output lines before the failed recipe its
// message quotes.
const makeContext = 6

// makeTargetParser finds the first recipe make reports failed (the
// innermost: make prints it before the recipes of the levels above).
type makeTargetParser struct {
	lim   *Limits
	paths *Paths
	set   *testSet
	// dirs are the directories make entered, by level.
	dirs [maxMakeDepth]string
	// recent are the last output lines that were not make's own.
	recent [makeContext]string
	n      int
	done   bool
}

func newMakeTargetParser(lim *Limits, paths *Paths) *makeTargetParser {
	return &makeTargetParser{lim: lim, paths: paths, set: newTestSet(lim)}
}

func (p *makeTargetParser) feed(ln line) {
	t := ln.text
	if p.done || len(t) == 0 {
		return
	}
	if !hasPrefix(t, "make") && !hasPrefix(t, "gmake") {
		s := strings.TrimSpace(string(t[:min(len(t), 512)]))
		if s != "" {
			p.recent[p.n%makeContext] = s
			p.n++
		}
		return
	}
	if m := reMakeLevelDir.FindSubmatch(t); m != nil {
		if lv := atoi(m[1]); lv < maxMakeDepth {
			p.dirs[lv] = string(m[2])
		}
		return
	}
	m := reMakeFailed.FindSubmatch(t)
	if m == nil {
		return
	}
	target := string(m[4])
	p.done = true
	if builtProduct(target) {
		return // a build failed: the recipes above it failed for that
	}
	if why := string(m[5]); why == "Error 127" || why == "Error 126" {
		return // a command not found or not executable: no test ran
	}
	rec := Test{ID: target, Name: target, Status: StatusFailed, Offset: ln.off}
	if len(m[2]) > 0 {
		mk := string(m[2])
		if lv := atoi(m[1]); lv < maxMakeDepth && p.dirs[lv] != "" && !path.IsAbs(mk) {
			mk = path.Join(p.dirs[lv], mk)
		}
		if file, project := p.paths.Normalize(mk); project {
			rec.File, rec.Line, rec.Suite = file, atoi(m[3]), file
		}
	}
	msg := msgBuf{max: p.lim.MaxMessageBytes}
	msg.add([]byte("make target " + target + " failed (" + string(m[5]) + ")"))
	for i := max(0, p.n-makeContext); i < p.n; i++ {
		msg.add([]byte(p.recent[i%makeContext]))
	}
	rec.Message = msg.String()
	p.set.add(rec)
}

// builtProduct reports whether a make target is a file a build writes (an
// object, a library, CMake's per-directory targets), not a test.
func builtProduct(target string) bool {
	if strings.Contains(target, "CMakeFiles/") {
		return true
	}
	switch path.Ext(target) {
	case ".o", ".obj", ".a", ".so", ".lo", ".la", ".dylib", ".dll", ".exe", ".lib":
		return true
	}
	return false
}

// candidate is the failed recipe as the step's one failed check; offered
// only for a failed test step without compiler diagnostics (a build
// failure's recipe is no test).
func (p *makeTargetParser) candidate() candidate {
	return candidate{format: FormatMakeTarget, rank: 1, set: p.set}
}
