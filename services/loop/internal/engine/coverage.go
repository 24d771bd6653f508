package engine

import (
	"context"
	"io"
	"io/fs"
	"path"

	"go.uber.org/zap"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/coverage"
)

// maxCoverageBytes caps one coverage report read (the executor caps a
// report file at 16 MiB too).
const maxCoverageBytes = 16 << 20

// pythonCoverageTool names coverage.py's LCOV in the result.
const pythonCoverageTool = "coverage.py"

// stepCoverage reads the coverage reports the step wrote (see
// coverage.Instrument); nil when it wrote none. A report that cannot be
// read or parsed is logged and left out: coverage never decides anything.
func (r *run) stepCoverage(ctx context.Context, s *glv1.Step, fsys fs.FS, arts []*glv1.Artifact) *coverage.Set {
	var out *coverage.Set
	for _, want := range s.GetReportFiles() {
		if !coverage.IsReport(want) {
			continue
		}
		if coverage.IsV8(want) {
			out = mergeInto(out, r.v8Coverage(ctx, s, fsys, arts, want))
			continue
		}
		a := reportArtifact(arts, s.GetName(), want)
		if a == nil {
			continue
		}
		rc, err := r.openBlob(ctx, a.GetDigest())
		if err != nil {
			continue
		}
		lr := io.LimitReader(rc, maxCoverageBytes)
		var set *coverage.Set
		switch {
		case coverage.IsGo(want):
			module := goModule(fsys, s.GetWorkdir())
			if module == "" {
				module = coverage.GopathImport(s.GetCommand())
			}
			set, err = coverage.ParseGoProfile(lr, module, s.GetWorkdir())
		case coverage.IsGcov(want):
			set, err = coverage.ParseGcov(lr, inTree(fsys))
		default:
			set, err = coverage.ParseLCOV(lr, s.GetWorkdir(), pythonCoverageTool, true)
		}
		rc.Close()
		if err != nil {
			r.log.Warn("reading a coverage report failed", zap.String("step", s.GetName()), zap.Error(err))
			continue
		}
		out = mergeInto(out, set)
	}
	return out
}

// mergeInto merges set into out, allocating out on first use.
func mergeInto(out, set *coverage.Set) *coverage.Set {
	if set.Empty() {
		return out
	}
	if out == nil {
		out = coverage.NewSet()
	}
	out.Merge(set)
	return out
}

// v8Coverage reads the V8 coverage files of every Node process the step
// ran (a pattern report, one file per process); the sources come from the
// snapshot, without which nothing can be mapped to lines.
func (r *run) v8Coverage(ctx context.Context, s *glv1.Step, fsys fs.FS, arts []*glv1.Artifact, want string) *coverage.Set {
	if fsys == nil {
		return nil
	}
	files := map[string]io.Reader{}
	r.patternReports(ctx, files, arts, s.GetName(), want)
	src := func(rel string) ([]byte, bool) {
		b, err := fs.ReadFile(fsys, rel)
		return b, err == nil
	}
	var out *coverage.Set
	for name, rd := range files {
		set, err := coverage.ParseV8(rd, src)
		if err != nil {
			r.log.Warn("reading a coverage report failed", zap.String("step", s.GetName()), zap.String("file", name), zap.Error(err))
			continue
		}
		out = mergeInto(out, set)
	}
	return out
}

// inTree reports whether a workspace path is a regular file of the
// snapshot; nil (keep every path) when the tree is not at hand.
func inTree(fsys fs.FS) func(string) bool {
	if fsys == nil {
		return nil
	}
	seen := map[string]bool{} // gcov names a header once per object
	return func(rel string) bool {
		in, ok := seen[rel]
		if !ok {
			st, err := fs.Stat(fsys, rel)
			in = err == nil && st.Mode().IsRegular()
			seen[rel] = in
		}
		return in
	}
}

// goModule is the module path of the go.mod in a step's working
// directory, "" when the tree or the file is not at hand.
func goModule(fsys fs.FS, workdir string) string {
	if fsys == nil {
		return ""
	}
	b, err := fs.ReadFile(fsys, path.Join(path.Clean("./"+workdir), "go.mod"))
	if err != nil {
		return ""
	}
	return coverage.ModulePath(b)
}
