package cisource

import (
	"bufio"
	"bytes"
	"regexp"
	"strings"
)

// makeRule is one rule of a Makefile: its prerequisites and recipe lines.
type makeRule struct {
	Line    int
	Prereqs []string
	Recipe  []string
}

// makefile is what the CI reader needs of a Makefile: rules, simple
// variables and the default goal.
type makefile struct {
	File    string
	Rules   map[string]*makeRule
	Vars    map[string]string
	Default string
}

var (
	// makeRuleLine matches "a b: deps" (not ":=" assignments, not recipes).
	makeRuleLine = regexp.MustCompile(`^([A-Za-z0-9_.\-/ ]+?)\s*::?(?:\s+(.*))?$`)
	// makeVarLine matches "[export] NAME [:?+]= value".
	makeVarLine = regexp.MustCompile(`^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*[:?+]?=\s*(.*)$`)
	// makeRef matches $(NAME) and ${NAME}.
	makeRef = regexp.MustCompile(`\$[({]([A-Za-z_][A-Za-z0-9_]*)[)}]`)
	// makeForeach matches the head of $(foreach v,list, ...
	makeForeach = regexp.MustCompile(`\$\(foreach\s+[^,]+,[^,]*,`)
)

// parseMakefile reads rules, recipes and variables.
func parseMakefile(file string, data []byte) *makefile {
	mf := &makefile{File: file, Rules: map[string]*makeRule{}, Vars: map[string]string{}}
	var cur []*makeRule
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	cont := false
	for n := 1; sc.Scan(); n++ {
		raw := sc.Text()
		if strings.HasPrefix(raw, "\t") || cont && len(cur) > 0 {
			text := strings.TrimSpace(raw)
			for _, r := range cur {
				if cont && len(r.Recipe) > 0 {
					r.Recipe[len(r.Recipe)-1] = strings.TrimSuffix(r.Recipe[len(r.Recipe)-1], `\`) + " " + text
				} else if text != "" && !strings.HasPrefix(text, "#") {
					r.Recipe = append(r.Recipe, text)
				}
			}
			cont = strings.HasSuffix(text, `\`)
			continue
		}
		cont = false
		t := strings.TrimSpace(raw)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if m := makeVarLine.FindStringSubmatch(t); m != nil {
			if _, seen := mf.Vars[m[1]]; !seen {
				mf.Vars[m[1]] = m[2]
			}
			cur = nil
			continue
		}
		m := makeRuleLine.FindStringSubmatch(t)
		if m == nil {
			cur = nil
			continue
		}
		cur = nil
		prereqs, _, _ := strings.Cut(m[2], ";")
		for _, target := range strings.Fields(m[1]) {
			r := mf.Rules[target]
			if r == nil {
				r = &makeRule{Line: n}
				mf.Rules[target] = r
			}
			r.Prereqs = append(r.Prereqs, strings.Fields(prereqs)...)
			cur = append(cur, r)
			if mf.Default == "" && !strings.HasPrefix(target, ".") {
				mf.Default = target
			}
		}
	}
	return mf
}

// commands returns the recipe lines a goal runs, prerequisites first,
// with make's own syntax reduced to shell: variables substituted, $(MAKE)
// as make, $(foreach v,list,body) as its body, unknown references as "$_".
// It also returns the prerequisite targets the goal makes (rules of this
// Makefile only, not files).
func (mf *makefile) commands(goal string) (lines, made []string) {
	seen := map[string]bool{}
	var walk func(t string, depth int)
	walk = func(t string, depth int) {
		r := mf.Rules[t]
		if r == nil || seen[t] || depth > 4 {
			return
		}
		seen[t] = true
		if depth > 0 {
			made = append(made, t)
		}
		for _, p := range r.Prereqs {
			walk(p, depth+1)
		}
		for _, line := range r.Recipe {
			lines = append(lines, mf.shell(line))
		}
	}
	walk(goal, 0)
	return lines, made
}

// shell reduces one recipe line to a shell command line.
func (mf *makefile) shell(line string) string {
	line = strings.TrimLeft(line, "@-+ ")
	for i := 0; i < 3 && makeRef.MatchString(line); i++ {
		line = makeRef.ReplaceAllStringFunc(line, func(ref string) string {
			name := makeRef.FindStringSubmatch(ref)[1]
			if name == "MAKE" {
				return "make"
			}
			if v, ok := mf.Vars[name]; ok && !strings.Contains(v, "$(shell") {
				return v
			}
			return "$_" // unknown: a cd to it is not followed
		})
	}
	line = makeForeach.ReplaceAllString(line, "(")
	return strings.ReplaceAll(line, "$$", "$")
}
