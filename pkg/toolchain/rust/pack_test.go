package rust

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/pkg/toolchain"
)

// tree is an in-memory workspace.
type tree map[string]string

func (t tree) Read(name string) ([]byte, error) {
	if s, ok := t[name]; ok {
		return []byte(s), nil
	}
	return nil, errors.New("no such file")
}

func (t tree) Has(dir, base string) bool { _, ok := t[toolchain.Join(dir, base)]; return ok }

func (t tree) Under(root string) []string {
	var out []string
	for f := range t {
		if root == "." || strings.HasPrefix(f, root+"/") {
			out = append(out, f)
		}
	}
	slices.Sort(out)
	return out
}

func TestDetectReadsManifestPinAndTests(t *testing.T) {
	ws := tree{
		"Cargo.toml":          "[workspace]\nmembers = [\"a\"]\n[workspace.dependencies]\nserde = \"1\"\n[package]\nname = \"r\"\nrust-version = \"1.70\"\n",
		"Cargo.lock":          "",
		"rust-toolchain.toml": "[toolchain]\nchannel = \"1.75.0\"\n",
		"a/tests/it.rs":       "",
		"clippy.toml":         "",
	}
	p := &toolchain.Project{Root: "."}
	Pack{}.Detect(ws, p)
	f := p.Facts.(*facts)
	if !f.Workspace || !f.HasDeps || f.Lockfile != "Cargo.lock" || !p.HasTests || p.PackageManager != "cargo" {
		t.Fatalf("facts %+v, project %+v", f, p)
	}
	want := []toolchain.Version{{Tool: "rust", Version: "1.70", Source: "Cargo.toml:package.rust-version"},
		{Tool: "rust", Version: "1.75.0", Source: "rust-toolchain.toml:toolchain.channel"}}
	if !slices.Equal(p.Versions, want) || !slices.Equal(p.Linters, []string{"clippy"}) {
		t.Fatalf("versions %v linters %v", p.Versions, p.Linters)
	}
	cmds := Pack{}.Commands(p)
	var got []string
	for _, c := range cmds {
		got = append(got, c.Phase+":"+c.Command)
	}
	if strings.Join(got, ",") != "install:cargo fetch,build:cargo build --workspace,test:cargo test --workspace" {
		t.Fatalf("commands %v", got)
	}
	if !slices.Equal(cmds[0].CacheKeyFiles, []string{"Cargo.lock", "Cargo.toml"}) || cmds[2].Env["CARGO_NET_OFFLINE"] != "true" {
		t.Fatalf("fetch keys %v, test env %v", cmds[0].CacheKeyFiles, cmds[2].Env)
	}
}

func TestDetectReportsInvalidTOMLWithItsLineAndStillPlans(t *testing.T) {
	ws := tree{"crate/Cargo.toml": "[package]\nname = \"r\"\nversion = \n", "crate/rust-toolchain": "# pinned\nstable\n"}
	p := &toolchain.Project{Root: "crate"}
	Pack{}.Detect(ws, p)
	if len(p.Problems) != 1 || p.Problems[0].File != "crate/Cargo.toml" || p.Problems[0].Line != 3 {
		t.Fatalf("problems %+v", p.Problems)
	}
	if !slices.Equal(p.Versions, []toolchain.Version{{Tool: "rust", Version: "stable", Source: "crate/rust-toolchain"}}) {
		t.Fatalf("versions %v", p.Versions)
	}
	cmds := Pack{}.Commands(p)
	if len(cmds) != 2 || cmds[1].Command != "cargo test" || cmds[1].Source != "crate/Cargo.toml" {
		t.Fatalf("commands %+v", cmds)
	}
}

func TestNarrowQuotesEveryName(t *testing.T) {
	cmd, ok := Pack{}.Narrow([]string{"tests::a", "it's"})
	if !ok || cmd != `cargo test -- --exact 'tests::a' 'it'\''s'` {
		t.Fatalf("%q %v", cmd, ok)
	}
	if _, ok := (Pack{}).Narrow(nil); ok {
		t.Fatal("nothing to narrow to must not be ok")
	}
}

func TestDiagnoseEnvNamesBothVersionsInEitherCargoWording(t *testing.T) {
	for _, log := range []string{
		"error: package `x v0.1.0` cannot be built because it requires rustc 1.70 or newer, while the currently active rustc version is 1.63.0",
		"error: rustc 1.63.0 is not supported by the following package:\n  x@0.1.0 requires rustc 1.70",
	} {
		reason, ok := Pack{}.DiagnoseEnv(log, "img")
		if !ok || !strings.Contains(reason, "requires rustc 1.70") || !strings.Contains(reason, "the image has 1.63.0") || !strings.Contains(reason, "in img") {
			t.Errorf("%q → %q %v", log, reason, ok)
		}
	}
	if _, ok := (Pack{}).DiagnoseEnv("error[E0425]: cannot find value `c`", "img"); ok {
		t.Error("a compile error is the code's failure")
	}
}
