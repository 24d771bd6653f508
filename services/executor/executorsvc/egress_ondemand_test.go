package executorsvc

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/executor/internal/egress"
)

// Row 13 with the egress instance created on demand (one-shot commands):
// an executor whose runs have no install step with network creates no
// egress network and no chain at all; the first install step gets the
// filter before it runs (the host and private ranges blocked, exactly as
// with the instance applied at start); Close removes what it created.
func TestEgressOnDemand(t *testing.T) {
	port := hostListener(t)
	id := fmt.Sprintf("d%010x", time.Now().UnixNano()&0xffffffffff)
	e := newEnv(t, func(c *Config) { c.EgressPolicy, c.EgressOnDemand, c.EgressInstance = EgressIptables, true, id })
	in := egress.Instance{ID: id}
	if got := e.svc.runner.Config().EgressNetwork; got != in.Network() {
		t.Fatalf("install steps would use %q, want the instance's %s", got, in.Network())
	}
	ctx := context.Background()
	exists := func() (network, chain bool) {
		labels, err := testenvDocker(t).NetworkLabels(ctx, egress.LabelInstance+"="+id)
		if err != nil {
			t.Fatal(err)
		}
		return len(labels) > 0, iptablesS(t, in.ChainOut()) != "" || iptablesS(t, in.ChainIn()) != ""
	}
	want := func(when string, wantNetwork, wantChain bool) {
		t.Helper()
		if n, c := exists(); n != wantNetwork || c != wantChain {
			t.Errorf("%s: network %v, chains %v; want %v, %v", when, n, c, wantNetwork, wantChain)
		}
	}
	want("at start", false, false)

	test := &glv1.Step{Name: "test", Phase: glv1.Phase_PHASE_TEST, Command: "echo offline"}
	r := e.mustExecute(ctx, e.request(nil, test))
	if st := r.result(0).GetStatus(); st != glv1.StepStatus_STEP_STATUS_OK {
		t.Fatalf("a step without network: %s %s", st, r.result(0).GetReason())
	}
	want("after a run without network", false, false)

	// The first target is the host on the step's own network: its
	// default gateway, read in the sandbox (the network does not exist
	// before the step).
	targets := []string{"gateway:" + port, bridgeGateway(t) + ":" + port, "10.1.2.3:80"}
	probe := `python3 - <<'EOF'
import socket, struct
gw = next(socket.inet_ntoa(struct.pack("<L", int(f[2], 16))) for f in
          (l.split() for l in open("/proc/net/route").readlines()[1:]) if f[1] == "00000000")
for t in "` + strings.Join(targets, " ") + `".replace("gateway", gw).split():
    host, port = t.rsplit(":", 1)
    try:
        socket.create_connection((host, int(port)), timeout=3).close(); print(t, "reached")
    except OSError as e: print(t, "blocked", e)
EOF`
	install := &glv1.Step{Name: "install", Phase: glv1.Phase_PHASE_INSTALL, Network: true, Command: probe}
	r = e.mustExecute(ctx, e.request(nil, install))
	tail := r.result(0).GetTail()
	if strings.Contains(tail, "reached") || strings.Count(tail, "blocked") != len(targets) {
		t.Errorf("the on-demand egress policy let install through (step %s, %s):\n%s",
			r.result(0).GetStatus(), r.result(0).GetReason(), tail)
	}
	want("after an install step", true, true)

	if err := e.svc.Close(); err != nil {
		t.Fatal(err)
	}
	want("after Close", false, false)
}
