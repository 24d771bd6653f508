package loopsvc

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/zap"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/services/loop/internal/store"
)

func TestPrunerDeletesOldRunsAndOnlyTheirBlobs(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	blobs, err := blob.NewStore(filepath.Join(dir, "blobs"))
	if err != nil {
		t.Fatal(err)
	}
	runs, err := store.Open(filepath.Join(dir, "runs.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer runs.Close()
	put := func(s string) *glv1.Digest {
		d, err := blobs.Put(ctx, strings.NewReader(s))
		if err != nil {
			t.Fatal(err)
		}
		return d.Proto()
	}
	shared := put("snapshot used by both runs")
	var logs []*glv1.Digest
	var ids []string
	for i := range 2 {
		log := put("log of run " + string(rune('a'+i)))
		logs = append(logs, log)
		run := &glv1.Run{Snapshot: shared, Result: &glv1.Result{Steps: []*glv1.StepResult{{LogDigest: log}}}}
		if err := runs.CreateRun(ctx, run); err != nil {
			t.Fatal(err)
		}
		if _, err := runs.Finish(ctx, run.GetId(), &glv1.RunFinished{Status: glv1.RunStatus_RUN_STATUS_PASSED,
			Result: run.GetResult()}); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, run.GetId())
	}
	p := &pruner{runs: runs, blobs: blobs, ret: store.Retention{KeepRuns: 1}, log: zap.NewNop()}
	rep, deleted, err := p.once(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Runs) != 1 || rep.Runs[0] != ids[0] || deleted != 1 {
		t.Fatalf("pruned runs %v, %d blobs", rep.Runs, deleted)
	}
	for d, want := range map[*glv1.Digest]bool{shared: true, logs[0]: false, logs[1]: true} {
		bd, _ := blob.DigestFromProto(d)
		if _, found, _ := blobs.Stat(ctx, bd); found != want {
			t.Errorf("blob %s present %t, want %t", bd, found, want)
		}
	}
	if _, err := runs.GetRun(ctx, ids[0]); err == nil {
		t.Errorf("pruned run still there")
	}
	off := &pruner{runs: runs, blobs: blobs, log: zap.NewNop()}
	if rep, n, err := off.once(ctx); err != nil || len(rep.Runs) != 0 || n != 0 {
		t.Errorf("disabled pruner deleted %v %d %v", rep.Runs, n, err)
	}
}
