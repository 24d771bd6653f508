#!/bin/sh
# greenlight coverage: compiler wrapper. setup.sh installs one copy per
# compiler name (cc, gcc, g++, ...) in /opt/greenlight/coverage/bin with
# @REAL@ replaced by the real compiler's path. The loop puts that
# directory first on PATH only for the build and test steps of a run that
# measures C/C++ coverage (services/loop/internal/coverage, Instrument), so
# a project's own CFLAGS, CC and Makefile defaults stay exactly as they
# are: the wrapper adds --coverage to the compiler's arguments, nothing
# else.
#
# Invocations --coverage would change or break run untouched: those that
# do not compile to an object (-E, -M, -MM, -S, -fsyntax-only, version
# and -print queries, -v: CMake reads the implicit link line from a -v
# compile), links without the C library (-nostdlib and friends: libgcov
# needs it), relocatable links (-r: a second copy of libgcov in the
# object) and builds that profile themselves (-fprofile-use/-generate).
real=@REAL@
for arg do
	case $arg in
	-E | -M | -MM | -S | -fsyntax-only | -v | '-###' | --version | --help | --help=* | -dump* | -print-* | --print-* | \
		-nostdlib | -nodefaultlibs | -nolibc | -nostartfiles | -r | -Wl,-r | -Wl,--relocatable | \
		-fprofile-use | -fprofile-use=* | -fprofile-generate | -fprofile-generate=* | -fauto-profile | -fauto-profile=*)
		exec "$real" "$@"
		;;
	esac
done
exec "$real" --coverage "$@"
