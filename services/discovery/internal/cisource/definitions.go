package cisource

import (
	"bytes"
	"encoding/json"
	"path"
	"strings"

	"github.com/greenlight-dev/greenlight/services/discovery/internal/command"
)

// maxDepth bounds how far make targets, scripts and tox envs are followed.
const maxDepth = 3

// packageScripts is a package.json's scripts with their lines.
type packageScripts struct {
	File    string
	Scripts map[string]string
	Lines   map[string]int
}

// definitions are the test definitions of a workspace by directory: what
// "make test", "npm test", "tox" and "nox" run there.
type definitions struct {
	make map[string]*makefile
	npm  map[string]*packageScripts
	tox  map[string]*toxConfig
	nox  map[string]*noxfile
}

// loadDefinitions parses every Makefile, package.json, tox.ini (or
// pyproject.toml [tool.tox]) and noxfile.py outside ignored directories.
func loadDefinitions(t Tree) *definitions {
	d := &definitions{make: map[string]*makefile{}, npm: map[string]*packageScripts{}, tox: map[string]*toxConfig{}, nox: map[string]*noxfile{}}
	for _, f := range t.Files() {
		if !inTree(f) {
			continue
		}
		dir, base := path.Split(f)
		dir = path.Clean(dir)
		read := func() []byte {
			data, err := t.ReadFile(f)
			if err != nil {
				return nil
			}
			return data
		}
		switch base {
		case "Makefile", "makefile", "GNUmakefile":
			if d.make[dir] == nil || base == "GNUmakefile" {
				if data := read(); data != nil {
					d.make[dir] = parseMakefile(f, data)
				}
			}
		case "package.json":
			if ps := parsePackageScripts(f, read()); ps != nil {
				d.npm[dir] = ps
			}
		case "tox.ini":
			if tc := parseToxINI(f, read()); tc != nil {
				d.tox[dir] = tc
			}
		case "pyproject.toml":
			if d.tox[dir] == nil {
				if tc := parseToxTOML(f, read()); tc != nil {
					d.tox[dir] = tc
				}
			}
		case "noxfile.py":
			if nf := parseNoxfile(f, read()); nf != nil {
				d.nox[dir] = nf
			}
		}
	}
	return d
}

// parsePackageScripts reads a package.json's scripts.
func parsePackageScripts(file string, data []byte) *packageScripts {
	var pj struct {
		Scripts map[string]string `json:"scripts"`
	}
	if data == nil || json.Unmarshal(data, &pj) != nil || len(pj.Scripts) == 0 {
		return nil
	}
	ps := &packageScripts{File: file, Scripts: pj.Scripts, Lines: map[string]int{}}
	for n := range pj.Scripts {
		ps.Lines[n] = keyLine(data, n)
	}
	return ps
}

// keyLine finds the line of a JSON key ("name":) after "scripts"; 0 when
// not found.
func keyLine(data []byte, name string) int {
	start := bytes.Index(data, []byte(`"scripts"`))
	if start < 0 {
		return 0
	}
	quoted, _ := json.Marshal(name)
	i := bytes.Index(data[start:], append(quoted, ':'))
	if i < 0 {
		if i = bytes.Index(data[start:], append(quoted, ' ', ':')); i < 0 {
			return 0
		}
	}
	return bytes.Count(data[:start+i], []byte("\n")) + 1
}

// expand returns the tool an invocation runs in dir and, following make
// targets, package.json scripts and tox/nox environments defined in the
// workspace, the tools those run.
func (d *definitions) expand(inv Invocation, dir string, depth int) []Tool {
	where := dir
	if inv.Dir != "" {
		where = path.Join(dir, inv.Dir)
	}
	out := []Tool{{Key: inv.Key, Dir: where, Args: inv.Args}}
	if depth >= maxDepth {
		return out
	}
	prog, sub, _ := strings.Cut(inv.Key, " ")
	var lines []string
	switch {
	case prog == "make" || prog == "gmake":
		if mf := d.make[where]; mf != nil {
			goal := sub
			if goal == "" {
				goal = mf.Default
			}
			var made []string
			lines, made = mf.commands(goal)
			for _, t := range made { // "make check" also makes its prerequisites: "make vet"
				out = append(out, Tool{Key: "make " + t, Dir: where})
			}
		}
	case strings.HasPrefix(inv.Key, "script:"):
		where = d.packageDir(where)
		if ps := d.npm[where]; ps != nil {
			name := strings.TrimPrefix(inv.Key, "script:")
			for _, s := range []string{"pre" + name, name, "post" + name} {
				if cmd, ok := ps.Scripts[s]; ok {
					lines = append(lines, cmd)
				}
			}
		}
	case prog == "tox":
		if tc := d.tox[where]; tc != nil {
			lines = tc.commands(envArgs(inv.Args, "tox"))
		}
	case prog == "nox":
		if nf := d.nox[where]; nf != nil {
			lines = nf.commands(envArgs(inv.Args, "nox"))
		}
	}
	for _, l := range lines {
		sub := where
		for _, part := range splitParts(l) {
			in, ok := Parse(part)
			if !ok {
				continue
			}
			if in.Key == "cd" {
				sub = cd(sub, in.Args)
				continue
			}
			if strings.HasPrefix(in.Key, "$") {
				continue
			}
			out = append(out, d.expand(in, sub, depth+1)...)
		}
	}
	return out
}

// packageDir is the nearest directory at or above dir with scripts (npm
// looks upwards for package.json).
func (d *definitions) packageDir(dir string) string {
	for cur := dir; ; cur = path.Dir(cur) {
		if d.npm[cur] != nil {
			return cur
		}
		if cur == "." || cur == "/" {
			return dir
		}
	}
}

// definitionRoots learns the test definitions themselves: a Makefile's
// test and check targets, package.json's scripts.test, tox's default
// envlist and nox's default sessions. They are what "the tests" mean to
// the maintainers even where CI is not visible.
func (r *reader) definitionRoots() {
	root := func(file, key string, line int, dir, run string) {
		c := Command{Run: run, Workdir: dir, Label: key, Source: command.Source{File: file, Key: key, Line: line, Origin: Origin}}
		r.analyze(&c, "")
		if c.Skip == "" {
			r.out.Commands = append(r.out.Commands, c)
		}
	}
	for _, dir := range sortedKeys(r.defs.make) {
		mf := r.defs.make[dir]
		for _, t := range []string{"test", "check"} {
			if rule := mf.Rules[t]; rule != nil {
				root(mf.File, "target "+t, rule.Line, dir, "make "+t)
			}
		}
	}
	for _, dir := range sortedKeys(r.defs.npm) {
		ps := r.defs.npm[dir]
		if _, ok := ps.Scripts["test"]; ok && !strings.Contains(ps.Scripts["test"], "no test specified") {
			root(ps.File, "scripts.test", ps.Lines["test"], dir, "npm test")
		}
	}
	for _, dir := range sortedKeys(r.defs.tox) {
		tc := r.defs.tox[dir]
		root(tc.File, "envlist", tc.EnvListLine, dir, "tox")
	}
	for _, dir := range sortedKeys(r.defs.nox) {
		nf := r.defs.nox[dir]
		root(nf.File, "sessions", nf.Line, dir, "nox")
	}
}
