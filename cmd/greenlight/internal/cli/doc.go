// Package cli is the greenlight command line: verify, discover, fix, runs,
// show, watch, artifacts, eval, serve and version, built with cobra.
//
// Every command talks to greenlight through a stack.Conn: with --addr (or
// GREENLIGHT_ADDR) a remote gateway, otherwise the whole stack embedded in
// this process. Exit codes are the contract scripts rely on, the same for
// every command that presents a run (verify, fix, watch, show): 0 PASS, 1
// FAIL, 2 no verdict (an ERROR or canceled run, a run still going, usage or
// infrastructure error, with a one-line reason on stderr: "greenlight:
// verify: ..."), and 128+n when signal n stopped the command (130 Ctrl-C).
package cli
