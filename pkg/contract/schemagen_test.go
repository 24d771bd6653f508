package contract

import (
	"encoding/json"
	"fmt"

	"github.com/invopop/jsonschema"
)

// generateSchema generates the JSON Schema (draft 2020-12) of the contract
// from these types, so schema and code cannot drift: a document is either a
// Result (verify, fix, show) or an EvalReport (eval). invopop/jsonschema
// reflects the struct tags: no omitempty, so every field is required.
// With srcDir (this package's source directory) the types' doc comments
// become descriptions. TestSchemaIsCurrent compares it with the committed
// docs/contract.schema.json.
func generateSchema(srcDir string) ([]byte, error) {
	r := &jsonschema.Reflector{}
	if srcDir != "" {
		if err := r.AddGoComments("github.com/greenlight-dev/greenlight/pkg/contract", srcDir); err != nil {
			return nil, fmt.Errorf("contract schema: comments: %w", err)
		}
	}
	result := r.Reflect(&Result{})
	eval := r.Reflect(&EvalReport{})
	defs := jsonschema.Definitions{}
	for k, v := range result.Definitions {
		defs[k] = v
	}
	for k, v := range eval.Definitions {
		defs[k] = v
	}
	top := &jsonschema.Schema{
		Version:     jsonschema.Version,
		ID:          SchemaID,
		Title:       "greenlight output contract (" + SchemaVersion + ")",
		Description: "What greenlight prints with --json and stores as result.json: a verify or fix Result, or an eval report.",
		OneOf: []*jsonschema.Schema{
			{Ref: "#/$defs/Result"},
			{Ref: "#/$defs/EvalReport"},
		},
		Definitions: defs,
	}
	b, err := json.MarshalIndent(top, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("contract schema: %w", err)
	}
	return append(b, '\n'), nil
}
