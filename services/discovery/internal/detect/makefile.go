package detect

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// Makefile is a parsed Makefile: the targets greenlight may run.
type Makefile struct {
	// File is the workspace-relative path.
	File string
	// Targets maps a wanted target name to its 1-based line.
	Targets map[string]int
	// Text is the raw content, for framework hints (a "unittest" mention).
	Text []byte
	// Default is the default goal (the first rule's first target that is
	// not special, a pattern or a variable), what a bare `make` builds, and
	// DefaultLine its line; "" when there is none.
	Default     string
	DefaultLine int
}

// makeTargets are the targets that verify something. Others (install,
// deploy, release, clean, run, ...) are never whitelisted.
var makeTargets = map[string]bool{
	"test": true, "tests": true, "check": true, "lint": true, "build": true, "typecheck": true,
	"vet": true, "smoke": true, "e2e": true, "integration": true,
}

// ruleLine matches "a b: deps" but not "X := v", "X ?= v" or recipe lines.
var ruleLine = regexp.MustCompile(`^([A-Za-z0-9_.\-/][A-Za-z0-9_.\-/ ]*?)\s*::?(?:[^=]|$)`)

// ParseMakefile extracts rule targets with their lines.
func ParseMakefile(file string, data []byte) *Makefile {
	mf := &Makefile{File: file, Targets: map[string]int{}, Text: data}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for line := 1; sc.Scan(); line++ {
		m := ruleLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		for _, t := range bytes.Fields([]byte(m[1])) {
			name := string(t)
			if mf.Default == "" && !strings.HasPrefix(name, ".") && !strings.ContainsAny(name, "%$") {
				mf.Default, mf.DefaultLine = name, line
			}
			if _, seen := mf.Targets[name]; !seen && makeTargets[name] {
				mf.Targets[name] = line
			}
		}
	}
	return mf
}

// testTargets are the targets that run a test suite.
var testTargets = map[string]bool{"test": true, "tests": true, "check": true}

// HasTestTarget reports whether the Makefile has a test, tests or check target.
func (m *Makefile) HasTestTarget() bool {
	for t := range m.Targets {
		if testTargets[t] {
			return true
		}
	}
	return false
}

// SortedTargets returns the wanted targets in name order.
func (m *Makefile) SortedTargets() []string {
	names := make([]string, 0, len(m.Targets))
	for n := range m.Targets {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

var makefileNames = []string{"GNUmakefile", "makefile", "Makefile"}

// attachMakefiles gives each Makefile to the primary subproject of its
// directory, or makes a "make" subproject for it.
func attachMakefiles(v *view, res *Result) {
	sortSubprojects(res.Subprojects)
	for _, dir := range sortedKeys(v.dirs) {
		file := ""
		for _, n := range makefileNames { // make's own lookup order
			if v.has(dir, n) {
				file = join(dir, n)
				break
			}
		}
		if file == "" {
			continue
		}
		data, err := v.read(file)
		if err != nil {
			res.Notes = append(res.Notes, fmt.Sprintf("%s: not read: %v", file, err))
			continue
		}
		mf := ParseMakefile(file, data)
		owner := -1
		for i := range res.Subprojects {
			if res.Subprojects[i].Root == dir {
				owner = i
				break
			}
		}
		if owner < 0 {
			cBuild := mf.Default != "" && hasCSources(v, dir, nil)
			if len(mf.Targets) == 0 && !cBuild || inAuxiliary(dir) {
				continue
			}
			res.Subprojects = append(res.Subprojects, Subproject{Root: dir, Runtime: RuntimeMake, Markers: []string{file}, PackageManager: "make"})
			owner = len(res.Subprojects) - 1
		} else {
			res.Subprojects[owner].Markers = append(res.Subprojects[owner].Markers, file)
		}
		res.Subprojects[owner].Make = mf
	}
}
