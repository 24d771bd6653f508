package fanout

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/gateway/internal/loopfake"
)

// BenchmarkWatchers measures delivering one run's events to many watchers
// through the hub (one upstream stream) against the baseline of one
// upstream stream per watcher, in the same run. Metrics: deliveries/s
// (events × watchers per second) and upstream streams per run.
func BenchmarkWatchers(b *testing.B) {
	const watchers, events = 100, 500
	for _, mode := range []string{"hub", "direct"} {
		b.Run(fmt.Sprintf("%s/%dx%d", mode, watchers, events), func(b *testing.B) {
			loop := loopfake.Start(b)
			src := glv1.NewRunServiceClient(loop.Conn)
			var elapsed time.Duration
			for i := 0; b.Loop(); i++ {
				runID := fmt.Sprintf("r%d", i)
				loop.Emit(runID, loopfake.Created(runID))
				calls := loop.WatchCalls()
				ctx, cancel := context.WithCancel(context.Background())
				hub := NewHub(ctx, src, nil, Options{})
				done := make(chan error, watchers)
				attached := make(chan struct{}, watchers)
				for range watchers {
					go func() { done <- watchOnce(ctx, mode, hub, src, runID, attached) }()
				}
				for range watchers {
					<-attached
				}
				start := time.Now()
				loop.Emit(runID, benchEvents(events)...)
				loop.Emit(runID, loopfake.Finished(glv1.RunStatus_RUN_STATUS_PASSED, &glv1.Result{}))
				for range watchers {
					if err := <-done; err != nil {
						b.Fatal(err)
					}
				}
				elapsed += time.Since(start)
				cancel()
				b.ReportMetric(float64(loop.WatchCalls()-calls), "upstreams/run")
			}
			b.ReportMetric(float64(b.N*watchers*(events+1))/elapsed.Seconds(), "deliveries/s")
		})
	}
}

func benchEvents(n int) []*glv1.RunEvent {
	evs := make([]*glv1.RunEvent, n)
	for i := range evs {
		evs[i] = loopfake.LogEvent(0, "go-test", "=== RUN   TestSomething/with_a_typical_line_length\n")
	}
	return evs
}

// watchOnce follows the run to its end, via the hub or directly upstream,
// signalling attached after the first event.
func watchOnce(ctx context.Context, mode string, hub *Hub, src Source, runID string, attached chan<- struct{}) error {
	first := true
	note := func() {
		if first {
			first = false
			attached <- struct{}{}
		}
	}
	if mode == "hub" {
		return hub.Watch(ctx, runID, 0, func(*glv1.RunEvent) error { note(); return nil })
	}
	stream, err := src.WatchRun(ctx, &glv1.WatchRunRequest{RunId: runID})
	if err != nil {
		return err
	}
	for {
		if _, err := stream.Recv(); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		note()
	}
}
