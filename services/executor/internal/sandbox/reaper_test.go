package sandbox

import (
	"context"
	"strconv"
	"testing"
	"time"

	"go.uber.org/zap"
)

// listRuntime is a Runtime that lists fixed containers and records removals.
type listRuntime struct {
	Runtime
	list    []ContainerInfo
	removed []string
}

func (l *listRuntime) List(context.Context, string) ([]ContainerInfo, error) { return l.list, nil }
func (l *listRuntime) Remove(_ context.Context, id string) error {
	l.removed = append(l.removed, id)
	return nil
}

func TestReaperRemovesOnlyStaleContainers(t *testing.T) {
	self := Identity{Host: "h", PID: 100, PIDStart: "5"}
	future := strconv.FormatInt(time.Now().Add(time.Hour).Unix(), 10)
	past := strconv.FormatInt(time.Now().Add(-time.Minute).Unix(), 10)
	// Still running just past its deadline: it is stopping by itself.
	justPast := strconv.FormatInt(time.Now().Add(-5*time.Second).Unix(), 10)
	running := func(c ContainerInfo) ContainerInfo { c.State = "running"; return c }
	c := func(id, host, pid, start, deadline string) ContainerInfo {
		return ContainerInfo{ID: id, Labels: map[string]string{LabelRun: "r", LabelHost: host, LabelPID: pid,
			LabelPIDStart: start, LabelDeadline: deadline}}
	}
	rt := &listRuntime{list: []ContainerInfo{
		c("mine", "h", "100", "5", future),
		c("dead-pid", "h", "200", "7", future),
		c("reused-pid", "h", "300", "1", future),
		c("alive", "h", "300", "9", future),
		c("other-host", "elsewhere", "200", "7", future),
		c("expired", "elsewhere", "200", "7", past),
		running(c("expired-running", "elsewhere", "200", "7", past)),
		running(c("stopping", "elsewhere", "200", "7", justPast)),
	}}
	r := NewReaper(rt, self, zap.NewNop())
	r.alive = func(pid int, start string) bool { return pid == 300 && start == "9" }
	n, err := r.Sweep(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"dead-pid": true, "reused-pid": true, "expired": true, "expired-running": true}
	if n != len(want) || len(rt.removed) != len(want) {
		t.Fatalf("removed %v", rt.removed)
	}
	for _, id := range rt.removed {
		if !want[id] {
			t.Errorf("removed %s", id)
		}
	}
}

func TestProcStartOfSelf(t *testing.T) {
	id := SelfIdentity()
	if id.PIDStart == "" || !processAlive(id.PID, id.PIDStart) || processAlive(id.PID, id.PIDStart+"0") {
		t.Errorf("identity %+v", id)
	}
}
