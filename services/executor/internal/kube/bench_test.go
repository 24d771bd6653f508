package kube

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/greenlight-dev/greenlight/services/executor/internal/runnerproto"
	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
	"github.com/greenlight-dev/greenlight/services/executor/internal/testenv"
)

// phases are the latencies of one sandbox's life on one runtime.
type phases struct {
	start, startEgress, hello, exec time.Duration
}

// BenchmarkKubeVsDocker runs the same tiny workload on the Kubernetes
// driver and the Docker driver, one after the other in each iteration,
// and reports each phase's mean in milliseconds and the Kubernetes/Docker
// ratio:
//
//   - start: Create → Start returned, offline (on Kubernetes this
//     includes the probe verifying the cut);
//   - start-egress: the same with a network (no probe on Kubernetes);
//   - hello: Create → Attach → Start → the runner's hello read;
//   - exec: one Exec of `true` as the sandbox user.
//
// GREENLIGHT_INTEGRATION=1 go test -run - -bench KubeVsDocker -benchtime 5x ./internal/kube/
func BenchmarkKubeVsDocker(b *testing.B) {
	k := cluster(b)
	d := testenv.Docker(b)
	var kube, docker phases
	for range b.N {
		add(&kube, measure(b, k))
		add(&docker, measure(b, d))
	}
	n := float64(b.N)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / n }
	for _, m := range []struct {
		name string
		k, d time.Duration
	}{{"start", kube.start, docker.start}, {"start-egress", kube.startEgress, docker.startEgress},
		{"hello", kube.hello, docker.hello}, {"exec", kube.exec, docker.exec}} {
		b.ReportMetric(ms(m.k), m.name+"-kube-ms")
		b.ReportMetric(ms(m.d), m.name+"-docker-ms")
		b.ReportMetric(float64(m.k)/float64(m.d), m.name+"-ratio")
	}
}

func add(sum *phases, p phases) {
	sum.start += p.start
	sum.startEgress += p.startEgress
	sum.hello += p.hello
	sum.exec += p.exec
}

// measure times each phase once on rt.
func measure(b *testing.B, rt sandbox.Runtime) phases {
	b.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	owner := testenv.Owner(b)
	spec := func(runner bool, network string) sandbox.ContainerSpec {
		s := execSpec()
		if runner {
			s = runnerSpec()
		}
		// Half a CPU: the test node (2 CPUs) may run someone's sandbox too.
		s.Name, s.Image, s.Network, s.NanoCPUs = "", testenv.PythonImage, network, 5e8
		s.Labels = map[string]string{sandbox.LabelOwner: owner, sandbox.LabelRun: "bench"}
		return s
	}
	var p phases
	started := func(s sandbox.ContainerSpec) (string, time.Duration) {
		t0 := time.Now()
		id, err := rt.Create(ctx, s)
		if err != nil {
			b.Fatalf("Create: %v", err)
		}
		if err := rt.Start(ctx, id); err != nil {
			b.Fatalf("Start: %v", err)
		}
		return id, time.Since(t0)
	}
	id, took := started(spec(false, ""))
	p.start = took
	t0 := time.Now()
	code, err := rt.Exec(ctx, id, sandbox.ExecSpec{Cmd: []string{"true"}, User: sandbox.SandboxUser, WorkDir: sandbox.WorkspaceDir})
	p.exec = time.Since(t0)
	if err != nil || code != 0 {
		b.Fatalf("Exec true = %d, %v", code, err)
	}
	remove(b, rt, id)
	network := "bridge"
	if _, ok := rt.(*Runtime); ok {
		network = NetworkEgress
	}
	id, p.startEgress = started(spec(false, network))
	remove(b, rt, id)

	t0 = time.Now()
	id, err = rt.Create(ctx, spec(true, ""))
	if err != nil {
		b.Fatal(err)
	}
	conn, err := rt.Attach(ctx, id, io.Discard)
	if err != nil {
		b.Fatal(err)
	}
	if err := rt.Start(ctx, id); err != nil {
		b.Fatal(err)
	}
	if f, err := runnerproto.NewReader(conn).Next(); err != nil || f.Kind != runnerproto.KindHello {
		b.Fatalf("no hello: %v", err)
	}
	p.hello = time.Since(t0)
	_ = conn.Close()
	remove(b, rt, id)
	return p
}

func remove(b *testing.B, rt sandbox.Runtime, id string) {
	b.Helper()
	if err := rt.Remove(context.Background(), id); err != nil {
		b.Errorf("Remove: %v", err)
	}
}
