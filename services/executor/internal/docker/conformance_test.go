package docker_test

import (
	"context"
	"testing"

	"github.com/docker/docker/api/types/mount"
	"github.com/docker/docker/client"

	"github.com/greenlight-dev/greenlight/services/executor/internal/runtimetest"
	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
	"github.com/greenlight-dev/greenlight/services/executor/internal/testenv"
)

// The Docker driver passes the conformance suite every driver passes,
// the probes from inside a container included, and what the engine
// applied (read back with docker inspect) is as hardened as what the
// sandbox asked for.
func TestConformance(t *testing.T) {
	rt := testenv.Docker(t)
	cli, err := client.NewClientWithOpts(client.FromEnv, client.WithAPIVersionNegotiation())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cli.Close() })
	runtimetest.Run(t, runtimetest.Harness{
		Runtime: rt, Image: testenv.PythonImage, Isolates: true, Applied: inspector(cli),
	})
}

// inspector reads a container's configuration back from the engine, in
// the sandbox's terms.
func inspector(cli *client.Client) func(context.Context, string) (runtimetest.Applied, error) {
	return func(ctx context.Context, id string) (runtimetest.Applied, error) {
		c, err := cli.ContainerInspect(ctx, id)
		if err != nil {
			return runtimetest.Applied{}, err
		}
		hc, cfg := c.HostConfig, c.Config
		network := string(hc.NetworkMode)
		if network == "none" {
			network = ""
		}
		spec := sandbox.ContainerSpec{
			Image: cfg.Image, Entrypoint: cfg.Entrypoint, Cmd: cfg.Cmd, User: cfg.User, WorkDir: cfg.WorkingDir,
			Env: cfg.Env, Labels: cfg.Labels, Network: network, NanoCPUs: hc.NanoCPUs, MemoryBytes: hc.Memory,
			ReadonlyRootfs: hc.ReadonlyRootfs, Tmpfs: hc.Tmpfs, CapDrop: hc.CapDrop, CapAdd: hc.CapAdd,
			SecurityOpt: hc.SecurityOpt, Init: hc.Init != nil && *hc.Init, OpenStdin: cfg.OpenStdin, Sysctls: hc.Sysctls,
		}
		if hc.PidsLimit != nil {
			spec.PidsLimit = *hc.PidsLimit
		}
		a := runtimetest.Applied{Spec: spec, HostPaths: hc.Binds, Privileged: hc.Privileged}
		for _, m := range hc.Mounts {
			if m.Type == mount.TypeBind {
				a.HostPaths = append(a.HostPaths, m.Source)
			}
		}
		for _, m := range c.Mounts {
			if m.Type == mount.TypeBind {
				a.HostPaths = append(a.HostPaths, m.Source)
			}
		}
		return a, nil
	}
}
