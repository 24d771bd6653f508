// Package patch reads, checks and applies the patches a repair loop's
// provider proposes.
//
// Three spellings are accepted and normalized into one Patch (files with
// hunks): a unified diff (git-style "diff --git" or plain "---"/"+++"), the
// same inside <patch>…</patch> or a ```diff fence with prose around it, and
// the "*** Begin Patch" envelope of OpenAI's apply_patch tool. Unified diffs
// are parsed with github.com/bluekeyes/go-gitdiff (git's extended headers,
// quoted names, modes, renames, binary markers), after a repair pass that
// recounts hunk headers models get wrong; the envelope parser is ours.
//
// Check enforces the Guardrails on the patch alone (paths, allow-list,
// symlink and binary markers, size caps, tests and lockfiles); Apply repeats
// it, unpacks the snapshot into a fresh temporary directory with
// pkg/workspace, refuses paths that are or pass through a symlink there,
// applies every hunk with exact context (a hunk may move to another line,
// never match approximately) and re-packs the tree deterministically.
// Refusals are *Refusal errors wrapping ErrRefused, with a reason meant to
// be fed back to the model; a hunk that does not match is an *ApplyError
// wrapping ErrDoesNotApply. The input snapshot is only ever read.
package patch
