package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestMakeTargets(t *testing.T) {
	dir := t.TempDir()
	mk := `# a comment: not-a-target: x
SHELL := /bin/bash
VERSION ?= 1
FLAGS = a:b
.PHONY: all lint
all: build
build test-unit:
	echo recipe: not-a-target
$(BIN)/buf:
	go install
fuzz::
`
	path := filepath.Join(dir, "Makefile")
	if err := os.WriteFile(path, []byte(mk), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := makeTargets(path)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"all": true, "build": true, "test-unit": true, "fuzz": true}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("targets = %v, want %v", got, want)
	}
}

func TestMakeMentions(t *testing.T) {
	for _, tc := range []struct {
		name string
		text string
		code bool
		want []string
	}{
		{"code span", "run `make images` first", false, []string{"images"}},
		{"several targets and a variable", "`make engine images IMAGES=go`", false, []string{"engine", "images"}},
		{"after cd and &&", "`cd pkg && make bench-blob`", false, []string{"bench-blob"}},
		{"another Makefile", "`make -C tests run`", false, nil},
		{"placeholder", "commands that call `make TARGET`", false, nil},
		{"prose", "so no client can make it run, make sure", false, nil},
		{"prose in parentheses", "checked by a test (make contract-schema)", false, []string{"contract-schema"}},
		{"a parenthesis that is prose", "make's Error 127 (make exits 2)", false, nil},
		{"hyphenated name in prose", "CI runs make ci-test via .ci/run", false, []string{"ci-test"}},
		{"fenced block", "$ make test\nmake lint # make nothing-here", true, []string{"test", "lint"}},
		{"span across lines", "the command (`make images\nIMAGES=rust`)", false, []string{"images"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, m := range makeMentions(tc.text, 1, tc.code) {
				got = append(got, m.text)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("makeMentions(%q) = %q, want %q", tc.text, got, tc.want)
			}
		})
	}
}

func TestPathMentions(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"see `services/loop/internal/engine/analyze.go`", []string{"services/loop/internal/engine/analyze.go"}},
		{"at `pkg/blob/store.go:42`", []string{"pkg/blob/store.go"}},
		{"`docs/trust.md#known-limits`", []string{"docs/trust.md"}},
		{"`pkg/image.AllowList`", []string{"pkg/image"}},
		{"`./scripts/demo.sh`", []string{"scripts/demo.sh"}},
		{"`go test ./...`, `services/*/README.md`, `/usr/local/go`, `Makefile`, `a/<name>`", nil},
		{"`https://example.com/x`", nil},
	} {
		var got []string
		for _, m := range pathMentions(tc.text, 1) {
			got = append(got, m.text)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("pathMentions(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

func TestGoCommentChunks(t *testing.T) {
	src := "package p\n\n// one\n// two\nvar s = \"// not a comment: make ci-test\"\n\n/* three */\nfunc f( {\n// four (make x)\n"
	chunks := goCommentChunks([]byte(src))
	var got []string
	for _, c := range chunks {
		got = append(got, strings.TrimSpace(strings.ReplaceAll(c.text, "\n", "|"))+"@"+string(rune('0'+c.first)))
	}
	want := []string{"one| two@3", "three@7", "four (make x)@9"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("chunks = %q, want %q", got, want)
	}
}

// writeTree makes a repository of files (path → content) under a temp dir.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, content := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestCheckReportsFileLineAndTheMissingName(t *testing.T) {
	base := map[string]string{
		"Makefile":                             "# CI runs `make test`\ntest:\n\tgo test ./...\nlint:\n",
		"pkg/blob/store.go":                    "package blob\n\n// Store is tested by `make test`.\ntype Store struct{}\n",
		"pkg/blob/store_test.go":               "package blob\n\nfunc TestBusyLoopTimesOut(t *testing.T) {}\n",
		"services/loop/README.md":              "# loop\n\nSee `internal/engine`, `pkg/blob/store.go` and [the design](../../docs/d.md).\n",
		"services/loop/internal/engine/run.go": "package engine\n",
		"docs/d.md":                            "Run:\n\n```sh\nmake lint\n```\n",
		".gitignore":                           "/.bin/\n",
		"docs/built.md":                        "The token is in `.bin/token` after `make test`.\n",
	}
	for _, tc := range []struct {
		name string
		edit map[string]string
		want []string
	}{
		{"clean tree", nil, nil},
		{"a make target that is gone", map[string]string{"docs/d.md": "Run:\n\n```sh\nmake lint\nmake foo\n```\n"},
			[]string{"docs/d.md:5: make foo: no such Makefile target"}},
		{"a make target in a Go comment", map[string]string{"pkg/blob/doc.go": "package blob\n\n// The schema is\n// regenerated (make schema-gen).\n"},
			[]string{"pkg/blob/doc.go:4: make schema-gen: no such Makefile target"}},
		{"a make target in the Makefile's comment", map[string]string{"Makefile": "# CI runs `make ci-test`\ntest:\nlint:\n"},
			[]string{"Makefile:1: make ci-test: no such Makefile target"}},
		{"a path that is gone", map[string]string{"docs/e.md": "intro\n\nSee `services/loop/internal/engine/analyze.go`.\n"},
			[]string{"docs/e.md:3: `services/loop/internal/engine/analyze.go`: no such file or directory"}},
		{"a path relative to the doc that is gone", map[string]string{"services/loop/README.md": "See `internal/patch`.\n"},
			[]string{"services/loop/README.md:1: `internal/patch`: no such file or directory"}},
		{"a link that is gone", map[string]string{"README.md": "[trust](docs/trust.md)\n"},
			[]string{"README.md:1: link docs/trust.md: no such file or directory"}},
		{"a renamed test", map[string]string{"docs/trust.md": "| 1 | busy loop | `TestBusyLoopTimesOut`, `TestRow01BusyLoopTimesOut/sub` |\n"},
			[]string{"docs/trust.md:1: TestRow01BusyLoopTimesOut: no such test function in any _test.go"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{}
			for k, v := range base {
				files[k] = v
			}
			for k, v := range tc.edit {
				files[k] = v
			}
			root := writeTree(t, files)
			probs, _, err := check(root)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range probs {
				got = append(got, p.String())
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("problems = %q, want %q", got, tc.want)
			}
		})
	}
}
