package executorsvc

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// mirrorVars are the environment variables a package index mirror sets in
// install steps, per kind: the variables each package manager reads for
// its index (pip and uv; npm, pnpm and both Yarns; the Go module proxy).
// Cargo and Maven read mirrors only from configuration files (a
// repository's .cargo/config.toml or a settings.xml), not from the
// environment, so they have no kind here.
var mirrorVars = map[string][]string{
	"pip": {"PIP_INDEX_URL", "UV_DEFAULT_INDEX", "UV_INDEX_URL"},
	"npm": {"NPM_CONFIG_REGISTRY", "YARN_NPM_REGISTRY_SERVER", "YARN_REGISTRY"},
	"go":  {"GOPROXY"},
}

// envName is a variable name install-env accepts.
var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// installEnv is what install steps get besides the step's own environment:
// the mirrors' variables, then the install-env entries (which win).
func (c *Config) installEnv() (map[string]string, error) {
	env := map[string]string{}
	for _, m := range c.Mirrors {
		kind, u, ok := strings.Cut(m, "=")
		vars, known := mirrorVars[kind]
		if !ok || !known {
			return nil, fmt.Errorf("mirror: %q is not KIND=URL with KIND one of %s", m, strings.Join(mirrorKinds(), ", "))
		}
		if err := mirrorURL(kind, u); err != nil {
			return nil, fmt.Errorf("mirror %s: %w", kind, err)
		}
		for _, v := range vars {
			env[v] = u
		}
	}
	for _, e := range c.InstallEnv {
		k, v, ok := strings.Cut(e, "=")
		if !ok || !envName.MatchString(k) {
			return nil, fmt.Errorf("install-env: %q is not NAME=VALUE with NAME made of letters, digits and _", e)
		}
		env[k] = v
	}
	return env, nil
}

// mirrorURL checks a mirror's address: an http(s) URL with a host; for Go,
// a GOPROXY list (URLs, "direct", "off", separated by , or |).
func mirrorURL(kind, s string) error {
	parts := []string{s}
	if kind == "go" {
		parts = strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == '|' })
	}
	if len(parts) == 0 {
		return fmt.Errorf("no address")
	}
	for _, p := range parts {
		if kind == "go" && (p == "direct" || p == "off") {
			continue
		}
		u, err := url.Parse(p)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("%q is not an http or https URL", p)
		}
	}
	return nil
}

// mirrorKinds lists the kinds --mirror accepts.
func mirrorKinds() []string {
	var kinds []string
	for k := range mirrorVars {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	return kinds
}
