package loopsvc_test

import (
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/services/loop/internal/enginetest"
)

func TestVerifyStreamsEveryStoredEventInOrder(t *testing.T) {
	e := newEnv(t, enginetest.CalcSteps()...)
	evs := e.verify(&glv1.VerifyRequest{Snapshot: e.snapshot(fixedFiles())})

	if len(evs) < 5 || evs[0].GetRunCreated() == nil || evs[len(evs)-1].GetRunFinished() == nil {
		t.Fatalf("stream: %d events", len(evs))
	}
	runID := evs[0].GetRunId()
	for i, ev := range evs {
		if ev.GetSeq() != uint64(i+1) || ev.GetRunId() != runID || ev.GetTime() == nil {
			t.Fatalf("event %d: seq %d run %q", i, ev.GetSeq(), ev.GetRunId())
		}
	}
	fin := evs[len(evs)-1].GetRunFinished()
	if fin.GetStatus() != glv1.RunStatus_RUN_STATUS_PASSED || fin.GetResult().GetStatus() != glv1.Verdict_VERDICT_PASS {
		t.Fatalf("finished %v", fin.GetStatus())
	}
	got, err := e.runs.GetRun(e.ctx(), &glv1.GetRunRequest{RunId: runID})
	if err != nil {
		t.Fatal(err)
	}
	run := got.GetRun()
	if run.GetStatus() != glv1.RunStatus_RUN_STATUS_PASSED || run.GetLastSeq() != uint64(len(evs)) ||
		!proto.Equal(run.GetResult(), fin.GetResult()) {
		t.Errorf("GetRun: status %s last_seq %d", run.GetStatus(), run.GetLastSeq())
	}
	// The log chunks are the executor's, forwarded in order.
	var log strings.Builder
	for _, ev := range evs {
		if c := ev.GetLogChunk(); c != nil && c.GetStep() == "pytest" {
			log.WriteString(c.GetData())
		}
	}
	if !strings.Contains(log.String(), "2 passed") {
		t.Errorf("forwarded pytest log:\n%s", log.String())
	}
}

func TestWatchRunReplaysFromStartAndMiddle(t *testing.T) {
	e := newEnv(t, enginetest.CalcSteps()...)
	evs := e.verify(&glv1.VerifyRequest{Snapshot: e.snapshot(enginetest.CalcFiles)})
	runID := evs[0].GetRunId()
	for _, after := range []uint64{0, 5, uint64(len(evs) - 1), uint64(len(evs))} {
		got, err := e.watch(e.ctx(), runID, after)
		if err != nil {
			t.Fatalf("after %d: %v", after, err)
		}
		want := evs[after:]
		if len(got) != len(want) {
			t.Fatalf("after %d: %d events, want %d", after, len(got), len(want))
		}
		for i := range got {
			if !proto.Equal(got[i], want[i]) {
				t.Fatalf("after %d: event %d differs", after, i)
			}
		}
	}
}

func TestWatchRunFollowsALiveRun(t *testing.T) {
	slow := enginetest.Step("slow", glv1.Tier_TIER_0, glv1.Phase_PHASE_TEST, 0, 500*time.Millisecond)
	e := newEnv(t, slow)
	ctx := e.ctx()
	stream, err := e.runs.Verify(ctx, &glv1.VerifyRequest{Snapshot: e.snapshot(fixedFiles())})
	if err != nil {
		t.Fatal(err)
	}
	first, err := stream.Recv()
	if err != nil {
		t.Fatal(err)
	}
	runID := first.GetEvent().GetRunId()
	<-e.exec.Started() // the run is in the middle of its step
	watched, err := e.watch(ctx, runID, 1)
	if err != nil {
		t.Fatal(err)
	}
	var verified []*glv1.RunEvent
	for {
		resp, err := stream.Recv()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		verified = append(verified, resp.GetEvent())
	}
	if len(watched) != len(verified) || len(watched) == 0 || watched[len(watched)-1].GetRunFinished() == nil {
		t.Fatalf("watcher got %d events, the Verify stream %d", len(watched), len(verified))
	}
	for i := range watched {
		if !proto.Equal(watched[i], verified[i]) {
			t.Fatalf("event %d differs", i)
		}
	}
}

func TestWatchRunErrors(t *testing.T) {
	e := newEnv(t, enginetest.CalcSteps()...)
	evs := e.verify(&glv1.VerifyRequest{Snapshot: e.snapshot(fixedFiles())})
	tests := []struct {
		name  string
		id    string
		after uint64
		code  codes.Code
	}{
		{"unknown run", "r_20270101T000000_nosuchrun", 0, codes.NotFound},
		{"empty id", "", 0, codes.InvalidArgument},
		{"after beyond the end", evs[0].GetRunId(), uint64(len(evs)) + 10, codes.InvalidArgument},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := e.watch(e.ctx(), tt.id, tt.after)
			if status.Code(err) != tt.code {
				t.Fatalf("WatchRun = %v, want %s", err, tt.code)
			}
		})
	}
	if _, err := e.runs.GetRun(e.ctx(), &glv1.GetRunRequest{RunId: "nope"}); status.Code(err) != codes.NotFound {
		t.Errorf("GetRun unknown = %v", err)
	}
}

func TestHundredWatchersReceiveEveryEventInOrder(t *testing.T) {
	chatty := enginetest.Step("chatty", glv1.Tier_TIER_0, glv1.Phase_PHASE_TEST, 0, 300*time.Millisecond)
	chatty.Env["FAKE_LOG"] = strings.Repeat("a line of test output\n", 400)
	chatty.Env["FAKE_CHUNKS"] = "200"
	e := newEnv(t, chatty)
	ctx := e.ctx()
	stream, err := e.runs.Verify(ctx, &glv1.VerifyRequest{Snapshot: e.snapshot(fixedFiles())})
	if err != nil {
		t.Fatal(err)
	}
	first, err := stream.Recv()
	if err != nil {
		t.Fatal(err)
	}
	runID := first.GetEvent().GetRunId()
	const watchers = 100
	results := make([][]*glv1.RunEvent, watchers)
	errs := make([]error, watchers)
	var wg sync.WaitGroup
	for i := range watchers {
		wg.Go(func() { results[i], errs[i] = e.watch(ctx, runID, 0) })
	}
	for {
		if _, err := stream.Recv(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
	}
	wg.Wait()
	want, err := e.watch(ctx, runID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if chunks := countKind(want, "log_chunk"); chunks != 200 {
		t.Fatalf("only %d log chunks: not a meaningful stream", chunks)
	}
	for i := range watchers {
		if errs[i] != nil {
			t.Fatalf("watcher %d: %v", i, errs[i])
		}
		if len(results[i]) != len(want) {
			t.Fatalf("watcher %d got %d events, want %d", i, len(results[i]), len(want))
		}
		for j, ev := range results[i] {
			if ev.GetSeq() != uint64(j+1) || !proto.Equal(ev, want[j]) {
				t.Fatalf("watcher %d: event %d has seq %d", i, j, ev.GetSeq())
			}
		}
	}
}

func countKind(evs []*glv1.RunEvent, kind string) int {
	n := 0
	for _, ev := range evs {
		if string(ev.ProtoReflect().WhichOneof(ev.ProtoReflect().Descriptor().Oneofs().ByName("kind")).Name()) == kind {
			n++
		}
	}
	return n
}

func TestListRunsFiltersAndPages(t *testing.T) {
	e := newEnv(t, enginetest.CalcSteps()...)
	good, bad := e.snapshot(fixedFiles()), e.snapshot(enginetest.CalcFiles)
	var passed, failed []string
	for i := range 5 {
		snap, list := good, &passed
		if i%2 == 1 {
			snap, list = bad, &failed
		}
		evs := e.verify(&glv1.VerifyRequest{Snapshot: snap})
		*list = append(*list, evs[0].GetRunId())
	}
	var ids []string
	token := ""
	for pages := 0; ; pages++ {
		resp, err := e.runs.ListRuns(e.ctx(), &glv1.ListRunsRequest{PageSize: 2, PageToken: token})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range resp.GetRuns() {
			ids = append(ids, r.GetId())
			if r.GetResult() != nil {
				t.Errorf("ListRuns carries results")
			}
		}
		if token = resp.GetNextPageToken(); token == "" {
			if pages != 2 {
				t.Errorf("%d pages of 2 for 5 runs", pages+1)
			}
			break
		}
	}
	if len(ids) != 5 || ids[0] != passed[2] {
		t.Fatalf("listed %v, newest first should be %s", ids, passed[2])
	}
	resp, err := e.runs.ListRuns(e.ctx(), &glv1.ListRunsRequest{Statuses: []glv1.RunStatus{glv1.RunStatus_RUN_STATUS_FAILED}})
	if err != nil || len(resp.GetRuns()) != 2 {
		t.Fatalf("FAILED filter: %v, %v", resp.GetRuns(), err)
	}
	for _, bad := range []*glv1.ListRunsRequest{{PageToken: "garbage!"}, {PageSize: -1}} {
		if _, err := e.runs.ListRuns(e.ctx(), bad); status.Code(err) != codes.InvalidArgument {
			t.Errorf("ListRuns(%v) = %v, want InvalidArgument", bad, err)
		}
	}
}

func TestBadSnapshotsAreRefusedWithNothingStored(t *testing.T) {
	e := newEnv(t, enginetest.CalcSteps()...)
	garbage, err := e.blobs.Put(e.ctx(), strings.NewReader("\x00\x01garbage that is not a tar"+strings.Repeat("!", 2000)))
	if err != nil {
		t.Fatal(err)
	}
	for name, d := range map[string]*glv1.Digest{
		"garbage": garbage.Proto(), "unknown": blob.DigestOf([]byte("never uploaded")).Proto(),
		"malformed": {Hash: "not-hex", SizeBytes: 1}, "missing": nil,
	} {
		stream, err := e.runs.Verify(e.ctx(), &glv1.VerifyRequest{Snapshot: d})
		if err == nil {
			_, err = stream.Recv()
		}
		if status.Code(err) != codes.InvalidArgument {
			t.Errorf("%s snapshot: %v, want InvalidArgument", name, err)
		}
		if _, err := e.runs.DiscoverWorkspace(e.ctx(), &glv1.DiscoverWorkspaceRequest{Snapshot: d}); status.Code(err) != codes.InvalidArgument {
			t.Errorf("DiscoverWorkspace %s: %v", name, err)
		}
	}
	resp, err := e.runs.ListRuns(e.ctx(), &glv1.ListRunsRequest{})
	if err != nil || len(resp.GetRuns()) != 0 {
		t.Fatalf("runs after refusals: %v %v", resp.GetRuns(), err)
	}
	// The server is fine afterwards.
	if evs := e.verify(&glv1.VerifyRequest{Snapshot: e.snapshot(fixedFiles())}); evs[len(evs)-1].GetRunFinished() == nil {
		t.Fatal("no run after the refusals")
	}
}

func TestVerifyClientGoingAwayCancelsTheRun(t *testing.T) {
	e := newEnv(t, enginetest.Step("slow", glv1.Tier_TIER_0, glv1.Phase_PHASE_TEST, 0, time.Minute))
	ctx, cancel := context.WithCancel(e.ctx())
	stream, err := e.runs.Verify(ctx, &glv1.VerifyRequest{Snapshot: e.snapshot(fixedFiles())})
	if err != nil {
		t.Fatal(err)
	}
	first, err := stream.Recv()
	if err != nil {
		t.Fatal(err)
	}
	<-e.exec.Started()
	cancel()
	evs, err := e.watch(e.ctx(), first.GetEvent().GetRunId(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if fin := evs[len(evs)-1].GetRunFinished(); fin.GetStatus() != glv1.RunStatus_RUN_STATUS_CANCELED {
		t.Fatalf("finished %v", fin)
	}
}

func TestDiscoverWorkspace(t *testing.T) {
	e := newEnv(t, enginetest.CalcSteps()...)
	resp, err := e.runs.DiscoverWorkspace(e.ctx(), &glv1.DiscoverWorkspaceRequest{Snapshot: e.snapshot(fixedFiles())})
	if err != nil || len(resp.GetCapabilities().GetCommands()) != 2 {
		t.Fatalf("DiscoverWorkspace = %v, %v", resp, err)
	}
	e.disc.SetError(status.Error(codes.ResourceExhausted, "snapshot has too many files"))
	_, err = e.runs.DiscoverWorkspace(e.ctx(), &glv1.DiscoverWorkspaceRequest{Snapshot: e.snapshot(fixedFiles())})
	if status.Code(err) != codes.ResourceExhausted {
		t.Fatalf("discovery's status not passed on: %v", err)
	}
}

// fixStream opens a Fix stream with the client provider.
func (e *env) fixStream(ctx context.Context, opts *glv1.FixOptions, snap *glv1.Digest) glv1.RunService_FixClient {
	e.t.Helper()
	stream, err := e.runs.Fix(ctx)
	if err != nil {
		e.t.Fatal(err)
	}
	if opts.Provider == nil {
		opts.Provider = &glv1.ProviderConfig{Kind: glv1.ProviderKind_PROVIDER_KIND_CLIENT}
	}
	if err := stream.Send(&glv1.FixRequest{Msg: &glv1.FixRequest_Start{Start: &glv1.FixStart{Snapshot: snap, Options: opts}}}); err != nil {
		e.t.Fatal(err)
	}
	return stream
}

func TestFixWithClientProviderOverGRPC(t *testing.T) {
	e := newEnv(t, enginetest.CalcSteps()...)
	stream := e.fixStream(e.ctx(), &glv1.FixOptions{}, e.snapshot(enginetest.CalcFiles))
	answers := []string{enginetest.NonApplyingPatch, enginetest.FixPatch}
	var requests []*glv1.PatchRequest
	var fin *glv1.RunFinished
	for fin == nil {
		resp, err := stream.Recv()
		if err != nil {
			t.Fatalf("Fix stream: %v", err)
		}
		ev := resp.GetEvent()
		if req := ev.GetPatchRequested().GetRequest(); req != nil {
			requests = append(requests, req)
			reply := &glv1.PatchReply{Attempt: req.GetAttempt(), Patch: answers[0], Usage: &glv1.Usage{CompletionTokens: 5}}
			answers = answers[1:]
			if err := stream.Send(&glv1.FixRequest{Msg: &glv1.FixRequest_Patch{Patch: reply}}); err != nil {
				t.Fatal(err)
			}
		}
		fin = ev.GetRunFinished()
	}
	if _, err := stream.Recv(); err != io.EOF {
		t.Errorf("stream after RunFinished: %v", err)
	}
	m := fin.GetMetrics()
	if fin.GetStatus() != glv1.RunStatus_RUN_STATUS_PASSED || !m.GetGreen() || m.GetAttemptsToGreen() != 2 || m.GetRollbacks() != 1 ||
		m.GetUsage().GetCompletionTokens() != 10 {
		t.Fatalf("finished %s metrics %v", fin.GetStatus(), m)
	}
	if len(requests) != 2 || requests[0].GetAttempt() != 1 || requests[1].GetAttempt() != 2 ||
		!strings.Contains(requests[1].GetFeedback(), "does not apply") || requests[0].GetPrompt() == "" {
		t.Fatalf("requests %v", requests)
	}
}

func TestFixClientClosingItsSideGivesUp(t *testing.T) {
	e := newEnv(t, enginetest.CalcSteps()...)
	stream := e.fixStream(e.ctx(), &glv1.FixOptions{}, e.snapshot(enginetest.CalcFiles))
	if err := stream.CloseSend(); err != nil {
		t.Fatal(err)
	}
	var fin *glv1.RunFinished
	for fin == nil {
		resp, err := stream.Recv()
		if err != nil {
			t.Fatal(err)
		}
		fin = resp.GetEvent().GetRunFinished()
	}
	if fin.GetMetrics().GetStopReason() != "provider_gave_up" || fin.GetResult().GetStopMemo() == "" {
		t.Fatalf("finished %v", fin.GetMetrics())
	}
}

func TestFixProtocolErrors(t *testing.T) {
	e := newEnv(t, enginetest.CalcSteps()...)
	stream, err := e.runs.Fix(e.ctx())
	if err != nil {
		t.Fatal(err)
	}
	_ = stream.Send(&glv1.FixRequest{Msg: &glv1.FixRequest_Patch{Patch: &glv1.PatchReply{Patch: "x"}}})
	if _, err := stream.Recv(); status.Code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), "FixStart") {
		t.Fatalf("patch before start: %v", err)
	}
	stream = e.fixStream(e.ctx(), &glv1.FixOptions{MaxRounds: -1}, e.snapshot(enginetest.CalcFiles))
	if _, err := stream.Recv(); status.Code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), "max_rounds") {
		t.Fatalf("bad options: %v", err)
	}
	stream, _ = e.runs.Fix(e.ctx())
	_ = stream.CloseSend()
	if _, err := stream.Recv(); status.Code(err) != codes.InvalidArgument {
		t.Fatalf("empty stream: %v", err)
	}
}
