package cireport

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRepoPrefix(t *testing.T) {
	repo := t.TempDir()
	for _, d := range []string{".git", "services/api/internal", "tools"} {
		if err := os.MkdirAll(filepath.Join(repo, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A worktree or submodule has a .git file.
	sub := filepath.Join(repo, "vendor", "lib")
	if err := os.MkdirAll(filepath.Join(sub, "pkg"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sub, ".git"), []byte("gitdir: ../../.git/modules/lib\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	plain := t.TempDir() // no repository at all
	if err := os.MkdirAll(filepath.Join(plain, "ws", "svc"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := func(ws string) func(string) string {
		return func(k string) string {
			if k == "GITHUB_WORKSPACE" {
				return ws
			}
			return ""
		}
	}
	tests := []struct {
		name, dir string
		getenv    func(string) string
		want      string
	}{
		{"the root", repo, nil, ""},
		{"a subdirectory", filepath.Join(repo, "services", "api"), nil, "services/api"},
		{"a deeper one", filepath.Join(repo, "services", "api", "internal"), nil, "services/api/internal"},
		{"in a submodule", filepath.Join(sub, "pkg"), nil, "pkg"},
		{"no repository", filepath.Join(plain, "ws", "svc"), nil, ""},
		{"no repository, in GITHUB_WORKSPACE", filepath.Join(plain, "ws", "svc"), env(filepath.Join(plain, "ws")), "svc"},
		{"outside GITHUB_WORKSPACE", filepath.Join(plain, "ws"), env(filepath.Join(plain, "ws", "svc")), ""},
		{"no directory", "", nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := RepoPrefix(tc.dir, tc.getenv); got != tc.want {
				t.Errorf("RepoPrefix(%s) = %q, want %q", tc.dir, got, tc.want)
			}
		})
	}
	// A relative directory is taken from the working directory.
	t.Chdir(repo)
	if got := RepoPrefix("services/api", nil); got != "services/api" {
		t.Errorf("RepoPrefix of a relative directory = %q", got)
	}
}

// With a prefix (verify SUBDIR in a monorepo), GitHub annotations, SARIF
// locations, JUnit and CTRF files name repository-root paths; absolute
// and runtime paths are left alone; the run is not changed.
func TestPathPrefixReachesEveryFormat(t *testing.T) {
	run := failRun()
	before := run.GetResult().GetFailures()[0].GetFile()
	opts := Options{PathPrefix: "services/shop"}
	render := func(f Format) string {
		var b bytes.Buffer
		if err := Write(&b, f, run, opts); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	gh := parseCommands(t, render(GitHub))
	files := 0
	for _, c := range gh {
		if f, ok := c.props["file"]; ok {
			files++
			if !strings.HasPrefix(f, "services/shop/") {
				t.Errorf("annotation file=%q is not under the prefix", f)
			}
		}
	}
	if files == 0 {
		t.Fatal("no annotation has a file")
	}
	var sarif struct {
		Runs []struct {
			Results []struct {
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string } `json:"artifactLocation"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(render(SARIF)), &sarif); err != nil {
		t.Fatal(err)
	}
	uris := 0
	for _, r := range sarif.Runs[0].Results {
		for _, l := range r.Locations {
			uris++
			if u := l.PhysicalLocation.ArtifactLocation.URI; !strings.HasPrefix(u, "services/shop/") {
				t.Errorf("SARIF location %q is not under the prefix", u)
			}
		}
	}
	if uris == 0 {
		t.Fatal("no SARIF location")
	}
	if j := render(JUnit); !strings.Contains(j, `file="services/shop/`) || strings.Contains(j, `file="cart/`) {
		t.Errorf("JUnit files are not under the prefix")
	}
	if c := render(CTRF); !strings.Contains(c, `"filePath": "services/shop/`) {
		t.Errorf("CTRF files are not under the prefix")
	}
	if run.GetResult().GetFailures()[0].GetFile() != before {
		t.Errorf("Write changed the run it was given")
	}
	for in, want := range map[string]string{
		"cart/cart.go": "services/shop/cart/cart.go", "../lib/x.py": "services/lib/x.py", "/usr/lib/go/x.go": "/usr/lib/go/x.go",
		"<frozen importlib._bootstrap>": "<frozen importlib._bootstrap>", "node:internal/process": "node:internal/process", "": "",
	} {
		if got := underPrefix("services/shop", in); got != want {
			t.Errorf("underPrefix(%q) = %q, want %q", in, got, want)
		}
	}
}
