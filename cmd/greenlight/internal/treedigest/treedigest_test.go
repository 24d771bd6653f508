package treedigest

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
	digest := func() string {
		d, err := Of(dir)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	seen := map[string]string{digest(): "start"}
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
		d := digest()
		if prev, ok := seen[d]; ok {
			t.Errorf("after %s the digest equals the one after %s", c.name, prev)
		}
		seen[d] = c.name
	}
	if _, err := Of(filepath.Join(dir, "missing")); err == nil {
		t.Error("a missing directory digested without error")
	}
}
