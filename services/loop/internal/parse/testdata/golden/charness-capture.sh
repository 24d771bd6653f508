#!/bin/bash
# Captures the C harness goldens listed in charness.tsv with capture.sh, in a
# private /workspace so that no other capture's is touched:
#
#   unshare -m bash -c 'mount --make-rprivate / && mkdir -p /workspace &&
#     mount -t tmpfs tmpfs /workspace && bash charness-capture.sh'
#
# The single-header harnesses and the cmocka 2.x build are expected under
# /tmp/h, as when these were captured (see src/charness/README.md). Logs and
# the manifest are written under OUT and copied here by hand: capture.sh
# would otherwise add the cases to manifest.tsv, whose cases golden_test.go
# lists; charness_test.go reads charness.tsv.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
CAP=$HERE/capture.sh
S=$HERE/src/charness
export GOLDEN=${OUT:-/tmp/charness-capture}
mkdir -p "$GOLDEN"
c() { bash "$CAP" "$@"; }
C2='CMOCKA_CFLAGS=-I/tmp/h/cmocka2/include CMOCKA_LIBS="-L/tmp/h/cmocka2/lib -Wl,-rpath,/tmp/h/cmocka2/lib -lcmocka"'
c minctest pass $S c 'make check T=minctest'
c minctest fail $S c 'CASE=fail make check T=minctest'
c minctest fail-0.2 $S c 'CASE=fail make check T=minctest MINCTEST=/tmp/h/minctest-0.2'
c minctest pass-0.2 $S c 'make check T=minctest MINCTEST=/tmp/h/minctest-0.2'
c greatest pass $S c 'make check T=greatest'
c greatest fail $S c 'CASE=fail make check T=greatest'
c greatest fail-verbose $S c 'CASE=fail make check T=greatest ARGS=-v'
c greatest fail-1.0 $S c 'CASE=fail make check T=greatest GREATEST=/tmp/h/greatest-1.0'
c acutest pass $S c 'make check T=acutest'
c acutest fail $S c 'CASE=fail make check T=acutest'
c acutest fail-old $S c 'CASE=fail make check T=acutest ACUTEST=/tmp/h/acutest-old'
c acutest pass-old $S c 'make check T=acutest ACUTEST=/tmp/h/acutest-old'
c cmocka pass $S c 'make check T=cmocka'
c cmocka fail $S c 'CASE=fail make check T=cmocka'
c cmocka fail-2.0 $S c "CASE=fail make check T=cmocka $C2"
c cmocka pass-2.0 $S c "make check T=cmocka $C2"
c check pass $S c 'make check T=check'
c check fail $S c 'CASE=fail make check T=check'
c check fail-verbose $S c 'CASE=fail CK_VERBOSITY=verbose make check T=check'
c gtest pass $S c 'make check T=gtest'
c gtest fail $S c 'CASE=fail make check T=gtest'
c gtest fail-brief $S c 'CASE=fail make check T=gtest ARGS=--gtest_brief=1'
c catch2 pass $S c 'make check T=catch2'
c catch2 fail $S c 'CASE=fail make check T=catch2'
c doctest pass $S c 'make check T=doctest'
c doctest fail $S c 'CASE=fail make check T=doctest'
c csummary pass $S c 'make check T=summary'
c csummary fail $S c 'CASE=fail make check T=summary'
c csummary fail-exit0 $S c 'mkdir -p /tmp/gl && cc -Wall -o /tmp/gl/summary_test tests/summary_test.c calc.c && CASE=fail /tmp/gl/summary_test'
c csummary fail-exit0-failed-only $S c 'mkdir -p /tmp/gl && cc -Wall -o /tmp/gl/failed_only_test tests/failed_only_test.c calc.c && CASE=fail /tmp/gl/failed_only_test'
AM='autoreconf -i >/dev/null 2>&1 && ./configure MINCTEST=/tmp/h/minctest >/dev/null &&'
c automake pass $S am "$AM make check"
c automake fail $S am "$AM CASE=fail make check"
c automake fail-verbose $S am "$AM CASE=fail make check VERBOSE=1"
c charness mixed-pass $S c 'make check T="minctest greatest acutest cmocka check gtest catch2 doctest summary"'
