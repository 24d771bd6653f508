package detect

import (
	"io/fs"
	"sort"
	"testing"
)

// TestGopathImportPathFromTheCodesOwnImports infers the import path of Go
// code without go.mod from imports of its own packages.
func TestGopathImportPathFromTheCodesOwnImports(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"a root file imports a subpackage", map[string]string{
			"cli.go":             "package cli\n\nimport (\n\t\"fmt\"\n\t\"github.com/acme/tool/internal/util\"\n)\n\nfunc F() {}\n",
			"internal/util/u.go": "package util\n",
			"sub/x.go":           "package sub\n\nimport \"github.com/stretchr/testify/assert\"\n",
		}, "github.com/acme/tool"},
		{"an external test imports the root package", map[string]string{
			"errors.go":      "package errors\n",
			"errors_test.go": "package errors_test\n\nimport (\n\t\"testing\"\n\t\"github.com/stretchr/testify/assert\"\n\t\"github.com/pkg/errors\"\n)\n",
			"stack_test.go":  "package errors_test\n\nimport (\n\t\"github.com/stretchr/testify/assert\"\n\t\"github.com/pkg/errors\"\n)\n",
		}, "github.com/pkg/errors"},
		{"a decorated repository name", map[string]string{
			"a.go":      "package yaml\n",
			"a_test.go": "package yaml_test\n\nimport . \"gopkg.in/check.v1\"\nimport \"gopkg.in/yaml.v2\"\n",
		}, ""}, // gopkg.in/yaml.v2 has only two slashes: not host/owner/repo
		{"only third-party imports", map[string]string{
			"a.go": "package a\n\nimport \"github.com/other/lib/sub\"\n",
		}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := newView(mapTree(tc.files))
			got, src := ownImportPath(v)
			if got != tc.want || (got != "" && src == "") {
				t.Fatalf("ownImportPath = %q (from %q), want %q", got, src, tc.want)
			}
		})
	}
}

// mapTree is an in-memory Tree.
type mapTree map[string]string

func (m mapTree) Files() []string {
	out := make([]string, 0, len(m))
	for f := range m {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

func (m mapTree) ReadFile(name string) ([]byte, error) {
	if s, ok := m[name]; ok {
		return []byte(s), nil
	}
	return nil, fs.ErrNotExist
}
