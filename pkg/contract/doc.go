// Package contract is greenlight's one JSON output contract: the seeds'
// verifier contract (status PASS/FAIL/ERROR, run_id, tail_log,
// artifact_paths, manifest) extended with steps, counts, tests, failures,
// score and level, and for fix runs with rounds, patches, transitions and
// metrics; eval reports embed it per sample.
//
// Every consumer renders through this package: the CLI's --json on every
// command, the report page's result.json and manifest.json, the artifact
// layout's manifest.json and greenlight eval. Rules, so clients in any
// language can rely on them: enum values are short upper-case names
// ("PASS", "L4", "FAILED", "FAIL_TO_PASS"), every field is always present
// (empty lists as [], absent objects as null), numbers are JSON numbers
// (durations in milliseconds, sizes in bytes) and times are RFC 3339 UTC
// strings or null. docs/contract.schema.json is generated from these types
// by this package's tests (go test ./contract -update in pkg/ rewrites it)
// and checked by TestSchemaIsCurrent.
package contract

// SchemaVersion names this shape; it changes only on an incompatible change.
const SchemaVersion = "greenlight.contract/v1"
