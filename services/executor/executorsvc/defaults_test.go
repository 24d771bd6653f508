package executorsvc

import (
	"testing"

	"github.com/greenlight-dev/greenlight/pkg/image"
)

// TestDefaultTableHasEveryOfflineImage: discovery plans every runtime of
// image.Defaults() with its offline image by default, and the executor
// refuses a pipeline image outside its table and allow-list, so the default
// table must hold them all (a Rust plan would otherwise be PermissionDenied).
func TestDefaultTableHasEveryOfflineImage(t *testing.T) {
	cfg := DefaultConfig(t.TempDir())
	table, err := cfg.imageTable()
	if err != nil {
		t.Fatal(err)
	}
	allowed := cfg.allowList()
	for rt, ref := range image.Defaults() {
		if table[rt] != ref {
			t.Errorf("default images[%s] = %q, want %q", rt, table[rt], ref)
		}
		if !allowed.Allows(ref) {
			t.Errorf("%s is not allowed by default", ref)
		}
	}
}
