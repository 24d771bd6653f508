// Package loopsvc wires the loop service (the orchestrator: run store, blob
// store, verify/fix state machine) for both the greenlight-loop binary and
// the embedded mode of the greenlight CLI.
//
// Skeleton: BlobService is the real pkg/blob store under DataDir/blobs;
// RunService answers Unimplemented until the orchestrator lands.
package loopsvc
