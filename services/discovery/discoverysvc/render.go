package discoverysvc

import (
	"bytes"
	"encoding/json"
	"fmt"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// CapabilitiesJSON renders capabilities as capabilities.json: protojson
// with the proto field names (snake_case, like the seeds' JSON), re-indented
// through encoding/json so the bytes are stable (protojson's own whitespace
// is deliberately unstable) and keys are sorted.
func CapabilitiesJSON(c *glv1.Capabilities) ([]byte, error) { return StableJSON(c) }

// StableJSON renders any greenlight message the same way.
func StableJSON(m proto.Message) ([]byte, error) {
	raw, err := protojson.MarshalOptions{UseProtoNames: true}.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("render %T: %w", m, err)
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("render %T: %w", m, err)
	}
	out, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("render %T: %w", m, err)
	}
	return append(out, '\n'), nil
}
