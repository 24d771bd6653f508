package cisource

import (
	"regexp"
	"strings"
)

// noxfile is what the CI reader gets from noxfile.py, best effort (it is
// Python, not configuration): session names and the string arguments of
// their session.run(...) calls.
type noxfile struct {
	File string
	Line int
	// Sessions maps a session name to its commands.
	Sessions map[string][]string
	// Default is nox.options.sessions, or every session when unset.
	Default []string
}

var (
	noxDecorator = regexp.MustCompile(`^@nox\.session\b(.*)`)
	noxName      = regexp.MustCompile(`name\s*=\s*["']([^"']+)["']`)
	noxDef       = regexp.MustCompile(`^def\s+([A-Za-z_][A-Za-z0-9_]*)\s*\(`)
	noxRun       = regexp.MustCompile(`session\.run\(\s*((?:["'][^"']*["']\s*,?\s*)+)`)
	noxString    = regexp.MustCompile(`["']([^"']*)["']`)
	noxOptions   = regexp.MustCompile(`nox\.options\.sessions\s*=\s*\[([^\]]*)\]`)
)

// parseNoxfile reads session names and run commands.
func parseNoxfile(file string, data []byte) *noxfile {
	if data == nil {
		return nil
	}
	nf := &noxfile{File: file, Sessions: map[string][]string{}}
	var cur, pending string
	decorated := false
	var order []string
	for i, l := range strings.Split(string(data), "\n") {
		if m := noxDecorator.FindStringSubmatch(l); m != nil {
			decorated, pending = true, ""
			if n := noxName.FindStringSubmatch(m[1]); n != nil {
				pending = n[1]
			}
			if nf.Line == 0 {
				nf.Line = i + 1
			}
			continue
		}
		if m := noxDef.FindStringSubmatch(l); m != nil {
			cur = ""
			if decorated {
				cur = m[1]
				if pending != "" {
					cur = pending
				}
				order = append(order, cur)
				nf.Sessions[cur] = nil
			}
			decorated = false
			continue
		}
		if cur == "" {
			continue
		}
		if m := noxRun.FindStringSubmatch(l); m != nil {
			var w []string
			for _, s := range noxString.FindAllStringSubmatch(m[1], -1) {
				w = append(w, s[1])
			}
			nf.Sessions[cur] = append(nf.Sessions[cur], strings.Join(w, " "))
		}
	}
	if len(order) == 0 {
		return nil
	}
	nf.Default = order
	if m := noxOptions.FindStringSubmatch(string(data)); m != nil {
		nf.Default = nil
		for _, s := range noxString.FindAllStringSubmatch(m[1], -1) {
			nf.Default = append(nf.Default, s[1])
		}
	}
	return nf
}

// commands returns the run commands of the named sessions (the default
// ones when none is named).
func (nf *noxfile) commands(sessions []string) []string {
	if len(sessions) == 0 {
		sessions = nf.Default
	}
	var out []string
	for _, s := range sessions {
		out = append(out, nf.Sessions[s]...)
	}
	return out
}
