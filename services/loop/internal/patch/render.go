package patch

import (
	"os"
	"strings"

	"github.com/bluekeyes/go-gitdiff/gitdiff"
)

// contextLines is the context a canonical diff carries around changes,
// as `diff -u` and `git diff` do.
const contextLines = 3

// change is one file of an applied patch, with everything needed to
// render it: the old and new content and the applied hunks as one
// sequence of lines covering the whole file.
type change struct {
	file             *File
	oldMode, newMode uint32
	ops              []Line
	oldEOL, newEOL   bool
}

// render writes changes as a canonical git-style unified diff: real line
// numbers, three lines of context, hunks merged where their context
// touches, file modes, renames and "\ No newline at end of file" markers,
// whatever spelling the patch arrived in.
func render(changes []change) string {
	var b strings.Builder
	for _, c := range changes {
		b.WriteString(c.gitdiffFile().String())
	}
	return b.String()
}

// gitdiffFile builds the go-gitdiff file the formatter writes.
func (c change) gitdiffFile() *gitdiff.File {
	f := c.file
	gf := &gitdiff.File{OldName: f.OldPath, NewName: f.NewPath,
		IsNew: f.Op == OpAdd, IsDelete: f.Op == OpDelete, IsRename: f.Op == OpRename}
	switch {
	case gf.IsNew:
		gf.NewMode = gitMode(c.newMode)
	case gf.IsDelete:
		gf.OldMode = gitMode(c.oldMode)
	case c.oldMode != c.newMode:
		gf.OldMode, gf.NewMode = gitMode(c.oldMode), gitMode(c.newMode)
	}
	gf.TextFragments = fragments(c.markEOL(), contextLines)
	return gf
}

// gitMode converts a git mode for the formatter.
func gitMode(m uint32) os.FileMode { return os.FileMode(m) }

// markEOL returns the ops with newlines attached, leaving them off the
// last line of a side that has no final newline; a context line that is
// the last old line but not the last new one (or the reverse) is split
// into a deletion and an addition, as diff does.
func (c change) markEOL() []gitdiff.Line {
	ops := c.ops
	lastOld, lastNew := lastIndex(ops, LineDelete), lastIndex(ops, LineAdd)
	needSplit := lastOld >= 0 && ops[lastOld].Op == LineContext &&
		(!c.oldEOL || !c.newEOL) && (lastOld != lastNew || c.oldEOL != c.newEOL)
	if needSplit {
		l := ops[lastOld]
		split := append([]Line{}, ops[:lastOld]...)
		split = append(split, Line{Op: LineDelete, Text: l.Text}, Line{Op: LineAdd, Text: l.Text})
		ops = append(split, ops[lastOld+1:]...)
		lastOld, lastNew = lastIndex(ops, LineDelete), lastIndex(ops, LineAdd)
	}
	out := make([]gitdiff.Line, len(ops))
	for i, l := range ops {
		text := l.Text + "\n"
		if (i == lastOld && !c.oldEOL) || (i == lastNew && !c.newEOL) {
			text = l.Text
		}
		out[i] = gitdiff.Line{Op: gitdiffOp(l.Op), Line: text}
	}
	return out
}

// lastIndex returns the index of the last line on the side that has
// changed lines of kind side (plus context), or -1.
func lastIndex(ops []Line, side LineOp) int {
	for i := len(ops) - 1; i >= 0; i-- {
		if ops[i].Op == LineContext || ops[i].Op == side {
			return i
		}
	}
	return -1
}

// gitdiffOp converts a line role.
func gitdiffOp(op LineOp) gitdiff.LineOp {
	switch op {
	case LineDelete:
		return gitdiff.OpDelete
	case LineAdd:
		return gitdiff.OpAdd
	}
	return gitdiff.OpContext
}

// fragments cuts a whole-file line sequence into hunks with ctx lines of
// context, merging hunks whose context would overlap or touch.
func fragments(lines []gitdiff.Line, ctx int) []*gitdiff.TextFragment {
	var changed []int
	for i, l := range lines {
		if l.Op != gitdiff.OpContext {
			changed = append(changed, i)
		}
	}
	var out []*gitdiff.TextFragment
	for k := 0; k < len(changed); {
		first, last := changed[k], changed[k]
		for k++; k < len(changed) && changed[k]-last <= 2*ctx+1; k++ {
			last = changed[k]
		}
		out = append(out, fragment(lines, max(first-ctx, 0), min(last+ctx+1, len(lines))))
	}
	return out
}

// fragment builds the hunk covering lines[start:end].
func fragment(lines []gitdiff.Line, start, end int) *gitdiff.TextFragment {
	var oldBefore, newBefore int64
	for _, l := range lines[:start] {
		if l.Old() {
			oldBefore++
		}
		if l.New() {
			newBefore++
		}
	}
	f := &gitdiff.TextFragment{Lines: append([]gitdiff.Line(nil), lines[start:end]...)}
	for _, l := range f.Lines {
		switch l.Op {
		case gitdiff.OpContext:
			f.OldLines++
			f.NewLines++
		case gitdiff.OpDelete:
			f.OldLines++
			f.LinesDeleted++
		case gitdiff.OpAdd:
			f.NewLines++
			f.LinesAdded++
		}
	}
	f.OldPosition, f.NewPosition = oldBefore, newBefore
	if f.OldLines > 0 {
		f.OldPosition++
	}
	if f.NewLines > 0 {
		f.NewPosition++
	}
	return f
}

// wholeFile returns a file's lines as context, with applied hunks spliced
// in at the indexes they were applied at.
func wholeFile(old text, hunks []*Hunk, at []int) []Line {
	var ops []Line
	cursor := 0
	for i, h := range hunks {
		for ; cursor < at[i]; cursor++ {
			ops = append(ops, Line{Op: LineContext, Text: old.lines[cursor]})
		}
		ops = append(ops, h.Lines...)
		cursor = at[i] + len(h.oldLines())
	}
	for ; cursor < len(old.lines); cursor++ {
		ops = append(ops, Line{Op: LineContext, Text: old.lines[cursor]})
	}
	return ops
}
