package patch

import (
	"strings"
)

// Check applies the guardrails to a parsed patch on its own: paths,
// allow-list, modes, binary content, size, lockfiles, verification
// config and tests. It returns
// nil or a *Refusal (wrapping ErrRefused). Apply calls it, and adds the
// checks that need the snapshot (symlinks already there, the real size of
// deletions spelled without content).
func Check(p *Patch, g Guardrails) error {
	g = g.withDefaults()
	for _, check := range []func(*Patch, Guardrails) *Refusal{
		checkBinary, checkPaths, checkModes, checkConflicts, checkAllowList,
		checkSize, checkLockfiles, checkConfig, checkTests, checkSuspiciousUnlessTrusted,
	} {
		if r := check(p, g); r != nil {
			return r
		}
	}
	a, r := p.Counts()
	if rf := checkLines(a+r, g); rf != nil {
		return rf
	}
	return nil
}

// checkShape is what Check judges that does not depend on where the
// paths point: binary content, unsafe paths, size and changed lines. Apply
// runs it before unpacking the snapshot, and Check once the paths are
// final.
func checkShape(p *Patch) error {
	for _, check := range []func(*Patch, Guardrails) *Refusal{checkBinary, checkPaths} {
		if r := check(p, Guardrails{}); r != nil {
			return r
		}
	}
	return nil
}

// checkBinary refuses binary patches and NUL bytes.
func checkBinary(p *Patch, _ Guardrails) *Refusal {
	if p.NUL {
		return refuse(RuleBinary, "", "the patch contains NUL bytes; only text patches are accepted")
	}
	for _, f := range p.Files {
		if f.Binary {
			return refuse(RuleBinary, f.Path(), "binary patches are not accepted; change text files only")
		}
	}
	return nil
}

// checkPaths refuses paths that are absolute, climb out with "..", name
// git metadata or are otherwise not a plain relative path.
func checkPaths(p *Patch, _ Guardrails) *Refusal {
	for _, f := range p.Files {
		for _, name := range f.Paths() {
			if reason := pathReason(name); reason != "" {
				return refuse(RulePath, name, "%s; use a path relative to the workspace root", reason)
			}
		}
	}
	return nil
}

// pathReason says what is wrong with a patch path, or "".
func pathReason(p string) string {
	switch {
	case p == "" || p == ".":
		return "empty path"
	case strings.IndexByte(p, 0) >= 0:
		return "path contains a NUL byte"
	case strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`) || (len(p) > 1 && p[1] == ':'):
		return "absolute path"
	}
	for _, part := range strings.Split(p, "/") {
		switch {
		case part == "..":
			return "path leaves the workspace with '..'"
		case strings.EqualFold(part, ".git"):
			return "path inside .git metadata"
		}
	}
	if normalizePath(p) != p {
		return "path is not in clean form"
	}
	return ""
}

// checkModes refuses symlinks, submodules and modes other than a regular
// file's.
func checkModes(p *Patch, _ Guardrails) *Refusal {
	for _, f := range p.Files {
		for _, m := range []uint32{f.OldMode, f.NewMode} {
			switch m {
			case 0, ModeFile, ModeExecutable:
			case ModeSymlink:
				return refuse(RuleSymlink, f.Path(), "patches may not create, change or delete symlinks")
			default:
				return refuse(RuleMode, f.Path(), "file mode %o is not accepted; only 100644 and 100755", m)
			}
		}
	}
	return nil
}

// checkConflicts refuses a patch that touches one path in two places.
func checkConflicts(p *Patch, _ Guardrails) *Refusal {
	seen := map[string]bool{}
	for _, f := range p.Files {
		for _, name := range f.Paths() {
			if seen[name] {
				return refuse(RuleConflict, name, "the patch changes this path more than once; put all its hunks under one file header")
			}
			seen[name] = true
		}
	}
	return nil
}

// checkAllowList refuses paths outside the allowed globs.
func checkAllowList(p *Patch, g Guardrails) *Refusal {
	for _, f := range p.Files {
		for _, name := range f.Paths() {
			if !g.allowed(name) {
				return refuse(RuleAllowList, name, "outside the paths this run may change (%s)", strings.Join(g.AllowedGlobs, ", "))
			}
		}
	}
	return nil
}

// checkSize refuses a patch over the byte cap.
func checkSize(p *Patch, g Guardrails) *Refusal {
	if over(int64(p.Bytes), g.MaxBytes) {
		return refuse(RuleSize, "", "the patch is %d bytes, over the limit of %d; send a smaller, more focused change", p.Bytes, g.MaxBytes)
	}
	return nil
}

// checkLines refuses more changed lines than the cap.
func checkLines(changed int, g Guardrails) *Refusal {
	if over(changed, g.MaxChangedLines) {
		return refuse(RuleChangedLines, "", "the patch changes %d lines, over the limit of %d; change only what the failure needs", changed, g.MaxChangedLines)
	}
	return nil
}

// checkLockfiles refuses lockfile edits unless allowed.
func checkLockfiles(p *Patch, g Guardrails) *Refusal {
	if g.AllowLockfileEdits {
		return nil
	}
	for _, f := range p.Files {
		for _, name := range f.Paths() {
			if isLockfile(name) {
				return refuse(RuleLockfile, name, "dependency lockfiles may not be edited; change the code instead")
			}
		}
	}
	return nil
}

// checkTests refuses, unless test changes are allowed, any change of the
// grader's tests: adding a test file (a new TestMain, conftest or plugin
// module can rewrite how every test reports), deleting it or renaming it
// away, adding a skip marker anywhere, removing assertions, and any other
// edit. A path is a test by name (testGlobs) or because the baseline run
// collected tests from it (Guardrails.TestPaths).
func checkTests(p *Patch, g Guardrails) *Refusal {
	if g.AllowTestChanges {
		return nil
	}
	for _, f := range p.Files {
		if r := checkTestFile(f, g); r != nil {
			return r
		}
	}
	return nil
}

// checkTestFile applies the test rules to one file change.
func checkTestFile(f *File, g Guardrails) *Refusal {
	wasTest := f.OldPath != "" && g.isTest(f.OldPath)
	isTest := f.NewPath != "" && g.isTest(f.NewPath)
	switch {
	case wasTest && f.Op == OpDelete:
		return refuse(RuleTestDeletion, f.OldPath, "test files may not be deleted; fix the code under test")
	case wasTest && f.Op == OpRename && !isTest:
		return refuse(RuleTestDeletion, f.OldPath, "test files may not be moved out of the tests; fix the code under test")
	case !wasTest && isTest:
		return refuse(RuleTestAddition, f.NewPath, "%s; fix the code under test", testAdditionHint)
	}
	added, removed := 0, 0
	for _, h := range f.Hunks {
		for _, l := range h.Lines {
			switch {
			case l.Op == LineAdd && skipMarker(l.Text) != "":
				return refuse(RuleTestSkip, f.Path(), "adds the skip marker %q; tests may not be skipped", skipMarker(l.Text))
			case l.Op == LineAdd && isAssertion(l.Text):
				added++
			case l.Op == LineDelete && isAssertion(l.Text):
				removed++
			}
		}
	}
	switch {
	case wasTest && removed > added:
		return refuse(RuleTestWeakening, f.OldPath, "removes %d assertion line(s) and adds %d; tests may not be weakened", removed, added)
	case wasTest && (len(f.Hunks) > 0 || f.Op == OpRename):
		return refuse(RuleTestEdit, f.OldPath, "existing test files may not be edited; the tests define correct behaviour, fix the code under test")
	}
	return nil
}

// testAdditionHint explains the test-addition rule to the model and the
// caller.
const testAdditionHint = "new test files, fixtures and test data may not be added by a patch: " +
	"the tests are the grader's (the caller can allow test changes with allow_test_changes)"
