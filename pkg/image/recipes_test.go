package image

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// imagesDir is the repository's images/ directory, where build.sh and one
// recipe per offline image live.
const imagesDir = "../../images"

// TestRecipesMatchDefaults keeps the Go table and the builder in step: every
// offline default has a recipe named after its runtime, and build.sh's `all`
// builds exactly those, so `make images IMAGES=<runtime>` (BuildCommand)
// builds the image the table names.
func TestRecipesMatchDefaults(t *testing.T) {
	script, err := os.ReadFile(filepath.Join(imagesDir, "build.sh"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^ALL_IMAGES=\(([^)]*)\)$`).FindSubmatch(script)
	if m == nil {
		t.Fatal("build.sh has no ALL_IMAGES=(...) line")
	}
	all := strings.Fields(string(m[1]))
	slices.Sort(all)
	if want := Defaults().Runtimes(); !slices.Equal(all, want) {
		t.Errorf("build.sh builds %v, pkg/image's Defaults() names %v", all, want)
	}
	for _, rt := range Defaults().Runtimes() {
		for _, f := range []string{"packages", "changes", "check"} {
			if _, err := os.Stat(filepath.Join(imagesDir, rt, f)); err != nil {
				t.Errorf("recipe of %s (%s): %v", rt, Defaults()[rt], err)
			}
		}
	}
}

// TestBuildScriptRefusesUnknownImages checks build.sh's argument handling
// (which runs before anything needs root or an engine): an unknown name,
// alone or in a comma-separated list, is refused with the known names.
func TestBuildScriptRefusesUnknownImages(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	for _, arg := range []string{"haskell", "go,haskell", "rust haskell"} {
		cmd := exec.Command("bash", append([]string{filepath.Join(imagesDir, "build.sh")}, strings.Fields(arg)...)...)
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), "unknown image 'haskell' (want: generic cpp rust java python go node or all)") {
			t.Errorf("build.sh %s: %v\n%s", arg, err, out)
		}
	}
}
