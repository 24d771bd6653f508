package dirtest

import (
	"os"
	"path/filepath"
	"testing"
)

func TestOfSeesEveryKindOfChange(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a", "one")
	now := func() string {
		return Digest(t, dir)
	}
	seen := map[string]string{now(): "start"}
	changes := []struct {
		name string
		do   func()
	}{
		{"content", func() { write("a", "two") }},
		{"new file", func() { write("b", "") }},
		{"mode", func() { _ = os.Chmod(filepath.Join(dir, "b"), 0o600) }},
		{"directory", func() { _ = os.Mkdir(filepath.Join(dir, "d"), 0o755) }},
		{"removal", func() { _ = os.Remove(filepath.Join(dir, "b")) }},
	}
	for _, c := range changes {
		c.do()
		d := now()
		if prev, ok := seen[d]; ok {
			t.Errorf("after %s the digest equals the one after %s", c.name, prev)
		}
		seen[d] = c.name
	}
	if _, err := digest(filepath.Join(dir, "missing")); err == nil {
		t.Error("a missing directory digested without error")
	}
}
