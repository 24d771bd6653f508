package detect

import "testing"

// TestToxDoctestsMapsTheCommandToTheTree reads the doctest options and
// targets of tox commands as real projects write them.
func TestToxDoctestsMapsTheCommandToTheTree(t *testing.T) {
	pkgs := []string{"boltons"}
	cases := []struct {
		name, commands string
		src, rootDir   bool
		want           string
	}{
		{"boltons: site-packages and tox_root, changedir .tox",
			"pytest --doctest-modules {env_site_packages_dir}/boltons {tox_root}/tests {posargs}", false, false, "--doctest-modules boltons tests"},
		{"tox 3 spellings, src layout", "python -m pytest --doctest-modules {envsitepackagesdir}/boltons {toxinidir}/tests", true, false,
			"--doctest-modules src/boltons tests"},
		{"plain targets from the root", "coverage run -m pytest --doctest-glob=*.rst -q docs src", false, true, "--doctest-glob=*.rst docs src"},
		{"plain targets but changedir elsewhere", "pytest --doctest-modules boltons", false, false, ""},
		{"no doctest option", "pytest {posargs:tests}", false, true, ""},
		{"an unknown installed package", "pytest --doctest-modules {envsitepackagesdir}/other", false, true, ""},
		{"second command line", "flake8 .\npytest --doctest-modules tests", false, true, "--doctest-modules tests"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := toxDoctests(&toxTest{commands: tc.commands, changedirOK: tc.rootDir, loc: Located{File: "tox.ini", Line: 8}}, pkgs, tc.src)
			got := ""
			if d != nil {
				got = d.Args
				if d.Source.File != "tox.ini" || d.Source.Line != 8 {
					t.Errorf("source %+v", d.Source)
				}
			}
			if got != tc.want {
				t.Fatalf("args %q, want %q", got, tc.want)
			}
		})
	}
}
