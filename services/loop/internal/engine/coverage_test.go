package engine

import (
	"io/fs"
	"testing"
	"testing/fstest"
)

// inTree keeps the snapshot's regular files only: gcov also names what the
// build generated (build directories are not in the snapshot).
func TestInTree(t *testing.T) {
	if inTree(nil) != nil {
		t.Fatal("no tree: want nil (keep every path)")
	}
	keep := inTree(fstest.MapFS{
		"src/a.c":       {Data: []byte("int a;\n")},
		"include/x.h":   {Data: []byte("\n")},
		"include/dir.h": {Mode: fs.ModeDir | 0o755}, // a directory named like a header
	})
	tests := []struct {
		path string
		want bool
	}{
		{"src/a.c", true},
		{"include/x.h", true},
		{"include/dir.h", false},
		{".greenlight-build/include/jansson.h", false},
		{"src/a.c", true}, // asked again: same answer
	}
	for _, tt := range tests {
		if got := keep(tt.path); got != tt.want {
			t.Errorf("inTree(%q) = %v, want %v", tt.path, got, tt.want)
		}
	}
}
