package sandbox

import "testing"

// A cache path the snapshot holds, directly or through a link on the way
// to it, disables the cache; install-deciding files are hashed when they
// lie in the workdir's tree or directly in one of its ancestors.
func TestCacheScanObserve(t *testing.T) {
	rn := &run{req: Request{Steps: []Step{{Name: "i", Install: true, Workdir: "svc",
		CacheKeyFiles: []string{"svc/req/base.txt"}, CachePaths: []string{".venv", "node_modules"}}}}}
	cases := []struct {
		name       string
		link       bool
		hash, held bool
	}{
		{"svc/.venv/lib/python3.11/site-packages/evil.pth", false, false, true},
		{"svc/.venv", true, false, true},
		{"svc", true, false, true}, // the workdir itself is a link
		{"svc/.venvx/a", false, false, false},
		{"svc/req/base.txt", false, true, false}, // listed by discovery
		{"svc/setup.cfg", false, true, false},
		{"svc/a/b/pom.xml", false, true, false},
		{"svc/gradle/libs.versions.toml", false, true, false},
		{"svc/requirements/dev.txt", false, true, false},
		{"package.json", false, true, false}, // an ancestor's manifest
		{".npmrc", false, true, false},
		{"web/package.json", false, false, false}, // another subproject
		{"svc/app.py", false, false, false},
	}
	for _, c := range cases {
		sc := rn.newCacheScan()
		if got := sc.observe(c.name, c.link); got != c.hash {
			t.Errorf("%s: hashed=%v, want %v", c.name, got, c.hash)
		}
		if got := len(sc.held) > 0; got != c.held {
			t.Errorf("%s: held=%v, want %v", c.name, got, c.held)
		}
	}
}
