// Package review asks a reviewer model for its report on a verified
// change: the seed's rubric (correctness 0-3, completeness 0-2, testing
// 0-2, code quality 0-2, best practices 0-1) as structured JSON. The report
// is model opinion, an L1 signal: the engine attaches it to a result whose
// status, score and level are already decided, and nothing reads it back.
// A reviewer that fails or answers malformed JSON yields a Review with its
// error set, never a run error.
package review
