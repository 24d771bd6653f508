// Package enginetest holds test doubles for the loop's collaborators: a
// discovery service that plans a fixed pipeline, an executor that "runs"
// steps by judging the snapshot's files with Go code (storing real logs in
// the blob store and honoring the run budget and cancellation like the
// real one), and a small Python project with a one-line bug whose fake
// pytest output is what the real parser reads. The doubles are real gRPC
// servers, served on loopback or bufconn, so everything between the loop
// and them is the production code path.
package enginetest
