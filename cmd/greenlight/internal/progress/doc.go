// Package progress shows a run's events while it runs: one line per
// meaningful event (discovery, step started/finished, parsed tests,
// retries, patches, the end) and, on a terminal, a spinner line at the
// bottom with the running step, its elapsed time and its latest log line,
// redrawn in place. Off a terminal (CI logs, pipes) it prints the same
// lines and nothing else, so logs stay readable and diffable.
//
// It is a small renderer on golang.org/x/term rather than a progress-bar
// library: the events already carry all the structure, the output must be
// testable byte for byte in plain mode, and a spinner line is a dozen lines
// of ANSI (carriage return, erase line).
package progress
