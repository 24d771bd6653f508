package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/greenlight-dev/greenlight/pkg/contract"
)

// wantContract fails unless out is a document of the output contract:
// valid against the committed docs/contract.schema.json.
func wantContract(t *testing.T, what string, out []byte) {
	t.Helper()
	f, err := os.Open(filepath.Join(repoRoot(t), "docs", "contract.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	schemaDoc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(contract.SchemaID, schemaDoc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(contract.SchemaID)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
	if err != nil {
		t.Fatalf("%s: not JSON: %v\n%s", what, err, out)
	}
	if err := s.Validate(doc); err != nil {
		t.Errorf("%s does not match docs/contract.schema.json: %v", what, err)
	}
}
