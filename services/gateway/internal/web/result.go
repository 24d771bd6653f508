package web

import (
	"encoding/json"
	"net/http"

	"go.uber.org/zap"
	"google.golang.org/protobuf/encoding/protojson"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// serveResult answers the run's Result in the output contract's JSON shape
// (the same as the loop's and the CLI's --json): snake_case names, status
// "PASS", "FAIL" or "ERROR", tail_log and artifact_paths always present.
func (h *handler) serveResult(w http.ResponseWriter, r *http.Request) {
	run, ok := h.getRun(w, r)
	if !ok {
		return
	}
	if run.GetResult() == nil {
		writeJSON(w, http.StatusConflict, map[string]string{
			"error": "run " + run.GetId() + " has no result yet (status " + runStatusName(run.GetStatus()) + "); watch it or retry later",
		})
		return
	}
	body, err := resultJSON(run.GetResult())
	if err != nil {
		h.Log.Error("encode result", zap.String("run_id", run.GetId()), zap.Error(err))
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Disposition", `inline; filename="result.json"`)
	_, _ = w.Write(body)
}

func resultJSON(res *glv1.Result) ([]byte, error) {
	raw, err := protojson.MarshalOptions{UseProtoNames: true}.Marshal(res)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	m["status"] = enumName(res.GetStatus().String(), "VERDICT_")
	if _, ok := m["tail_log"]; !ok {
		m["tail_log"] = ""
	}
	if _, ok := m["artifact_paths"]; !ok {
		m["artifact_paths"] = []string{}
	}
	return json.MarshalIndent(m, "", "  ")
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}
