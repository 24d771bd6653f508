package report

import (
	"encoding/json"
	"fmt"

	"google.golang.org/protobuf/encoding/protojson"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// JSON renders the result in the seeds' output contract shape: snake_case
// field names (run_id, tail_log, artifact_paths, manifest.commands_executed
// with exit_code and duration_ms) and status as "PASS", "FAIL" or "ERROR";
// the extensions (steps, counts, failures, score, level) follow the same
// naming.
func JSON(r *glv1.Result) ([]byte, error) {
	raw, err := protojson.MarshalOptions{UseProtoNames: true}.Marshal(r)
	if err != nil {
		return nil, fmt.Errorf("marshal result: %w", err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("reshape result: %w", err)
	}
	m["status"] = verdictName(r.GetStatus())
	if _, ok := m["tail_log"]; !ok {
		m["tail_log"] = ""
	}
	if _, ok := m["artifact_paths"]; !ok {
		m["artifact_paths"] = []string{}
	}
	out, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("marshal result: %w", err)
	}
	return out, nil
}
