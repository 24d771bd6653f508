package main

import (
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/greenlight-dev/greenlight/pkg/server/servertest"
)

// Sibling service binaries, built once on first use.
var (
	buildOnce    sync.Once
	loopBin      string
	discoveryBin string
	buildErr     error
)

// siblings builds the real loop and discovery binaries from this
// workspace (go.work resolves their modules).
func siblings(t *testing.T) (loop, discovery string) {
	t.Helper()
	buildOnce.Do(func() {
		var cleanup func()
		if loopBin, cleanup, buildErr = servertest.BuildForMain("../../../loop/cmd/greenlight-loop"); buildErr != nil {
			return
		}
		cleanups = append(cleanups, cleanup)
		if discoveryBin, cleanup, buildErr = servertest.BuildForMain("../../../discovery/cmd/greenlight-discovery"); buildErr != nil {
			return
		}
		cleanups = append(cleanups, cleanup)
	})
	if buildErr != nil {
		t.Fatalf("build sibling services: %v", buildErr)
	}
	return loopBin, discoveryBin
}

// cleanups remove built binaries at the end of TestMain.
var cleanups []func()

// deadAddr is an address where nothing listens (a lazily dialed dependency
// that is never called).
const deadAddr = "127.0.0.1:1"

// startLoop runs the real loop binary on dataDir, with discovery and
// executor at the given addresses.
func startLoop(t *testing.T, dataDir, discoveryAddr, executorAddr string) *servertest.Process {
	t.Helper()
	loop, _ := siblings(t)
	return servertest.Start(t, loop, "--data-dir", dataDir, "--discovery-addr", discoveryAddr, "--executor-addr", executorAddr,
		"--prune-every", "0")
}

// httpAddrOf is the report address a gateway process logged.
func httpAddrOf(t *testing.T, p *servertest.Process) string {
	t.Helper()
	for _, line := range strings.Split(p.Logs(), "\n") {
		var entry struct {
			Msg  string `json:"msg"`
			Addr string `json:"addr"`
		}
		if json.Unmarshal([]byte(line), &entry) == nil && entry.Msg == "http serving" {
			return entry.Addr
		}
	}
	t.Fatalf("no \"http serving\" line in the gateway log:\n%s", p.Logs())
	return ""
}

// startDiscovery runs the real discovery binary reading snapshots from the
// loop's blob directory.
func startDiscovery(t *testing.T, blobDir string) *servertest.Process {
	t.Helper()
	_, discovery := siblings(t)
	if err := os.MkdirAll(blobDir, 0o755); err != nil {
		t.Fatal(err)
	}
	return servertest.Start(t, discovery, "--blob-dir", blobDir)
}

// loopbackAddr turns a wildcard listen address ("[::]:1234") into the
// 127.0.0.1 address a client dials.
func loopbackAddr(t *testing.T, addr string) string {
	t.Helper()
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatalf("bad address %q: %v", addr, err)
	}
	return net.JoinHostPort("127.0.0.1", port)
}

// blobDirOf is the loop's blob store directory under its data dir.
func blobDirOf(dataDir string) string { return filepath.Join(dataDir, "blobs") }
