#!/bin/sh
# greenlight coverage: build and test driver wrapper (make, ctest, cmake,
# ninja). setup.sh installs one copy per driver in
# /opt/greenlight/coverage/bin with @REAL@ replaced by the real program.
#
# In a test step of a coverage-measured run the loop sets
# GREENLIGHT_COVERAGE_GCOV to the report file. The outermost driver runs
# the real program as a child, and when it has ended turns the .gcda data
# the tests left into that report (gcov-report), then ends as the program
# did: same exit status, or the same signal. Nested drivers (a recipe
# calling make by name; $(MAKE) is /usr/bin/make already) and every
# driver outside such a step just exec the real program.
#
# Why here and not a step of its own after the test step: the report is
# written even when tests fail (a failed step stops the pipeline before
# any later step), and the plan keeps exactly its steps, commands and
# results.
real=@REAL@
if [ -z "${GREENLIGHT_COVERAGE_GCOV-}" ] || [ -n "${GREENLIGHT_COVERAGE_DRIVER-}" ]; then
	exec "$real" "$@"
fi
GREENLIGHT_COVERAGE_DRIVER=1
export GREENLIGHT_COVERAGE_DRIVER
"$real" "$@"
status=$?
/opt/greenlight/coverage/gcov-report "$GREENLIGHT_COVERAGE_GCOV" </dev/null >/dev/null 2>&1
if [ "$status" -gt 128 ] && sig=$(kill -l "$status" 2>/dev/null); then
	# Killed by a signal: die of it too, as the step would have seen.
	trap - "$sig"
	kill -s "$sig" "$$"
fi
exit "$status"
