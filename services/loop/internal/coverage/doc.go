// Package coverage measures line coverage with each toolchain's own tool
// and reads what it wrote: the loop adds the collection to the test steps
// of a plan (Instrument), the executor hands the reports back as
// artifacts, and the parsers here turn them into per-file and total
// counts (Go's -coverprofile, LCOV as coverage.py writes it under
// greenlight's pytest launcher, Node's V8 coverage, gcov's JSON from the
// C/C++ image's wrappers). Coverage is information beside the verdict: nothing here is
// read by the verdict or the pass threshold.
package coverage
