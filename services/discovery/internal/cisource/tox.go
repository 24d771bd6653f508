package cisource

import (
	"regexp"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/detect"
)

// toxConfig is what the CI reader needs of tox: the default envlist and
// each environment's commands.
type toxConfig struct {
	File        string
	EnvList     []string
	EnvListLine int
	// Base holds [testenv] commands; Envs those of [testenv:NAME].
	Base []string
	Envs map[string][]string
}

// commands returns the commands of the named environments (the default
// envlist when none is named; tox's implicit "py" env when there is none).
// An environment without its own commands runs the base ones; a
// "factor:X" entry (tox -f X) names every envlist env with factor X, and
// factor-conditional lines ("tests: pytest") apply to envs with that factor.
func (tc *toxConfig) commands(envs []string) []string {
	if len(envs) == 0 {
		envs = tc.EnvList
	}
	if len(envs) == 0 {
		envs = []string{"py"}
	}
	var out []string
	for _, env := range tc.byFactor(envs) {
		cmds, ok := tc.Envs[env]
		if !ok {
			cmds = tc.Base
		}
		for _, c := range cmds {
			if c, ok := forEnv(c, env); ok && !contains(out, c) {
				out = append(out, c)
			}
		}
	}
	return out
}

// byFactor replaces each "factor:X" with the envlist envs having factor X.
func (tc *toxConfig) byFactor(envs []string) []string {
	var out []string
	for _, env := range envs {
		f, ok := strings.CutPrefix(env, "factor:")
		if !ok {
			out = append(out, env)
			continue
		}
		for _, e := range tc.EnvList {
			if contains(strings.Split(e, "-"), f) && !contains(out, e) {
				out = append(out, e)
			}
		}
	}
	return out
}

// toxFactorLine matches a factor-conditional command "a,b-c: cmd".
var toxFactorLine = regexp.MustCompile(`^([A-Za-z0-9_.!,-]+):\s+(.*)$`)

// forEnv applies a command line's factor condition to an env: "a,b: x"
// holds when a factor is a or b, "a-b: x" when both are, "!a: x" when a
// is not.
func forEnv(line, env string) (string, bool) {
	m := toxFactorLine.FindStringSubmatch(line)
	if m == nil {
		return line, true
	}
	factors := strings.Split(env, "-")
	for _, alt := range strings.Split(m[1], ",") {
		all := true
		for _, f := range strings.Split(alt, "-") {
			neg := strings.HasPrefix(f, "!")
			if contains(factors, strings.TrimPrefix(f, "!")) == neg {
				all = false
			}
		}
		if all {
			return m[2], true
		}
	}
	return "", false
}

// toxSubst matches tox substitutions: {posargs}, {posargs:default},
// {envpython}, {toxinidir}, {[testenv]commands}, ...
var toxSubst = regexp.MustCompile(`\{([^{}]*)\}`)

// parseToxINI reads tox.ini.
func parseToxINI(file string, data []byte) *toxConfig {
	if data == nil {
		return nil
	}
	ini := detect.ParseINI(data)
	tox, ok := ini["tox"]
	if !ok {
		return nil
	}
	tc := &toxConfig{File: file, Envs: map[string][]string{}, EnvListLine: tox.Line}
	for _, key := range []string{"envlist", "env_list"} {
		if k, ok := tox.Keys[key]; ok {
			tc.EnvList, tc.EnvListLine = detect.ToxEnvList(k.Value), k.Line
		}
	}
	if s, ok := ini["testenv"]; ok {
		tc.Base = toxLines(s.Keys["commands"].Value, nil)
	}
	for name, s := range ini {
		env, ok := strings.CutPrefix(name, "testenv:")
		if !ok {
			continue
		}
		if k, ok := s.Keys["commands"]; ok {
			for _, e := range detect.ToxEnvList(env) {
				tc.Envs[e] = toxLines(k.Value, tc.Base)
			}
		}
	}
	return tc
}

// toxLines splits a commands value into command lines, resolving the
// substitutions that matter for knowing the tool: {[testenv]commands} is
// the base commands, {envpython} is python, {posargs:x} is x.
func toxLines(v string, base []string) []string {
	var out []string
	for _, l := range strings.Split(v, "\n") {
		l = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), "-!"))
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if strings.Contains(l, "{[testenv]commands}") {
			out = append(out, base...)
			continue
		}
		out = append(out, toxSubst.ReplaceAllStringFunc(l, func(s string) string {
			inner := s[1 : len(s)-1]
			switch {
			case inner == "envpython":
				return "python"
			case strings.HasPrefix(inner, "posargs:"):
				return strings.TrimPrefix(inner, "posargs:")
			case inner == "toxinidir" || inner == "tox_root":
				return "."
			}
			return ""
		}))
	}
	return out
}

// parseToxTOML reads the [tool.tox] table of pyproject.toml (tox 4's
// native form) or its legacy_tox_ini string.
func parseToxTOML(file string, data []byte) *toxConfig {
	if data == nil {
		return nil
	}
	var doc struct {
		Tool struct {
			Tox *struct {
				EnvList      []string              `toml:"env_list"`
				LegacyToxINI string                `toml:"legacy_tox_ini"`
				EnvRunBase   toxTOMLEnv            `toml:"env_run_base"`
				Env          map[string]toxTOMLEnv `toml:"env"`
			} `toml:"tox"`
		} `toml:"tool"`
	}
	md, err := toml.Decode(string(data), &doc)
	if err != nil || doc.Tool.Tox == nil {
		return nil
	}
	t := doc.Tool.Tox
	if t.LegacyToxINI != "" {
		if tc := parseToxINI(file, []byte(t.LegacyToxINI)); tc != nil {
			tc.EnvListLine = 0
			return tc
		}
	}
	_ = md
	tc := &toxConfig{File: file, EnvList: t.EnvList, Envs: map[string][]string{}, Base: t.EnvRunBase.lines()}
	tc.EnvListLine = lineOf(data, "env_list")
	for name, e := range t.Env {
		if len(e.Commands) > 0 {
			tc.Envs[name] = e.lines()
		}
	}
	return tc
}

// toxTOMLEnv is one environment of [tool.tox]: commands as lists of
// arguments, each a string or a {replace = "posargs", ...} table.
type toxTOMLEnv struct {
	Commands [][]any `toml:"commands"`
}

func (e toxTOMLEnv) lines() []string {
	var out []string
	for _, cmd := range e.Commands {
		var w []string
		for _, a := range cmd {
			if s, ok := a.(string); ok {
				w = append(w, s)
			}
		}
		if len(w) > 0 {
			out = append(out, strings.Join(w, " "))
		}
	}
	return out
}

// lineOf returns the 1-based line of the first line starting with key.
func lineOf(data []byte, key string) int {
	for i, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), key) {
			return i + 1
		}
	}
	return 0
}
