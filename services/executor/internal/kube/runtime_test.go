package kube

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/remotecommand"

	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
)

// Labels survive the round trip through a pod whatever their values: List
// by key=value and by key finds the pod and returns the real labels,
// never the hashes, and a value that only shares a prefix does not match.
func TestLabelsRoundTrip(t *testing.T) {
	r, _, _ := newFake(t)
	ctx := context.Background()
	spec := execSpec()
	owner := spec.Labels[sandbox.LabelOwner]
	id, err := r.Create(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	other := execSpec()
	other.Name, other.Labels = "other", map[string]string{sandbox.LabelOwner: owner + "x", sandbox.LabelRun: "r2"}
	if _, err := r.Create(ctx, other); err != nil {
		t.Fatal(err)
	}
	list, err := r.List(ctx, sandbox.LabelOwner+"="+owner)
	if err != nil || len(list) != 1 {
		t.Fatalf("List(owner) = %+v, %v; want one pod", list, err)
	}
	c := list[0]
	if c.ID != id || c.Name != spec.Name || c.State != "created" {
		t.Errorf("listed %+v; want id %s, name %q, created", c, id, spec.Name)
	}
	for k, v := range spec.Labels {
		if c.Labels[k] != v {
			t.Errorf("label %s = %q, want %q", k, c.Labels[k], v)
		}
	}
	if len(c.Labels) != len(spec.Labels) {
		t.Errorf("labels %v carry the driver's own", c.Labels)
	}
	if all, err := r.List(ctx, sandbox.LabelOwner); err != nil || len(all) != 2 {
		t.Errorf("List(key) = %d pods, %v; want 2", len(all), err)
	}
	if none, err := r.List(ctx, sandbox.LabelPool); err != nil || len(none) != 0 {
		t.Errorf("List(absent key) = %+v, %v", none, err)
	}
}

// The sandbox's sentinels: a missing image at Image and Create, a missing
// pod at every call on it but Remove, which is idempotent.
func TestMissingObjects(t *testing.T) {
	r, _, _ := newFake(t)
	ctx := context.Background()
	spec := execSpec()
	spec.Image = "greenlight/none:latest"
	_, imgErr := r.Image(ctx, spec.Image)
	_, createErr := r.Create(ctx, spec)
	_, stateErr := r.State(ctx, "gone")
	_, execErr := r.Exec(ctx, "gone", sandbox.ExecSpec{Cmd: []string{"true"}})
	_, attachErr := r.Attach(ctx, "gone", nil)
	for name, c := range map[string]struct{ err, want error }{
		"Image": {imgErr, sandbox.ErrImageNotFound}, "Create": {createErr, sandbox.ErrImageNotFound},
		"State": {stateErr, sandbox.ErrContainerNotFound}, "Exec": {execErr, sandbox.ErrContainerNotFound},
		"Attach": {attachErr, sandbox.ErrContainerNotFound}, "Start": {r.Start(ctx, "gone"), sandbox.ErrContainerNotFound},
		"Connect": {r.Connect(ctx, "gone", "x"), sandbox.ErrContainerNotFound},
	} {
		if !errors.Is(c.err, c.want) {
			t.Errorf("%s: %v, want %v", name, c.err, c.want)
		}
	}
	if err := r.Remove(ctx, "gone"); err != nil {
		t.Errorf("Remove of a missing pod: %v", err)
	}
}

// Without the inventory every image is missing, and the error says where
// the inventory should be.
func TestImageWithoutInventory(t *testing.T) {
	r, cs, _ := newFake(t)
	if err := cs.CoreV1().ConfigMaps(testNS).Delete(context.Background(), ImagesConfigMap, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	_, err := r.Image(context.Background(), testImage)
	if !errors.Is(err, sandbox.ErrImageNotFound) || !strings.Contains(err.Error(), ImagesConfigMap) {
		t.Errorf("Image = %v; want ErrImageNotFound naming the configmap", err)
	}
}

// Create makes a gated pod and the NetworkPolicies; Start removes the
// gate, waits until the kubelet reports the containers running, probes
// the cut of an offline pod from inside it, and State follows the main
// container.
func TestStartOfflinePod(t *testing.T) {
	r, cs, fs := newFake(t)
	ctx := context.Background()
	id, err := r.Create(ctx, execSpec())
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{policyOffline, policyEgress} {
		if _, err := cs.NetworkingV1().NetworkPolicies(testNS).Get(ctx, name, metav1.GetOptions{}); err != nil {
			t.Errorf("policy %s: %v", name, err)
		}
	}
	if st, err := r.State(ctx, id); err != nil || st.Running {
		t.Fatalf("State before Start = %+v, %v", st, err)
	}
	// The first probe still reaches the API server, the second does not.
	probes := 0
	fs.reply = func(s session, opts remotecommand.StreamOptions) error {
		probes++
		if probes == 1 {
			_, _ = io.WriteString(opts.Stdout, "open 10.0.0.5:6443\n")
		}
		return nil
	}
	go func() {
		time.Sleep(50 * time.Millisecond)
		setRunning(t, cs, id)
	}()
	if err := r.Start(ctx, id); err != nil {
		t.Fatalf("Start: %v", err)
	}
	pod, _ := cs.CoreV1().Pods(testNS).Get(ctx, id, metav1.GetOptions{})
	if len(pod.Spec.SchedulingGates) != 0 {
		t.Error("the scheduling gate is still there")
	}
	seen := fs.seen()
	if len(seen) != 2 || seen[0].container != mainContainer || !slices.Contains(seen[0].cmd, "10.0.0.5:6443") {
		t.Errorf("probes %+v; want two on the main container naming the API server", seen)
	}
	if st, err := r.State(ctx, id); err != nil || !st.Running {
		t.Errorf("State after Start = %+v, %v", st, err)
	}
}

// A pod the cut never applies to fails to start, saying so.
func TestStartOfflineNeverCut(t *testing.T) {
	if testing.Short() {
		t.Skip("waits offlineWait")
	}
	r, cs, fs := newFake(t)
	ctx := context.Background()
	id, err := r.Create(ctx, execSpec())
	if err != nil {
		t.Fatal(err)
	}
	setRunning(t, cs, id)
	fs.reply = func(s session, opts remotecommand.StreamOptions) error {
		_, _ = io.WriteString(opts.Stdout, "open 10.0.0.5:6443\n")
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	if err := r.Start(ctx, id); err == nil {
		t.Error("Start succeeded with the network still reachable")
	}
}

// Start reports an image missing on the node as ErrImageNotFound, and a
// container that cannot be created with the kubelet's reason.
func TestStartFailures(t *testing.T) {
	for reason, want := range map[string]error{"ErrImageNeverPull": sandbox.ErrImageNotFound, "CreateContainerConfigError": nil} {
		t.Run(reason, func(t *testing.T) {
			r, cs, _ := newFake(t)
			ctx := context.Background()
			id, err := r.Create(ctx, execSpec())
			if err != nil {
				t.Fatal(err)
			}
			pod, _ := cs.CoreV1().Pods(testNS).Get(ctx, id, metav1.GetOptions{})
			pod.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: mainContainer, Image: testImage,
				State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: reason, Message: "nope"}}}}
			if _, err := cs.CoreV1().Pods(testNS).UpdateStatus(ctx, pod, metav1.UpdateOptions{}); err != nil {
				t.Fatal(err)
			}
			err = r.Start(ctx, id)
			if err == nil || (want != nil && !errors.Is(err, want)) || !strings.Contains(err.Error(), reason) {
				t.Errorf("Start = %v; want an error naming %s (%v)", err, reason, want)
			}
		})
	}
}

// A start that never finishes is bounded and names why.
func TestStartTimeout(t *testing.T) {
	r, cs, _ := newFake(t)
	r.startTimeout = 200 * time.Millisecond
	ctx := context.Background()
	spec := execSpec()
	spec.Network = "egress"
	id, err := r.Create(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	pod, _ := cs.CoreV1().Pods(testNS).Get(ctx, id, metav1.GetOptions{})
	pod.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionFalse, Reason: "Unschedulable",
		Message: "0/1 nodes are available: 1 Insufficient memory."}}
	if _, err := cs.CoreV1().Pods(testNS).UpdateStatus(ctx, pod, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	err = r.Start(ctx, id)
	if err == nil || !strings.Contains(err.Error(), "Insufficient memory") || time.Since(start) > 2*time.Second {
		t.Errorf("Start = %v after %s; want the scheduler's reason within the start timeout", err, time.Since(start))
	}
}

// Exec runs in the container of the asked user, in the asked directory,
// with the container's environment plus the exec's, and returns the exit
// code; a user no container runs as is refused, never run as another.
func TestExecUserWorkdirEnv(t *testing.T) {
	r, cs, fs := newFake(t)
	ctx := context.Background()
	spec := execSpec()
	spec.Network = "egress"
	id, err := r.Create(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	setRunning(t, cs, id)
	if err := r.Start(ctx, id); err != nil {
		t.Fatal(err)
	}
	fs.sessions = nil // the probe at Start
	fs.reply = func(s session, opts remotecommand.StreamOptions) error {
		_, _ = io.WriteString(opts.Stdout, "out")
		_, _ = io.WriteString(opts.Stderr, "err")
		return exitWith(4)
	}
	var out, errOut strings.Builder
	code, err := r.Exec(ctx, id, sandbox.ExecSpec{Cmd: []string{"make", "test"}, User: sandbox.SandboxUser, WorkDir: "/workspace/sub",
		Env: []string{"HOME=/elsewhere", "GOFLAGS=-mod=mod"}, Stdin: strings.NewReader("input"), Stdout: &out, Stderr: &errOut})
	if err != nil || code != 4 || out.String() != "out" || errOut.String() != "err" {
		t.Fatalf("Exec = %d, %v, %q, %q; want 4, out, err", code, err, out.String(), errOut.String())
	}
	s := fs.seen()[0]
	wantEnv := []string{"PATH=/usr/bin:/bin", "HOME=/elsewhere", "LANG=C.UTF-8", "TMPDIR=/tmp", "CI=true", "GOFLAGS=-mod=mod"}
	want := append(append([]string{"/bin/sh", "-c", execScript, "/workspace/sub"}, wantEnv...), "make", "test")
	if s.container != stepsContainer || !slices.Equal(s.cmd, want) || s.stdin != "input" {
		t.Errorf("session %+v; want the steps container running %q with the input", s, want)
	}
	for _, user := range []string{"0:0", "10002:10002", "10001:0"} {
		if _, err := r.Exec(ctx, id, sandbox.ExecSpec{Cmd: []string{"id"}, User: user}); err == nil {
			t.Errorf("Exec as %s ran", user)
		}
	}
	if len(fs.seen()) != 1 {
		t.Errorf("a refused exec reached the pod: %+v", fs.seen()[1:])
	}
	if _, err := r.Exec(ctx, id, sandbox.ExecSpec{Cmd: []string{"id"}, User: "65534:65534"}); err != nil {
		t.Errorf("Exec as the main container's user: %v", err)
	}
	if got := fs.seen()[1].container; got != mainContainer {
		t.Errorf("Exec as 65534 ran in %s", got)
	}
}

// An Exec whose context ends returns its error promptly while the stream
// still runs; a failing stdin aborts it with that error.
func TestExecCanceledAndStdinFailure(t *testing.T) {
	r, cs, fs := newFake(t)
	ctx := context.Background()
	spec := execSpec()
	spec.Network = "egress"
	id, _ := r.Create(ctx, spec)
	setRunning(t, cs, id)
	if err := r.Start(ctx, id); err != nil {
		t.Fatal(err)
	}
	fs.reply = func(s session, opts remotecommand.StreamOptions) error {
		time.Sleep(5 * time.Second) // a stream that ignores its context
		return nil
	}
	cctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := r.Exec(cctx, id, sandbox.ExecSpec{Cmd: []string{"sleep", "60"}, User: sandbox.SandboxUser}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Exec = %v, want DeadlineExceeded", err)
	}
	if took := time.Since(start); took > 100*time.Millisecond+drainGrace+500*time.Millisecond {
		t.Errorf("Exec returned %s after its deadline", took)
	}
}

type failing struct{ err error }

func (f failing) Read([]byte) (int, error) { return 0, f.err }

// The stdin reader's failure tears the stream down before client-go can
// close the remote stdin, and Exec returns that failure.
func TestExecStdinFailure(t *testing.T) {
	r, cs, _ := newFake(t)
	ctx := context.Background()
	spec := execSpec()
	spec.Network = "egress"
	id, _ := r.Create(ctx, spec)
	setRunning(t, cs, id)
	if err := r.Start(ctx, id); err != nil {
		t.Fatal(err)
	}
	closedEarly := make(chan bool, 1)
	r.stream = func(ctx context.Context, ns, pod, container string, cmd []string, opts remotecommand.StreamOptions) error {
		_, err := io.ReadAll(opts.Stdin) // client-go: copy, then close the remote stdin
		closedEarly <- ctx.Err() == nil
		<-ctx.Done()
		return err
	}
	boom := errors.New("validation failed")
	_, err := r.Exec(ctx, id, sandbox.ExecSpec{Cmd: []string{"cat"}, User: sandbox.SandboxUser,
		Stdin: io.MultiReader(strings.NewReader("partial"), failing{boom})})
	if !errors.Is(err, boom) {
		t.Errorf("Exec = %v, want the stdin's error", err)
	}
	if <-closedEarly {
		t.Error("the stream's stdin ended (a complete input to the process) before the stream was torn down")
	}
}

// Attach before Start is connected by Start, which then sends the line
// the main process waits for; what the process writes is read, and Close
// ends the session.
func TestAttachConnectedByStart(t *testing.T) {
	r, cs, _ := newFake(t)
	ctx := context.Background()
	spec := runnerSpec()
	spec.Network = "egress"
	id, err := r.Create(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	firstLine := make(chan string, 1)
	r.stream = func(sctx context.Context, ns, pod, container string, cmd []string, opts remotecommand.StreamOptions) error {
		if cmd != nil {
			if cmd[2] != probeScript {
				return fmt.Errorf("unexpected exec %q", cmd)
			}
			return nil
		}
		b := make([]byte, 1)
		if _, err := opts.Stdin.Read(b); err != nil {
			return err
		}
		firstLine <- string(b)
		_, _ = io.WriteString(opts.Stdout, "hello")
		<-sctx.Done()
		return sctx.Err()
	}
	conn, err := r.Attach(ctx, id, nil)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-firstLine:
		t.Fatal("the process was let go before Start")
	case <-time.After(50 * time.Millisecond):
	}
	setRunning(t, cs, id)
	if err := r.Start(ctx, id); err != nil {
		t.Fatal(err)
	}
	if got := <-firstLine; got != "\n" {
		t.Errorf("go-ahead %q, want a newline", got)
	}
	buf := make([]byte, 5)
	if _, err := io.ReadFull(conn, buf); err != nil || string(buf) != "hello" {
		t.Errorf("read %q, %v", buf, err)
	}
	_ = conn.Close()
	if _, err := conn.Read(buf); err == nil {
		t.Error("read after Close succeeded")
	}
	if r.attachmentOf(id) != nil {
		t.Error("the attachment is still recorded after Close")
	}
}

// Connect and Disconnect switch the network label; Disconnect returns
// only once the probe finds the cut.
func TestConnectDisconnect(t *testing.T) {
	r, cs, fs := newFake(t)
	ctx := context.Background()
	spec := execSpec()
	spec.Network = "egress"
	id, _ := r.Create(ctx, spec)
	setRunning(t, cs, id)
	if err := r.Start(ctx, id); err != nil {
		t.Fatal(err)
	}
	label := func() string {
		p, _ := cs.CoreV1().Pods(testNS).Get(ctx, id, metav1.GetOptions{})
		return p.Labels[LabelNetwork]
	}
	fs.sessions = nil // the probe at Start
	if err := r.Disconnect(ctx, id, "egress"); err != nil || label() != NetworkNone {
		t.Errorf("Disconnect = %v, label %q", err, label())
	}
	// First the steps' processes end (in the steps container: the
	// keepalive is 65534 without CAP_KILL), then the probe finds the cut.
	if s := fs.seen(); len(s) != 2 || s[0].container != stepsContainer || !strings.Contains(strings.Join(s[0].cmd, " "), "kill -KILL") {
		t.Errorf("sessions after Disconnect = %+v, want the kill in the steps container, then one probe", s)
	}
	if err := r.Connect(ctx, id, "egress"); err != nil || label() != NetworkEgress {
		t.Errorf("Connect = %v, label %q", err, label())
	}
}

// The egress policy blocks the private ranges and the control plane's
// public addresses, and allows DNS; the offline one denies both ways.
func TestPolicies(t *testing.T) {
	r, cs, _ := newFake(t)
	ctx := context.Background()
	if err := r.ensurePolicies(ctx); err != nil {
		t.Fatal(err)
	}
	off, _ := cs.NetworkingV1().NetworkPolicies(testNS).Get(ctx, policyOffline, metav1.GetOptions{})
	if len(off.Spec.Ingress) != 0 || len(off.Spec.Egress) != 0 || len(off.Spec.PolicyTypes) != 2 {
		t.Errorf("offline policy %+v", off.Spec)
	}
	eg, _ := cs.NetworkingV1().NetworkPolicies(testNS).Get(ctx, policyEgress, metav1.GetOptions{})
	except := eg.Spec.Egress[0].To[0].IPBlock.Except
	for _, c := range append(slices.Clone(blockedRanges), "203.0.113.7/32") {
		if !slices.Contains(except, c) {
			t.Errorf("egress does not except %s: %v", c, except)
		}
	}
	if len(eg.Spec.Ingress) != 0 || len(eg.Spec.Egress) != 2 || eg.Spec.Egress[1].Ports[0].Port.IntValue() != 53 {
		t.Errorf("egress policy %+v", eg.Spec)
	}
	// A policy someone widened is put back.
	eg.Spec.Egress = append(eg.Spec.Egress, eg.Spec.Egress[1])
	if _, err := cs.NetworkingV1().NetworkPolicies(testNS).Update(ctx, eg, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	r2 := newRuntime(cs, testNS, r.log)
	if err := r2.ensurePolicies(ctx); err != nil {
		t.Fatal(err)
	}
	eg, _ = cs.NetworkingV1().NetworkPolicies(testNS).Get(ctx, policyEgress, metav1.GetOptions{})
	if len(eg.Spec.Egress) != 2 {
		t.Errorf("a widened policy was kept: %d egress rules", len(eg.Spec.Egress))
	}
}

// Remove deletes at once; State then finds nothing.
func TestRemove(t *testing.T) {
	r, _, _ := newFake(t)
	ctx := context.Background()
	id, _ := r.Create(ctx, execSpec())
	if err := r.Remove(ctx, id); err != nil {
		t.Fatal(err)
	}
	if _, err := r.State(ctx, id); !errors.Is(err, sandbox.ErrContainerNotFound) {
		t.Errorf("State after Remove = %v", err)
	}
}

// State: exit code of the main container, OOM kills of any.
func TestStateOf(t *testing.T) {
	pod := &corev1.Pod{Status: corev1.PodStatus{Phase: corev1.PodFailed, ContainerStatuses: []corev1.ContainerStatus{
		{Name: mainContainer, State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 137, Reason: "Error"}}},
		{Name: stepsContainer, State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 137, Reason: "OOMKilled"}}},
	}}}
	if st := stateOf(pod); st.Running || st.ExitCode != 137 || !st.OOMKilled {
		t.Errorf("stateOf = %+v", st)
	}
}

// Engine names the node's container runtime and the API server.
func TestEngine(t *testing.T) {
	r, _, _ := newFake(t)
	info, err := r.Engine(context.Background())
	if err != nil || info.Version != "containerd://2.1.4" || info.OS != "linux" || info.Arch != "amd64" || !info.Init {
		t.Errorf("Engine = %+v, %v", info, err)
	}
}

// Errors of an API server that does not answer are ErrEngineUnavailable.
func TestMapErr(t *testing.T) {
	refused := &url.Error{Op: "Get", URL: "https://10.0.0.5:6443/version", Err: &net.OpError{Op: "dial", Err: syscall.ECONNREFUSED}}
	if err := mapErr("ping", refused); !errors.Is(err, sandbox.ErrEngineUnavailable) {
		t.Errorf("mapErr(refused) = %v", err)
	}
	if err := mapErr("x", context.Canceled); !errors.Is(err, context.Canceled) || errors.Is(err, sandbox.ErrEngineUnavailable) {
		t.Errorf("mapErr(canceled) = %v", err)
	}
}

// Start refuses a pod whose interfaces other than lo have IPv6, or whose
// loopback lacks the IPv6 the spec asked for: that does not change with
// time, so it is not retried.
func TestStartRefusesIPv6(t *testing.T) {
	for _, line := range []string{"ipv6 eth0", "no-ipv6-loopback"} {
		r, cs, fs := newFake(t)
		ctx := context.Background()
		spec := execSpec()
		spec.Network = "egress"
		id, _ := r.Create(ctx, spec)
		setRunning(t, cs, id)
		fs.reply = func(s session, opts remotecommand.StreamOptions) error {
			_, _ = io.WriteString(opts.Stdout, line+"\n")
			return nil
		}
		err := r.Start(ctx, id)
		if !errors.Is(err, errNetwork) || !strings.Contains(err.Error(), line) || len(fs.seen()) != 1 {
			t.Errorf("Start with %q = %v after %d probes; want errNetwork at once", line, err, len(fs.seen()))
		}
		if s := fs.seen()[0]; s.cmd[4] != "lo6" || len(s.cmd) != 5 {
			t.Errorf("probe of an egress pod asking for an IPv6 loopback: %q", s.cmd[3:])
		}
	}
}
