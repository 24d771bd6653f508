// Package cireport renders a finished greenlight run for CI systems: JUnit
// XML and CTRF JSON for test reporters, SARIF 2.1.0 for code scanning,
// GitHub Actions workflow commands (annotations) plus a job summary, and a
// compact Markdown report for pull-request comments.
//
// Every format is built from the run's Result alone (steps, tests,
// failures, verdict, level, score), so `greenlight verify --format` and
// `greenlight show --format` print the same thing for the same run. Text
// that came out of the sandbox (test names, messages, logs) is stripped of
// terminal escape sequences and control characters before it is written.
package cireport
