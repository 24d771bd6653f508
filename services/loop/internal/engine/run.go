package engine

import (
	"context"
	"fmt"
	"time"

	"go.uber.org/zap"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// run is the state one run's stages share.
type run struct {
	e       *Engine
	id      string
	kind    glv1.RunKind
	log     *zap.Logger
	created time.Time
	// owner is who the run is for (ExecuteRequest.owner).
	owner string
}

// create persists a new PENDING run and its RunCreated event: after it
// returns, the run exists for GetRun, ListRuns and WatchRun.
func (e *Engine) create(ctx context.Context, rec *glv1.Run) (*run, error) {
	rec.Status = glv1.RunStatus_RUN_STATUS_PENDING
	rec.CreatedAt = timestamppb.New(e.now())
	if err := e.d.Store.CreateOwnedRun(ctx, rec, e.ownerOf(ctx)); err != nil {
		return nil, fmt.Errorf("create run: %w", err)
	}
	r := &run{e: e, id: rec.GetId(), kind: rec.GetKind(), log: e.log.With(zap.String("run_id", rec.GetId())), created: rec.GetCreatedAt().AsTime(),
		owner: e.ownerOf(ctx)}
	created := proto.Clone(rec).(*glv1.Run)
	if err := r.emit(&glv1.RunEvent{Kind: &glv1.RunEvent_RunCreated{RunCreated: &glv1.RunCreated{Run: created}}}); err != nil {
		r.finish(glv1.RunStatus_RUN_STATUS_ERROR, nil, nil, err.Error())
		return nil, err
	}
	r.log.Info("run created", zap.Stringer("kind", rec.GetKind()), zap.String("snapshot", rec.GetSnapshot().GetHash()))
	return r, nil
}

// emit persists ev and publishes it. It is not bound to the run's context:
// a canceled run still records what happened up to its end.
func (r *run) emit(ev *glv1.RunEvent) error {
	if _, err := r.e.d.Hub.Append(context.Background(), r.id, ev); err != nil {
		return fmt.Errorf("%w: record event: %w", errInfra, err)
	}
	return nil
}

// update changes the stored run record (never its status to a final one).
func (r *run) update(fn func(*glv1.Run)) error {
	_, err := r.e.d.Store.UpdateRun(context.Background(), r.id, func(run *glv1.Run) error {
		fn(run)
		return nil
	})
	if err != nil {
		return fmt.Errorf("%w: update run: %w", errInfra, err)
	}
	return nil
}

// markRunning moves the run from PENDING to RUNNING.
func (r *run) markRunning() error {
	now := timestamppb.New(r.e.now())
	return r.update(func(run *glv1.Run) {
		run.Status = glv1.RunStatus_RUN_STATUS_RUNNING
		run.StartedAt = now
	})
}

// finish records the run's end: its error message (for ERROR), then the
// RunFinished event, which sets status, finished_at, result and metrics in
// the same transaction. Failures are logged: there is nobody left to tell.
func (r *run) finish(status glv1.RunStatus, result *glv1.Result, metrics *glv1.FixMetrics, errMsg string) {
	if errMsg != "" {
		if err := r.update(func(run *glv1.Run) { run.Error = errMsg }); err != nil {
			r.log.Error("recording the run error failed", zap.Error(err))
		}
	}
	fin := &glv1.RunFinished{Status: status, Result: result, Metrics: metrics}
	if err := r.emit(&glv1.RunEvent{Kind: &glv1.RunEvent_RunFinished{RunFinished: fin}}); err != nil {
		r.log.Error("recording the end of the run failed; it will be marked INTERRUPTED at the next start", zap.Error(err))
		return
	}
	r.log.Info("run finished", zap.Stringer("status", status), zap.String("error", errMsg))
}
