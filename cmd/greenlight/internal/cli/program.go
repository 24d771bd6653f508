package cli

import (
	"os"
	"path/filepath"
	"strings"
)

// ProgramName is how the hints should name greenlight so that the user can
// paste them ("greenlight show RUN"): argv0 as typed when it has no path
// separator (the shell found it on PATH under that name); "greenlight" when
// it is a path and the greenlight on PATH (lookPath, exec.LookPath in main)
// is this same file; otherwise the path as typed (".bin/greenlight" after
// make build, "./greenlight" in an extracted release archive), because a
// bare "greenlight" would then run nothing or another version.
func ProgramName(argv0 string, lookPath func(string) (string, error)) string {
	const name = "greenlight"
	if argv0 == "" {
		return name
	}
	if !strings.ContainsRune(argv0, filepath.Separator) {
		return shellWord(argv0)
	}
	if p, err := lookPath(name); err == nil && sameFile(p, argv0) {
		return name
	}
	return shellWord(argv0)
}

// sameFile reports whether two paths name one existing file.
func sameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

// shellWord quotes s for a POSIX shell when it holds anything but the
// characters paths usually have.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./-+=:@%,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// program is the name the hints use to run greenlight again.
func (a *app) program() string {
	if a.env.Program == "" {
		return "greenlight"
	}
	return a.env.Program
}
