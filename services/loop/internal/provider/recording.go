package provider

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// RecordingStore keeps recorded provider sessions: one opaque record per
// proposal, numbered from 1 in the order they were made. The run store
// implements it (see StoreRecordings).
type RecordingStore interface {
	// PutRecording stores record number seq of a run's session.
	PutRecording(ctx context.Context, runID string, seq uint64, data []byte) error
	// RecordingData returns a run's records in seq order.
	RecordingData(ctx context.Context, runID string) ([][]byte, error)
}

// recordingVersion is the version of the record format below.
const recordingVersion = 1

// recording is one recorded proposal, stored as JSON.
type recording struct {
	Version int    `json:"version"`
	Seq     uint64 `json:"seq"`
	Attempt int32  `json:"attempt"`
	// Key identifies the request (see requestKey); Request describes it
	// for a person reading a divergence error.
	Key     string `json:"key"`
	Request string `json:"request"`
	Patch   string `json:"patch,omitempty"`
	GiveUp  bool   `json:"give_up,omitempty"`
	Usage   *usage `json:"usage,omitempty"`
}

// usage mirrors glv1.Usage in the record.
type usage struct {
	PromptTokens     int64   `json:"prompt_tokens"`
	CompletionTokens int64   `json:"completion_tokens"`
	Cost             float64 `json:"cost"`
}

// newRecording records a proposal made for req.
func newRecording(seq uint64, req *glv1.PatchRequest, p Proposal) recording {
	r := recording{Version: recordingVersion, Seq: seq, Attempt: req.GetAttempt(),
		Key: requestKey(req), Request: describe(req), Patch: p.Patch, GiveUp: p.GiveUp}
	if u := p.Usage; u != nil {
		r.Usage = &usage{PromptTokens: u.GetPromptTokens(), CompletionTokens: u.GetCompletionTokens(), Cost: u.GetCost()}
	}
	return r
}

// proposal returns the recorded proposal.
func (r recording) proposal() Proposal {
	p := Proposal{Patch: r.Patch, GiveUp: r.GiveUp}
	if r.Usage != nil {
		p.Usage = &glv1.Usage{PromptTokens: r.Usage.PromptTokens, CompletionTokens: r.Usage.CompletionTokens, Cost: r.Usage.Cost}
	}
	return p
}

// decodeRecording parses one record.
func decodeRecording(data []byte) (recording, error) {
	var r recording
	if err := json.Unmarshal(data, &r); err != nil {
		return recording{}, fmt.Errorf("%w: unreadable record: %w", ErrReplayDiverged, err)
	}
	if r.Version != recordingVersion {
		return recording{}, fmt.Errorf("%w: record format version %d, this greenlight reads %d", ErrReplayDiverged, r.Version, recordingVersion)
	}
	return r, nil
}

// requestKey identifies a request by what a deterministic replay must
// reproduce: the attempt, the failing command, where it ran, its exit code
// and the failures' locations, kinds and tests. Log text and messages are
// left out: they carry timings and addresses that differ between runs.
func requestKey(req *glv1.PatchRequest) string {
	parts := []string{strconv.Itoa(int(req.GetAttempt())), req.GetFailingCommand(), req.GetWorkdir(),
		strconv.Itoa(int(req.GetExitCode()))}
	for _, f := range req.GetFailures() {
		parts = append(parts, fmt.Sprintf("%s:%d:%s:%s", f.GetFile(), f.GetLine(), f.GetKind(), f.GetTest()))
	}
	h := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(h[:])
}

// describe summarizes a request for divergence messages.
func describe(req *glv1.PatchRequest) string {
	return fmt.Sprintf("attempt %d, command `%s` in %q exited %d with %d failure(s)",
		req.GetAttempt(), req.GetFailingCommand(), req.GetWorkdir(), req.GetExitCode(), len(req.GetFailures()))
}
