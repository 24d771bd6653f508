package engine

import (
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/report"
)

// Patch request sizes (FixOptions.request_tokens).
const (
	defaultRequestTokens = 16000
	// minRequestTokens leaves room for one failure and its code.
	minRequestTokens = 1000
	bytesPerToken    = 4
	// minTailLines is the shortest log tail a request is cut to.
	minTailLines = 20
)

// fitRequest renders req's prompt within tokens, dropping the least
// useful evidence first: log tail lines (halved down to minTailLines),
// then the lowest-ranked code windows (one is kept), then later failures
// (one is kept). The failing test's own output — the first failure's
// message — is what stays longest.
func fitRequest(req *glv1.PatchRequest, tokens int32) {
	if tokens <= 0 {
		tokens = defaultRequestTokens
	}
	limit := int(tokens) * bytesPerToken
	for {
		req.Prompt = report.RenderPrompt(req)
		if len(req.Prompt) <= limit || !shrink(req) {
			return
		}
	}
}

// shrink drops one piece of evidence; false when nothing more can go.
func shrink(req *glv1.PatchRequest) bool {
	if n := strings.Count(req.GetLogTail(), "\n") + 1; req.GetLogTail() != "" && n > minTailLines {
		// Cutting keeps evidence lines and adds a marker per gap, so a
		// cut tail can stop getting shorter: only a strictly shorter one
		// counts, or the loop would never end.
		if cut := lastLines(req.GetLogTail(), max(n/2, minTailLines)); len(cut) < len(req.GetLogTail()) {
			req.LogTail = cut
			return true
		}
	}
	if w := req.GetWindows(); len(w) > 1 {
		req.Windows = w[:len(w)-1]
		return true
	}
	if f := req.GetFailures(); len(f) > 1 {
		req.Failures = f[:len(f)-1]
		return true
	}
	if req.GetLogTail() != "" {
		req.LogTail = ""
		return true
	}
	return false
}
