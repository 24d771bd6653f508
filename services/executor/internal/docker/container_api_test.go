package docker

import (
	"context"
	"errors"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"

	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
)

// hardened is a spec like the sandbox's runner-mode one.
func hardened() sandbox.ContainerSpec {
	return sandbox.ContainerSpec{
		Name: "greenlight-run-1", Image: "greenlight/sandbox-python:latest",
		Entrypoint: []string{"/usr/local/bin/greenlight-runner"}, Cmd: []string{"--lifetime", "3600"},
		User: "0:0", WorkDir: "/workspace", Env: []string{"PATH=/usr/bin", "HOME=/home/sandbox"},
		Labels:   map[string]string{sandbox.LabelRun: "run-1"},
		NanoCPUs: 1.5e9, MemoryBytes: 2 << 30, PidsLimit: 256, ReadonlyRootfs: true,
		Tmpfs:   map[string]string{"/tmp": "rw,exec,nosuid,nodev,size=1024,mode=1777", "/workspace": "rw,size=2048"},
		CapDrop: []string{"ALL"}, CapAdd: []string{"SETUID", "SETGID", "KILL"},
		SecurityOpt: []string{"no-new-privileges"}, Init: true, OpenStdin: true,
		Sysctls: map[string]string{"net.ipv6.conf.lo.disable_ipv6": "0"},
	}
}

// Create sends the spec field by field and the hardening the driver adds
// itself: no network unless one is named, a private IPC namespace, no
// swap beyond the memory limit, no core dumps, no container log, nothing
// from the host (no binds, mounts, devices or privilege).
func TestCreateSendsTheHardenedSpec(t *testing.T) {
	eng, rt := newAPIEngine(t)
	eng.reply("POST /containers/create", http.StatusCreated, container.CreateResponse{ID: "c1"})
	spec := hardened()
	for _, network := range []string{"", "greenlight-egress-e1"} {
		spec.Network = network
		id, err := rt.Create(context.Background(), spec)
		if err != nil || id != "c1" {
			t.Fatalf("Create = %q, %v", id, err)
		}
	}
	reqs := eng.requests(http.MethodPost, "/containers/create")
	if len(reqs) != 2 {
		t.Fatalf("%d create calls, want 2", len(reqs))
	}
	for i, wantNetwork := range []string{"none", "greenlight-egress-e1"} {
		var body container.CreateRequest
		decode(t, reqs[i], &body)
		if got := reqs[i].Query.Get("name"); got != spec.Name {
			t.Errorf("name %q, want %q", got, spec.Name)
		}
		c, h := body.Config, body.HostConfig
		if c == nil || h == nil {
			t.Fatalf("create body without config: %s", reqs[i].Body)
		}
		for what, ok := range map[string]bool{
			"image":       c.Image == spec.Image,
			"entrypoint":  slices.Equal(c.Entrypoint, spec.Entrypoint),
			"cmd":         slices.Equal(c.Cmd, spec.Cmd),
			"user":        c.User == spec.User,
			"workdir":     c.WorkingDir == spec.WorkDir,
			"env":         slices.Equal(c.Env, spec.Env),
			"labels":      maps.Equal(c.Labels, spec.Labels),
			"stdin":       c.OpenStdin && c.StdinOnce && c.AttachStdin && c.AttachStdout && c.AttachStderr,
			"network":     string(h.NetworkMode) == wantNetwork,
			"read-only":   h.ReadonlyRootfs,
			"tmpfs":       maps.Equal(h.Tmpfs, spec.Tmpfs),
			"cap drop":    slices.Equal(h.CapDrop, []string{"ALL"}),
			"cap add":     slices.Equal(capSet(h.CapAdd), capSet(spec.CapAdd)),
			"security":    slices.Equal(h.SecurityOpt, spec.SecurityOpt),
			"init":        h.Init != nil && *h.Init,
			"ipc":         h.IpcMode == container.IPCModePrivate,
			"sysctls":     maps.Equal(h.Sysctls, spec.Sysctls),
			"log":         h.LogConfig.Type == "none",
			"cpus":        h.NanoCPUs == spec.NanoCPUs,
			"memory":      h.Memory == spec.MemoryBytes,
			"no swap":     h.MemorySwap == spec.MemoryBytes,
			"pids":        h.PidsLimit != nil && *h.PidsLimit == spec.PidsLimit,
			"no core":     len(h.Ulimits) == 1 && h.Ulimits[0].Name == "core" && h.Ulimits[0].Hard == 0 && h.Ulimits[0].Soft == 0,
			"no binds":    len(h.Binds) == 0 && len(h.Mounts) == 0 && len(h.VolumesFrom) == 0,
			"no devices":  len(h.Devices) == 0 && !h.Privileged,
			"own pid ns":  h.PidMode == "",
			"no host net": h.NetworkMode != "host",
		} {
			if !ok {
				t.Errorf("create %d: %s not as asked:\n%s", i, what, reqs[i].Body)
			}
		}
	}
}

// A container needs a main process attached only when asked: without
// OpenStdin no stream is attached.
func TestCreateWithoutStdin(t *testing.T) {
	eng, rt := newAPIEngine(t)
	eng.reply("POST /containers/create", http.StatusCreated, container.CreateResponse{ID: "c2"})
	spec := hardened()
	spec.OpenStdin, spec.Init = false, false
	if _, err := rt.Create(context.Background(), spec); err != nil {
		t.Fatal(err)
	}
	var body container.CreateRequest
	decode(t, eng.requests(http.MethodPost, "/containers/create")[0], &body)
	if c, h := body.Config, body.HostConfig; c.OpenStdin || c.StdinOnce || c.AttachStdin || c.AttachStdout || h.Init == nil || *h.Init {
		t.Errorf("stdin attached or init not explicitly off: %+v, init %v", c, h.Init)
	}
}

// The engine's answers map to the sandbox's sentinels: a missing image
// at create is ErrImageNotFound, a missing container ErrContainerNotFound
// (its removal is no error, nor is a removal already in progress), any
// other refusal keeps the engine's message and is no sentinel.
func TestContainerErrors(t *testing.T) {
	eng, rt := newAPIEngine(t)
	ctx := context.Background()
	eng.fail("POST /containers/create", http.StatusNotFound, "No such image: greenlight/sandbox-python:latest")
	eng.fail("POST /containers/gone/start", http.StatusNotFound, "No such container: gone")
	eng.fail("GET /containers/gone/json", http.StatusNotFound, "No such container: gone")
	eng.fail("DELETE /containers/gone", http.StatusNotFound, "No such container: gone")
	eng.fail("DELETE /containers/busy", http.StatusConflict, "removal of container busy is already in progress")
	eng.fail("DELETE /containers/stuck", http.StatusInternalServerError, "device or resource busy")
	eng.fail("POST /containers/bad/start", http.StatusInternalServerError, "OCI runtime create failed: no init")
	eng.fail("POST /networks/{net}/connect", http.StatusNotFound, "No such container: gone")
	eng.fail("POST /networks/{net}/disconnect", http.StatusNotFound, "No such container: gone")

	_, createErr := rt.Create(ctx, hardened())
	_, stateErr := rt.State(ctx, "gone")
	for _, tc := range []struct {
		call string
		err  error
		want error // nil: no error
		not  error // a sentinel the error must not be
		msg  string
	}{
		{"create", createErr, sandbox.ErrImageNotFound, nil, "greenlight/sandbox-python:latest"},
		{"start", rt.Start(ctx, "gone"), sandbox.ErrContainerNotFound, nil, "No such container"},
		{"state", stateErr, sandbox.ErrContainerNotFound, nil, "container inspect"},
		{"connect", rt.Connect(ctx, "gone", "net1"), sandbox.ErrContainerNotFound, nil, "network connect"},
		{"disconnect", rt.Disconnect(ctx, "gone", "net1"), sandbox.ErrContainerNotFound, nil, "network disconnect"},
		{"remove missing", rt.Remove(ctx, "gone"), nil, nil, ""},
		{"remove in progress", rt.Remove(ctx, "busy"), nil, nil, ""},
		{"remove failing", rt.Remove(ctx, "stuck"), nil, sandbox.ErrContainerNotFound, "device or resource busy"},
		{"start failing", rt.Start(ctx, "bad"), nil, sandbox.ErrEngineUnavailable, "OCI runtime create failed"},
	} {
		switch {
		case tc.msg == "" && tc.err != nil:
			t.Errorf("%s: %v, want no error", tc.call, tc.err)
		case tc.msg == "":
		case tc.err == nil || !contains(tc.err.Error(), tc.msg):
			t.Errorf("%s: %v, want an error saying %q", tc.call, tc.err, tc.msg)
		case tc.want != nil && !errors.Is(tc.err, tc.want):
			t.Errorf("%s: %v is not %v", tc.call, tc.err, tc.want)
		case tc.not != nil && errors.Is(tc.err, tc.not):
			t.Errorf("%s: %v must not be %v", tc.call, tc.err, tc.not)
		}
	}
	del := eng.requests(http.MethodDelete, "/containers/gone")
	if len(del) != 1 || del[0].Query.Get("force") != "1" || del[0].Query.Get("v") != "1" {
		t.Errorf("remove asked %v, want force and volumes", del)
	}
	disc := eng.requests(http.MethodPost, "/networks/net1/disconnect")
	if len(disc) != 1 || !contains(string(disc[0].Body), `"Container":"gone"`, `"Force":true`) {
		t.Errorf("disconnect sent %v, want the container, forced", disc)
	}
}

// State reports what the engine says of the main process.
func TestState(t *testing.T) {
	eng, rt := newAPIEngine(t)
	eng.reply("GET /containers/{id}/json", http.StatusOK, container.InspectResponse{ContainerJSONBase: &container.ContainerJSONBase{
		ID: "c1", State: &container.State{Running: false, OOMKilled: true, ExitCode: 137},
	}})
	st, err := rt.State(context.Background(), "c1")
	if err != nil || st != (sandbox.ContainerState{OOMKilled: true, ExitCode: 137}) {
		t.Errorf("State = %+v, %v", st, err)
	}
	eng.reply("POST /containers/{id}/start", http.StatusNoContent, nil)
	if err := rt.Start(context.Background(), "c1"); err != nil {
		t.Errorf("Start: %v", err)
	}
	if n := len(eng.requests(http.MethodPost, "/containers/c1/start")); n != 1 {
		t.Errorf("%d start calls", n)
	}
}

// List asks for every container (stopped ones too) carrying the label and
// reports each with its name, without the engine's leading slash.
func TestList(t *testing.T) {
	eng, rt := newAPIEngine(t)
	created := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	eng.reply("GET /containers/json", http.StatusOK, []container.Summary{
		{ID: "a", Names: []string{"/greenlight-pool-python-x1"}, Labels: map[string]string{"greenlight.run": "r"},
			Created: created.Unix(), State: "running"},
		{ID: "b", State: "exited"},
	})
	got, err := rt.List(context.Background(), "greenlight.run=r")
	if err != nil {
		t.Fatal(err)
	}
	want := []sandbox.ContainerInfo{
		{ID: "a", Name: "greenlight-pool-python-x1", Labels: map[string]string{"greenlight.run": "r"}, Created: created, State: "running"},
		{ID: "b", Created: time.Unix(0, 0), State: "exited"},
	}
	if len(got) != 2 || got[0].Name != want[0].Name || !got[0].Created.Equal(created) || got[0].State != "running" ||
		got[0].Labels["greenlight.run"] != "r" || got[1].ID != "b" || got[1].Name != "" || got[1].State != "exited" {
		t.Errorf("List = %+v, want %+v", got, want)
	}
	q := eng.requests(http.MethodGet, "/containers/json")[0].Query
	if q.Get("all") != "1" || !contains(q.Get("filters"), `"label"`, `"greenlight.run=r"`) {
		t.Errorf("list query %v, want all containers filtered by the label", q)
	}
}

// capSet is a capability list as the client sends it: CAP_-prefixed,
// sorted.
func capSet(caps []string) []string {
	out := make([]string, len(caps))
	for i, c := range caps {
		out[i] = "CAP_" + strings.TrimPrefix(c, "CAP_")
	}
	slices.Sort(out)
	return out
}
