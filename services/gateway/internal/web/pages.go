package web

import (
	"net/http"

	"go.uber.org/zap"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// indexPageSize is how many runs the front page lists.
const indexPageSize = 50

// indexView is the front page's content.
type indexView struct {
	Runs []runRow
	Next string
}

type runRow struct {
	ID, URL, Kind, Status, StClass, Created, Duration, Source string
}

func (h *handler) serveIndex(w http.ResponseWriter, r *http.Request) {
	resp, err := h.Runs.ListRuns(h.Upstream(r.Context()), &glv1.ListRunsRequest{
		PageSize: indexPageSize, PageToken: r.URL.Query().Get("page_token"),
	})
	if err != nil {
		h.upstreamError(w, err, "")
		return
	}
	v := indexView{Next: resp.GetNextPageToken()}
	for _, run := range resp.GetRuns() {
		st := runStatusName(run.GetStatus())
		v.Runs = append(v.Runs, runRow{
			ID: run.GetId(), URL: urlsFor(run.GetId()).Report, Kind: runKindName(run.GetKind()), Status: st,
			StClass: statusClass(st), Created: formatTime(run.GetCreatedAt()),
			Duration: span(firstTime(run), run.GetFinishedAt()), Source: run.GetSourceDir(),
		})
	}
	h.render(w, http.StatusOK, h.index, "layout", layoutData{Title: "Runs", Body: v})
}

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
	h.render(w, http.StatusOK, h.report, "layout", layoutData{Title: "Run " + run.GetId(), Body: newReportView(run)})
}

// serveSummary renders the summary block alone; the live page swaps it in
// when the run finishes.
func (h *handler) serveSummary(w http.ResponseWriter, r *http.Request) {
	run, ok := h.getRun(w, r)
	if !ok {
		return
	}
	h.render(w, http.StatusOK, h.report, "summary", newReportView(run))
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
