// Package cisource learns from a repository's own CI what its maintainers
// run: the run: steps of GitHub Actions workflows, .gitlab-ci.yml scripts,
// and the test definitions CI usually calls (Makefile test/check targets,
// package.json scripts.test, tox's default envlist, nox sessions). Each
// learned command keeps its source (file, key, line) and is classified
// like any other command; what cannot run in a sandbox (deploys, uploads,
// actions, system package installs, secrets) is kept out with a note.
//
// The capability package uses what is learned: a discovered lint or
// typecheck step the maintainers run becomes required, and a CI test
// command discovery did not find may be added (see CONFIG.md).
package cisource

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/greenlight-dev/greenlight/services/discovery/internal/command"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/detect"
)

// Origin is the CommandSource.origin of a learned command.
const Origin = "ci"

// Tree is what Read reads: every file name and the content of the files
// WantContent asked for.
type Tree interface {
	Files() []string
	ReadFile(name string) ([]byte, error)
}

// Tool is one tool a learned command runs, directly or through make, a
// package.json script, tox or nox, and the directory it runs in.
type Tool struct {
	// Key is Invocation.Key ("go vet", "ruff check", "script:lint").
	Key string
	// Dir is workspace-relative, "." for the root.
	Dir string
	// Args are the words after the tool (Invocation.Args).
	Args []string
}

// Command is one command line the maintainers run.
type Command struct {
	// Run is the line as CI runs it, matrix values substituted.
	Run string
	// Workdir is workspace-relative ("." for the root).
	Workdir string
	// Env holds the literal environment CI sets for it.
	Env map[string]string
	// Label names the job and step ("test/Lint").
	Label  string
	Source command.Source
	Phase  command.Phase
	// Skip says why the command cannot run in a sandbox; empty when it can.
	Skip string
	// Tools are what it runs, following make targets, scripts and tox envs.
	Tools []Tool
	// FromCI is true for a CI file's command, false for a test definition
	// (Makefile target, package.json script, tox, nox) CI usually calls.
	FromCI bool
	// Block is the whole `run:` block the line belongs to, when it has
	// several lines and no GitHub expression: CI runs it as one script
	// (`bash -e`), and its last line may be the real assertion
	// (`git diff --exit-code` after regenerating expected outputs).
	Block *Block
}

// Block is one CI `run:` script, whole.
type Block struct {
	Run string
	// Workdir is where the script starts (the step's working-directory).
	Workdir string
	Source  command.Source
}

// Learned is everything read from a workspace's CI.
type Learned struct {
	Commands []Command
	Notes    []string
	// Versions are the runtime versions CI jobs test with (their matrix).
	Versions []Version
}

// Version is the versions of one runtime a CI job's matrix tests.
type Version struct {
	// Tool is the runtime ("node", "python", "go").
	Tool   string
	Values []string
	// Source is "file:line" of the matrix.
	Source string
}

// reader carries one Read.
type reader struct {
	tree  Tree
	defs  *definitions
	out   Learned
	noted map[string]bool
}

// Read learns the commands of a workspace's CI files and test definitions.
// It never fails: a file it cannot parse is a note.
func Read(t Tree) Learned {
	r := &reader{tree: t, defs: loadDefinitions(t), noted: map[string]bool{}}
	for _, f := range t.Files() {
		switch {
		case f == ".gitlab-ci.yml":
			r.gitlab(f)
		case detect.CIFile(f):
			r.workflow(f)
		}
	}
	r.definitionRoots()
	return r.out
}

func (r *reader) note(format string, args ...any) {
	n := "ci: " + fmt.Sprintf(format, args...)
	if !r.noted[n] {
		r.noted[n] = true
		r.out.Notes = append(r.out.Notes, n)
	}
}

// scriptCtx is where a script runs and what is known about it.
type scriptCtx struct {
	file, key, label string
	// line is the 1-based line of the script's first line.
	line   int
	dir    string
	env    map[string]string
	name   string // the step's name, classifying commands their words do not
	skip   string // a reason inherited from the job or step
	matrix map[string][]string
	fromCI bool
}

// script learns the command lines of one script.
func (r *reader) script(ctx scriptCtx, text string) {
	dir := ctx.dir
	lines := logicalLines(text)
	var block *Block
	if ctx.fromCI && len(lines) > 1 && !strings.Contains(text, "${{") {
		block = &Block{Run: strings.TrimSpace(text), Workdir: ctx.dir,
			Source: command.Source{File: ctx.file, Key: ctx.key, Line: ctx.line, Origin: Origin}}
	}
	for _, ln := range lines {
		for _, run := range expandMatrix(ln.Text, ctx.matrix) {
			c := Command{Run: run, Workdir: dir, Env: ctx.env, Label: ctx.label, FromCI: ctx.fromCI, Skip: ctx.skip, Block: block,
				Source: command.Source{File: ctx.file, Key: ctx.key, Line: ctx.line + ln.Offset, Origin: Origin}}
			next := r.analyze(&c, ctx.name)
			// A skipped job or step has one note (from its caller); a line
			// is noted when it runs a tool that cannot run here, or is a
			// check greenlight cannot evaluate (not for shell plumbing).
			if ctx.skip == "" && c.Skip != "" && (c.Phase != command.PhaseUnspecified || strings.HasPrefix(c.Skip, "`")) {
				r.note("%s:%d: skipped `%s` (%s): %s", c.Source.File, c.Source.Line, clip(run), c.Label, c.Skip)
			}
			if c.Phase != command.PhaseUnspecified || c.Skip != "" || runsTools(c) {
				r.out.Commands = append(r.out.Commands, c)
			}
			dir = next
		}
	}
}

// analyze fills in a command's tools, phase and skip reason, and returns
// the directory a following line runs in (after a cd).
func (r *reader) analyze(c *Command, stepName string) string {
	if c.Skip == "" {
		c.Skip = textSkip(c.Run)
	}
	dir := c.Workdir
	best := command.PhaseUnspecified
	for _, part := range splitParts(c.Run) {
		inv, ok := Parse(part)
		if !ok {
			continue
		}
		if inv.Key == "cd" {
			dir = cd(dir, inv.Args)
			continue
		}
		if strings.HasPrefix(inv.Key, "$") {
			continue // a program named by a variable: nothing to learn
		}
		if c.Skip == "" {
			if why := skipReason(inv); why != "" {
				c.Skip = fmt.Sprintf("`%s` %s", clip(part), why)
			}
		}
		c.Tools = append(c.Tools, r.defs.expand(inv, dir, 0)...)
		if p := classify(inv, part, stepName); rank(p) > rank(best) {
			best = p
		}
	}
	c.Phase = best
	if command.IsInstaller(c.Run) {
		c.Phase = command.PhaseInstall
	}
	if strings.Contains(c.Run, "(") {
		return c.Workdir // a cd inside a subshell does not outlive the line
	}
	return dir
}

// runsTools reports whether an unclassified line still runs a tool (a
// script like "npm run ci" whose lint and tests count as run).
func runsTools(c Command) bool {
	for _, t := range c.Tools {
		prog, _, _ := strings.Cut(t.Key, " ")
		if !builtins[prog] {
			return true
		}
	}
	return false
}

// cd follows a literal relative cd; anything else (cd "$DIR", cd -)
// leaves the directory unknown, which keeps the current one.
func cd(dir string, args []string) string {
	if len(args) != 1 || strings.ContainsAny(args[0], "$`~") || strings.HasPrefix(args[0], "/") || args[0] == "-" {
		return dir
	}
	d := path.Join(dir, args[0])
	if d == ".." || strings.HasPrefix(d, "../") {
		return dir
	}
	return d
}

// rank orders phases by how much a command line that mixes them says
// about the code: a line that builds and tests is a test.
func rank(p command.Phase) int {
	switch p {
	case command.PhaseTest:
		return 7
	case command.PhaseBuild:
		return 6
	case command.PhaseTypecheck:
		return 5
	case command.PhaseLint:
		return 4
	case command.PhaseSecurity:
		return 3
	case command.PhaseSmoke:
		return 2
	case command.PhaseInstall:
		return 1
	}
	return 0
}

// clip shortens a command for a note.
func clip(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

// sortedKeys returns a map's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// inTree reports whether a test definition file is outside the
// directories detection ignores.
func inTree(name string) bool { return !detect.Ignored(name) }
