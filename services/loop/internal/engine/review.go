package engine

import (
	"context"
	"fmt"
	"io/fs"
	"strings"
	"time"

	"google.golang.org/protobuf/proto"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/review"
)

// Bounds of a review: how long it may take and what of the change it quotes.
const (
	// reviewTimeout bounds the reviewer when its profile sets no timeout.
	reviewTimeout = 5 * time.Minute
	// maxReviewFileBytes is how much of one changed file a verify run's
	// review quotes; maxReviewFiles how many files.
	maxReviewFileBytes = 16 << 10
	maxReviewFiles     = 20
	// maxPlanBytes bounds ReviewOptions.plan.
	maxPlanBytes = 256 << 10
)

// reviewOptions checks a request's review options: the profile must be one
// the server configured, so that a request never names what runs. The
// stored options carry the profile chosen.
func (e *Engine) reviewOptions(o *glv1.ReviewOptions, field string) error {
	if o == nil {
		return nil
	}
	p, err := e.cfg.Profiles.Reviewer(o.GetProfile())
	if err != nil {
		return fmt.Errorf("%w: %s.profile: %w", ErrInvalidArgument, field, err)
	}
	if len(o.GetPlan()) > maxPlanBytes {
		return fmt.Errorf("%w: %s.plan is %d bytes, over %d", ErrInvalidArgument, field, len(o.GetPlan()), maxPlanBytes)
	}
	o.Profile = p.Name
	return nil
}

// review attaches the reviewer's report to a finished result, when the
// run asked for one (opts.review); the plan is the review's own, else the
// run's plan document. It runs after status, score and level are decided and
// writes only res.Review: the reviewer sees a copy of the result, and no
// answer of it, however malformed or flattering, reaches the verdict.
// ERROR and CANCELED runs are not reviewed: there is nothing verified.
func (r *run) review(ctx context.Context, opts *glv1.VerifyOptions, res *glv1.Result, diff func() string) {
	o := opts.GetReview()
	if o == nil || res == nil || (res.GetStatus() != glv1.Verdict_VERDICT_PASS && res.GetStatus() != glv1.Verdict_VERDICT_FAIL) {
		return
	}
	if ctx.Err() != nil {
		return
	}
	p, err := r.e.cfg.Profiles.Reviewer(o.GetProfile())
	if err != nil {
		res.Review = &glv1.Review{Profile: o.GetProfile(), Error: err.Error()}
		return
	}
	if p.Timeout <= 0 {
		p.Timeout = reviewTimeout
	}
	rv, err := review.New(p, review.Deps{Log: r.log.Named("review"), Now: r.e.now})
	if err != nil {
		res.Review = &glv1.Review{Profile: p.Name, Error: err.Error()}
		return
	}
	plan := o.GetPlan()
	if plan == "" {
		plan = opts.GetPlan() // the plan document the run was verified against
	}
	in := review.Input{Plan: plan, Diff: diff(), Result: proto.Clone(res).(*glv1.Result)}
	res.Review = rv.Review(ctx, in)
}

// patchesDiff is a fix run's change: the patches applied and kept.
func patchesDiff(patches []*glv1.PatchOutcome) string {
	var b strings.Builder
	for _, p := range patches {
		if p.GetApplied() && !p.GetRolledBack() {
			fmt.Fprintf(&b, "# patch of attempt %d\n%s\n", p.GetAttempt(), strings.TrimRight(p.GetDiff(), "\n"))
		}
	}
	return b.String()
}

// changedFilesText is a verify run's change: the changed files the request
// names, as they are in the snapshot (a verify run has no baseline to
// diff against), bounded.
func changedFilesText(tree fs.FS, files []string) string {
	var b strings.Builder
	for i, f := range files {
		if i == maxReviewFiles {
			fmt.Fprintf(&b, "(%d more changed files not shown)\n", len(files)-i)
			break
		}
		data, err := fs.ReadFile(tree, strings.TrimPrefix(f, "./"))
		if err != nil {
			fmt.Fprintf(&b, "=== %s (not readable in the snapshot: deleted?)\n", f)
			continue
		}
		if len(data) > maxReviewFileBytes {
			data = append(data[:maxReviewFileBytes:maxReviewFileBytes], []byte("\n[… cut …]")...)
		}
		fmt.Fprintf(&b, "=== %s\n%s\n", f, strings.TrimRight(string(data), "\n"))
	}
	return b.String()
}
