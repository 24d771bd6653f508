package executorsvc

import (
	"context"
	"net"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/server"
	"github.com/greenlight-dev/greenlight/services/executor/internal/testenv"
)

// Each loop polls Capacity every few seconds: served by pkg/server (the
// logging interceptor greenlight serve uses), the polls leave no line at
// info level, only one "capacity changed" for the first answer; the next
// identical answers add nothing.
func TestCapacityPollsLogOnlyChanges(t *testing.T) {
	docker := testenv.Docker(t)
	core, logs := observer.New(zapcore.InfoLevel)
	log := zap.New(core)
	svc, err := newService(testConfig(t), testenv.Blobs(t), log, &countingRuntime{Runtime: docker}, hostEgress{nets: docker}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = svc.Close() })
	cfg := server.DefaultConfig("executor", "127.0.0.1:0")
	cfg.DrainDelay = 0
	srv := server.New(cfg, log, server.WithoutSignals())
	svc.Register(srv.GRPC())
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, lis) }()
	conn, err := server.Dial(lis.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	client := glv1.NewExecutorServiceClient(conn)
	for range 5 {
		if _, err := client.Capacity(ctx, &glv1.CapacityRequest{}); err != nil {
			t.Fatal(err)
		}
	}
	if n := logs.FilterMessage("rpc finished").FilterFieldKey("method").Len(); n != 0 {
		t.Errorf("%d capacity polls logged at info level, want none: %v", n, logs.FilterMessage("rpc finished").All())
	}
	changed := logs.FilterMessage("capacity changed").All()
	if len(changed) != 1 || changed[0].ContextMap()["engine_reachable"] != true {
		t.Errorf("capacity changed lines: %v, want one for the first answer", changed)
	}
	cancel()
	<-served
}
