package patch

import (
	"path"
	"strings"

	"github.com/bluekeyes/go-gitdiff/gitdiff"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// parseUnified reads a unified diff (git-style or plain) with go-gitdiff,
// after repairUnified has fixed the headers models get wrong.
func parseUnified(text string) (*Patch, error) {
	r := repairUnified(text)
	// The extra newline ends a binary patch whose blank last line was
	// trimmed with the reply's.
	files, _, err := gitdiff.Parse(strings.NewReader(r.text + "\n"))
	if err != nil {
		return nil, malformed("%v", err)
	}
	if len(files) == 0 {
		return nil, ErrNoPatch
	}
	p := &Patch{Format: glv1.PatchFormat_PATCH_FORMAT_UNIFIED}
	hunks := 0
	for _, gf := range files {
		f, err := fromGitdiff(gf)
		if err != nil {
			return nil, err
		}
		hunks += len(f.Hunks)
		p.Files = append(p.Files, f)
	}
	if hunks == len(r.positioned) { // else some "@@" was not a header: trust the numbers
		i := 0
		for _, f := range p.Files {
			for _, h := range f.Hunks {
				h.Positioned = r.positioned[i]
				i++
			}
		}
	}
	return p, nil
}

// fromGitdiff converts one go-gitdiff file.
func fromGitdiff(gf *gitdiff.File) (*File, error) {
	f := &File{
		OldPath: normalizePath(gf.OldName), NewPath: normalizePath(gf.NewName),
		OldMode: uint32(gf.OldMode), NewMode: uint32(gf.NewMode), Binary: gf.IsBinary,
	}
	switch {
	case gf.IsCopy:
		return nil, malformed("%s: copies are not supported; add the new file instead", gf.NewName)
	case gf.IsNew:
		f.Op, f.OldPath = OpAdd, ""
	case gf.IsDelete:
		f.Op, f.NewPath = OpDelete, ""
	case gf.IsRename:
		f.Op = OpRename
	default:
		f.Op = OpModify
		if f.NewPath == "" {
			f.NewPath = f.OldPath
		}
		f.OldPath = f.NewPath
	}
	for _, frag := range gf.TextFragments {
		f.Hunks = append(f.Hunks, fromFragment(frag))
	}
	return f, nil
}

// fromFragment converts one go-gitdiff text fragment.
func fromFragment(frag *gitdiff.TextFragment) *Hunk {
	h := &Hunk{OldStart: int(frag.OldPosition), NewStart: int(frag.NewPosition),
		Positioned: true, Section: frag.Comment}
	for _, l := range frag.Lines {
		text, eol := strings.CutSuffix(l.Line, "\n")
		op := LineOp(l.Op.String()[0])
		h.Lines = append(h.Lines, Line{Op: op, Text: text})
		if !eol {
			h.OldNoEOL = h.OldNoEOL || op != LineAdd
			h.NewNoEOL = h.NewNoEOL || op != LineDelete
		}
	}
	return h
}

// normalizePath cleans the harmless spellings of a relative path ("./x",
// "a//b") and leaves anything else as written, for Check to judge.
func normalizePath(p string) string {
	if p == "" || strings.HasPrefix(p, "/") || strings.IndexByte(p, 0) >= 0 {
		return p
	}
	for _, part := range strings.Split(p, "/") {
		if part == ".." {
			return p
		}
	}
	return path.Clean(p)
}
