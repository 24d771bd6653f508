package contract

// SchemaID is the $id of docs/contract.schema.json, the JSON Schema of this
// contract. The schema is generated from these types by this package's
// tests (schemagen_test.go), so the JSON-Schema libraries stay out of the
// binaries that render the contract.
const SchemaID = "https://greenlight.dev/schemas/contract.schema.json"
