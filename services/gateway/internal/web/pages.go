package web

import (
	"net/http"

	"go.uber.org/zap"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// getRun fetches the run named in the path, answering the error page itself
// when that fails.
func (h *handler) getRun(w http.ResponseWriter, r *http.Request) (*glv1.Run, bool) {
	id := r.PathValue("id")
	resp, err := h.Runs.GetRun(h.Upstream(r.Context()), &glv1.GetRunRequest{RunId: id})
	if err != nil {
		h.upstreamError(w, err, id)
		return nil, false
	}
	return resp.GetRun(), true
}

func (h *handler) serveReport(w http.ResponseWriter, r *http.Request) {
	run, ok := h.getRun(w, r)
	if !ok {
		return
	}
	h.render(w, http.StatusOK, h.report, "layout", layoutData{Title: "Run " + run.GetId(), Body: h.reportView(r, run)})
}

// serveSummary renders the summary block alone; the live page swaps it in
// when the run finishes.
func (h *handler) serveSummary(w http.ResponseWriter, r *http.Request) {
	run, ok := h.getRun(w, r)
	if !ok {
		return
	}
	h.render(w, http.StatusOK, h.report, "summary", h.reportView(r, run))
}

// reportView builds the report, with a fix run's baseline and rounds from
// its event log. Without them (the log cannot be read) the report still
// shows the final state and says the rounds are missing.
func (h *handler) reportView(r *http.Request, run *glv1.Run) reportView {
	var vs []*verificationRecord
	if run.GetKind() == glv1.RunKind_RUN_KIND_FIX {
		var err error
		if vs, err = h.verifications(h.Upstream(r.Context()), run); err != nil {
			h.Log.Warn("replaying a fix run's events failed", zap.String("run_id", run.GetId()), zap.Error(err))
		}
	}
	return newReportView(run, vs)
}

// upstreamError answers a failed loop call: the loop's own message for
// errors about the request, a generic one (details in the log) otherwise.
func (h *handler) upstreamError(w http.ResponseWriter, err error, runID string) {
	st := status.Convert(err)
	switch st.Code() {
	case codes.NotFound:
		h.renderError(w, http.StatusNotFound, "Run not found", "No run has the id "+quote(runID)+". "+st.Message())
	case codes.InvalidArgument:
		h.renderError(w, http.StatusBadRequest, "Bad request", st.Message())
	case codes.Unavailable:
		h.renderError(w, http.StatusServiceUnavailable, "Loop service unavailable",
			"The gateway cannot reach the loop service right now; try again shortly.")
	case codes.DeadlineExceeded, codes.Canceled:
		h.renderError(w, http.StatusGatewayTimeout, "Timed out", "The loop service did not answer in time.")
	default:
		h.Log.Error("loop call failed", zap.String("run_id", runID), zap.Error(err))
		h.renderError(w, http.StatusBadGateway, "Loop service error", "The loop service failed; details are in the gateway log.")
	}
}

func quote(s string) string { return "\u201c" + s + "\u201d" }
