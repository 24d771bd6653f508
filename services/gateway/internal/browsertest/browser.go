// Package browsertest drives headless Chromium from Go tests (chromedp) to
// check the report pages the way a person sees them.
//
// Browser tests run only when GREENLIGHT_INTEGRATION is set (make test sets
// it); then a missing Chromium fails the test instead of skipping it.
// Install it with `apt-get install -y chromium` (Debian's package; the
// Makefile's browser target does it). GREENLIGHT_CHROMIUM overrides the
// binary's path.
package browsertest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// IntegrationEnv gates the browser tests.
const IntegrationEnv = "GREENLIGHT_INTEGRATION"

// ArtifactsEnv names a directory for screenshots (CI uploads it); without
// it they go to testdata/out/ next to the test, which git ignores.
const ArtifactsEnv = "GREENLIGHT_ARTIFACTS"

// chromiumPath finds the browser: GREENLIGHT_CHROMIUM, else chromium on PATH.
func chromiumPath(t testing.TB) string {
	if p := os.Getenv("GREENLIGHT_CHROMIUM"); p != "" {
		return p
	}
	p, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatalf("chromium not found (%v): install it with `apt-get install -y chromium` or `make browser`", err)
	}
	return p
}

// New starts a headless Chromium for the test and returns a browser
// context bounded by timeout; everything is torn down at cleanup. It skips
// the test unless GREENLIGHT_INTEGRATION is set.
func New(t testing.TB, timeout time.Duration) context.Context {
	t.Helper()
	if os.Getenv(IntegrationEnv) == "" {
		t.Skipf("browser test: set %s=1 to run it (needs Debian's chromium package)", IntegrationEnv)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromiumPath(t)),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
		// Without these Chromium keeps calling home, which on a closed
		// network floods it with failing requests and slows every test.
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-default-apps", true),
		chromedp.Flag("no-default-browser-check", true),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	browserCtx, cancelBrowser := chromedp.NewContext(allocCtx, chromedp.WithLogf(t.Logf))
	// The first action starts the browser, which lives as long as the
	// context of that call: it must not carry the test's timeout.
	if err := chromedp.Do(browserCtx); err != nil {
		cancelBrowser()
		cancelAlloc()
		t.Fatalf("start chromium: %v", err)
	}
	ctx, cancelTimeout := context.WithTimeout(browserCtx, timeout)
	t.Cleanup(func() {
		cancelTimeout()
		cancelBrowser()
		cancelAlloc()
	})
	return ctx
}

// Navigate loads url and waits for the page to load.
func Navigate(t testing.TB, ctx context.Context, url string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("navigate to %s: %v", url, err)
	}
}

// Eval evaluates a JavaScript expression in the page and decodes its value.
func Eval[T any](t testing.TB, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// WaitFor waits until the JavaScript predicate is truthy, failing the test
// after timeout with what in the message.
func WaitFor(t testing.TB, ctx context.Context, predicate, what string, timeout time.Duration) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](predicate, chromedp.WithPollingTimeout(timeout))); err != nil {
		t.Fatalf("waiting for %s (%s): %v", what, predicate, err)
	}
}

// Screenshot saves a full-page PNG of the current page as name (e.g.
// "report-pass.png") and logs where it went.
func Screenshot(t testing.TB, ctx context.Context, name string) string {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	dir := filepath.Join("testdata", "out")
	if a := os.Getenv(ArtifactsEnv); a != "" {
		dir = filepath.Join(a, "gateway-browser")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path, err := filepath.Abs(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
	return path
}
