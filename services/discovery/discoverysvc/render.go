package discoverysvc

import (
	"google.golang.org/protobuf/proto"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/contract"
)

// CapabilitiesJSON renders capabilities as capabilities.json, by the
// output contract's rules (pkg/contract: proto field names, short enum
// names, every field present, sorted keys, stable bytes).
func CapabilitiesJSON(c *glv1.Capabilities) ([]byte, error) { return StableJSON(c) }

// StableJSON renders any greenlight message the same way.
func StableJSON(m proto.Message) ([]byte, error) { return contract.Marshal(contract.Message(m)) }
