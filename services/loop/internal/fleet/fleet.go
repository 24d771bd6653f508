package fleet

import (
	"context"
	"fmt"
	"net"
	"sort"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// Dial connects to one executor address.
type Dial func(addr string) (*grpc.ClientConn, error)

// Options tune a Fleet.
type Options struct {
	// Poll is how often each executor's capacity is asked (0: 2 s).
	Poll time.Duration
	// Resolve is how often DNS names are resolved again (0: 30 s).
	Resolve time.Duration
	// Lookup resolves a host (nil: net.DefaultResolver.LookupHost).
	Lookup func(ctx context.Context, host string) ([]string, error)
	// NoneHealthy is how long Execute waits while no executor it may use
	// is healthy before it fails with UNAVAILABLE (0: 30 s). While healthy
	// executors are merely full, it waits in the queue for as long as its
	// context allows.
	NoneHealthy time.Duration
}

// Fleet is an ExecutorServiceClient over several executors.
type Fleet struct {
	targets []string
	dial    Dial
	opts    Options
	log     *zap.Logger
	ctx     context.Context
	cancel  context.CancelFunc

	mu      sync.Mutex
	members map[string]*member
	queue   []*waiter
	changed chan struct{} // closed and replaced whenever capacity may have grown
	done    sync.WaitGroup
	// borrowed: the connections are the caller's (NewConn); the fleet
	// neither resolves nor closes them.
	borrowed bool
}

var _ glv1.ExecutorServiceClient = (*Fleet)(nil)

// waiter is one Execute waiting for a sandbox.
type waiter struct{}

// New starts a fleet over targets (host:port entries; a host may be a DNS
// name standing for several addresses). It does not wait for any executor
// to answer: Execute does.
func New(targets []string, dial Dial, log *zap.Logger, opts Options) (*Fleet, error) {
	if len(targets) == 0 {
		return nil, fmt.Errorf("fleet: no executor address")
	}
	for _, t := range targets {
		if _, _, err := net.SplitHostPort(t); err != nil && dial != nil {
			return nil, fmt.Errorf("fleet: executor address %q: %w (want host:port)", t, err)
		}
	}
	if opts.Poll <= 0 {
		opts.Poll = 2 * time.Second
	}
	if opts.Resolve <= 0 {
		opts.Resolve = 30 * time.Second
	}
	if opts.NoneHealthy <= 0 {
		opts.NoneHealthy = 30 * time.Second
	}
	if opts.Lookup == nil {
		opts.Lookup = net.DefaultResolver.LookupHost
	}
	if log == nil {
		log = zap.NewNop()
	}
	ctx, cancel := context.WithCancel(context.Background())
	f := &Fleet{targets: targets, dial: dial, opts: opts, log: log, ctx: ctx, cancel: cancel,
		members: map[string]*member{}, changed: make(chan struct{})}
	if dial == nil {
		return f, nil // NewConn: a fixed member, nothing to resolve
	}
	f.refresh()
	f.done.Add(1)
	go f.resolveLoop()
	return f, nil
}

// Close stops watching and closes every connection.
func (f *Fleet) Close() error {
	f.cancel()
	f.done.Wait()
	f.mu.Lock()
	defer f.mu.Unlock()
	for addr, m := range f.members {
		if !f.borrowed {
			_ = m.conn.Close()
		}
		delete(f.members, addr)
	}
	return nil
}

// resolveLoop re-resolves the targets until the fleet closes.
func (f *Fleet) resolveLoop() {
	defer f.done.Done()
	t := time.NewTicker(f.opts.Resolve)
	defer t.Stop()
	for {
		select {
		case <-f.ctx.Done():
			return
		case <-t.C:
			f.refresh()
		}
	}
}

// refresh resolves the targets and adds or drops members to match. A
// name that does not resolve keeps its previous members.
func (f *Fleet) refresh() {
	want := map[string]bool{}
	for _, t := range f.targets {
		host, port, _ := net.SplitHostPort(t)
		if net.ParseIP(host) != nil {
			want[t] = true
			continue
		}
		ctx, cancel := context.WithTimeout(f.ctx, 5*time.Second)
		addrs, err := f.opts.Lookup(ctx, host)
		cancel()
		if err != nil {
			f.log.Warn("executor address does not resolve; keeping its known members", zap.String("target", t), zap.Error(err))
			f.keepMembersOf(port, want)
			continue
		}
		for _, a := range addrs {
			want[net.JoinHostPort(a, port)] = true
		}
	}
	f.sync(want)
}

// keepMembersOf keeps the current members on port (a name that failed to
// resolve this time).
func (f *Fleet) keepMembersOf(port string, want map[string]bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for addr := range f.members {
		if _, p, _ := net.SplitHostPort(addr); p == port {
			want[addr] = true
		}
	}
}

// sync starts members for new addresses and stops those gone.
func (f *Fleet) sync(want map[string]bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for addr, m := range f.members {
		if !want[addr] {
			m.stop()
			_ = m.conn.Close()
			delete(f.members, addr)
			f.log.Info("executor left the fleet", zap.String("executor", addr))
		}
	}
	for addr := range want {
		if _, ok := f.members[addr]; ok {
			continue
		}
		conn, err := f.dial(addr)
		if err != nil {
			f.log.Warn("executor cannot be dialed", zap.String("executor", addr), zap.Error(err))
			continue
		}
		f.addLocked(addr, conn)
	}
}

// addLocked makes conn a member and starts watching it.
func (f *Fleet) addLocked(addr string, conn *grpc.ClientConn) {
	ctx, stop := context.WithCancel(f.ctx)
	m := &member{addr: addr, conn: conn, client: glv1.NewExecutorServiceClient(conn), stop: stop}
	f.members[addr] = m
	f.done.Add(2)
	go func() { defer f.done.Done(); m.watchHealth(ctx, f.opts.Poll, func(ok bool) { f.setServing(m, ok) }) }()
	go func() {
		defer f.done.Done()
		m.pollCapacity(ctx, f.opts.Poll, func(c *glv1.CapacityResponse) { f.setCapacity(m, c) })
	}()
	f.log.Info("executor joined the fleet", zap.String("executor", addr))
}

// NewConn is a fleet of one executor over a connection the caller made
// and closes (an embedding process's in-process executor): its runs get
// the fleet's capacity-aware queue instead of RESOURCE_EXHAUSTED.
func NewConn(name string, conn *grpc.ClientConn, log *zap.Logger, opts Options) *Fleet {
	f, _ := New([]string{name}, nil, log, opts)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.borrowed = true
	f.addLocked(name, conn)
	return f
}

func (f *Fleet) setServing(m *member, ok bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if m.serving != ok {
		f.log.Info("executor health changed", zap.String("executor", m.addr), zap.Bool("serving", ok))
	}
	m.serving = ok
	f.wakeLocked()
}

func (f *Fleet) setCapacity(m *member, c *glv1.CapacityResponse) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if c == nil {
		m.engineOK = false
		f.wakeLocked()
		return
	}
	m.engineOK = c.GetEngineVersion() != ""
	m.max, m.reported, m.name = int(c.GetMaxSandboxes()), int(c.GetRunning()), c.GetName()
	f.wakeLocked()
}

// wakeLocked wakes every waiting Execute (capacity or health changed).
func (f *Fleet) wakeLocked() {
	close(f.changed)
	f.changed = make(chan struct{})
}

// Members describes the fleet for logs and tests: address, healthy, free
// sandboxes, sorted by address.
func (f *Fleet) Members() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for addr, m := range f.members {
		out = append(out, fmt.Sprintf("%s healthy=%v free=%d", addr, m.healthy(), m.free()))
	}
	sort.Strings(out)
	return out
}

// Capacity sums the healthy executors' capacity (the fleet seen as one).
func (f *Fleet) Capacity(context.Context, *glv1.CapacityRequest, ...grpc.CallOption) (*glv1.CapacityResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	resp := &glv1.CapacityResponse{Name: strings.Join(f.targets, ",")}
	for _, m := range f.members {
		if m.healthy() {
			resp.MaxSandboxes += int32(m.max)
			resp.Running += int32(m.max - m.free())
			resp.EngineVersion = "fleet"
		}
	}
	return resp, nil
}

// HasAlternative says whether an execution that failed on addr could run
// on another healthy executor.
func (f *Fleet) HasAlternative(addr string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for a, m := range f.members {
		if a != addr && m.healthy() {
			return true
		}
	}
	return false
}
