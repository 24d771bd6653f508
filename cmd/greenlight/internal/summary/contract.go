package summary

import (
	"encoding/json"
	"fmt"
	"strings"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// ContractJSON renders a result as the output contract: protojson with the
// proto's snake_case field names, status as "PASS", "FAIL" or "ERROR",
// and tail_log and artifact_paths always present. (The loop renders the
// same shape for its report; both follow the seeds' contract.)
func ContractJSON(r *glv1.Result) ([]byte, error) {
	return withStatus(r, "status", verdictWord(r.GetStatus()), map[string]any{"tail_log": "", "artifact_paths": []string{}})
}

// RunJSON renders a whole run (kind, status, metrics, patches, result) in
// the same style, for `fix --json` and `show --json --run`.
func RunJSON(run *glv1.Run) ([]byte, error) {
	return withStatus(run, "", "", nil)
}

// withStatus marshals m with protojson and patches top-level keys.
func withStatus(m proto.Message, key, value string, defaults map[string]any) ([]byte, error) {
	raw, err := protojson.MarshalOptions{UseProtoNames: true}.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("marshal: %w", err)
	}
	var obj map[string]any
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, fmt.Errorf("reshape: %w", err)
	}
	if key != "" {
		obj[key] = value
	}
	for k, v := range defaults {
		if _, ok := obj[k]; !ok {
			obj[k] = v
		}
	}
	out, err := json.MarshalIndent(obj, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("marshal: %w", err)
	}
	return append(out, '\n'), nil
}

// ParseContract reads ContractJSON's output back into a Result.
func ParseContract(b []byte) (*glv1.Result, error) {
	var obj map[string]any
	if err := json.Unmarshal(b, &obj); err != nil {
		return nil, fmt.Errorf("parse result: %w", err)
	}
	if s, ok := obj["status"].(string); ok && !strings.HasPrefix(s, "VERDICT_") {
		obj["status"] = "VERDICT_" + s
	}
	raw, err := json.Marshal(obj)
	if err != nil {
		return nil, fmt.Errorf("parse result: %w", err)
	}
	var r glv1.Result
	if err := protojson.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("parse result: %w", err)
	}
	return &r, nil
}

// verdictWord is the contract's status word.
func verdictWord(v glv1.Verdict) string {
	switch v {
	case glv1.Verdict_VERDICT_PASS:
		return "PASS"
	case glv1.Verdict_VERDICT_FAIL:
		return "FAIL"
	default:
		return "ERROR"
	}
}

// RunJSONLine renders a run as one line of protojson (for JSON lines).
func RunJSONLine(run *glv1.Run) ([]byte, error) {
	b, err := protojson.MarshalOptions{UseProtoNames: true}.Marshal(run)
	if err != nil {
		return nil, fmt.Errorf("marshal run: %w", err)
	}
	return b, nil
}
