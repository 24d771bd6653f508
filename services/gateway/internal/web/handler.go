package web

import (
	"bytes"
	"context"
	"embed"
	"html/template"
	"io/fs"
	"net/http"

	"go.uber.org/zap"
	"google.golang.org/grpc"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

//go:embed templates/*.html
var templateFiles embed.FS

//go:embed static
var staticFiles embed.FS

// Runs reads runs (the loop's RunServiceClient is one).
type Runs interface {
	GetRun(ctx context.Context, in *glv1.GetRunRequest, opts ...grpc.CallOption) (*glv1.GetRunResponse, error)
	ListRuns(ctx context.Context, in *glv1.ListRunsRequest, opts ...grpc.CallOption) (*glv1.ListRunsResponse, error)
}

// Blobs reads blobs (the loop's BlobServiceClient is one).
type Blobs interface {
	Read(ctx context.Context, in *glv1.ReadRequest, opts ...grpc.CallOption) (grpc.ServerStreamingClient[glv1.ReadResponse], error)
}

// Watcher follows a run's events (the gateway's fan-out hub is one).
type Watcher interface {
	Watch(ctx context.Context, runID string, after uint64, send func(*glv1.RunEvent) error) error
}

// Deps are what the pages read from.
type Deps struct {
	Runs  Runs
	Blobs Blobs
	Watch Watcher
	Log   *zap.Logger
	// Upstream, when set, derives the context of calls to Runs and Blobs
	// from a request's (request id and the like).
	Upstream func(context.Context) context.Context
}

// HealthPath is the one route served without authentication.
const HealthPath = "/healthz"

// handler serves the pages.
type handler struct {
	Deps
	index, report, errPage, code, logPage *template.Template
	// replays caches finished fix runs' verifications (rounds.go).
	replays replayCache
}

// New returns the HTTP handler of the report pages (without auth: wrap it).
func New(d Deps) http.Handler {
	if d.Log == nil {
		d.Log = zap.NewNop()
	}
	if d.Upstream == nil {
		d.Upstream = func(ctx context.Context) context.Context { return ctx }
	}
	h := &handler{Deps: d, index: page("index.html"), report: page("report.html"), errPage: page("error.html"),
		code: page("code.html"), logPage: page("log.html")}
	static, err := fs.Sub(staticFiles, "static")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", h.serveIndex)
	mux.HandleFunc("GET /runs/{id}", h.serveReport)
	mux.HandleFunc("GET /runs/{id}/summary", h.serveSummary)
	mux.HandleFunc("GET /runs/{id}/events", h.serveEvents)
	mux.HandleFunc("GET /fragments/runs", h.serveRunsFragment)
	mux.HandleFunc("GET /runs/{id}/logs/{step}", h.serveLog)
	mux.HandleFunc("GET /runs/{id}/logs/{step}/raw", h.serveRawLog)
	mux.HandleFunc("GET /runs/{id}/code/{path...}", h.serveCode)
	mux.HandleFunc("GET /runs/{id}/result.json", h.serveResult)
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	mux.HandleFunc("GET "+HealthPath, func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("ok\n")) })
	mux.HandleFunc("/", h.serveNotFound)
	return secureHeaders(mux)
}

// page parses the layout and the shared parts with one page's templates.
func page(name string) *template.Template {
	return template.Must(template.New(name).ParseFS(templateFiles, "templates/layout.html", "templates/parts.html", "templates/"+name))
}

// layoutData is what the layout template gets.
type layoutData struct {
	Title string
	Body  any
}

// render executes tmpl's template named name into a buffer first, so that
// a failing template never sends half a page with a 200.
func (h *handler) render(w http.ResponseWriter, code int, tmpl *template.Template, name string, data any) {
	var buf bytes.Buffer
	if err := tmpl.ExecuteTemplate(&buf, name, data); err != nil {
		h.Log.Error("render page", zap.String("template", name), zap.Error(err))
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	_, _ = w.Write(buf.Bytes())
}

// errorView is the error page's content.
type errorView struct{ Title, Message string }

func (h *handler) renderError(w http.ResponseWriter, code int, title, msg string) {
	h.render(w, code, h.errPage, "layout", layoutData{Title: title, Body: errorView{Title: title, Message: msg}})
}

func (h *handler) serveNotFound(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed: these pages are read-only", http.StatusMethodNotAllowed)
		return
	}
	h.renderError(w, http.StatusNotFound, "Page not found", "There is nothing at this address.")
}

// contentSecurityPolicy allows the page's own script and style only: no
// inline script, nothing from elsewhere, no framing.
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; " +
	"img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

func secureHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", contentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "no-store")
		next.ServeHTTP(w, r)
	})
}
