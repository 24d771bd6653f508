// Package transition compares a fix run's verifications test by test: each
// test's move between the baseline (the run's first verification) and a
// later one — FAIL_TO_PASS, PASS_TO_PASS, PASS_TO_FAIL, FAIL_TO_FAIL, new,
// disappeared — and whether the run's targets are met, graded the way
// SWE-bench's harness grades (swebench.harness.grading): a FAIL_TO_PASS
// test that is skipped or missing counts as failing, every PASS_TO_PASS
// test must still pass, and the resolution is FULL, PARTIAL or NO.
//
// It works from the parsers' inventories (parse.StepReport.Inventory),
// which list every counted test, not from the capped test records. A
// test's state and whether a step passed are package verdict's
// (verdict.StateOf, verdict.StepPassed), the same the patch rules use;
// whether a patch is kept is decided there (verdict.Patch), never here:
// transitions report and grade.
package transition
