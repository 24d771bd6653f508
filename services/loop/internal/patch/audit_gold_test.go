package patch

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/greenlight-dev/greenlight/pkg/workspace"
)

// TestAuditPassesRealGoldPatches applies the gold patches of the real
// repair tasks (docs/realworld-tasks.txt: fix commits of pflag,
// BurntSushi/toml, gorilla/mux, more-itertools, tomli, cachetools, six)
// to their real workspaces with the default guardrails: an honest fix
// must never be refused as suspicious. The suite is built outside the
// tree (their code is not ours to commit):
//
//	scripts/swe-tasks.sh /work/corpus /tmp/swe
//	GREENLIGHT_GOLD_SUITE=/tmp/swe/gold go test -run TestAuditPassesRealGoldPatches ./internal/patch/
func TestAuditPassesRealGoldPatches(t *testing.T) {
	suite := os.Getenv("GREENLIGHT_GOLD_SUITE")
	if suite == "" {
		t.Skip("GREENLIGHT_GOLD_SUITE is not set (a directory built by scripts/swe-tasks.sh, e.g. OUT/gold)")
	}
	tasks, err := filepath.Glob(filepath.Join(suite, "*", "gold.diff"))
	must(t, err)
	if len(tasks) == 0 {
		t.Fatalf("no */gold.diff under %s", suite)
	}
	applied := 0
	for _, diff := range tasks {
		dir := filepath.Dir(diff)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			text, err := os.ReadFile(diff)
			must(t, err)
			var snap bytes.Buffer
			if _, err := workspace.Pack(context.Background(), filepath.Join(dir, "repo"), &snap, workspace.PackOptions{NoGit: true}); err != nil {
				t.Fatalf("pack: %v", err)
			}
			p, err := Parse(string(text))
			must(t, err)
			res, err := Apply(context.Background(), &snap, p, Options{Guardrails: Guardrails{MaxChangedLines: -1}, TempDir: t.TempDir()})
			var r *Refusal
			if errors.As(err, &r) {
				t.Fatalf("gold patch refused: %v", err)
			}
			must(t, err)
			res.Close()
			applied++
		})
	}
	t.Logf("%d of %d gold patches applied, none refused", applied, len(tasks))
}
