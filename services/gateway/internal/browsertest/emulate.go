package browsertest

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// Screen is how the page is shown: viewport size and colour scheme.
type Screen struct {
	Name          string // for file names: "desktop", "phone"
	Width, Height int64
	Dark          bool
}

// Screens are the sizes every report page is checked at: a laptop and a
// 390 px wide phone, each light and dark.
var Screens = []Screen{
	{Name: "1280-light", Width: 1280, Height: 900},
	{Name: "1280-dark", Width: 1280, Height: 900, Dark: true},
	{Name: "390-light", Width: 390, Height: 844},
	{Name: "390-dark", Width: 390, Height: 844, Dark: true},
}

// Emulate sets the viewport (a phone below 500 px: mobile emulation) and
// prefers-color-scheme.
func Emulate(t testing.TB, ctx context.Context, s Screen) {
	t.Helper()
	scheme := "light"
	if s.Dark {
		scheme = "dark"
	}
	opts := []chromedp.EmulateViewportOption{chromedp.EmulatePortrait}
	if s.Width < 500 {
		opts = append(opts, chromedp.EmulateMobile, chromedp.EmulateTouch)
	}
	err := chromedp.Do(ctx,
		chromedp.EmulateViewport(s.Width, s.Height, opts...),
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
			})
			return err
		}))
	if err != nil {
		t.Fatalf("emulate %s: %v", s.Name, err)
	}
}

var (
	shotsOnce sync.Once
	shotsDir  string
	shotsErr  error
)

// ScreenshotsDir is $GREENLIGHT_ARTIFACTS/screenshots, or a temporary
// directory that outlives the test (its path is logged) when the variable
// is not set.
func ScreenshotsDir(t testing.TB) string {
	t.Helper()
	shotsOnce.Do(func() {
		if a := os.Getenv(ArtifactsEnv); a != "" {
			shotsDir = filepath.Join(a, "screenshots")
			shotsErr = os.MkdirAll(shotsDir, 0o755)
			return
		}
		shotsDir, shotsErr = os.MkdirTemp("", "greenlight-screenshots-")
	})
	if shotsErr != nil {
		t.Fatalf("screenshots directory: %v", shotsErr)
	}
	return shotsDir
}

// Shot saves a full-page PNG of the current page as
// ScreenshotsDir/name.png and returns its path.
func Shot(t testing.TB, ctx context.Context, name string) string {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	path, err := filepath.Abs(filepath.Join(ScreenshotsDir(t), name+".png"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
	return path
}
