package kube

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/greenlight-dev/greenlight/services/executor/internal/runtimetest"
	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
	"github.com/greenlight-dev/greenlight/services/executor/internal/testenv"
)

// EnvKubeconfig names the kubeconfig of the cluster the integration tests
// use; defaultKubeconfig is where scripts/kube-cluster.sh writes it.
const (
	EnvKubeconfig     = "GREENLIGHT_KUBECONFIG"
	defaultKubeconfig = "/var/lib/greenlight/kube/admin.kubeconfig"
)

// cluster returns a runtime on the test cluster, skipping t (with how to
// get one) when there is none: unlike a Docker engine, a cluster is not
// part of `make test`'s environment.
func cluster(t testing.TB) *Runtime {
	t.Helper()
	testenv.Integration(t)
	path := os.Getenv(EnvKubeconfig)
	if path == "" {
		path = defaultKubeconfig
	}
	if _, err := os.Stat(path); err != nil {
		t.Skipf("no Kubernetes cluster: %s (set %s, or run `make cluster`)", err, EnvKubeconfig)
	}
	cfg, err := Config(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := New(cfg, "", zap.NewNop())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := r.Ping(ctx); err != nil {
		t.Skipf("the Kubernetes cluster of %s does not answer (run `make cluster`): %v", path, err)
	}
	if _, err := r.Image(ctx, testenv.PythonImage); err != nil {
		t.Fatalf("sandbox image missing from the cluster's inventory: %v", err)
	}
	return r
}

// The Kubernetes driver passes the conformance suite every driver passes,
// the probes from inside a pod included; what the API server holds, read
// back in the sandbox's terms, is as hardened as asked, except for the
// gaps below, each a property no pod field can express.
func TestConformance(t *testing.T) {
	r := cluster(t)
	gaps := map[string]string{
		"isolation/only-loopback": "a pod always has eth0: the network is cut by the greenlight-offline NetworkPolicy, " +
			"which Start and Disconnect verify from inside the pod (verifyNetwork)",
		"isolation/pids-limit": "Kubernetes has no per-pod or per-container pids field: the container's pids.max is max; " +
			"the kubelet's podPidsLimit bounds the pod's cgroup (512 on the test node)",
		"isolation/fork-bomb": "the fork bomb is stopped by the node's podPidsLimit (512), not by the spec's 256",
	}
	for _, mode := range []string{"exec", "runner"} {
		gaps["hardened-spec/"+mode+"/applied/tmpfs-nosuid-nodev"] = "a memory emptyDir is mounted without nosuid,nodev: " +
			"no-new-privileges makes set-uid bits inert and no process has CAP_MKNOD"
		gaps["hardened-spec/"+mode+"/applied/no-host-paths"] = "the kubelet bind-mounts a host file, writable by every uid, " +
			"at terminationMessagePath (/dev/termination-log) in every container; nothing in a pod spec removes it"
	}
	runtimetest.Run(t, runtimetest.Harness{
		Runtime: r, Image: testenv.PythonImage, Isolates: true, Applied: applied(r.cs, r.namespace), KnownGaps: gaps,
	})
}

// applied reads a pod back from the API server in the sandbox's terms:
// the main container's process, user, limits and security context, the
// tmpfs volumes with what the init container applies, the node's pids
// limit, and the host files the kubelet mounts.
func applied(cs kubernetes.Interface, namespace string) func(context.Context, string) (runtimetest.Applied, error) {
	return func(ctx context.Context, id string) (runtimetest.Applied, error) {
		pod, err := cs.CoreV1().Pods(namespace).Get(ctx, id, metav1.GetOptions{})
		if err != nil {
			return runtimetest.Applied{}, err
		}
		main := pod.Spec.Containers[0]
		sc := main.SecurityContext
		spec := sandbox.ContainerSpec{
			Image: main.Image, WorkDir: main.WorkingDir, Env: containerEnv(&main),
			Labels: realLabels(pod.Labels, pod.Annotations), ReadonlyRootfs: sc.ReadOnlyRootFilesystem != nil && *sc.ReadOnlyRootFilesystem,
			NanoCPUs: main.Resources.Limits.Cpu().MilliValue() * 1e6, MemoryBytes: main.Resources.Limits.Memory().Value(),
			Init: pod.Spec.ShareProcessNamespace != nil && *pod.Spec.ShareProcessNamespace, OpenStdin: main.Stdin,
			PidsLimit: nodePidsLimit(ctx, cs),
		}
		if argv := processOf(&main); len(argv) > 0 {
			spec.Entrypoint, spec.Cmd = argv[:1], argv[1:]
		}
		if sc.RunAsUser != nil {
			spec.User = fmt.Sprint(*sc.RunAsUser)
			if sc.RunAsGroup != nil {
				spec.User += fmt.Sprint(":", *sc.RunAsGroup)
			}
		}
		if v := pod.Labels[LabelNetwork]; v != NetworkNone {
			spec.Network = v
		}
		if sc.Capabilities != nil {
			for _, c := range sc.Capabilities.Drop {
				spec.CapDrop = append(spec.CapDrop, string(c))
			}
			for _, c := range sc.Capabilities.Add {
				spec.CapAdd = append(spec.CapAdd, string(c))
			}
		}
		if sc.AllowPrivilegeEscalation != nil && !*sc.AllowPrivilegeEscalation {
			spec.SecurityOpt = append(spec.SecurityOpt, "no-new-privileges")
		}
		if sc.SeccompProfile == nil || sc.SeccompProfile.Type != corev1.SeccompProfileTypeRuntimeDefault {
			spec.SecurityOpt = append(spec.SecurityOpt, "seccomp=unconfined")
		}
		if psc := pod.Spec.SecurityContext; psc != nil {
			for _, s := range psc.Sysctls {
				if spec.Sysctls == nil {
					spec.Sysctls = map[string]string{}
				}
				spec.Sysctls[s.Name] = s.Value
			}
		}
		spec.Tmpfs = tmpfsOf(pod, &main)
		a := runtimetest.Applied{Spec: spec}
		for _, v := range pod.Spec.Volumes {
			if v.HostPath != nil {
				a.HostPaths = append(a.HostPaths, v.HostPath.Path)
			}
		}
		for _, c := range append(pod.Spec.InitContainers, pod.Spec.Containers...) {
			if c.TerminationMessagePath != "" {
				a.HostPaths = append(a.HostPaths, "kubelet file at "+c.Name+":"+c.TerminationMessagePath)
			}
			if c.SecurityContext != nil && c.SecurityContext.Privileged != nil && *c.SecurityContext.Privileged {
				a.Privileged = true
			}
		}
		return a, nil
	}
}

// processOf is the spec's process of a container's command (see
// envCommand): what follows `env -i` and the environment.
func processOf(c *corev1.Container) []string {
	_, process, _ := commandParts(c)
	return process
}

// tmpfsOf is the container's memory emptyDirs as tmpfs options: the size
// limit, and the mode and owner the init container gives them.
func tmpfsOf(pod *corev1.Pod, c *corev1.Container) map[string]string {
	owner := map[string]string{} // volume name → ",mode=M,uid=U,gid=G"
	for _, ic := range pod.Spec.InitContainers {
		if ic.Name != tmpfsContainer || len(ic.Command) < 4 {
			continue
		}
		args := ic.Command[4:]
		for i := 0; i+2 < len(args); i += 3 {
			o := ""
			if args[i+1] != "" {
				o += ",mode=" + args[i+1]
			}
			if u, g, ok := strings.Cut(args[i+2], ":"); args[i+2] != "" {
				o += ",uid=" + u
				if ok {
					o += ",gid=" + g
				}
			}
			owner[strings.TrimPrefix(args[i], "/mnt/")] = o
		}
	}
	out := map[string]string{}
	for _, m := range c.VolumeMounts {
		for _, v := range pod.Spec.Volumes {
			if v.Name == m.Name && v.EmptyDir != nil && v.EmptyDir.Medium == corev1.StorageMediumMemory {
				opts := "rw"
				if v.EmptyDir.SizeLimit != nil {
					opts += fmt.Sprint(",size=", v.EmptyDir.SizeLimit.Value())
				}
				out[m.MountPath] = opts + owner[v.Name]
			}
		}
	}
	return out
}

// nodePidsLimit is the podPidsLimit of the first node's kubelet (its
// configz, through the API server), 0 when unknown.
func nodePidsLimit(ctx context.Context, cs kubernetes.Interface) int64 {
	nodes, err := cs.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil || len(nodes.Items) == 0 {
		return 0
	}
	body, err := cs.CoreV1().RESTClient().Get().AbsPath("/api/v1/nodes/" + nodes.Items[0].Name + "/proxy/configz").Do(ctx).Raw()
	if err != nil {
		return 0
	}
	var cz struct {
		Kubelet struct {
			PodPidsLimit int64 `json:"podPidsLimit"`
		} `json:"kubeletconfig"`
	}
	if json.Unmarshal(body, &cz) != nil || cz.Kubelet.PodPidsLimit < 0 {
		return 0
	}
	return cz.Kubelet.PodPidsLimit
}

// A step run by the sandbox on a pod, in both step runner modes, sees
// exactly greenlight's environment (the kubelet's KUBERNETES_SERVICE_*
// and friends are in every container's environment: env -i keeps them
// from the runner and from exec'd steps; ADVERSARIAL row 14) and runs
// as the sandbox user without capabilities.
func TestStepEnvironment(t *testing.T) {
	r := cluster(t)
	for _, mode := range []string{sandbox.StepRunnerAgent, sandbox.StepRunnerExec} {
		t.Run(mode, func(t *testing.T) {
			cfg := sandbox.DefaultConfig()
			cfg.TempDir, cfg.StepRunner, cfg.CleanupTimeout = t.TempDir(), mode, 10*time.Second
			blobs := testenv.Blobs(t)
			run, err := sandbox.NewRunner(cfg, r, blobs, sandbox.WithLogger(testenv.Logger(t)))
			if err != nil {
				t.Fatal(err)
			}
			owner := testenv.Owner(t)
			req := sandbox.Request{RunID: "env-" + mode, Owner: owner, Image: testenv.PythonImage,
				Snapshot: testenv.Snapshot(t, blobs, map[string]testenv.File{"README": {Body: "x\n"}}),
				Steps:    []sandbox.Step{{Name: "test", Command: "env | cut -d= -f1 | sort | tr '\\n' ' '; grep -E '^(Uid|CapEff):' /proc/self/status"}}}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			res, err := run.Run(ctx, req, func(sandbox.Event) error { return nil })
			run.Wait()
			testenv.WaitNoContainers(t, r, owner, 10*time.Second)
			if err != nil || len(res.Steps) != 1 || res.Steps[0].Status != sandbox.StatusOK {
				t.Fatalf("run: %v %+v", err, res)
			}
			out := res.Steps[0].Tail
			if want := "CI HOME LANG PATH PWD TMPDIR "; !strings.HasPrefix(out, want) {
				t.Errorf("step environment %q, want exactly %q", strings.SplitN(out, "\n", 2)[0], want)
			}
			if !strings.Contains(out, "Uid:\t10001\t10001\t10001\t10001") || !strings.Contains(out, "CapEff:\t0000000000000000") {
				t.Errorf("step identity: %q", out)
			}
		})
	}
}

// A process an install step leaves in the background does not outlive
// the switch to offline: its established connections would pass the
// NetworkPolicy, which filters new ones only (Disconnect ends it).
func TestInstallBackgroundEndsOffline(t *testing.T) {
	r := cluster(t)
	for _, mode := range []string{sandbox.StepRunnerAgent, sandbox.StepRunnerExec} {
		t.Run(mode, func(t *testing.T) {
			cfg := sandbox.DefaultConfig()
			cfg.TempDir, cfg.StepRunner, cfg.CleanupTimeout = t.TempDir(), mode, 10*time.Second
			cfg.EgressNetwork = "egress"
			blobs := testenv.Blobs(t)
			run, err := sandbox.NewRunner(cfg, r, blobs, sandbox.WithLogger(testenv.Logger(t)))
			if err != nil {
				t.Fatal(err)
			}
			owner := testenv.Owner(t)
			count := `n=0; for d in /proc/[0-9]*; do tr '\0' ' ' <"$d/cmdline" 2>/dev/null | grep -q '^sleep 4242' && n=$((n+1)); done; echo "left=$n"`
			req := sandbox.Request{RunID: "bg-" + mode, Owner: owner, Image: testenv.PythonImage,
				Snapshot: testenv.Snapshot(t, blobs, map[string]testenv.File{"README": {Body: "x\n"}}),
				Steps: []sandbox.Step{
					{Name: "install", Install: true, Network: true, Command: "(setsid sleep 4242 >/dev/null 2>&1 &); " + count},
					{Name: "test", Command: count},
				}}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			res, err := run.Run(ctx, req, func(sandbox.Event) error { return nil })
			run.Wait()
			testenv.WaitNoContainers(t, r, owner, 10*time.Second)
			if err != nil || len(res.Steps) != 2 {
				t.Fatalf("run: %v %+v", err, res)
			}
			if !strings.Contains(res.Steps[0].Tail, "left=1") {
				t.Fatalf("the install step's background process did not start: %q", res.Steps[0].Tail)
			}
			if !strings.Contains(res.Steps[1].Tail, "left=0") {
				t.Errorf("the test step still sees the install step's background process: %+v", res.Steps[1])
			}
		})
	}
}

// A step cannot write the kubelet's /dev/termination-log, a host file on
// the node's disk (ADVERSARIAL row 7): the runner's container seals it at
// Start. (An exec-mode pod has no root container to seal it with.)
func TestTerminationLogSealed(t *testing.T) {
	r := cluster(t)
	cfg := sandbox.DefaultConfig()
	cfg.TempDir, cfg.StepRunner, cfg.CleanupTimeout = t.TempDir(), sandbox.StepRunnerAgent, 10*time.Second
	blobs := testenv.Blobs(t)
	run, err := sandbox.NewRunner(cfg, r, blobs, sandbox.WithLogger(testenv.Logger(t)))
	if err != nil {
		t.Fatal(err)
	}
	owner := testenv.Owner(t)
	req := sandbox.Request{RunID: "termlog", Owner: owner, Image: testenv.PythonImage,
		Snapshot: testenv.Snapshot(t, blobs, map[string]testenv.File{"README": {Body: "x\n"}}),
		Steps:    []sandbox.Step{{Name: "write", Command: "if echo x >>/dev/termination-log 2>/dev/null; then echo wrote; else echo refused; fi"}}}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := run.Run(ctx, req, func(sandbox.Event) error { return nil })
	run.Wait()
	testenv.WaitNoContainers(t, r, owner, 10*time.Second)
	if err != nil || len(res.Steps) != 1 {
		t.Fatalf("run: %v %+v", err, res)
	}
	if !strings.Contains(res.Steps[0].Tail, "refused") {
		t.Errorf("a step wrote the kubelet's termination log: %q", res.Steps[0].Tail)
	}
}
