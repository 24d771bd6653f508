package plan

import (
	"strings"
	"testing"
)

// TestNestedPackageWithItsOwnInstallIsItsOwnScope: node-lru-cache's shape,
// a benchmark package in scripts/ with its own lockfile and a native
// dependency whose install fails offline; the root's tests must still run.
// A nested package without an install of its own shares the root's scope.
func TestNestedPackageWithItsOwnInstallIsItsOwnScope(t *testing.T) {
	root := `{"name":"lru","version":"1.0.0","scripts":{"test":"node --test"},"devDependencies":{"tap":"1"}}`
	nested := `{"name":"bench","private":true,"scripts":{"test":"node bench.js"},"dependencies":{"heapdump":"0.3.15"}}`
	_, p := planTree(t, map[string]string{
		"package.json": root, "package-lock.json": "{}", "test/a.test.js": "",
		"scripts/package.json": nested, "scripts/package-lock.json": "{}",
	})
	lines := stepLines(p)
	var rootTest, nestedInstall string
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "npm-test:"):
			rootTest = l
		case strings.HasPrefix(l, "scripts:npm-install:") || strings.HasPrefix(l, "scripts:npm-ci:"):
			nestedInstall = l
		}
	}
	if !strings.HasSuffix(rootTest, "[.]") || !strings.HasSuffix(nestedInstall, "[scripts]") {
		t.Fatalf("scopes: root test %q, nested install %q (all %q)", rootTest, nestedInstall, lines)
	}
}
