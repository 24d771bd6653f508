// Package runnerproto is the wire protocol between the executor and
// greenlight-runner, the step runner baked into the sandbox images. It is
// standard library only, because the runner is a small static binary.
//
// The runner is the sandbox container's main process (as uid 0, with only
// CAP_SETUID, CAP_SETGID and CAP_KILL, under docker-init) and speaks over
// its stdin and stdout, which the executor attaches to before the
// container starts. Both directions carry the same frames:
//
//	uint32 length (big endian) of what follows: kind, id, payload
//	byte   kind
//	uint32 id (big endian): the process the frame is about, 0 for none
//	payload
//
// Control frames (Hello, Start, Exit) carry JSON; data frames (Stdin,
// Stdout, Stderr) carry raw bytes. A process the runner starts never holds
// the runner's stdout: its output reaches the runner through pipes the
// runner owns, and the runner frames it. Whatever a step prints therefore
// arrives as the payload of a data frame, never as a frame of its own.
package runnerproto
