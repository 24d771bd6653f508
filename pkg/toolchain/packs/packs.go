// Package packs is the registry of greenlight's toolchain packs. Adding a
// toolchain is one package under pkg/toolchain plus one line here.
package packs

import (
	"github.com/greenlight-dev/greenlight/pkg/toolchain"
	"github.com/greenlight-dev/greenlight/pkg/toolchain/rust"
)

// Registry holds every toolchain pack, in the order detection consults them.
var Registry = toolchain.NewRegistry(
	rust.Pack{},
)
