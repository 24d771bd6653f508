package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestMonorepoSubdirPathsAreRepositoryRooted: `verify --format github
// SUBDIR` and `show --format sarif` of a project inside a git monorepo
// name the failing test's file from the repository's root
// (svc/temperature/tests/…), which is what GitHub resolves annotations and
// code-scanning locations against; run from the repository root as the
// Action does, and from inside the subdirectory.
func TestMonorepoSubdirPathsAreRepositoryRooted(t *testing.T) {
	requireDocker(t)
	repo := t.TempDir()
	sub := filepath.Join(repo, "svc", "temperature")
	copyDir(t, examples("fail"), sub)
	if err := os.WriteFile(filepath.Join(repo, "README.md"), []byte("monorepo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-q", "-m", "init"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	u := newUser(t)
	annotation := regexp.MustCompile(`(?m)^::error file=svc/temperature/tests/test_temperature\.py,line=17,`)
	for _, where := range []struct{ cwd, arg string }{{repo, "svc/temperature"}, {sub, "."}} {
		r := u.runIn(where.cwd, "verify", "-q", "--format", "github", where.arg)
		r.wantExit(t, 1, "verify --format github "+where.arg)
		if !annotation.MatchString(r.stdout) {
			t.Errorf("from %s, verify %s: annotations do not name the repository-root path:\n%s", where.cwd, where.arg, r.stdout)
		}
	}
	id := runIDPattern.FindString(u.run(nil, "runs", "--limit", "1").stdout)
	sarif := u.run(nil, "show", "--format", "sarif", id)
	var log struct {
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
	if err := json.Unmarshal([]byte(sarif.stdout), &log); err != nil || len(log.Runs) != 1 || len(log.Runs[0].Results) == 0 {
		t.Fatalf("show --format sarif: %v\n%s", err, sarif.stdout)
	}
	for _, r := range log.Runs[0].Results {
		for _, l := range r.Locations {
			if u := l.PhysicalLocation.ArtifactLocation.URI; !strings.HasPrefix(u, "svc/temperature/") {
				t.Errorf("SARIF location %q is not repository-rooted", u)
			}
		}
	}
}
