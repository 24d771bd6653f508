// Package sandbox is the executor's domain: it runs a pipeline of shell steps
// against a workspace snapshot inside one hardened, throw-away container per
// image, and reports what happened as events and a Result.
//
// It knows nothing about Docker or gRPC: containers are reached through the
// small Runtime interface (implemented by internal/docker), blobs through the
// Blobs interface, and callers receive plain Go events. The rules that make
// the sandbox safe (hardening, network policy, limits, timeouts, output caps,
// cleanup) all live here, so they can be read in one place. Their logic is
// tested without an engine on internal/enginefake (the fake_*_test.go
// files); what needs real confinement (limits, isolation, the hardening's
// effect) is tested against a real Docker engine.
package sandbox
