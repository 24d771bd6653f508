package sandbox

import (
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"
)

// The tmpfs caps always leave the headroom under the memory limit, never
// become 0 (unlimited), and the note names what was reduced.
func TestFitTmpfs(t *testing.T) {
	d := DefaultConfig()
	if lim, note := d.limits(Limits{}); note != "" || lim.TmpfsBytes != DefaultTmpfsBytes || lim.HomeBytes != DefaultHomeBytes ||
		lim.WorkspaceBytes != DefaultWorkspaceBytes {
		t.Errorf("the defaults were reduced: %+v %q", lim, note)
	}
	cases := []Limits{
		{MemoryBytes: 96 << 20, TmpfsBytes: 64 << 20, HomeBytes: 64 << 20, WorkspaceBytes: 64 << 20},
		{MemoryBytes: 8 << 30, TmpfsBytes: 4 << 30, HomeBytes: 4 << 30, WorkspaceBytes: 8 << 30},
		{MemoryBytes: 2 << 20, TmpfsBytes: 1 << 20, HomeBytes: 1 << 20, WorkspaceBytes: 1 << 20},
	}
	for _, l := range cases {
		got, note := fitTmpfs(l)
		sum := got.TmpfsBytes + got.HomeBytes + got.WorkspaceBytes
		if got.TmpfsBytes < minTmpfsCap || got.HomeBytes < minTmpfsCap || got.WorkspaceBytes < minTmpfsCap {
			t.Errorf("%+v: a cap fell under the minimum: %+v", l, got)
		}
		if l.MemoryBytes >= 64<<20 && sum > l.MemoryBytes-tmpfsHeadroom(l.MemoryBytes) {
			t.Errorf("%+v: caps %d leave less than the headroom %d", l, sum, tmpfsHeadroom(l.MemoryBytes))
		}
		if !strings.Contains(note, "tmpfs caps were reduced") {
			t.Errorf("%+v: note %q", l, note)
		}
	}
}

// A pooled container whose deadline comes before the run's is never handed
// out: it would stop under the run.
func TestPoolTakeRespectsDeadlines(t *testing.T) {
	rt := &listRuntime{}
	p := NewPool(rt, DefaultConfig(), Identity{}, 2, zap.NewNop())
	defer p.Close()
	img := ImageInfo{Ref: "img", ID: "sha256:x"}
	now := time.Now()
	p.idle["img"] = []pooled{
		{id: "short", created: now, imageID: img.ID, deadline: now.Add(time.Minute)},
		{id: "long", created: now, imageID: img.ID, deadline: now.Add(time.Hour)},
	}
	c, ok := p.take(img, p.limits, false, now.Add(30*time.Minute))
	if !ok || c.id != "long" {
		t.Errorf("took %+v %v, want the container that outlives the run", c, ok)
	}
	p.wg.Wait()
	if len(rt.removed) != 1 || rt.removed[0] != "short" {
		t.Errorf("removed %v, want the short-lived container", rt.removed)
	}
}
