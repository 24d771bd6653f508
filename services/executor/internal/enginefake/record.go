package enginefake

import (
	"maps"
	"slices"
	"time"

	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
)

// Call is one Runtime call as the engine received it.
type Call struct {
	Op Op
	// ID is the container, "" for calls about none; Arg the image ref,
	// network or label the call named.
	ID  string
	Arg string
}

// Proc is one process the engine started, as the sandbox asked for it.
type Proc struct {
	Container string
	// Runner says it was started by the container's greenlight-runner
	// (else by Exec).
	Runner bool
	// Argv, Dir and Env are as asked, in the container's paths.
	Argv []string
	Dir  string
	Env  []string
	User string
	// Networks are the networks the container was attached to when the
	// process started, sorted.
	Networks []string
}

// Container is a snapshot of one container's state.
type Container struct {
	ID      string
	Spec    sandbox.ContainerSpec
	State   string
	Created time.Time
	// Networks are the networks it is attached to now, sorted.
	Networks []string
	// Root is the host directory standing for its filesystem.
	Root string
}

// recorder keeps what happened; guarded by Engine.mu.
type recorder struct {
	calls []Call
	specs []sandbox.ContainerSpec
	procs []Proc
}

func (r *recorder) call(c Call) { r.calls = append(r.calls, c) }

// Calls returns every call so far, in order.
func (e *Engine) Calls() []Call {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.rec.calls)
}

// CallsOf returns the calls of op so far, in order.
func (e *Engine) CallsOf(op Op) []Call {
	var out []Call
	for _, c := range e.Calls() {
		if c.Op == op {
			out = append(out, c)
		}
	}
	return out
}

// Specs returns the spec of every container created so far (also those
// removed since), in order.
func (e *Engine) Specs() []sandbox.ContainerSpec {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make([]sandbox.ContainerSpec, len(e.rec.specs))
	for i, s := range e.rec.specs {
		out[i] = cloneSpec(s)
	}
	return out
}

// Procs returns every process started so far, in order.
func (e *Engine) Procs() []Proc {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.rec.procs)
}

// Containers returns the containers that exist now, in creation order.
func (e *Engine) Containers() []Container {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []Container
	for _, id := range e.order {
		if c := e.containers[id]; c != nil {
			out = append(out, Container{
				ID: id, Spec: cloneSpec(c.spec), State: c.state, Created: c.created,
				Networks: slices.Sorted(maps.Keys(c.networks)), Root: c.root.dir,
			})
		}
	}
	return out
}

// cloneSpec deep-copies a spec, so that neither side can change the
// other's.
func cloneSpec(s sandbox.ContainerSpec) sandbox.ContainerSpec {
	s.Entrypoint, s.Cmd, s.Env = slices.Clone(s.Entrypoint), slices.Clone(s.Cmd), slices.Clone(s.Env)
	s.CapDrop, s.CapAdd, s.SecurityOpt = slices.Clone(s.CapDrop), slices.Clone(s.CapAdd), slices.Clone(s.SecurityOpt)
	s.Labels, s.Tmpfs, s.Sysctls = maps.Clone(s.Labels), maps.Clone(s.Tmpfs), maps.Clone(s.Sysctls)
	return s
}
