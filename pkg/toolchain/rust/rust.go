// Package rust is greenlight's Rust toolchain pack: Cargo projects, the
// offline Rust image, libtest's output, cargo's refusal of a too-old rustc.
// Everything greenlight knows about Rust is here; the services reach it
// through pkg/toolchain/packs.
package rust

import "github.com/greenlight-dev/greenlight/pkg/toolchain"

// Pack is the Rust toolchain.
type Pack struct{}

// Name is the runtime name; OfflineImage is the image `make images
// IMAGES=rust` builds (images/rust: Debian's rustc and cargo).
const (
	Name         = "rust"
	OfflineImage = "greenlight/sandbox-rust:latest"
)

var spec = &toolchain.Spec{
	Name:          Name,
	Aliases:       []string{"cargo"},
	Order:         3,
	Manifests:     []string{"Cargo.toml"},
	NestedModules: true, // workspace members build from the workspace root
	ContentFiles:  []string{"Cargo.toml", "rust-toolchain", "rust-toolchain.toml"},
	Image: toolchain.Image{
		Offline:  OfflineImage,
		Upstream: "rust:1-slim",
		Tools:    []string{"cargo", "rustc"},
	},
	InstallFiles:        []string{"Cargo.toml", "Cargo.lock", "rust-toolchain", "rust-toolchain.toml"},
	ConfigFiles:         []string{".cargo/config", ".cargo/config.toml"},
	OutputDirs:          []string{"target"},
	Lockfiles:           []string{"Cargo.lock"},
	DependencyManifests: []string{"Cargo.toml"},
	DependencySections:  []string{"dependencies", "dev-dependencies", "build-dependencies", "target", "patch", "replace"},
	Words: toolchain.Words{
		Install:         []string{"cargo fetch"},
		Test:            []string{"cargo test"},
		Lint:            []string{"clippy"},
		Security:        []string{"cargo audit"},
		Build:           []string{"cargo build"},
		Publish:         []string{"cargo publish"},
		OfflineTest:     []string{"cargo test"},
		VersionKeys:     []string{"rust", "toolchain"},
		SubcommandTools: []string{"cargo"},
	},
	SourceExts:        []string{".rs"},
	DefinitionPattern: `^\s*(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?fn\s+([A-Za-z_]\w*)`,
	LibraryPaths:      []string{"/.cargo/registry/", "/.cargo/git/", "/rustc/"},
	Format:            "cargo",
	Rank:              3,
}

// Spec returns the Rust pack's facts.
func (Pack) Spec() *toolchain.Spec { return spec }
