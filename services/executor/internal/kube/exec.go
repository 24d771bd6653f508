package kube

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/httpstream"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/remotecommand"
	utilexec "k8s.io/client-go/util/exec"

	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
	"github.com/greenlight-dev/greenlight/services/executor/internal/steprunner"
)

// drainGrace is how long output already on its way is still read after an
// exec's context ended (a prompt printed just before a hang), as the
// Docker driver does.
const drainGrace = 200 * time.Millisecond

// streamFunc runs one pods/exec (cmd set) or pods/attach (cmd nil) session
// on a container until it ends or ctx does.
type streamFunc func(ctx context.Context, namespace, pod, container string, cmd []string, opts remotecommand.StreamOptions) error

// restStreamer streams over the API server: WebSocket first, SPDY when
// the server (or a proxy) refuses the upgrade.
func restStreamer(cfg *rest.Config) streamFunc {
	return func(ctx context.Context, namespace, pod, container string, cmd []string, opts remotecommand.StreamOptions) error {
		rc, err := rest.RESTClientFor(restConfigFor(cfg))
		if err != nil {
			return err
		}
		sub := "exec"
		var params runtime.Object = &corev1.PodExecOptions{Container: container, Command: cmd,
			Stdin: opts.Stdin != nil, Stdout: opts.Stdout != nil, Stderr: opts.Stderr != nil}
		if cmd == nil {
			sub = "attach"
			params = &corev1.PodAttachOptions{Container: container, Stdin: opts.Stdin != nil, Stdout: opts.Stdout != nil, Stderr: opts.Stderr != nil}
		}
		u := rc.Post().Namespace(namespace).Resource("pods").Name(pod).SubResource(sub).VersionedParams(params, scheme.ParameterCodec).URL()
		ws, err := remotecommand.NewWebSocketExecutor(cfg, "GET", u.String())
		if err != nil {
			return err
		}
		spdy, err := remotecommand.NewSPDYExecutor(cfg, "POST", u)
		if err != nil {
			return err
		}
		ex, err := remotecommand.NewFallbackExecutor(ws, spdy, func(err error) bool {
			return httpstream.IsUpgradeFailure(err) || httpstream.IsHTTPSProxyError(err)
		})
		if err != nil {
			return err
		}
		return ex.StreamWithContext(ctx, opts)
	}
}

// restConfigFor is cfg set up for the core API group.
func restConfigFor(cfg *rest.Config) *rest.Config {
	c := rest.CopyConfig(cfg)
	c.GroupVersion = &corev1.SchemeGroupVersion
	c.APIPath = "/api"
	c.NegotiatedSerializer = scheme.Codecs.WithoutConversion()
	return c
}

// Exec runs a process in the pod. Kubernetes exec has no user, working
// directory or environment: the process runs in the container whose user
// is spec.User (see execContainer; never another uid), and a shell of the
// image changes to the working directory and execs `env -i` with the
// container's environment plus spec.Env, as `docker exec --env` merges
// them. When ctx ends, Exec returns within drainGrace with its error; the
// process keeps running until the pod is removed.
func (r *Runtime) Exec(ctx context.Context, id string, spec sandbox.ExecSpec) (int, error) {
	pod, err := r.getPod(ctx, id)
	if err != nil {
		return -1, err
	}
	c, err := execContainer(pod, spec.User)
	if err != nil {
		return -1, err
	}
	if cs := status(pod, c.Name); cs == nil || cs.State.Running == nil || pod.DeletionTimestamp != nil {
		return -1, fmt.Errorf("exec in pod %s: container %s is not running", id, c.Name)
	}
	cmd, err := execCommand(spec.WorkDir, steprunner.MergeEnv(containerEnv(c), spec.Env), spec.Cmd)
	if err != nil {
		return -1, err
	}
	return r.execStream(ctx, id, c.Name, cmd, spec.Stdin, spec.Stdout, spec.Stderr)
}

// execStream runs cmd and returns its exit code. Output reaches stdout
// and stderr only until execStream returns; a stdin that fails aborts
// the stream with its error (the process must not take a partial input
// for a complete one, so the input is not closed first).
func (r *Runtime) execStream(ctx context.Context, id, container string, cmd []string, stdin io.Reader,
	stdout, stderr io.Writer) (int, error) {
	sctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	finished := make(chan struct{})
	defer close(finished)
	go func() {
		select {
		case <-ctx.Done():
			select {
			case <-time.After(drainGrace):
			case <-finished:
			}
			cancel()
		case <-finished:
		}
	}()
	out, errOut := &sandbox.GatedWriter{W: stdout}, &sandbox.GatedWriter{W: stderr}
	defer out.Close()
	defer errOut.Close()
	opts := remotecommand.StreamOptions{Stdout: out, Stderr: errOut}
	var in *abortReader
	if stdin != nil {
		in = &abortReader{r: stdin, abort: cancel, streamDone: finished}
		opts.Stdin = in
	}
	// The stream runs on its own so that a stream slow to see its
	// context end (a wedged connection) cannot hold the caller.
	streamed := make(chan error, 1)
	go func() { streamed <- r.stream(sctx, r.namespace, id, container, cmd, opts) }()
	var err error
	select {
	case err = <-streamed:
	case <-sctx.Done():
		err = sctx.Err()
	}
	switch {
	case ctx.Err() != nil:
		return -1, ctx.Err()
	case in != nil && in.failed() != nil:
		return -1, fmt.Errorf("exec stdin: %w", in.failed())
	case err == nil:
		return 0, nil
	}
	var exit utilexec.CodeExitError
	if errors.As(err, &exit) {
		return exit.Code, nil
	}
	return -1, mapErr("exec", err)
}

// execContainer is the container of the pod that runs as user: the main
// one when it is its user ("" is the main container's own), else the
// steps container when it runs as user. Kubernetes cannot start a
// process as another uid than its container's, so any other user is
// refused rather than run as the wrong one.
func execContainer(pod *corev1.Pod, user string) (*corev1.Container, error) {
	for i := range pod.Spec.Containers {
		c := &pod.Spec.Containers[i]
		if (user == "" && c.Name == mainContainer) || (user != "" && runsAs(c, user)) {
			return c, nil
		}
	}
	return nil, fmt.Errorf("exec in pod %s: no container runs as user %q, and a Kubernetes exec cannot switch users", pod.Name, user)
}

// runsAs says whether container c runs as user ("uid" or "uid:gid").
func runsAs(c *corev1.Container, user string) bool {
	uid, gid, err := parseUser(user)
	sc := c.SecurityContext
	if err != nil || sc == nil || sc.RunAsUser == nil || *sc.RunAsUser != *uid {
		return false
	}
	return gid == nil || (sc.RunAsGroup != nil && *sc.RunAsGroup == *gid)
}

// execScript changes to the working directory ($0) and execs env with
// the rest.
const execScript = `cd -- "$0" || exit 126; exec /usr/bin/env -i "$@"`

// execCommand is the argv running cmd in dir with exactly env.
func execCommand(dir string, env, cmd []string) ([]string, error) {
	if len(cmd) == 0 {
		return nil, errors.New("exec: no command")
	}
	if strings.Contains(cmd[0], "=") {
		// env would read it as a variable.
		return nil, fmt.Errorf("exec: command %q contains '='", cmd[0])
	}
	if dir == "" {
		dir = "."
	}
	return append(append([]string{"/bin/sh", "-c", execScript, dir}, env...), cmd...), nil
}

// containerEnv is the environment a container's command sets (see
// envCommand): the NAME=VALUE arguments after `env -i`.
func containerEnv(c *corev1.Container) []string {
	env, _, _ := commandParts(c)
	return env
}

// commandParts splits a container's command as envCommand made it into
// the environment it sets and the spec's process; ok is false for any
// other command.
func commandParts(c *corev1.Container) (env, process []string, ok bool) {
	args := c.Command
	switch {
	case len(args) >= 2 && args[0] == "/usr/bin/env" && args[1] == "-i":
		args = args[2:]
	case len(args) >= 4 && args[2] == awaitScript:
		args = args[4:]
	default:
		return nil, args, false
	}
	n := 0
	for n < len(args) && strings.Contains(args[n], "=") {
		n++
	}
	return args[:n:n], args[n:], true
}

// abortReader is an exec's stdin. client-go closes the remote stdin when
// its reader fails, which the process would read as a complete input: on
// a failure, abortReader first tears the stream down (abort) and returns
// the error only once the stream has ended.
type abortReader struct {
	r          io.Reader
	abort      func()
	streamDone <-chan struct{}
	mu         sync.Mutex
	err        error
}

func (a *abortReader) Read(p []byte) (int, error) {
	n, err := a.r.Read(p)
	if err != nil && !errors.Is(err, io.EOF) {
		a.mu.Lock()
		a.err = err
		a.mu.Unlock()
		a.abort()
		<-a.streamDone
	}
	return n, err
}

func (a *abortReader) failed() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.err
}
