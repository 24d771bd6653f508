package web

import (
	"net/http"
	"net/url"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// indexPageSize is how many runs the front page lists.
const indexPageSize = 50

// statusFilter is one choice of the runs list's ?status= filter.
type statusFilter struct {
	Key, Label string
	Statuses   []glv1.RunStatus
}

// statusFilters are the runs list's filters, in the order shown.
var statusFilters = []statusFilter{
	{Key: "", Label: "All"},
	{Key: "running", Label: "Running", Statuses: []glv1.RunStatus{glv1.RunStatus_RUN_STATUS_PENDING, glv1.RunStatus_RUN_STATUS_RUNNING}},
	{Key: "passed", Label: "Passed", Statuses: []glv1.RunStatus{glv1.RunStatus_RUN_STATUS_PASSED}},
	{Key: "failed", Label: "Failed", Statuses: []glv1.RunStatus{glv1.RunStatus_RUN_STATUS_FAILED}},
	{Key: "error", Label: "Error", Statuses: []glv1.RunStatus{glv1.RunStatus_RUN_STATUS_ERROR}},
	{Key: "stopped", Label: "Canceled / interrupted",
		Statuses: []glv1.RunStatus{glv1.RunStatus_RUN_STATUS_CANCELED, glv1.RunStatus_RUN_STATUS_INTERRUPTED}},
}

// indexView is the front page's content.
type indexView struct {
	Runs    []runRow
	Filters []filterLink
	// Label names the current filter; Next is the older page's URL.
	Label, Next string
	// ListURL is the list fragment the page polls to stay current; ""
	// on older pages, which do not change at the top.
	ListURL string
}

type filterLink struct {
	Label, URL string
	Current    bool
}

type runRow struct {
	ID, URL, Kind, Status, StClass, Created, Duration, Source string
}

// indexQuery is the runs list asked for by a request.
func indexQuery(r *http.Request) (statusFilter, string, bool) {
	key := strings.ToLower(r.URL.Query().Get("status"))
	for _, f := range statusFilters {
		if f.Key == key {
			return f, r.URL.Query().Get("page_token"), true
		}
	}
	return statusFilter{}, "", false
}

// listURL is path with the filter (and page token) as its query.
func listURL(path, key, token string) string {
	q := url.Values{}
	if key != "" {
		q.Set("status", key)
	}
	if token != "" {
		q.Set("page_token", token)
	}
	if len(q) == 0 {
		return path
	}
	return path + "?" + q.Encode()
}

// runsList fetches one page of runs and lays it out; it answers the error
// itself when that fails.
func (h *handler) runsList(w http.ResponseWriter, r *http.Request) (indexView, bool) {
	f, token, ok := indexQuery(r)
	if !ok {
		keys := make([]string, 0, len(statusFilters))
		for _, f := range statusFilters[1:] {
			keys = append(keys, f.Key)
		}
		h.renderError(w, http.StatusBadRequest, "Unknown status filter",
			"status="+quote(r.URL.Query().Get("status"))+" is not a filter; use one of "+strings.Join(keys, ", ")+", or none for all runs.")
		return indexView{}, false
	}
	resp, err := h.Runs.ListRuns(h.Upstream(r.Context()), &glv1.ListRunsRequest{
		Statuses: f.Statuses, PageSize: indexPageSize, PageToken: token,
	})
	if err != nil {
		h.upstreamError(w, err, "")
		return indexView{}, false
	}
	v := indexView{Label: f.Label}
	if next := resp.GetNextPageToken(); next != "" {
		v.Next = listURL("/", f.Key, next)
	}
	if token == "" {
		v.ListURL = listURL("/fragments/runs", f.Key, "")
	}
	for _, c := range statusFilters {
		v.Filters = append(v.Filters, filterLink{Label: c.Label, URL: listURL("/", c.Key, ""), Current: c.Key == f.Key})
	}
	for _, run := range resp.GetRuns() {
		st := runStatusName(run.GetStatus())
		v.Runs = append(v.Runs, runRow{
			ID: run.GetId(), URL: urlsFor(run.GetId()).Report, Kind: runKindName(run.GetKind()), Status: st,
			StClass: statusClass(st), Created: formatTime(run.GetCreatedAt()),
			Duration: span(firstTime(run), run.GetFinishedAt()), Source: run.GetSourceDir(),
		})
	}
	return v, true
}

func (h *handler) serveIndex(w http.ResponseWriter, r *http.Request) {
	if v, ok := h.runsList(w, r); ok {
		h.render(w, http.StatusOK, h.index, "layout", layoutData{Title: "Runs", Body: v})
	}
}

// serveRunsFragment renders the runs list alone; the front page polls it
// and swaps it in, as the report swaps in its summary.
func (h *handler) serveRunsFragment(w http.ResponseWriter, r *http.Request) {
	if v, ok := h.runsList(w, r); ok {
		h.render(w, http.StatusOK, h.index, "runlist", v)
	}
}
