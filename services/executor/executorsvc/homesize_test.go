package executorsvc

import (
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/config"
)

// The home directory, where the tools keep their caches, has its own cap
// (--home-size), apart from /tmp's (--tmpfs): a request's tmpfs_bytes sizes
// /tmp alone, so asking for a larger /tmp never shrinks the caches, and the
// default holds a large Go module cache (spf13/viper's nested module needs
// 1.3 GB of modules and build cache).
func TestHomeSizeIsItsOwnLimit(t *testing.T) {
	cfg := DefaultConfig("")
	fs := config.NewFlagSet("executor")
	cfg.RegisterFlags(fs)
	if err := fs.Parse([]string{"--tmpfs", "512MiB", "--home-size", "3GiB", "--memory", "6GiB"}, nil); err != nil {
		t.Fatal(err)
	}
	sc := cfg.sandboxConfig()
	if sc.Defaults.TmpfsBytes != 512<<20 || sc.Defaults.HomeBytes != 3<<30 {
		t.Errorf("defaults /tmp %d home %d, want 512 MiB and 3 GiB", sc.Defaults.TmpfsBytes, sc.Defaults.HomeBytes)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		tmpfs int64
	}{
		{"server defaults", 0},
		{"a larger /tmp asked", 1 << 30},
		{"a smaller /tmp asked", 64 << 20},
	} {
		t.Run(c.name, func(t *testing.T) {
			// A zero cap takes the server's default (sandbox.Config.resolve).
			lim := toLimits(&glv1.Limits{TmpfsBytes: c.tmpfs}, &glv1.Pipeline{})
			if lim.TmpfsBytes != c.tmpfs || lim.HomeBytes != 0 {
				t.Errorf("/tmp %d home %d, want %d and the server's home", lim.TmpfsBytes, lim.HomeBytes, c.tmpfs)
			}
		})
	}
	if d := DefaultConfig(""); d.HomeSize < 3<<29 {
		t.Errorf("default home %d MiB cannot hold a large Go module and build cache", d.HomeSize>>20)
	}
}
