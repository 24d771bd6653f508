// Package servertest helps tests of greenlight service binaries: build the
// binary, run it as a real process on a free loopback port, talk to it with
// real gRPC clients (health, reflection) and stop it with a signal.
package servertest
