// Package fleet places executions on a set of executors: it is the loop's
// ExecutorServiceClient when several executors (each with its own Docker
// engine) serve one loop.
//
// Membership comes from the configured addresses; a DNS name stands for
// every address it resolves to (re-resolved periodically, as a headless
// Kubernetes Service would be). Health is the standard grpc.health.v1
// Watch stream of each executor; capacity and load are what each
// executor's Capacity RPC advertises, combined with the executions this
// loop has placed there. An execution goes to the healthy executor with
// the most free sandboxes; when all are full it waits in a FIFO queue and
// the caller is told its position. A caller can ask to avoid the executor
// an execution just failed on, which is how the engine retries an
// infrastructure failure once elsewhere.
package fleet
