package coverage

import (
	"path"
	"slices"
	"sort"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// MaxFiles caps the files one result lists; the totals still count all.
const MaxFiles = 500

// Unit is one measured place of a file: a line (LCOV) or a Go statement
// block holding N statements.
type Unit struct {
	N   int64
	Hit bool
}

// File is one source file's coverage: its units by position ("12" for a
// line, "7.24,8.12" for a Go block).
type File struct {
	Path  string
	Units map[string]Unit
}

// Covered counts the file's units (lines, Go statements) that ran.
func (f *File) Covered() int64 {
	var n int64
	for _, u := range f.Units {
		if u.Hit {
			n += u.N
		}
	}
	return n
}

// Total counts the file's units.
func (f *File) Total() int64 {
	var n int64
	for _, u := range f.Units {
		n += u.N
	}
	return n
}

// Set is the coverage of one or more test steps, by workspace path.
type Set struct {
	Files map[string]*File
	Tools []string
}

// NewSet returns an empty set.
func NewSet() *Set { return &Set{Files: map[string]*File{}} }

// add records one unit of a file; a unit any step ran counts as covered.
func (s *Set) add(file, pos string, u Unit) {
	f := s.Files[file]
	if f == nil {
		f = &File{Path: file, Units: map[string]Unit{}}
		s.Files[file] = f
	}
	old := f.Units[pos]
	f.Units[pos] = Unit{N: max(old.N, u.N), Hit: old.Hit || u.Hit}
}

// Merge adds o's files and tools to s.
func (s *Set) Merge(o *Set) {
	if o == nil {
		return
	}
	for _, f := range o.Files {
		for pos, u := range f.Units {
			s.add(f.Path, pos, u)
		}
	}
	for _, t := range o.Tools {
		if !slices.Contains(s.Tools, t) {
			s.Tools = append(s.Tools, t)
		}
	}
}

// Empty reports whether nothing was measured.
func (s *Set) Empty() bool { return s == nil || len(s.Files) == 0 }

// percent is covered/total in percent, 0 for nothing measured.
func percent(covered, total int64) float64 {
	if total == 0 {
		return 0
	}
	return float64(covered) * 100 / float64(total)
}

// Proto is the result's coverage; nil when nothing was measured.
func (s *Set) Proto() *glv1.Coverage {
	if s.Empty() {
		return nil
	}
	out := &glv1.Coverage{Tools: slices.Clone(s.Tools)}
	paths := make([]string, 0, len(s.Files))
	for p := range s.Files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		f := s.Files[p]
		c, t := f.Covered(), f.Total()
		out.CoveredLines += c
		out.TotalLines += t
		if len(out.Files) >= MaxFiles {
			out.FilesOmitted++
			continue
		}
		out.Files = append(out.Files, &glv1.FileCoverage{Path: p, CoveredLines: c, TotalLines: t, Percent: percent(c, t)})
	}
	out.Percent = percent(out.CoveredLines, out.TotalLines)
	return out
}

// Compare records base (the baseline verification's coverage in a fix run)
// on cur: the baseline's totals, and per file how many more lines are
// uncovered than at the baseline, so a patch that adds code without tests
// shows. Files the baseline did not measure are new files.
func Compare(cur, base *glv1.Coverage) {
	if cur == nil || base == nil {
		return
	}
	cur.Baseline = &glv1.CoverageBaseline{CoveredLines: base.GetCoveredLines(), TotalLines: base.GetTotalLines(), Percent: base.GetPercent()}
	was := map[string]*glv1.FileCoverage{}
	for _, f := range base.GetFiles() {
		was[f.GetPath()] = f
	}
	for _, f := range cur.GetFiles() {
		b, ok := was[f.GetPath()]
		if !ok {
			// A file past the baseline's cap is unknown, not new.
			if base.GetFilesOmitted() == 0 {
				f.NewFile = true
				f.UncoveredChange = f.GetTotalLines() - f.GetCoveredLines()
			}
			continue
		}
		f.UncoveredChange = (f.GetTotalLines() - f.GetCoveredLines()) - (b.GetTotalLines() - b.GetCoveredLines())
	}
}

// Join puts a path reported relative to a step's working directory under
// the workspace root; absolute paths under the sandbox's workspace lose
// that prefix. ok is false for a path outside the workspace.
func Join(workdir, p string) (string, bool) {
	const root = "/workspace/"
	if strings.HasPrefix(p, "/") {
		rest, ok := strings.CutPrefix(p, root)
		if !ok {
			return "", false
		}
		return path.Clean(rest), true
	}
	j := path.Clean(path.Join(workdir, p))
	if j == ".." || strings.HasPrefix(j, "../") {
		return "", false
	}
	return j, true
}
