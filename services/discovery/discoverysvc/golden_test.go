package discoverysvc

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/services/discovery/internal/capability"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/detect"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/plan"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/snapshot"
)

var update = flag.Bool("update", false, "rewrite testdata/golden/*.json from the current output")

const reposDir = "../testdata/repos"

// fixtures lists the fixture repositories.
func fixtures(t testing.TB) []string {
	t.Helper()
	entries, err := os.ReadDir(reposDir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	if len(names) < 16 {
		t.Fatalf("found %d fixtures, want at least 16", len(names))
	}
	return names
}

// discoverDir runs the whole domain path on a fixture directory.
func discoverDir(t testing.TB, dir string, opts capability.Options) *capability.Capabilities {
	t.Helper()
	ix, err := snapshot.FromFS(os.DirFS(dir), detect.WantContent, snapshot.Limits{})
	if err != nil {
		t.Fatalf("index %s: %v", dir, err)
	}
	caps, err := capability.Build(ix, opts)
	if err != nil {
		t.Fatalf("discover %s: %v", dir, err)
	}
	return caps
}

// golden is the reviewed shape of one fixture: its capabilities, the
// default plan (tier0 only) and the plan at a run's last milestone (all
// tiers).
func golden(t *testing.T, name string) []byte {
	caps := discoverDir(t, filepath.Join(reposDir, name), capability.Options{})
	def, err := plan.Make(caps, plan.Request{})
	if err != nil {
		t.Fatalf("plan: %v", err)
	}
	last, err := plan.Make(caps, plan.Request{MilestoneEnd: true, RunEnd: true})
	if err != nil {
		t.Fatalf("plan: %v", err)
	}
	doc := map[string]json.RawMessage{}
	for key, render := range map[string]func() ([]byte, error){
		"capabilities":  func() ([]byte, error) { return CapabilitiesJSON(capabilitiesProto(caps)) },
		"plan_default":  func() ([]byte, error) { return StableJSON(pipelineProto(def)) },
		"plan_last_run": func() ([]byte, error) { return StableJSON(pipelineProto(last)) },
	} {
		b, err := render()
		if err != nil {
			t.Fatal(err)
		}
		doc[key] = b
	}
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(out, '\n')
}

// TestGolden compares every fixture's capabilities and plans with the
// reviewed files in testdata/golden (regenerate with -update and review the
// diff).
func TestGolden(t *testing.T) {
	for _, name := range fixtures(t) {
		t.Run(name, func(t *testing.T) {
			got := golden(t, name)
			file := filepath.Join("..", "testdata", "golden", name+".json")
			if *update {
				if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(file, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (run go test -run TestGolden -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from the golden file; run with -update and review the diff\n%s", name, firstDiff(string(want), string(got)))
			}
		})
	}
}

// firstDiff shows the first differing line.
func firstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return "line " + strconv.Itoa(i+1) + ":\n  want: " + w + "\n  got:  " + g
		}
	}
	return ""
}
