// Package runtimetest is the conformance suite of sandbox.Runtime: one set
// of cases that every driver (the in-memory enginefake, the Docker driver,
// a future Kubernetes one) must pass, so that the sandbox's logic tested on
// the fake holds on the engines it runs on. It is imported by tests only.
//
// A driver's test calls Run with a Harness: the Runtime, an image it can
// run, and what the driver promises. The suite does not hand-write the
// containers it checks: it runs one step through a real sandbox.Runner on
// the driver in each step runner mode and records the ContainerSpec the
// Runner created its container with, so every case checks what production
// asks for (see captureSpecs).
//
// Cases for every driver: the recorded spec is hardened (and, when the
// harness can read it back, so is what the engine applied); the container
// lifecycle (create, start, exec with streams, attach before start,
// remove); List by owner label; idempotent Remove; the sentinel errors for
// a missing image and a missing container; an Exec whose context ends
// returns within 2 s; the reaper removes the containers of an executor
// that is gone and keeps a live one's.
//
// Cases for drivers that isolate (Harness.Isolates), probed from inside a
// container as a step would run: not root, read-only root filesystem, no
// capabilities, no-new-privileges, seccomp filtering, memory and pids
// limits visible in the cgroup, a fork bomb stopped by the pids limit, no
// network interface but loopback, no Docker socket, no Kubernetes
// service-account token.
package runtimetest
