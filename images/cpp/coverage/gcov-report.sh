#!/bin/sh
# gcov-report OUT — greenlight coverage: run gcov (the compiler's own,
# version-matched to the image's gcc) on every .gcno the build left in the
# workspace and /tmp, and write its JSON (one document per object, as
# `gcov --json-format --stdout` prints it), gzipped, to OUT. An object
# whose program never ran has no .gcda: gcov counts its lines as not run.
# The loop (services/loop/internal/coverage, ParseGcov) keeps the
# workspace's own source files and drops system headers and test code.
# A run that timed out writes nothing rather than part of a report.
set -u
out=${1:?usage: gcov-report OUT}
list=$out.list
rc=$out.rc
find /workspace /tmp -name 'greenlight-coverage-*' -prune -o -type f -name '*.gcno' -print0 >"$list" 2>/dev/null
if [ ! -s "$list" ]; then
	rm -f "$list"
	exit 0
fi
# From /: gcov writes nothing with --stdout, and resolves each object's
# sources from the directory recorded at compile time.
cd / || exit 1
{
	timeout -k 5 120 xargs -0 gcov --json-format --stdout <"$list" 2>/dev/null
	echo $? >"$rc"
} | gzip -1 >"$out.tmp"
# xargs: 0 all went well, 123 gcov failed on some object (its documents
# are missing, the others stand); anything else (124: timed out) drops it.
case $(cat "$rc" 2>/dev/null) in
0 | 123) mv -f "$out.tmp" "$out" ;;
*) rm -f "$out.tmp" ;;
esac
rm -f "$list" "$rc"
