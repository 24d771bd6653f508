package executorsvc

import (
	"context"
	"net"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// hostListener accepts and closes TCP connections on all interfaces.
func hostListener(t *testing.T) string {
	t.Helper()
	lis, err := net.Listen("tcp", "0.0.0.0:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = lis.Close() })
	go func() {
		for {
			c, err := lis.Accept()
			if err != nil {
				return
			}
			_ = c.Close()
		}
	}()
	return portOf(lis.Addr())
}

// Row 13: during install, the host (its gateway address, any service port,
// hence the Docker API and greenlight's own ports), private ranges and the
// metadata address are blocked by the egress policy; with the policy off
// the same probe reaches the host (so the test can fail).
func TestInstallEgressPolicyBlocksHostAndPrivateRanges(t *testing.T) {
	port := hostListener(t)
	probe := func(targets ...string) string {
		return `python3 - <<'EOF'
import socket
for t in "` + strings.Join(targets, " ") + `".split():
    host, port = t.rsplit(":", 1)
    try:
        socket.create_connection((host, int(port)), timeout=3).close(); print(t, "reached")
    except OSError as e: print(t, "blocked", e)
EOF`
	}
	install := func(cmd string) *glv1.Step {
		return &glv1.Step{Name: "install", Phase: glv1.Phase_PHASE_INSTALL, Network: true, Command: cmd}
	}

	t.Run("policy", func(t *testing.T) {
		e := newEnv(t, func(c *Config) { c.EgressPolicy = EgressIptables })
		network := e.svc.runner.Config().EgressNetwork
		if !strings.HasPrefix(network, "greenlight-egress-") {
			t.Fatalf("install steps use %q", network)
		}
		gw := networkGateway(t, network)
		targets := []string{gw + ":" + port, bridgeGateway(t) + ":" + port, "169.254.169.254:80", "10.1.2.3:80", "192.168.1.1:80"}
		r := e.mustExecute(context.Background(), e.request(nil, install(probe(targets...))))
		tail := r.result(0).GetTail()
		if strings.Contains(tail, "reached") || strings.Count(tail, "blocked") != len(targets) {
			t.Errorf("the egress policy let install through:\n%s", tail)
		}
	})
	t.Run("off", func(t *testing.T) {
		e := newEnv(t, func(c *Config) { c.EgressPolicy = EgressOff })
		target := bridgeGateway(t) + ":" + port
		r := e.mustExecute(context.Background(), e.request(nil, install(probe(target))))
		if tail := r.result(0).GetTail(); !strings.Contains(tail, target+" reached") {
			t.Errorf("without the policy the host was not reachable, so the test proves nothing (step %s, exit %d, %s):\n%s",
				r.result(0).GetStatus(), r.result(0).GetExitCode(), r.result(0).GetReason(), tail)
		}
	})
}

// networkGateway returns a network's gateway address.
func networkGateway(t *testing.T, name string) string {
	t.Helper()
	gw, err := testenvDocker(t).NetworkGateway(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return gw
}
