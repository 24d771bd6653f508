package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// A problem is one name in a doc that does not exist.
type problem struct {
	file string // relative to the repository root
	line int
	msg  string
}

func (p problem) String() string { return fmt.Sprintf("%s:%d: %s", p.file, p.line, p.msg) }

// skipDirs are never read: other projects' files, build output, fixtures.
var skipDirs = map[string]bool{".git": true, "node_modules": true, "testdata": true, ".bin": true, "artifacts": true, "vendor": true}

// foreignDocs are docs whose make commands and test names are other
// projects' (the real-world corpus quotes each repository's own CI and
// tests).
var foreignDocs = map[string]bool{"docs/realworld.md": true}

// notGoTests are test-like names docs use for other languages' classes.
var notGoTests = map[string]bool{"TestCase": true} // Python's unittest.TestCase

// pathExempt are docs whose backquoted paths are not this repository's:
// the scale-out design quotes agent-sandbox's files and names packages it
// proposes.
var pathExempt = map[string]bool{"docs/scale-out.md": true}

// check reads every doc under root and returns what they name that does
// not exist: make commands (markdown, Go comments, shell and Makefile
// comments) whose target the Makefile lacks; in markdown, backquoted
// repository paths and relative links that are no file or directory, and
// backquoted test names that no _test.go declares.
func check(root string) ([]problem, int, error) {
	targets, err := makeTargets(filepath.Join(root, "Makefile"))
	if err != nil {
		return nil, 0, err
	}
	tests, err := testFuncs(root)
	if err != nil {
		return nil, 0, err
	}
	var probs []problem
	files := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if skipDirs[d.Name()] || rel == "tmp" {
				return filepath.SkipDir
			}
			return nil
		}
		var chunks []chunk
		md := strings.HasSuffix(rel, ".md")
		switch {
		case md:
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			chunks = markdownChunks(string(b))
		case strings.HasSuffix(rel, ".go"):
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			chunks = goCommentChunks(b)
		case rel == "Makefile" || rel == ".ci/run" || strings.HasSuffix(rel, ".sh"):
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			chunks = shellCommentChunks(string(b))
		default:
			return nil
		}
		files++
		dir := filepath.Dir(path)
		for _, c := range chunks {
			if !foreignDocs[rel] {
				for _, m := range makeMentions(c.text, c.first, c.code) {
					if !targets[m.text] {
						probs = append(probs, problem{rel, m.line, fmt.Sprintf("make %s: no such Makefile target", m.text)})
					}
				}
			}
			if !md || c.code {
				continue
			}
			for _, m := range pathMentions(c.text, c.first) {
				if !pathExempt[rel] && repoPath(root, dir, m.text) && !exists(root, m.text) && !exists(dir, m.text) &&
					!ignored(root, m.text) && !ignored(dir, m.text) {
					probs = append(probs, problem{rel, m.line, fmt.Sprintf("`%s`: no such file or directory", m.text)})
				}
			}
			for _, m := range testMentions(c.text, c.first) {
				if !foreignDocs[rel] && !notGoTests[m.text] && !tests[m.text] {
					probs = append(probs, problem{rel, m.line, fmt.Sprintf("%s: no such test function in any _test.go", m.text)})
				}
			}
			for _, m := range linkMentions(c.text, c.first) {
				base := dir
				if strings.HasPrefix(m.text, "/") {
					base = root
				}
				if !exists(base, m.text) {
					probs = append(probs, problem{rel, m.line, fmt.Sprintf("link %s: no such file or directory", m.text)})
				}
			}
		}
		return nil
	})
	sort.Slice(probs, func(i, j int) bool {
		if probs[i].file != probs[j].file {
			return probs[i].file < probs[j].file
		}
		return probs[i].line < probs[j].line
	})
	return probs, files, err
}

// testFuncs returns the names of every test, benchmark and fuzz target
// declared in a _test.go file under root (fixtures included: a doc may
// describe an example project's test).
func testFuncs(root string) (map[string]bool, error) {
	names := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" || d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range testFunc.FindAllSubmatch(b, -1) {
			names[string(m[1])] = true
		}
		return nil
	})
	return names, err
}

// repoPath tells whether p names something in this repository: its first
// element is a directory at the root or beside the doc (a service's README
// writes `internal/engine/run.go`). `web/` or `tests/test_x.py` in a doc
// about other projects is not.
func repoPath(root, dir, p string) bool {
	first, _, _ := strings.Cut(p, "/")
	if first == "." || first == ".." {
		return false
	}
	return isDir(filepath.Join(root, first)) || isDir(filepath.Join(dir, first))
}

func exists(base, p string) bool {
	_, err := os.Stat(filepath.Join(base, filepath.FromSlash(p)))
	return err == nil
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// ignored tells whether p (relative to dir) is under an entry of dir's
// .gitignore: what a build makes (.bin/compose-service-token,
// src/generated) is named by docs but not committed. Only plain entries
// count, not globs.
func ignored(dir, p string) bool {
	b, err := os.ReadFile(filepath.Join(dir, ".gitignore"))
	if err != nil {
		return false
	}
	for _, l := range strings.Split(string(b), "\n") {
		e := strings.Trim(strings.TrimSpace(l), "/")
		if e == "" || strings.HasPrefix(e, "#") || strings.HasPrefix(e, "!") || strings.ContainsAny(e, "*?[") {
			continue
		}
		if p == e || strings.HasPrefix(p, e+"/") {
			return true
		}
	}
	return false
}
