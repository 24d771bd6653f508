package engine

import (
	"context"
	"fmt"
	"sync"
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
	// queued is the first error of an event emit queued and the log
	// refused after emit returned (reported by the next emit).
	queuedMu  sync.Mutex
	queuedErr error
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
	if err := r.emitDurable(&glv1.RunEvent{Kind: &glv1.RunEvent_RunCreated{RunCreated: &glv1.RunCreated{Run: created}}}); err != nil {
		r.finish(glv1.RunStatus_RUN_STATUS_ERROR, nil, nil, err.Error())
		return nil, err
	}
	r.log.Info("run created", zap.Stringer("kind", rec.GetKind()), zap.String("snapshot", rec.GetSnapshot().GetHash()))
	return r, nil
}

// emit queues ev for the run's log, which persists it and then publishes
// it, and returns without waiting for the disk: a run's events in between
// its creation and its end then share the store's group commits instead
// of each waiting for its own fsync (a one-step verification made ~18).
// Nothing is lost that was acknowledged: watchers see an event only once
// it is durable, and the log stores and acknowledges in queue order, so
// when emitDurable's event is durable every earlier one is. An event the
// log refuses after emit returned fails the next emit (and is logged). It
// is not bound to
// the run's context: a canceled run still records what happened up to its
// end.
func (r *run) emit(ev *glv1.RunEvent) error {
	if err := r.queuedError(); err != nil {
		return err
	}
	err := r.e.d.Hub.AppendAsync(context.Background(), r.id, ev, func(_ uint64, err error) {
		if err != nil {
			r.log.Error("an event of the run was not recorded", zap.Error(err))
			r.queuedMu.Lock()
			if r.queuedErr == nil {
				r.queuedErr = fmt.Errorf("%w: record event: %w", errInfra, err)
			}
			r.queuedMu.Unlock()
		}
	})
	if err != nil {
		return fmt.Errorf("%w: record event: %w", errInfra, err)
	}
	return nil
}

// emitDurable persists ev, and with it every event emitted before, before
// returning: the run's creation (it must exist for GetRun and WatchRun
// once create returns) and its end.
func (r *run) emitDurable(ev *glv1.RunEvent) error {
	if _, err := r.e.d.Hub.Append(context.Background(), r.id, ev); err != nil {
		return fmt.Errorf("%w: record event: %w", errInfra, err)
	}
	return nil
}

// queuedError is the first error of an emitted event the log refused.
func (r *run) queuedError() error {
	r.queuedMu.Lock()
	defer r.queuedMu.Unlock()
	return r.queuedErr
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
	if err := r.emitDurable(&glv1.RunEvent{Kind: &glv1.RunEvent_RunFinished{RunFinished: fin}}); err != nil {
		r.log.Error("recording the end of the run failed; it will be marked INTERRUPTED at the next start", zap.Error(err))
		return
	}
	r.log.Info("run finished", zap.Stringer("status", status), zap.String("error", errMsg))
}
