package executorsvc

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"net"
	"net/netip"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/executor/internal/testenv"
)

// Row 10: a 20 MB single line is stored whole (with a cap above it) and
// streamed in valid chunks; multi-byte characters cut at any write boundary
// arrive whole, and invalid bytes arrive replaced, so every event is valid
// UTF-8.
func TestLongLinesAndMultiByteCharactersArriveWhole(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const line = 20_000_000
	multi := `python3 -c "
import sys, os
text = ('aé€😀' * 20000).encode()
i, n = 0, 16381
while i < len(text):
    os.write(1, text[i:i+n]); i += n; n = 16384 + (n + 7) % 13
os.write(1, b'\xff\xfeend')
"`
	req := e.request(nil,
		sh("long-line", "head -c 20000000 /dev/zero | tr '\\0' a; echo"),
		sh("multi-byte", multi),
	)
	req.Limits = &glv1.Limits{LogBytesPerStep: 32 << 20}
	r := e.mustExecute(context.Background(), req)
	long := r.result(0)
	if log := e.readBlob(long.GetLogDigest()); len(log) != line+1 || strings.Count(log, "a") != line || long.GetTruncated() {
		t.Errorf("long line stored as %d bytes (truncated=%v)", len(log), long.GetTruncated())
	}
	if tail := long.GetTail(); !utf8.ValidString(tail) || len(tail) > 64<<10 || strings.Trim(tail, "a\n") != "" {
		t.Errorf("tail of the long line: %d bytes", len(tail))
	}
	// A run of invalid bytes becomes one replacement character.
	want := strings.Repeat("aé€😀", 20000) + "\uFFFDend"
	if got := r.output(1); got != want {
		t.Errorf("multi-byte output differs: got %d bytes, want %d", len(got), len(want))
	}
	for _, ev := range r.events {
		if c := ev.GetLogChunk(); c != nil && (!utf8.ValidString(c.GetData()) || len(c.GetData()) > 64<<10) {
			t.Fatalf("chunk at offset %d: valid=%v, %d bytes", c.GetOffset(), utf8.ValidString(c.GetData()), len(c.GetData()))
		}
	}
}

// Row 12: in a step after the install phase there is no network at all:
// DNS, TCP to the host and to the outside, and the metadata address fail,
// and only loopback exists, while the install step itself had an interface.
func TestNoNetworkAfterInstall(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	gw := bridgeGateway(t)
	lis, err := net.Listen("tcp", "0.0.0.0:0")
	if err != nil {
		t.Fatal(err)
	}
	defer lis.Close()
	go func() {
		for {
			c, err := lis.Accept()
			if err != nil {
				return
			}
			_ = c.Close()
		}
	}()
	host := net.JoinHostPort(gw, portOf(lis.Addr()))
	probe := `python3 - <<'EOF'
import socket
print("interfaces", sorted(l.split(":")[0].strip() for l in open("/proc/net/dev").readlines()[2:]))
try:
    socket.getaddrinfo("example.com", 80); print("dns ok")
except OSError as e: print("dns failed", e)
for host, port in [("` + gw + `", ` + portOf(lis.Addr()) + `), ("169.254.169.254", 80), ("1.1.1.1", 53)]:
    try:
        socket.create_connection((host, port), timeout=2).close(); print("tcp", host, "ok")
    except OSError as e: print("tcp", host, "failed", e)
EOF`
	r := e.mustExecute(context.Background(), e.request(nil,
		&glv1.Step{Name: "install", Phase: glv1.Phase_PHASE_INSTALL, Network: true, Command: probe},
		// Without any interface DNS can only time out: keep it short.
		&glv1.Step{Name: "test", Phase: glv1.Phase_PHASE_TEST, Command: probe, Env: map[string]string{"RES_OPTIONS": "timeout:1 attempts:1"}},
	))
	install, test := r.result(0).GetTail(), r.result(1).GetTail()
	if !strings.Contains(install, "'eth0'") {
		t.Errorf("the install step had no interface (the probe cannot fail): %s", install)
	}
	if !strings.Contains(test, "interfaces ['lo']") || strings.Contains(test, " ok") {
		t.Errorf("after install, the test step reached the network (host listener %s):\n%s", host, test)
	}
}

// bridgeGateway returns the default bridge's gateway (the host as seen from
// a container).
func bridgeGateway(t *testing.T) string {
	out, err := exec.Command("docker", "network", "inspect", "bridge", "-f", "{{(index .IPAM.Config 0).Gateway}}|{{(index .IPAM.Config 0).Subnet}}").Output()
	if err != nil {
		t.Fatalf("docker network inspect: %v", err)
	}
	gw, subnet, _ := strings.Cut(strings.TrimSpace(string(out)), "|")
	if gw != "" {
		return gw
	}
	// Some engines (20.10 after a restart) leave the gateway out of the
	// default bridge's IPAM config; docker0 then holds the subnet's first
	// address.
	p, err := netip.ParsePrefix(strings.TrimSpace(subnet))
	if err != nil {
		t.Fatalf("default bridge: no gateway and subnet %q: %v", subnet, err)
	}
	return p.Masked().Addr().Next().String()
}

func portOf(a net.Addr) string {
	_, p, _ := net.SplitHostPort(a.String())
	return p
}

// Rows 14 to 17 and 22, 26: what code in the sandbox can see and do, each
// probe a step of one run.
func TestSandboxCodeHasNoPrivilegesSecretsOrHostAccess(t *testing.T) {
	t.Setenv("GREENLIGHT_TEST_SECRET", "s3cr3t-do-not-leak")
	e := newEnv(t)
	probes := []struct {
		name, cmd string
		ok        func(tail string) bool
	}{
		{"env", "env", func(s string) bool {
			return !strings.Contains(s, "s3cr3t") && onlyAllowedVars(s) && slices.Contains(strings.Split(s, "\n"), "CI=true")
		}},
		{"init-environ", "tr '\\0' '\\n' < /proc/1/environ 2>&1", func(s string) bool {
			return !strings.Contains(s, "s3cr3t") && (strings.Contains(s, "Permission denied") || onlyAllowedVars(s))
		}},
		{"sysrq", "echo c > /proc/sysrq-trigger 2>&1; echo rc=$?", func(s string) bool { return !strings.Contains(s, "rc=0") }},
		{"kcore", "head -c 4096 /proc/kcore 2>/dev/null | wc -c", func(s string) bool { return strings.TrimSpace(s) == "0" }},
		// No capability at all; the bounding set is empty, or (with
		// greenlight-runner) the runner's three, which no process of the
		// sandbox user can raise (no-new-privileges, no file capabilities).
		{"no-new-privs", "grep -E '^(NoNewPrivs|Cap[A-Za-z]+):' /proc/self/status", func(s string) bool {
			bnd := statusField(s, "CapBnd")
			return statusField(s, "NoNewPrivs") == "1" && statusField(s, "CapEff") == zeroCaps &&
				statusField(s, "CapPrm") == zeroCaps && statusField(s, "CapInh") == zeroCaps &&
				statusField(s, "CapAmb") == zeroCaps && (bnd == zeroCaps || bnd == runnerBoundingSet)
		}},
		{"su", "su -c id root < /dev/null 2>&1; echo rc=$?", func(s string) bool { return !strings.Contains(s, "uid=0") && !strings.Contains(s, "rc=0") }},
		{"sudo", "sudo id 2>&1; echo rc=$?", func(s string) bool { return !strings.Contains(s, "uid=0") && !strings.Contains(s, "rc=0") }},
		{"setuid-copy", "cp /usr/bin/id /tmp/id && chmod u+s /tmp/id; /tmp/id -u", func(s string) bool { return lastLine(s) == "10001" }},
		{"setuid-root-binary", "ls -l /usr/bin/su | cut -c1-4; mount -t tmpfs none /mnt 2>&1; echo rc=$?", func(s string) bool {
			return strings.Contains(s, "-rws") && !strings.Contains(s, "rc=0")
		}},
		{"unshare", "unshare -U -r id 2>&1; echo rc=$?", func(s string) bool { return !strings.Contains(s, "rc=0") }},
		{"keyctl-bpf", `python3 -c "
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
for name, nr in (('keyctl', 250), ('bpf', 321)):
    r = libc.syscall(nr, 0, 0, 0)
    print(name, r, os.strerror(ctypes.get_errno()))
"`, func(s string) bool {
			return strings.Contains(s, "keyctl -1 Operation not permitted") && strings.Contains(s, "bpf -1 Operation not permitted")
		}},
		{"orphans", `python3 -c "
import os, time
for i in range(10):
    if os.fork() == 0:
        if os.fork() == 0:
            time.sleep(0.3); os._exit(0)
        os._exit(0)
    os.wait()
time.sleep(1.5)
z = 0
for p in os.listdir('/proc'):
    if p.isdigit():
        try: z += open('/proc/%s/stat' % p).read().rsplit(')', 1)[1].split()[0] == 'Z'
        except OSError: pass
print('pid1', open('/proc/1/comm').read().strip(), 'zombies', z)
"`, func(s string) bool { return strings.Contains(s, "pid1 docker-init zombies 0") }},
	}
	var steps []*glv1.Step
	for _, p := range probes {
		steps = append(steps, &glv1.Step{Name: p.name, Phase: glv1.Phase_PHASE_TEST, Command: p.cmd, ContinueOnFailure: true})
	}
	r := e.mustExecute(context.Background(), e.request(nil, steps...))
	for i, p := range probes {
		if got := r.result(i); !p.ok(got.GetTail()) {
			t.Errorf("%s: %s\n%s", p.name, statusOf(got), got.GetTail())
		}
	}
}

// zeroCaps is an empty capability set in /proc/PID/status; runnerBoundingSet
// is CAP_KILL, CAP_SETGID and CAP_SETUID (bits 5, 6, 7).
const (
	zeroCaps          = "0000000000000000"
	runnerBoundingSet = "00000000000000e0"
)

// statusField returns the value of a "Key:\tvalue" line.
func statusField(s, key string) string {
	for _, line := range strings.Split(s, "\n") {
		if v, ok := strings.CutPrefix(line, key+":"); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// onlyAllowedVars checks KEY=VALUE lines against greenlight's variables,
// the image's own (documented in its recipe) and what the shell adds.
func onlyAllowedVars(s string) bool {
	allowed := map[string]bool{"PATH": true, "HOME": true, "LANG": true, "TMPDIR": true, "HOSTNAME": true, "CI": true,
		"PWD": true, "SHLVL": true, "_": true, "OLDPWD": true}
	for _, line := range strings.Split(strings.TrimSpace(s), "\n") {
		k, _, ok := strings.Cut(line, "=")
		if !ok {
			return false
		}
		if !allowed[k] && !strings.HasPrefix(k, "PIP_") && k != "PYTHONUNBUFFERED" {
			return false
		}
	}
	return true
}

// Rows 19 and 21: bad snapshots are refused with InvalidArgument naming the
// entry, before any container exists.
func TestBadSnapshotsAreRefusedBeforeAnyContainer(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	type entry struct {
		hdr  tar.Header
		body string
	}
	reg := func(name, body string) entry {
		return entry{tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg}, body}
	}
	cases := []struct {
		name    string
		entries []entry
		gzip    bool
		limits  *glv1.Limits
		want    string
	}{
		{"absolute path", []entry{reg("ok.txt", "x"), reg("/etc/evil", "x")}, false, nil, "/etc/evil"},
		{"dot-dot", []entry{reg("a/../../evil", "x")}, false, nil, "a/../../evil"},
		{"symlink out of root", []entry{{tar.Header{Name: "link", Linkname: "/etc", Typeflag: tar.TypeSymlink, Mode: 0o777}, ""}},
			false, nil, "link"},
		{"symlink then file", []entry{{tar.Header{Name: "dir", Linkname: "sub", Typeflag: tar.TypeSymlink, Mode: 0o777}, ""},
			reg("dir/passwd", "x")}, false, nil, "dir/passwd"},
		{"hard link outside", []entry{{tar.Header{Name: "hl", Linkname: "/etc/passwd", Typeflag: tar.TypeLink}, ""}}, false, nil, "hl"},
		{"device", []entry{{tar.Header{Name: "dev/mem", Typeflag: tar.TypeChar, Devmajor: 1, Devminor: 1, Mode: 0o666}, ""}},
			false, nil, "dev/mem"},
		{"over size", []entry{reg("big.bin", strings.Repeat("x", 2<<20))}, false, &glv1.Limits{WorkspaceBytes: 1 << 20}, "big.bin"},
		{"compressed", []entry{reg("ok.txt", "x")}, true, nil, "gzip"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			tw := tar.NewWriter(&buf)
			for _, en := range tc.entries {
				hdr := en.hdr
				if err := tw.WriteHeader(&hdr); err != nil {
					t.Fatal(err)
				}
				_, _ = tw.Write([]byte(en.body))
			}
			_ = tw.Close()
			data := buf.Bytes()
			if tc.gzip {
				var z bytes.Buffer
				zw := gzip.NewWriter(&z)
				_, _ = zw.Write(data)
				_ = zw.Close()
				data = z.Bytes()
			}
			req := e.request(nil, sh("never", "echo ran"))
			req.Snapshot = testenv.Put(t, e.blobs, data).Proto()
			req.Limits = tc.limits
			r := e.execute(context.Background(), req)
			st, _ := status.FromError(r.err)
			if st.Code() != codes.InvalidArgument || !strings.Contains(st.Message(), tc.want) {
				t.Errorf("got %v %q, want InvalidArgument naming %q", st.Code(), st.Message(), tc.want)
			}
			if len(r.events) > 0 {
				t.Errorf("%d events streamed for a refused snapshot", len(r.events))
			}
		})
	}
	if c, x := e.rt.creates.Load(), e.rt.execs.Load(); c != 0 || x != 0 {
		t.Errorf("refused snapshots still created %d containers and ran %d execs", c, x)
	}
}

// Row 25: canceling the stream kills the sandbox within 2 s.
func TestCancelKillsTheSandboxWithinTwoSeconds(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stream, err := e.client.Execute(ctx, e.request(nil, sh("sleep", "echo started; sleep 100"), sh("after", "true")))
	if err != nil {
		t.Fatal(err)
	}
	for {
		msg, err := stream.Recv()
		if err != nil {
			t.Fatalf("stream ended before output: %v", err)
		}
		if c := msg.GetLogChunk(); c != nil && strings.Contains(c.GetData(), "started") {
			break
		}
	}
	if n := len(testenv.Containers(t, e.rt, e.owner)); n != 1 {
		t.Fatalf("%d containers while the step runs, want 1", n)
	}
	canceled := time.Now()
	cancel()
	testenv.WaitNoContainers(t, e.rt, e.owner, 2*time.Second)
	t.Logf("container gone %s after the cancel", time.Since(canceled).Round(time.Millisecond))
}
