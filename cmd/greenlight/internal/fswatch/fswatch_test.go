package fswatch

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func write(t *testing.T, dir, rel, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestNextReportsWhatAPackTakes changes files a pack takes and files it
// leaves out (.git, node_modules, a .gitignore'd directory, one created
// after the watch started) and checks the batches name only the former,
// including a file in a directory created after the watch started.
func TestNextReportsWhatAPackTakes(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, ".gitignore", "build-out/\n")
	write(t, dir, "src/a.go", "package a\n")
	write(t, dir, ".git/HEAD", "ref: refs/heads/main\n")
	write(t, dir, "node_modules/dep/index.js", "x")
	w, err := New(dir, 50*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()

	write(t, dir, ".git/index", "changed by git")
	write(t, dir, "node_modules/dep/index.js", "y")
	write(t, dir, "build-out/app", "ignored directory created after the watch started")
	write(t, dir, "src/a.go", "package a // edited\n")
	if err := os.Mkdir(filepath.Join(dir, "pkg"), 0o755); err != nil {
		t.Fatal(err)
	}
	// The new directory's watch is added when its Create is read: wait
	// for that batch before writing into it.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var seen []string
	for !slices.Contains(seen, "pkg") {
		batch, err := w.Next(ctx)
		if err != nil {
			t.Fatalf("Next: %v (seen %v)", err, seen)
		}
		seen = append(seen, batch...)
	}
	write(t, dir, "pkg/b.go", "package pkg\n")
	for !slices.Contains(seen, "pkg/b.go") {
		batch, err := w.Next(ctx)
		if err != nil {
			t.Fatalf("Next: %v (seen %v)", err, seen)
		}
		seen = append(seen, batch...)
	}
	if !slices.Contains(seen, "src/a.go") {
		t.Errorf("the edit of src/a.go was not reported: %v", seen)
	}
	for _, p := range seen {
		if strings.HasPrefix(p, ".git") && p != ".gitignore" || strings.HasPrefix(p, "node_modules") || strings.HasPrefix(p, "build-out") {
			t.Errorf("reported %q, which a pack leaves out (all: %v)", p, seen)
		}
	}
}

// TestNextEndsWithItsContext: Ctrl-C (the command's context) ends a wait.
func TestNextEndsWithItsContext(t *testing.T) {
	w, err := New(t.TempDir(), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := w.Next(ctx); err != context.Canceled {
		t.Fatalf("Next = %v, want context.Canceled", err)
	}
}
