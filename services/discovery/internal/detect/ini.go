package detect

import (
	"bufio"
	"bytes"
	"strings"
)

// iniKey is one key of an INI section with its line.
type iniKey struct {
	Value string
	Line  int
}

// iniSection is one [section] of an INI file.
type iniSection struct {
	Line int
	Keys map[string]iniKey
}

// parseINI reads the INI dialect of setup.cfg and tox.ini: sections, "key =
// value" or "key: value", indented continuation lines, # and ; comments.
// It is lenient on purpose: these files belong to other tools, and a line
// it does not understand is skipped rather than failing detection.
func parseINI(data []byte) map[string]*iniSection {
	out := map[string]*iniSection{}
	var cur *iniSection
	var last string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for line := 1; sc.Scan(); line++ {
		raw := sc.Text()
		t := strings.TrimSpace(raw)
		if t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, ";") {
			continue
		}
		if strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]") {
			name := strings.TrimSpace(t[1 : len(t)-1])
			cur = &iniSection{Line: line, Keys: map[string]iniKey{}}
			out[name] = cur
			last = ""
			continue
		}
		if cur == nil {
			continue
		}
		if (raw[0] == ' ' || raw[0] == '\t') && last != "" {
			k := cur.Keys[last]
			k.Value += "\n" + t
			cur.Keys[last] = k
			continue
		}
		i := strings.IndexAny(t, "=:")
		if i <= 0 {
			continue
		}
		last = strings.TrimSpace(t[:i])
		cur.Keys[last] = iniKey{Value: strings.TrimSpace(t[i+1:]), Line: line}
	}
	return out
}

// iniList splits a multi-line or comma-separated INI value.
func iniList(v string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == '\n' }) {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// setupCfgIsProject reports whether setup.cfg describes a package (it may
// also be only a home for flake8 or pytest settings).
func setupCfgIsProject(v *view, name string) bool {
	data, err := v.read(name)
	if err != nil {
		return false
	}
	s := parseINI(data)
	return s["metadata"] != nil || s["options"] != nil
}
