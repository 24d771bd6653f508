package cireport

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// update rewrites the golden files: go test ./cireport/ -update
var update = flag.Bool("update", false, "rewrite testdata/*.golden with the current output")

// goldenOptions are the options the golden files were written with.
func goldenOptions(id string) Options {
	return Options{Version: "1.2.3", ReportURL: "http://127.0.0.1:7080/runs/" + id}
}

func TestGolden(t *testing.T) {
	for name, run := range fixtures() {
		for _, f := range Formats() {
			t.Run(name+"/"+string(f), func(t *testing.T) {
				var buf bytes.Buffer
				if err := Write(&buf, f, run, goldenOptions(run.GetId())); err != nil {
					t.Fatal(err)
				}
				path := filepath.Join("testdata", name+"."+string(f)+".golden")
				if *update {
					if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (run go test ./cireport/ -update to create it)", err)
				}
				if !bytes.Equal(buf.Bytes(), want) {
					t.Errorf("%s differs from %s (go test ./cireport/ -update rewrites it):\n%s", f, path, buf.String())
				}
			})
		}
	}
}
