package parse

import (
	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"

	"bytes"
	"path"
	"strconv"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// FormatGitDiff is `git diff` output in a failed step: the assertion of
// suites that regenerate committed files and fail when they changed
// (`./unittest.sh && git diff --exit-code` over golden outputs, a make
// target diffing generated code). Each changed file is a failed check,
// placed at its first changed line.
const FormatGitDiff = "git-diff"

var (
	// `diff --git a/tests/out.txt b/tests/out.txt` (`--no-prefix`: no a/ b/).
	reGitDiffHead = lazyregexp.New(`^diff --git (\S+) (\S+)$`)
	// `@@ -1,20 +1,21 @@ optional context`.
	reGitDiffHunk = lazyregexp.New(`^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@`)
)

// gitDiffContext is how many lines of a file's first change the message
// quotes.
const gitDiffContext = 12

// gitDiffParser reads the files `git diff` lists and where each first
// changed.
type gitDiffParser struct {
	lim   *Limits
	paths *Paths
	set   *testSet
	// cur is the file being read; prefixed says whether its header used
	// git's a/ b/ prefixes.
	cur      *Test
	prefixed bool
	// oldPath is the `--- ` side, the file's name when it was deleted.
	oldPath string
	// inHunk is true inside the file's first hunk, until its first change
	// has been read; newLine counts the new side's lines.
	inHunk  bool
	newLine int
	oldLine int
	quoted  int
	msg     msgBuf
}

func newGitDiffParser(lim *Limits, paths *Paths) *gitDiffParser {
	return &gitDiffParser{lim: lim, paths: paths, set: newTestSet(lim)}
}

func (p *gitDiffParser) feed(ln line) {
	t := ln.text
	if hasPrefix(t, "diff --git ") {
		p.end()
		m := reGitDiffHead.FindSubmatch(t)
		if m == nil {
			return
		}
		p.prefixed = hasPrefix(m[1], "a/") && hasPrefix(m[2], "b/")
		name := string(m[2])
		if p.prefixed {
			name = name[2:]
		}
		p.cur = &Test{Name: name, Offset: ln.off}
		p.oldPath, p.inHunk, p.quoted = "", false, 0
		p.msg = msgBuf{max: p.lim.MaxMessageBytes}
		return
	}
	if p.cur == nil {
		return
	}
	switch {
	case p.inHunk:
		p.hunkLine(t)
	case p.cur.Line > 0 || p.quoted > 0:
		// Past the first change: later hunks say nothing more.
		if hasPrefix(t, "@@ ") || len(t) > 0 && (t[0] == '+' || t[0] == '-' || t[0] == ' ' || t[0] == '\\') {
			return
		}
		p.end()
	case hasPrefix(t, "--- "):
		p.oldPath = p.side(t[4:], "a/")
	case hasPrefix(t, "+++ "):
		if side := p.side(t[4:], "b/"); side != "/dev/null" {
			p.cur.Name = side
		} else if p.oldPath != "" {
			p.cur.Name = p.oldPath
		}
	case hasPrefix(t, "@@ "):
		m := reGitDiffHunk.FindSubmatch(t)
		if m == nil {
			p.cur = nil
			return
		}
		p.oldLine, _ = strconv.Atoi(string(m[1]))
		p.newLine, _ = strconv.Atoi(string(m[2]))
		p.inHunk = true
		p.msg.add(t)
	case hasPrefix(t, "Binary files ") && hasSuffix(t, " differ"):
		p.quoted = 1
		p.msg.add(t)
	case hasPrefix(t, "index ") || hasPrefix(t, "new file mode ") || hasPrefix(t, "deleted file mode ") ||
		hasPrefix(t, "old mode ") || hasPrefix(t, "new mode ") || hasPrefix(t, "similarity index ") ||
		hasPrefix(t, "rename from ") || hasPrefix(t, "rename to "):
	default:
		// Not a diff's header line: whatever this was, it is no diff.
		p.cur = nil
	}
}

// side is a path of a `--- `/`+++ ` line without git's prefix.
func (p *gitDiffParser) side(t []byte, prefix string) string {
	s := string(bytes.TrimRight(t, "\t"))
	if p.prefixed {
		s = strings.TrimPrefix(s, prefix)
	}
	return s
}

// hunkLine reads a line of the file's first hunk: context until the first
// change, whose line on the new side (the old one for a deleted file)
// places the file, then a few more lines for the message.
func (p *gitDiffParser) hunkLine(t []byte) {
	if len(t) == 0 {
		t = []byte(" ")
	}
	switch t[0] {
	case ' ', '-', '+', '\\':
	default:
		p.inHunk = false
		p.end()
		return
	}
	if p.cur.Line == 0 {
		switch t[0] {
		case ' ':
			p.newLine++
			p.oldLine++
		case '-', '+':
			p.cur.Line = max(p.newLine, 1)
			if p.cur.Name == p.oldPath && p.oldPath != "" && !p.paths.Exists(p.cur.Name) {
				p.cur.Line = max(p.oldLine, 1)
			}
		}
	}
	if p.quoted < gitDiffContext {
		p.msg.add(t)
		p.quoted++
	}
	if p.cur.Line > 0 && p.quoted >= gitDiffContext {
		p.inHunk = false
	}
}

// end keeps the file being read when a change of it was seen.
func (p *gitDiffParser) end() {
	t := p.cur
	p.cur, p.inHunk = nil, false
	if t == nil || (t.Line == 0 && p.quoted == 0) || t.Name == "" || len(t.Name) > 512 {
		return
	}
	file, ok := p.file(t.Name)
	if !ok {
		return
	}
	t.ID, t.Name, t.File, t.Suite = file, file, file, "git diff"
	t.Status, t.kind = StatusFailed, glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION
	t.Message = file + " differs from the committed file:\n" + p.msg.String()
	p.set.add(*t)
}

// file is the workspace path of a path git printed: git prints them from
// the repository's top, which is the workspace root, or the step's
// workdir for a repository of its own there. false for a path outside the
// project.
func (p *gitDiffParser) file(name string) (string, bool) {
	if path.IsAbs(name) {
		return p.paths.Normalize(name)
	}
	rel := path.Clean(name)
	if rel == ".." || strings.HasPrefix(rel, "../") {
		return "", false
	}
	if _, project := p.paths.Normalize(rel); !project {
		return "", false
	}
	if !p.paths.Exists(rel) && p.paths.Workdir != "" {
		if alt := path.Join(p.paths.Workdir, rel); p.paths.Exists(alt) {
			return alt, true
		}
	}
	return rel, true
}

func (p *gitDiffParser) finish() { p.end() }

// candidate is the diff's account of a failed step: one failed check per
// changed file. It is offered only for a step that failed: a diff printed
// by a step that passed asserted nothing.
func (p *gitDiffParser) candidate() candidate {
	return candidate{format: FormatGitDiff, rank: 1, set: p.set}
}
