package plan

import (
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/pkg/image"
)

// TestCIRunBlockIsReplayedWholeWhereItsToolsExist plans a C project whose
// only test is its CI's run: block (inih's shape): the block runs whole,
// as CI runs it, so its last line (git diff --exit-code against the
// regenerated baselines) is kept; as the block alone, since the executor's
// workspace is already a repository of the snapshot (see the executor's
// checkout); and in the C/C++ image, since its script compiles through $CC.
func TestCIRunBlockIsReplayedWholeWhereItsToolsExist(t *testing.T) {
	workflow := "name: Tests\non: [push]\njobs:\n  build-linux:\n    runs-on: ubuntu-latest\n    steps:\n" +
		"    - uses: actions/checkout@v4\n    - name: Run Diff Tests\n      run: |\n        cd tests\n        ./unittest.sh\n" +
		"        cd ../examples\n        ./cpptest.sh\n        git diff --exit-code\n"
	unittest := "#!/usr/bin/env bash\n\nCC=\"${CC:-gcc} -Wall\"\n\n$CC ../ini.c unittest.c -o unittest_multi\n./unittest_multi > baseline_multi.txt\n"
	_, p := planTree(t, map[string]string{
		".github/workflows/tests.yml": workflow, "tests/unittest.sh": unittest, "tests/unittest.c": "int main(void){return 0;}\n",
		"examples/cpptest.sh": "#!/bin/sh\ng++ -o cpptest cpptest.cpp && ./cpptest > cpptest.txt\n", "ini.c": "", "ini.h": "",
	})
	var found bool
	for _, s := range p.Steps {
		if !strings.HasPrefix(s.Name, "ci:") {
			continue
		}
		found = true
		if !strings.Contains(s.Command, "bash --noprofile --norc -e -c") || !strings.Contains(s.Command, "git diff --exit-code") ||
			!strings.Contains(s.Command, "./cpptest.sh") || !strings.HasPrefix(s.Command, "bash ") {
			t.Errorf("step %s does not run the whole block alone:\n%s", s.Name, s.Command)
		}
		if s.Workdir != "." {
			t.Errorf("workdir %q", s.Workdir)
		}
		for k := range s.Env {
			if strings.HasPrefix(k, "GIT_") {
				t.Errorf("the step sets %s: git needs no per-step configuration (env %v)", k, s.Env)
			}
		}
		if s.Image != image.OfflineCpp {
			t.Errorf("image %s, want %s (notes %q)", s.Image, image.OfflineCpp, p.Notes)
		}
	}
	if !found {
		t.Fatalf("no CI step planned: %+v (notes %q)", p.Steps, p.Notes)
	}
	if testing.Verbose() {
		t.Logf("notes %q", p.Notes)
	}
}
