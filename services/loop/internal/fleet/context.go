package fleet

import "context"

type avoidKey struct{}

type queueKey struct{}

// Avoid returns ctx asking Execute not to place on the executor addr (the
// one the previous attempt failed on).
func Avoid(ctx context.Context, addr string) context.Context {
	return context.WithValue(ctx, avoidKey{}, addr)
}

func avoided(ctx context.Context) string {
	a, _ := ctx.Value(avoidKey{}).(string)
	return a
}

// QueueReport is told the caller's position (1 is next) and the capacity
// of the healthy executors whenever it waits for a sandbox.
type QueueReport func(position, capacity int)

// WithQueueReport returns ctx whose Execute reports its queue position.
func WithQueueReport(ctx context.Context, f QueueReport) context.Context {
	return context.WithValue(ctx, queueKey{}, f)
}

func queueReport(ctx context.Context) QueueReport {
	f, _ := ctx.Value(queueKey{}).(QueueReport)
	return f
}

// Placed is implemented by the streams Execute returns: the executor the
// execution runs on.
type Placed interface {
	Executor() string
}
