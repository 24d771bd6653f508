package executorsvc

import (
	"context"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/executor/internal/testenv"
)

// ipv6Probe binds TCP and UDP sockets on [::1]:0 and talks to them, and
// lists every IPv6 address and every usable route that is not the
// loopback's. It reaches no address but ::1: that no route leads anywhere
// else is read from the kernel's tables, not probed.
const ipv6Probe = `python3 - <<'EOF'
import socket
for line in open("/proc/net/if_inet6"):
    f = line.split()
    if f[5] != "lo" or f[0] != "0" * 31 + "1":
        print("address", f[5], f[0])
RTF_UP, RTF_GATEWAY, RTF_REJECT = 0x1, 0x2, 0x200
for line in open("/proc/net/ipv6_route"):
    f = line.split()
    flags, dev = int(f[8], 16), f[9]
    if flags & RTF_UP and not flags & RTF_REJECT and (dev != "lo" or flags & RTF_GATEWAY or f[1] == "00"):
        print("route", line.strip())
try:
    srv = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
    srv.bind(("::1", 0)); srv.listen(1)
    cli = socket.create_connection(("::1", srv.getsockname()[1]), timeout=5)
    conn, _ = srv.accept(); cli.sendall(b"ping"); assert conn.recv(4) == b"ping"
    u = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM); u.bind(("::1", 0))
    u.sendto(b"dgram", u.getsockname()); assert u.recv(5) == b"dgram"
    print("ipv6 loopback ok")
except OSError as e:
    print("ipv6 loopback failed", e)
EOF`

// Every sandbox has an IPv6 loopback as CI runners do (libuv's
// udp_recvmsg_unreachable_error6 binds [::1] and failed with
// EADDRNOTAVAIL), in a test step without network and in an install step
// on the egress network, in a fresh and in a pooled container; and no
// other IPv6: no address but ::1 on lo (eth0 of the install network gets
// none, not even link-local), no route but the loopback's, so nothing
// IPv6 leaves the sandbox around the IPv4 egress filter.
func TestSandboxHasAnIPv6LoopbackAndNoOtherIPv6(t *testing.T) {
	for _, pool := range []int{0, 1} {
		name := map[int]string{0: "fresh", 1: "pooled"}[pool]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, func(c *Config) { c.PoolSize, c.Images = pool, []string{"python=" + testenv.PythonImage} })
			if pool > 0 {
				e.svc.Warm(context.Background())
				waitIdle(t, e, 1)
			}
			r := e.mustExecute(context.Background(), e.request(nil,
				&glv1.Step{Name: "install", Phase: glv1.Phase_PHASE_INSTALL, Network: true,
					Command: `grep -c . /proc/net/dev; ` + ipv6Probe},
				sh("test", ipv6Probe)))
			install, test := r.result(0).GetTail(), r.result(1).GetTail()
			if !strings.HasPrefix(install, "4\n") {
				t.Errorf("the install step had no eth0 (the check of its addresses cannot fail): %q", install)
			}
			for step, out := range map[string]string{"install": install, "test": test} {
				if !strings.Contains(out, "ipv6 loopback ok") {
					t.Errorf("%s step: [::1] not usable:\n%s", step, out)
				}
				if strings.Contains(out, "address ") || strings.Contains(out, "route ") {
					t.Errorf("%s step: IPv6 beyond the loopback:\n%s", step, out)
				}
			}
		})
	}
}
