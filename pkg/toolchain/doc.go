// Package toolchain is the contract between greenlight's services and the
// toolchain packs: one package per toolchain (pkg/toolchain/rust, ...) holds
// everything greenlight knows about it — how a project is recognised and
// what its default commands are (discovery), the sandbox image and the tools
// it provides, the files that key the dependency cache and the directories a
// build writes (executor, workspace), the runner's output parser and how to
// re-run some of its tests (loop), and the environment failures its logs show
// (verdict).
//
// A pack implements [Pack]: a declarative [Spec] plus three behaviours
// (detect, plan, parse). Optional interfaces add what not every toolchain
// has ([Narrower], [EnvDiagnoser]). Services never switch on a pack's name:
// they ask the registry (pkg/toolchain/packs), so adding a toolchain is one
// package plus one line there.
//
// This package holds only the contract and small value types; it imports
// nothing of greenlight, so every service and pkg/image can depend on it.
package toolchain
