package kube

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"go.uber.org/zap"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/remotecommand"
	utilexec "k8s.io/client-go/util/exec"

	"github.com/greenlight-dev/greenlight/services/executor/internal/runnerproto"
	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
)

const (
	testNS    = "greenlight-sandbox"
	testImage = "greenlight/sandbox-python:latest"
)

// session is one exec or attach the fake streamer saw.
type session struct {
	pod, container string
	cmd            []string
	stdin          string
}

// fakeStreamer answers every session with reply (nil: exit 0, no
// output) and records it.
type fakeStreamer struct {
	mu       sync.Mutex
	sessions []session
	reply    func(s session, opts remotecommand.StreamOptions) error
}

func (f *fakeStreamer) stream(ctx context.Context, namespace, pod, container string, cmd []string, opts remotecommand.StreamOptions) error {
	s := session{pod: pod, container: container, cmd: cmd}
	if opts.Stdin != nil && cmd != nil {
		var b strings.Builder
		buf := make([]byte, 4096)
		for {
			n, err := opts.Stdin.Read(buf)
			b.Write(buf[:n])
			if err != nil {
				break
			}
		}
		s.stdin = b.String()
	}
	f.mu.Lock()
	f.sessions = append(f.sessions, s)
	reply := f.reply
	f.mu.Unlock()
	if reply == nil {
		return nil
	}
	return reply(s, opts)
}

func (f *fakeStreamer) seen() []session {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]session(nil), f.sessions...)
}

// exitWith is a streamer reply of a process exiting code.
func exitWith(code int) error {
	return utilexec.CodeExitError{Err: errString("command terminated with non-zero exit code"), Code: code}
}

type errString string

func (e errString) Error() string { return string(e) }

// newFake returns a runtime on a fake clientset holding the image
// inventory (testImage) and the API server's endpoints, with a fake
// streamer.
func newFake(t *testing.T, objects ...runtime.Object) (*Runtime, *fake.Clientset, *fakeStreamer) {
	t.Helper()
	inv, err := json.Marshal(map[string]sandbox.ImageInfo{testImage: {
		ID: "sha256:abc", Digest: "sha256:abc", OS: "linux", Arch: "amd64", Env: []string{"PATH=/usr/bin:/bin"},
		Labels: map[string]string{runnerproto.LabelRunner: "3"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	objects = append(objects,
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: ImagesConfigMap, Namespace: testNS}, Data: map[string]string{ImagesKey: string(inv)}},
		&discoveryv1.EndpointSlice{ObjectMeta: metav1.ObjectMeta{Name: "kubernetes", Namespace: metav1.NamespaceDefault,
			Labels: map[string]string{discoveryv1.LabelServiceName: "kubernetes"}}, AddressType: discoveryv1.AddressTypeIPv4,
			Endpoints: []discoveryv1.Endpoint{{Addresses: []string{"10.0.0.5"}}}, Ports: []discoveryv1.EndpointPort{{Port: ptr(int32(6443))}}},
		&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "node-1"}, Status: corev1.NodeStatus{
			Addresses: []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: "10.0.0.5"}, {Type: corev1.NodeExternalIP, Address: "203.0.113.7"}},
			NodeInfo:  corev1.NodeSystemInfo{ContainerRuntimeVersion: "containerd://2.1.4", OperatingSystem: "linux", Architecture: "amd64"},
		}},
	)
	cs := fake.NewClientset(objects...)
	r := newRuntime(cs, testNS, zap.NewNop())
	fs := &fakeStreamer{}
	r.stream = fs.stream
	return r, cs, fs
}

// setRunning marks the pod's containers running, as the kubelet would.
func setRunning(t *testing.T, cs *fake.Clientset, name string) {
	t.Helper()
	ctx := context.Background()
	pod, err := cs.CoreV1().Pods(testNS).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pod.Status.Phase = corev1.PodRunning
	pod.Status.ContainerStatuses = nil
	for _, c := range pod.Spec.Containers {
		pod.Status.ContainerStatuses = append(pod.Status.ContainerStatuses, corev1.ContainerStatus{
			Name: c.Name, Image: c.Image, State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}},
		})
	}
	if _, err := cs.CoreV1().Pods(testNS).UpdateStatus(ctx, pod, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// execSpec is a hardened spec as the sandbox makes it for a sandbox
// without the step runner (hardenedSpec: keepalive as 65534).
func execSpec() sandbox.ContainerSpec {
	return sandbox.ContainerSpec{
		Name: "greenlight-run_ABC/1", Image: testImage,
		Cmd:  []string{"/bin/sh", "-c", "trap 'exit 0' TERM; sleep 3600 & wait $!"},
		User: "65534:65534", WorkDir: sandbox.WorkspaceDir,
		Env: []string{"PATH=/usr/bin:/bin", "HOME=/home/sandbox", "LANG=C.UTF-8", "TMPDIR=/tmp", "CI=true"},
		Labels: map[string]string{
			sandbox.LabelRun: "run-1", sandbox.LabelOwner: "alice@example.com/team:a very long owner value that is over sixty-three characters",
			sandbox.LabelHost: "host-1", sandbox.LabelPID: "42",
		},
		NanoCPUs: 1.5e9, MemoryBytes: 2 << 30, PidsLimit: 256, ReadonlyRootfs: true,
		Tmpfs: map[string]string{
			"/tmp":               "rw,exec,nosuid,nodev,size=536870912,mode=1777",
			sandbox.HomeDir:      "rw,exec,nosuid,nodev,size=1073741824,mode=0755,uid=10001,gid=10001",
			sandbox.WorkspaceDir: "rw,exec,nosuid,nodev,size=1g,mode=0755,uid=10001,gid=10001",
		},
		CapDrop: []string{"ALL"}, SecurityOpt: []string{"no-new-privileges"}, Init: true,
		Sysctls: map[string]string{"net.ipv6.conf.lo.disable_ipv6": "0"},
	}
}

// runnerSpec is execSpec for a sandbox whose main process is the runner.
func runnerSpec() sandbox.ContainerSpec {
	s := execSpec()
	s.User, s.CapAdd, s.OpenStdin = "0:0", []string{"SETUID", "SETGID", "KILL"}, true
	s.Entrypoint, s.Cmd = []string{runnerproto.Path}, []string{"serve", "3600"}
	return s
}
