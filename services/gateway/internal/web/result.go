package web

import (
	"encoding/json"
	"net/http"

	"go.uber.org/zap"

	"github.com/greenlight-dev/greenlight/pkg/contract"
)

// serveResult answers the run in the output contract's JSON shape
// (pkg/contract, the same as the CLI's --json).
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
	body, err := contract.Marshal(contract.FromRun(run))
	if err != nil {
		h.Log.Error("encode result", zap.String("run_id", run.GetId()), zap.Error(err))
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Disposition", `inline; filename="result.json"`)
	_, _ = w.Write(body)
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}
