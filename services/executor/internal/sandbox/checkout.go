package sandbox

import (
	"fmt"
	"strings"
	"time"

	"go.uber.org/zap"
)

// Every CI job runs in a git checkout (actions/checkout and its kin), and
// projects rely on it: `npm ci` runs a prepare script that installs git
// hooks (husky, lefthook, simple-git-hooks), lint scripts feed `git
// ls-files` to their linters, builds stamp versions from `git describe` or
// setuptools-scm, CI blocks end with `git diff --exit-code` after a
// regeneration, go build stamps VCS information. A snapshot carries no
// .git, so right after unpacking it the executor makes the workspace what
// CI's checkout is: a repository whose single commit is the snapshot.
//
// The commit is reproducible (fixed author, committer and date: the same
// snapshot gives the same commit id in every box and every run), takes
// every file of the snapshot (`add -f`: a tracked file that matches a
// .gitignore pattern is in CI's checkout too), never changes the working
// tree (nothing is checked out; autocrlf off), and runs nothing of the
// project's: git reads no config but its command line and the new
// repository's (so no hooksPath, filter, fsmonitor or textconv program can
// be named), hooks are off (core.hooksPath=/dev/null, --no-verify), and
// attributes alone never run a filter. A snapshot that brings its own .git
// keeps it untouched.

// checkoutDate is the author and committer date of the snapshot's commit:
// fixed, so that its id depends on the snapshot alone; after 1980, so that
// tools deriving file times from it (zip, wheels) can represent it.
const checkoutDate = "2000-01-01T00:00:00+0000"

// checkoutIdentity names the snapshot commit's author and committer.
const (
	checkoutName  = "greenlight"
	checkoutEmail = "greenlight@localhost"
)

// checkoutSpaceShare is the share of the workspace a snapshot may fill and
// still get a repository: git's objects (zlib level 1) take up to about
// as much again, and the steps need room for what they write.
const checkoutSpaceShare = 4

// Exit codes of checkoutScript other than 0 (the commit was made).
const (
	checkoutKept  = 10 // the snapshot has its own .git, left as it is
	checkoutNoGit = 11 // the image has no git
)

// checkoutScript runs as the sandbox user in the workspace. It first
// records safe.directory=* in the sandbox user's global config, for the
// steps' git (what actions/checkout does too; appended by the shell, as
// the key is multi-valued: one git process less on every run's critical
// path): the sandbox has a single user, and a dependency restored by
// another uid or a step running git from elsewhere must not make git
// refuse the repository. Then, unless
// .git exists, it creates the repository; on any failure it removes the
// half-made .git, so the workspace is the snapshot again.
//
// The git function runs git with the commit's configuration on the
// command line; GIT_CONFIG_NOSYSTEM and GIT_CONFIG_GLOBAL (checkoutEnv)
// keep the image's and the home's config out.
var checkoutScript = strings.Join([]string{
	`command -v git >/dev/null 2>&1 || exit ` + fmt.Sprint(checkoutNoGit),
	`printf '[safe]\n\tdirectory = *\n' >> "$0/.gitconfig" || exit 1`,
	`{ [ -e .git ] || [ -L .git ]; } && exit ` + fmt.Sprint(checkoutKept),
	`g() { git -c safe.directory='*' -c core.hooksPath=/dev/null -c core.fsmonitor=false -c core.autocrlf=false ` +
		`-c core.safecrlf=false -c core.untrackedCache=false -c gc.auto=0 -c maintenance.auto=false ` +
		`-c core.looseCompression=1 -c init.defaultBranch=main "$@"; }`,
	`if [ -n "$1" ]; then set -- ":(exclude)$1"; else set --; fi`,
	`g init -q && g add -A -f -- . "$@" && g commit -q --no-verify --allow-empty -m 'greenlight: the workspace snapshot' && exit 0`,
	`rm -rf .git`,
	`exit 1`,
}, "\n")

// unpackFailed is the exit code of unpackScript when tar failed.
const unpackFailed = 12

// unpackScript unpacks the snapshot from its input into the workspace
// (copySnapshot) and then, when $2 is "checkout", runs checkoutScript: $0
// is the sandbox user's home, $1 a directory of the workspace the commit
// leaves out ("" for none: a staged box's trees, stage.go).
var unpackScript = `tar -x -f - -C '` + WorkspaceDir + `' --no-same-owner || exit ` + fmt.Sprint(unpackFailed) + "\n" +
	`[ "$2" = checkout ] || exit 0` + "\n" + checkoutScript

// unpackCmd is the argv of the unpack and checkout, mode "checkout" or "".
func unpackCmd(exclude, mode string) []string {
	return []string{"/bin/sh", "-c", unpackScript, HomeDir, exclude, mode}
}

// checkoutEnv is what the checkout adds to the container's environment:
// the commit's identity and date, and no config file but the repository's
// own.
func checkoutEnv() []string {
	return []string{
		"GIT_AUTHOR_NAME=" + checkoutName, "GIT_AUTHOR_EMAIL=" + checkoutEmail, "GIT_AUTHOR_DATE=" + checkoutDate,
		"GIT_COMMITTER_NAME=" + checkoutName, "GIT_COMMITTER_EMAIL=" + checkoutEmail, "GIT_COMMITTER_DATE=" + checkoutDate,
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_TERMINAL_PROMPT=0", "LC_ALL=C",
	}
}

// checkoutFits reports whether a snapshot of snapshotBytes leaves room in
// a workspace of workspaceBytes for its git objects.
func checkoutFits(snapshotBytes, workspaceBytes int64) bool {
	return snapshotBytes <= workspaceBytes/checkoutSpaceShare
}

// checkedOut records how the checkout of copySnapshot ended. It never
// fails the run: without a repository the steps still run (as before it
// existed), so a failure is logged and noted on the first step of the
// box's image.
func (rn *run) checkedOut(image string, code int, stderr string, took time.Duration) {
	switch code {
	case 0:
		rn.log.Debug("the workspace is a git repository of the snapshot", zap.Duration("took", took))
	case checkoutKept:
	case checkoutNoGit:
		rn.noteImage(image, "the workspace is not a git repository: the image has no git")
	default:
		rn.log.Warn("making the workspace a git repository failed; the steps run without one",
			zap.Int("exit_code", code), zap.String("why", stderr))
		rn.noteImage(image, "the workspace is not a git repository: making it one failed: "+stderr)
	}
}

// noteImage notes msg on the first step that runs in image.
func (rn *run) noteImage(image, msg string) {
	for i := range rn.req.Steps {
		if rn.req.imageOf(&rn.req.Steps[i]) == image {
			rn.note(i, msg)
			return
		}
	}
}
