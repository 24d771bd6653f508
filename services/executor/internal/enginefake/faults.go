package enginefake

import (
	"context"
	"fmt"

	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
)

// Op names a Runtime operation, for FailOn, Block and the call record.
type Op string

// The operations of sandbox.Runtime (and sandbox.Puller).
const (
	OpPing       Op = "ping"
	OpEngine     Op = "engine"
	OpImage      Op = "image"
	OpPull       Op = "pull"
	OpCreate     Op = "create"
	OpStart      Op = "start"
	OpConnect    Op = "connect"
	OpDisconnect Op = "disconnect"
	OpAttach     Op = "attach"
	OpExec       Op = "exec"
	OpState      Op = "state"
	OpRemove     Op = "remove"
	OpList       Op = "list"
)

// faults are the failures a test asked for; guarded by Engine.mu.
type faults struct {
	down    bool
	fail    map[Op]error
	blocked map[Op]bool
}

// SetDown makes every call fail with ErrEngineUnavailable (or answer
// again).
func (e *Engine) SetDown(down bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.faults.down = down
}

// FailOn makes every call of op return err from now on; nil clears it.
func (e *Engine) FailOn(op Op, err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.faults.fail == nil {
		e.faults.fail = map[Op]error{}
	}
	e.faults.fail[op] = err
}

// Block makes every call of op wait until its context ends (an engine
// that hangs); false lets later calls through.
func (e *Engine) Block(op Op, block bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.faults.blocked == nil {
		e.faults.blocked = map[Op]bool{}
	}
	e.faults.blocked[op] = block
}

// enter records a call and returns the failure the test asked for, if
// any.
func (e *Engine) enter(ctx context.Context, op Op, id, arg string) error {
	e.mu.Lock()
	e.rec.call(Call{Op: op, ID: id, Arg: arg})
	down, err, blocked := e.faults.down, e.faults.fail[op], e.faults.blocked[op]
	e.mu.Unlock()
	switch {
	case down:
		return fmt.Errorf("%w: enginefake is down", sandbox.ErrEngineUnavailable)
	case err != nil:
		return err
	case blocked:
		<-ctx.Done()
		return ctx.Err()
	}
	return ctx.Err()
}
