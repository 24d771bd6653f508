package web

import (
	"errors"
	"io"
	"net/http"

	"go.uber.org/zap"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// serveLog streams a step's full stored log from the blob store as plain
// text, chunk by chunk (never the whole log in memory). A step without a
// stored log falls back to its tail, saying so. The sandbox CSP makes a
// browser treat the bytes as an inert document whatever they contain.
func (h *handler) serveLog(w http.ResponseWriter, r *http.Request) {
	run, ok := h.getRun(w, r)
	if !ok {
		return
	}
	step := findStep(run, r.PathValue("step"))
	if step == nil {
		h.renderError(w, http.StatusNotFound, "No such step", "Run "+quote(run.GetId())+" has no step "+quote(r.PathValue("step"))+".")
		return
	}
	hdr := w.Header()
	hdr.Set("Content-Type", "text/plain; charset=utf-8")
	hdr.Set("Content-Security-Policy", "sandbox")
	if step.GetLogDigest().GetHash() == "" {
		_, _ = io.WriteString(w, "[greenlight: no stored log for this step; its last lines follow]\n"+step.GetTail())
		return
	}
	stream, err := h.Blobs.Read(h.Upstream(r.Context()), &glv1.ReadRequest{Digest: step.GetLogDigest()})
	if err != nil {
		h.upstreamError(w, err, run.GetId())
		return
	}
	first, err := stream.Recv()
	if err != nil && !errors.Is(err, io.EOF) {
		h.upstreamError(w, err, run.GetId())
		return
	}
	if step.GetTruncated() {
		_, _ = io.WriteString(w, "[greenlight: this log was capped; the step printed more than was stored]\n")
	}
	_, _ = w.Write(first.GetData())
	for {
		chunk, err := stream.Recv()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				h.Log.Warn("log stream broke", zap.String("run_id", run.GetId()), zap.Error(err))
			}
			return
		}
		if _, err := w.Write(chunk.GetData()); err != nil {
			return
		}
	}
}

// findStep returns the result of the named step (the last one, if a step
// ran several times).
func findStep(run *glv1.Run, name string) *glv1.StepResult {
	steps := run.GetResult().GetSteps()
	for i := len(steps) - 1; i >= 0; i-- {
		if steps[i].GetName() == name {
			return steps[i]
		}
	}
	return nil
}
