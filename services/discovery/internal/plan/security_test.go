package plan

import (
	"slices"
	"testing"

	"github.com/greenlight-dev/greenlight/services/discovery/internal/command"
)

// TestSecurityRequest: the scans of every subproject (bandit only for
// Python) are planned advisory by default, right after the installs; the
// request's mode, then greenlight.yaml's security, decide otherwise; a
// request can require a scan greenlight.yaml made advisory, never demote
// one it requires; a selection gets no default scans.
func TestSecurityRequest(t *testing.T) {
	py := map[string]string{
		"pyproject.toml":    "[project]\nname = \"app\"\nversion = \"0\"\n",
		"app/__init__.py":   "",
		"tests/test_a.py":   "def test_a():\n    assert True\n",
		"tests/__init__.py": "",
	}
	with := func(yaml string) map[string]string {
		out := map[string]string{"greenlight.yaml": yaml}
		for k, v := range py {
			out[k] = v
		}
		return out
	}
	c := map[string]string{
		"CMakeLists.txt": "cmake_minimum_required(VERSION 3.13)\nproject(x C)\nenable_testing()\nadd_executable(t t.c)\nadd_test(NAME t COMMAND t)\n",
		"t.c":            "int main(void) { return 0; }\n",
	}
	// A Go module with a nested module: one secret scan for the tree,
	// gosec per module (./... stops at a nested go.mod).
	gomods := map[string]string{
		"go.mod":          "module example.com/a\n\ngo 1.22\n",
		"a.go":            "package a\n",
		"a_test.go":       "package a\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {}\n",
		"tools/go.mod":    "module example.com/a/tools\n\ngo 1.22\n",
		"tools/t.go":      "package tools\n",
		"tools/t_test.go": "package tools\n\nimport \"testing\"\n\nfunc TestT(t *testing.T) {}\n",
	}
	cases := []struct {
		name  string
		files map[string]string
		mode  SecurityMode
		sel   []Selection
		// want maps each security step to its required-ness; absent: not planned.
		want map[string]bool
	}{
		{"not asked: advisory by default", py, SecurityUnspecified, nil, map[string]bool{"secret-scan": false, "bandit": false}},
		{"advisory", py, SecurityAdvisory, nil, map[string]bool{"secret-scan": false, "bandit": false}},
		// gosec is tier 1: by default it waits for tier 1; asked for, it runs.
		{"Go modules by default: gosec waits for tier 1", gomods, SecurityUnspecified, nil, map[string]bool{"secret-scan": false}},
		{"Go modules asked for: gosec per module", gomods, SecurityAdvisory, nil, map[string]bool{"secret-scan": false, "gosec": false, "tools:gosec": false}},
		{"C: flawfinder by default", c, SecurityUnspecified, nil, map[string]bool{"secret-scan": false, "flawfinder": false}},
		{"C required", c, SecurityRequired, nil, map[string]bool{"secret-scan": true, "flawfinder": true}},
		{"required", py, SecurityRequired, nil, map[string]bool{"secret-scan": true, "bandit": true}},
		{"off", py, SecurityOff, nil, map[string]bool{}},
		{"config off", with("security: off\n"), SecurityUnspecified, nil, map[string]bool{}},
		{"config off, request advisory", with("security: off\n"), SecurityAdvisory, nil, map[string]bool{"secret-scan": false, "bandit": false}},
		{"config required", with("security: required\n"), SecurityUnspecified, nil, map[string]bool{"secret-scan": true, "bandit": true}},
		{"config required, request off", with("security: required\n"), SecurityOff, nil, map[string]bool{"secret-scan": true, "bandit": true}},
		{"config requires one, request off", with("required: [secret-scan]\n"), SecurityOff, nil, map[string]bool{"secret-scan": true}},
		{"config requires, request advisory", with("required: [secret-scan]\n"), SecurityAdvisory, nil, map[string]bool{"secret-scan": true, "bandit": false}},
		{"config advisory, request required", with("advisory: [bandit]\n"), SecurityRequired, nil, map[string]bool{"secret-scan": true, "bandit": true}},
		{"a selection: no default scans", py, SecurityUnspecified, []Selection{{Name: "pytest"}}, map[string]bool{}},
		{"a selection asking for them", py, SecurityAdvisory, []Selection{{Name: "pytest"}}, map[string]bool{"secret-scan": false, "bandit": false}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			caps, _ := planTree(t, tc.files)
			p, err := Make(caps, Request{Security: tc.mode, Selection: tc.sel})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]bool{}
			for _, s := range p.Steps {
				if s.Phase == command.PhaseSecurity {
					got[s.Name] = !s.Optional
					if !s.ContinueOnFailure || s.Image == "" {
						t.Errorf("%s: continue %v image %q; a scan never stops the pipeline and runs in an image", s.Name, s.ContinueOnFailure, s.Image)
					}
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("security steps %v, want %v", got, tc.want)
			}
			for name, req := range tc.want {
				if r, ok := got[name]; !ok || r != req {
					t.Errorf("%s: planned %v required %v; want required %v", name, ok, r, req)
				}
			}
			// The scans run right after the installs, before any step whose
			// failure would skip them.
			seenOther := false
			for _, s := range p.Steps {
				switch {
				case s.Phase == command.PhaseSecurity && seenOther:
					t.Errorf("%s runs after a build or test step: %v", s.Name, names(p))
				case s.Phase != command.PhaseSecurity && s.Phase != command.PhaseInstall:
					seenOther = true
				}
			}
		})
	}
}

// TestGosecRunsWithTier1: at a milestone's end (tier 1 selected) gosec is
// planned by default, advisory, once per module.
func TestGosecRunsWithTier1(t *testing.T) {
	caps, _ := planTree(t, map[string]string{
		"go.mod":    "module example.com/a\n\ngo 1.22\n",
		"a.go":      "package a\n",
		"a_test.go": "package a\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {}\n",
	})
	for _, milestone := range []bool{false, true} {
		p, err := Make(caps, Request{MilestoneEnd: milestone})
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(p.Steps, func(c command.Command) bool { return c.Name == "gosec" })
		if (i >= 0) != milestone || (i >= 0 && !p.Steps[i].Optional) {
			t.Errorf("milestone end %v: steps %v; want gosec (advisory) only at a milestone's end", milestone, names(p))
		}
		if !milestone && !hasNote(p, "gosec not planned: tier 1") {
			t.Errorf("notes %q do not say why gosec waits", p.Notes)
		}
	}
}
