// Package summary renders finished runs for the CLI: the human summary
// (status banner, per-step table, test counts, failures with file:line,
// score and level), the output contract as JSON, Markdown, and the run
// list table.
package summary
