package rust

import (
	"errors"
	"fmt"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/greenlight-dev/greenlight/pkg/toolchain"
)

// facts are what Commands needs about a Cargo project.
type facts struct {
	HasDeps   bool
	Workspace bool
	// Lockfile is the workspace-relative Cargo.lock when it exists.
	Lockfile string
	Invalid  bool
}

// Detect reads Cargo.toml, Cargo.lock's presence, the toolchain pin and
// whether integration tests exist.
func (Pack) Detect(t toolchain.Tree, p *toolchain.Project) {
	file := toolchain.Join(p.Root, "Cargo.toml")
	f := &facts{}
	p.Facts = f
	p.PackageManager = "cargo"
	p.TestFrameworks = []string{"cargo test"}
	if data, err := t.Read(file); err != nil {
		p.Problems = append(p.Problems, toolchain.Problem{File: file, Msg: fmt.Sprintf("not read: %v", err)})
		return
	} else if err := readManifest(data, file, f, p); err != nil {
		f.Invalid = true
		p.Problems = append(p.Problems, tomlProblem(file, err))
	}
	if t.Has(p.Root, "Cargo.lock") {
		f.Lockfile = toolchain.Join(p.Root, "Cargo.lock")
		p.Markers = append(p.Markers, f.Lockfile)
	}
	p.Versions = append(p.Versions, pinnedToolchain(t, p.Root)...)
	p.HasTests = hasIntegrationTests(t, p.Root)
	for _, n := range []string{"clippy.toml", ".clippy.toml"} {
		if t.Has(p.Root, n) {
			p.Linters = append(p.Linters, "clippy")
		}
	}
}

// readManifest reads the workspace flag, whether anything is depended on,
// and package.rust-version.
func readManifest(data []byte, file string, f *facts, p *toolchain.Project) error {
	var doc map[string]any
	if _, err := toml.Decode(string(data), &doc); err != nil {
		return err
	}
	_, f.Workspace = doc["workspace"]
	for _, k := range []string{"dependencies", "dev-dependencies", "build-dependencies"} {
		if len(table(doc, k)) > 0 || len(table(table(doc, "workspace"), k)) > 0 {
			f.HasDeps = true
		}
	}
	if rv := str(table(doc, "package"), "rust-version"); rv != "" {
		p.Versions = append(p.Versions, toolchain.Version{Tool: "rust", Version: rv, Source: file + ":package.rust-version"})
	}
	return nil
}

// hasIntegrationTests: integration tests live in tests/ of the crate or of
// any workspace member; unit tests inside src/ cannot be seen without
// reading sources.
func hasIntegrationTests(t toolchain.Tree, root string) bool {
	for _, f := range t.Under(root) {
		rel := strings.TrimPrefix(f, root+"/")
		if strings.HasSuffix(f, ".rs") && (strings.HasPrefix(rel, "tests/") || strings.Contains(rel, "/tests/")) {
			return true
		}
	}
	return false
}

// pinnedToolchain reads rust-toolchain.toml's toolchain.channel or the
// legacy one-line rust-toolchain file, in the root then the workspace root.
func pinnedToolchain(t toolchain.Tree, root string) []toolchain.Version {
	dirs := []string{root, "."}
	if root == "." {
		dirs = dirs[:1]
	}
	for _, dir := range dirs {
		name := toolchain.Join(dir, "rust-toolchain.toml")
		if data, err := t.Read(name); err == nil {
			var doc map[string]any
			if _, err := toml.Decode(string(data), &doc); err == nil {
				if ch := str(table(doc, "toolchain"), "channel"); ch != "" {
					return []toolchain.Version{{Tool: "rust", Version: ch, Source: name + ":toolchain.channel"}}
				}
			}
		}
		name = toolchain.Join(dir, "rust-toolchain")
		if !t.Has(dir, "rust-toolchain") {
			continue
		}
		if data, err := t.Read(name); err == nil {
			if v := firstLine(data); v != "" {
				return []toolchain.Version{{Tool: "rust", Version: v, Source: name}}
			}
		}
	}
	return nil
}

// firstLine returns the first line that is neither blank nor a comment.
func firstLine(data []byte) string {
	for _, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			return l
		}
	}
	return ""
}

func tomlProblem(file string, err error) toolchain.Problem {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		return toolchain.Problem{File: file, Line: pe.Position.Line, Msg: "invalid TOML: " + pe.Message}
	}
	return toolchain.Problem{File: file, Msg: "invalid TOML: " + err.Error()}
}

func table(m map[string]any, key string) map[string]any {
	t, _ := m[key].(map[string]any)
	return t
}

func str(m map[string]any, key string) string {
	s, _ := m[key].(string)
	return s
}
