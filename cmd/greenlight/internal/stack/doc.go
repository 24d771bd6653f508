// Package stack gives the CLI a connection to greenlight, whichever way it
// runs: Remote dials a gateway (or a loop) over gRPC with an optional bearer
// token; Start runs the four services (discovery, executor, loop and,
// when listening for others, the gateway) inside this process, each on its
// own gRPC server, and dials them exactly as a remote client would. The CLI
// commands are therefore the same code in both modes: they only ever see a
// *Conn (RunService and BlobService clients).
//
// One-shot commands start the stack on in-memory listeners (bufconn), so
// they never collide with a `greenlight serve` on the default ports, with
// no warm container pool and the egress network created only for a run
// with an install step that needs it, and Close drains the executor so no
// sandbox container outlives the process. `greenlight serve` starts it on the
// default TCP addresses instead.
package stack
