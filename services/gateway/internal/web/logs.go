package web

import (
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"

	"go.uber.org/zap"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/display"
)

// logView is the log page: a step's stored log as numbered lines.
type logView struct {
	RunID, RunURL, Step, Command, Of, RawURL string
	// Ran is the command that ran when Command (the step's display) is
	// not it: a generated script, shown whole.
	Ran   string
	Lines []numberedLine
	// Skipped counts the first lines left out for size.
	Skipped int
	// Capped: the step printed more than was stored. FromTail: no log
	// was stored, the lines are the result's tail. GoJSON: the stored
	// `go test -json` events are shown as the text go test prints.
	Capped, FromTail, GoJSON bool
}

// stepOf finds the step a log route names: in the verification of
// ?attempt= (a fix run's baseline is 0, round N is N), else in the final
// result. ok is false when it answered an error page.
func (h *handler) stepOf(w http.ResponseWriter, r *http.Request, run *glv1.Run) (*glv1.StepResult, string, bool) {
	name := r.PathValue("step")
	a := r.URL.Query().Get("attempt")
	if a == "" {
		if s := findStep(run.GetResult().GetSteps(), name); s != nil {
			return s, "", true
		}
		h.renderError(w, http.StatusNotFound, "No such step", "Run "+quote(run.GetId())+" has no step "+quote(name)+".")
		return nil, "", false
	}
	n, err := strconv.ParseInt(a, 10, 32)
	if err != nil {
		h.renderError(w, http.StatusBadRequest, "Bad attempt", "attempt="+quote(a)+" is not a verification number.")
		return nil, "", false
	}
	vs, err := h.verifications(h.Upstream(r.Context()), run)
	if err != nil {
		h.upstreamError(w, err, run.GetId())
		return nil, "", false
	}
	if v := recordOf(vs, int32(n)); v != nil {
		if s := findStep(v.Steps, name); s != nil {
			return s, attemptName(run, int32(n)), true
		}
	}
	h.renderError(w, http.StatusNotFound, "No such step",
		"Verification "+quote(a)+" of run "+quote(run.GetId())+" has no step "+quote(name)+".")
	return nil, "", false
}

// attemptName is what a reviewer calls verification n of run.
func attemptName(run *glv1.Run, n int32) string {
	switch {
	case run.GetKind() != glv1.RunKind_RUN_KIND_FIX:
		return "verification " + strconv.Itoa(int(n))
	case n == 0:
		return "baseline"
	}
	return "round " + strconv.Itoa(int(n))
}

// serveLog shows a step's log as a page of numbered, anchored lines
// (#L12) with a filter box; `go test -json` logs are shown as text. The
// stored bytes are one click away (serveRawLog).
func (h *handler) serveLog(w http.ResponseWriter, r *http.Request) {
	run, ok := h.getRun(w, r)
	if !ok {
		return
	}
	step, of, ok := h.stepOf(w, r, run)
	if !ok {
		return
	}
	v := logView{RunID: run.GetId(), RunURL: urlsFor(run.GetId()).Report, Step: step.GetName(), Command: display.Command(step),
		Of: of, Capped: step.GetTruncated()}
	if ran := step.GetCommand(); ran != v.Command {
		v.Ran = ran
	}
	v.RawURL = logURL(run.GetId(), step.GetName()) + "/raw"
	if a := r.URL.Query().Get("attempt"); a != "" {
		v.RawURL = attemptLogURL(v.RawURL, mustAtoi32(a))
	}
	var src io.Reader
	if step.GetLogDigest().GetHash() == "" {
		src, v.FromTail = strings.NewReader(step.GetTail()), true
	} else {
		blob, err := h.openBlob(h.Upstream(r.Context()), step.GetLogDigest())
		if err != nil {
			h.blobError(w, err, run.GetId(), "log of step "+quote(step.GetName()), step.GetLogDigest())
			return
		}
		src = blob
	}
	lines, err := readLogLines(src, goTestStep(step))
	if err != nil {
		h.Log.Warn("log stream broke", zap.String("run_id", run.GetId()), zap.Error(err))
	}
	v.Lines, v.Skipped, v.GoJSON = lines.lines(), lines.skipped, lines.goJSON
	h.render(w, http.StatusOK, h.logPage, "layout", layoutData{Title: step.GetName() + " log · run " + run.GetId(), Body: v})
}

func mustAtoi32(s string) int32 {
	n, _ := strconv.ParseInt(s, 10, 32)
	return int32(n)
}

// goTestStep reports whether a step's log is `go test -json` output.
func goTestStep(s *glv1.StepResult) bool {
	if s.GetCounts().GetFormat() == "go-json" {
		return true
	}
	for _, c := range []string{s.GetCommand(), s.GetDisplayCommand()} {
		if strings.Contains(c, "go test") && strings.Contains(c, "-json") {
			return true
		}
	}
	return false
}

// serveRawLog streams a step's full stored log from the blob store as
// plain text, chunk by chunk (never the whole log in memory). A step
// without a stored log falls back to its tail, saying so. The sandbox CSP
// makes a browser treat the bytes as an inert document whatever they
// contain.
func (h *handler) serveRawLog(w http.ResponseWriter, r *http.Request) {
	run, ok := h.getRun(w, r)
	if !ok {
		return
	}
	step, _, ok := h.stepOf(w, r, run)
	if !ok {
		return
	}
	hdr := w.Header()
	hdr.Set("Content-Type", "text/plain; charset=utf-8")
	hdr.Set("Content-Security-Policy", "sandbox")
	if step.GetLogDigest().GetHash() == "" {
		_, _ = io.WriteString(w, "[greenlight: no stored log for this step; its last lines follow]\n"+step.GetTail())
		return
	}
	blob, err := h.openBlob(h.Upstream(r.Context()), step.GetLogDigest())
	if err != nil {
		h.blobError(w, err, run.GetId(), "log of step "+quote(step.GetName()), step.GetLogDigest())
		return
	}
	if step.GetTruncated() {
		_, _ = io.WriteString(w, "[greenlight: this log was capped; the step printed more than was stored]\n")
	}
	if _, err := io.Copy(w, blob); err != nil && !errors.Is(err, io.EOF) {
		h.Log.Warn("log stream broke", zap.String("run_id", run.GetId()), zap.Error(err))
	}
}

// findStep returns the named step of steps (the last one, if a step ran
// several times).
func findStep(steps []*glv1.StepResult, name string) *glv1.StepResult {
	for i := len(steps) - 1; i >= 0; i-- {
		if steps[i].GetName() == name {
			return steps[i]
		}
	}
	return nil
}
