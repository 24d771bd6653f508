package patch

import (
	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// Patch is a parsed patch in the package's one internal representation,
// whatever spelling it arrived in.
type Patch struct {
	// Format is the spelling the patch arrived in.
	Format glv1.PatchFormat
	// Files holds one entry per touched file, in patch order.
	Files []*File
	// Text is the patch text proper, as extracted from the reply: what to
	// show for a patch that was refused before it could be applied.
	Text string
	// Bytes is the size of the patch text proper (without the prose or
	// markers around it), the figure the byte cap applies to.
	Bytes int
	// NUL is true when the patch text contains a NUL byte.
	NUL bool
}

// FileOp is what a patch does to one file.
type FileOp int

// File operations.
const (
	OpModify FileOp = iota // change an existing file in place
	OpAdd                  // create a file
	OpDelete               // remove a file
	OpRename               // move a file, possibly changing it too
)

// String names the operation.
func (o FileOp) String() string {
	return [...]string{"modify", "add", "delete", "rename"}[o]
}

// Git file modes a patch may carry.
const (
	ModeFile       uint32 = 0o100644
	ModeExecutable uint32 = 0o100755
	ModeSymlink    uint32 = 0o120000
	ModeGitlink    uint32 = 0o160000
)

// File is one file's change.
type File struct {
	Op FileOp
	// OldPath is empty for OpAdd; NewPath is empty for OpDelete; both are
	// equal for OpModify. Paths are clean, slash-separated and relative to
	// the workspace root.
	OldPath, NewPath string
	// OldMode and NewMode are git modes (0 when the patch does not say).
	OldMode, NewMode uint32
	// Binary is true for "GIT binary patch" and "Binary files differ".
	Binary bool
	// Hunks are the text changes, in file order.
	Hunks []*Hunk
}

// Path returns the path the file has after the patch (the old path for a
// deletion).
func (f *File) Path() string {
	if f.NewPath != "" {
		return f.NewPath
	}
	return f.OldPath
}

// Paths returns the distinct paths the file change touches.
func (f *File) Paths() []string {
	switch {
	case f.OldPath == "":
		return []string{f.NewPath}
	case f.NewPath == "" || f.NewPath == f.OldPath:
		return []string{f.OldPath}
	}
	return []string{f.OldPath, f.NewPath}
}

// LineOp is the role of one hunk line.
type LineOp byte

// Hunk line roles, spelled as in a unified diff.
const (
	LineContext LineOp = ' '
	LineDelete  LineOp = '-'
	LineAdd     LineOp = '+'
)

// Line is one line of a hunk, without its newline.
type Line struct {
	Op   LineOp
	Text string
}

// Hunk is one contiguous change.
type Hunk struct {
	// OldStart and NewStart are 1-based line numbers as a unified diff
	// states them (0 for an empty side); meaningful only when Positioned.
	OldStart, NewStart int
	// Positioned is false for envelope hunks and for unified hunks whose
	// "@@" carried no line numbers: they are located by context alone.
	Positioned bool
	// Anchors are envelope "@@ text" lines: each is found, in order,
	// before the hunk's context is searched for.
	Anchors []string
	// Section is the text after a unified header's closing "@@".
	Section string
	// AtEOF is the envelope's "*** End of File": the hunk ends the file.
	AtEOF bool
	// OldNoEOL and NewNoEOL mark "\ No newline at end of file" after the
	// hunk's last old or new line.
	OldNoEOL, NewNoEOL bool
	// Lines are the hunk's lines in order.
	Lines []Line
}

// oldLines returns the lines the hunk expects to find.
func (h *Hunk) oldLines() []string { return h.side(LineDelete) }

// newLines returns the lines the hunk leaves in their place.
func (h *Hunk) newLines() []string { return h.side(LineAdd) }

func (h *Hunk) side(changed LineOp) []string {
	out := make([]string, 0, len(h.Lines))
	for _, l := range h.Lines {
		if l.Op == LineContext || l.Op == changed {
			out = append(out, l.Text)
		}
	}
	return out
}

// counts returns the lines the hunk adds and removes.
func (h *Hunk) counts() (added, removed int) {
	for _, l := range h.Lines {
		switch l.Op {
		case LineAdd:
			added++
		case LineDelete:
			removed++
		}
	}
	return added, removed
}

// Counts returns the lines the patch adds and removes as written (a file
// deletion spelled without its content counts only once applied).
func (p *Patch) Counts() (added, removed int) {
	for _, f := range p.Files {
		for _, h := range f.Hunks {
			a, r := h.counts()
			added += a
			removed += r
		}
	}
	return added, removed
}
