package engine

import (
	"context"
	"fmt"

	"go.uber.org/zap"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/locate"
	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
)

// Sizes of a patch request.
const (
	requestFailures = 20
	requestTailLine = 200
)

// request builds the PatchRequest of the current round: the failing
// command and its evidence, the failures, code windows around the ranked
// fault locations of the current snapshot, the changed files, the
// guardrails, the feedback on the previous patch, and a ready prompt. It
// is built from f.view, never from a grading verification: of hidden
// tests it says only how many fail.
func (f *fixer) request(ctx context.Context) (*glv1.PatchRequest, error) {
	v := f.view
	req := &glv1.PatchRequest{
		RunId: f.r.id, Attempt: f.round, ChangedFiles: f.changed, Constraints: f.effectiveGuard().Proto(),
		Feedback: f.feedback,
	}
	if o, ok := firstFailure(v.outcomes); ok {
		req.FailingCommand, req.Workdir, req.ExitCode = o.Result.GetCommand(), o.Result.GetWorkdir(), o.Result.GetExitCode()
		req.LogTail = lastLines(parse.Readable(o.Result.GetTail()), requestTailLine)
	} else if v.passed() && f.cur.passed() {
		req.Feedback = joinFeedback(req.Feedback, fmt.Sprintf("Every required check passed but the score %.1f is below the threshold %.1f (%s).",
			v.result.GetScore().GetTotal(), f.opts.GetScoreThreshold(), v.result.GetScore().GetRule()))
	}
	req.Feedback = joinFeedback(req.Feedback, f.hiddenNote())
	fails := v.result.GetFailures()
	req.Failures = fails[:min(len(fails), requestFailures)]
	fsys, err := f.tr.fs(ctx, f.current)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		f.r.log.Warn("unpacking the snapshot for code windows failed; asking without them", zap.Error(err))
	} else {
		req.Windows = locate.FromFailures(domainFailures(v), fsys)
	}
	fitRequest(req, f.opts.GetRequestTokens())
	return req, nil
}

func joinFeedback(a, b string) string {
	if a == "" {
		return b
	}
	return a + "\n\n" + b
}
