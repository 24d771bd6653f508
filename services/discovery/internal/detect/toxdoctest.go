package detect

import (
	"path"
	"strings"
)

// Doctests is what the project's own test command (tox's testenv
// commands) adds to pytest for doctests: the maintainers' CI collects them,
// so a verification that does not is counting fewer tests than theirs.
type Doctests struct {
	// Args are pytest's doctest options and the targets, as the planned
	// pytest step (run from the subproject root) must pass them:
	// "--doctest-modules boltons tests".
	Args   string
	Source Located
}

// doctestFlags are pytest's options that turn doctest collection on.
var doctestFlags = []string{"--doctest-modules", "--doctest-glob", "--doctest-continue-on-failure", "--doctest-report"}

// toxDoctests reads a testenv's commands for a pytest run with doctest
// options; its targets are mapped from tox's substitutions to the tree:
// {env_site_packages_dir}/pkg (the installed package) is the package's
// source directory, {tox_root}/x is x. Nil when no pytest command has
// doctest options or a target cannot be mapped.
func toxDoctests(tt *toxTest, packages []string, srcLayout bool) *Doctests {
	for _, line := range strings.Split(tt.commands, "\n") {
		fields := strings.Fields(line)
		i := pytestIndex(fields)
		if i < 0 {
			continue
		}
		var flags, targets []string
		ok := true
		for _, f := range fields[i+1:] {
			switch {
			case hasDoctestFlag(f):
				flags = append(flags, f)
			case strings.HasPrefix(f, "{posargs"):
			case strings.HasPrefix(f, "-"):
				// other options are pytest configuration, read elsewhere
			default:
				t, mapped := toxTarget(f, packages, srcLayout, tt.changedirOK)
				if !mapped {
					ok = false
				}
				targets = append(targets, t)
			}
		}
		if len(flags) > 0 && ok {
			return &Doctests{Args: strings.Join(append(flags, targets...), " "), Source: tt.loc}
		}
	}
	return nil
}

// pytestIndex returns where pytest is invoked in a command's fields
// ("pytest", "py.test", "python -m pytest"), or -1.
func pytestIndex(fields []string) int {
	for i, f := range fields {
		if f == "pytest" || f == "py.test" || strings.HasSuffix(f, "/pytest") {
			return i
		}
		if f == "-m" && i+1 < len(fields) && fields[i+1] == "pytest" {
			return i + 1
		}
	}
	return -1
}

func hasDoctestFlag(f string) bool {
	for _, d := range doctestFlags {
		if f == d || strings.HasPrefix(f, d+"=") {
			return true
		}
	}
	return false
}

// toxTarget maps one positional pytest argument of a tox command to a
// path relative to the project root; a plain relative path maps only when
// the commands run from the root (relative says so).
func toxTarget(arg string, packages []string, srcLayout, relative bool) (string, bool) {
	for _, sub := range []string{"{env_site_packages_dir}", "{envsitepackagesdir}"} {
		if rest, ok := strings.CutPrefix(arg, sub+"/"); ok {
			top, _, _ := strings.Cut(rest, "/")
			for _, p := range packages {
				if p == top {
					if srcLayout {
						return path.Join("src", rest), true
					}
					return rest, true
				}
			}
			return "", false
		}
	}
	for _, sub := range []string{"{tox_root}", "{toxinidir}"} {
		if rest, ok := strings.CutPrefix(arg, sub+"/"); ok {
			return rest, !strings.Contains(rest, "{")
		}
	}
	if strings.ContainsAny(arg, "{}") || path.IsAbs(arg) || !relative {
		return "", false
	}
	return arg, true
}

// toxTest is tox's [testenv] commands as read, kept until the packages
// are known.
type toxTest struct {
	commands string
	loc      Located
	// changedirOK: the commands run from the project root, so relative
	// targets are relative to it.
	changedirOK bool
}
