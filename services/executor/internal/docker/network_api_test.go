package docker

import (
	"context"
	"errors"
	"maps"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
)

// EnsureNetwork creates a bridge network with the options and labels
// asked unless it exists, and reports the labels of the one that exists:
// its own when it created it, the existing one's otherwise, also when
// another executor created it between the inspection and the creation.
func TestEnsureNetwork(t *testing.T) {
	eng, rt := newAPIEngine(t)
	ctx := context.Background()
	opts := map[string]string{"com.docker.network.bridge.name": "gl-e1"}
	mine := map[string]string{"greenlight.egress.instance": "e1"}
	theirs := map[string]string{"greenlight.egress.instance": "e1", "greenlight.pid": "42"}

	// Missing: created.
	eng.fail("GET /networks/fresh", http.StatusNotFound, "network fresh not found")
	eng.reply("POST /networks/create", http.StatusCreated, map[string]string{"Id": "n1"})
	got, err := rt.EnsureNetwork(ctx, "fresh", opts, mine)
	if err != nil || !maps.Equal(got, mine) {
		t.Fatalf("EnsureNetwork(fresh) = %v, %v", got, err)
	}
	var body struct {
		Name, Driver    string
		Options, Labels map[string]string
	}
	decode(t, eng.requests(http.MethodPost, "/networks/create")[0], &body)
	if body.Name != "fresh" || body.Driver != "bridge" || !maps.Equal(body.Options, opts) || !maps.Equal(body.Labels, mine) {
		t.Errorf("network create sent %+v", body)
	}

	// Existing: its labels, nothing created.
	eng.reply("GET /networks/there", http.StatusOK, map[string]any{"Name": "there", "Labels": theirs})
	if got, err := rt.EnsureNetwork(ctx, "there", opts, mine); err != nil || !maps.Equal(got, theirs) {
		t.Errorf("EnsureNetwork(there) = %v, %v; want the existing labels", got, err)
	}
	if n := len(eng.requests(http.MethodPost, "/networks/create")); n != 1 {
		t.Errorf("an existing network was created again (%d creates)", n)
	}

	// Created meanwhile: the winner's labels.
	var inspections atomic.Int32
	eng.handle("GET /networks/raced", func(w http.ResponseWriter, _ *http.Request) {
		if inspections.Add(1) == 1 {
			apiError(w, http.StatusNotFound, "network raced not found")
			return
		}
		apiJSON(w, http.StatusOK, map[string]any{"Name": "raced", "Labels": theirs})
	})
	eng.handle("POST /networks/create", func(w http.ResponseWriter, _ *http.Request) {
		apiError(w, http.StatusConflict, "network with name raced already exists")
	})
	if got, err := rt.EnsureNetwork(ctx, "raced", opts, mine); err != nil || !maps.Equal(got, theirs) {
		t.Errorf("EnsureNetwork(raced) = %v, %v; want the winner's labels", got, err)
	}
}

// RemoveNetwork ignores a missing network; NetworkLabels lists the
// networks carrying a label; NetworkGateway reports the first IPv4
// gateway and says when there is none.
func TestNetworkCalls(t *testing.T) {
	eng, rt := newAPIEngine(t)
	ctx := context.Background()
	eng.fail("DELETE /networks/gone", http.StatusNotFound, "network gone not found")
	eng.fail("DELETE /networks/busy", http.StatusForbidden, "error while removing network: network busy has active endpoints")
	if err := rt.RemoveNetwork(ctx, "gone"); err != nil {
		t.Errorf("removing a missing network: %v", err)
	}
	if err := rt.RemoveNetwork(ctx, "busy"); err == nil || !strings.Contains(err.Error(), "active endpoints") {
		t.Errorf("removing a network in use: %v", err)
	}

	eng.reply("GET /networks", http.StatusOK, []map[string]any{
		{"Name": "a", "Labels": map[string]string{"greenlight.egress.instance": "e1"}},
		{"Name": "b", "Labels": map[string]string{"greenlight.egress.instance": "e2"}},
	})
	labels, err := rt.NetworkLabels(ctx, "greenlight.egress.instance")
	if err != nil || len(labels) != 2 || labels[1]["greenlight.egress.instance"] != "e2" {
		t.Errorf("NetworkLabels = %v, %v", labels, err)
	}
	if q := eng.requests(http.MethodGet, "/networks")[0].Query.Get("filters"); !contains(q, `"label"`, `"greenlight.egress.instance"`) {
		t.Errorf("network list filters %q", q)
	}

	eng.reply("GET /networks/egress", http.StatusOK, map[string]any{"Name": "egress",
		"IPAM": map[string]any{"Config": []map[string]string{{"Subnet": "fd00::/64"}, {"Subnet": "172.30.0.0/16", "Gateway": "172.30.0.1"}}}})
	eng.reply("GET /networks/nogw", http.StatusOK, map[string]any{"Name": "nogw", "IPAM": map[string]any{"Config": []any{}}})
	eng.fail("GET /networks/missing", http.StatusNotFound, "network missing not found")
	if gw, err := rt.NetworkGateway(ctx, "egress"); err != nil || gw != "172.30.0.1" {
		t.Errorf("NetworkGateway = %q, %v", gw, err)
	}
	if _, err := rt.NetworkGateway(ctx, "nogw"); err == nil || !strings.Contains(err.Error(), "has no gateway") {
		t.Errorf("a network without gateway: %v", err)
	}
	if _, err := rt.NetworkGateway(ctx, "missing"); !errors.Is(err, sandbox.ErrContainerNotFound) {
		t.Errorf("a missing network: %v", err)
	}
}
