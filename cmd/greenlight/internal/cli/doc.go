// Package cli is the greenlight command line: verify, discover, fix, runs,
// show, watch, artifacts, eval, serve and version, built with cobra.
//
// Every command talks to greenlight through a stack.Conn: with --addr (or
// GREENLIGHT_ADDR) a remote gateway, otherwise the whole stack embedded in
// this process. Exit codes are the contract scripts rely on: 0 PASS, 1
// FAIL, 2 usage or infrastructure error with a one-line reason on stderr
// ("greenlight: verify: ...").
package cli
