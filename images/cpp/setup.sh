#!/usr/bin/env bash
# setup.sh ROOTFS — greenlight's C/C++ coverage tools in /opt/greenlight/coverage
# (see coverage/*.sh): bin/ holds a compiler wrapper for every gcc name the
# image has (cc, gcc, g++, c++ and their versioned and triplet forms) and a
# driver wrapper for make, ctest, cmake and ninja; gcov-report turns the
# .gcda data into gcov's JSON. Nothing here is on the image's PATH: the
# loop puts bin/ first only for the steps of a run that measures coverage.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$1
dir=/opt/greenlight/coverage

install -d -m 0755 "$root$dir/bin"
install -m 0755 "$here/coverage/gcov-report.sh" "$root$dir/gcov-report"
# wrap TEMPLATE NAME: a copy of TEMPLATE for /usr/bin/NAME when the image
# has it. Copies, not links: a wrapper finds its program by the path baked
# in, whatever name a build tool resolves it to.
wrap() {
  local template=$1 name=$2
  [[ -L $root/usr/bin/$name || -x $root/usr/bin/$name ]] || return 0
  sed "s|@REAL@|/usr/bin/$name|" "$here/coverage/$template" >"$root$dir/bin/$name"
  chmod 0755 "$root$dir/bin/$name"
}
for cc in cc gcc c++ g++; do
  wrap compiler.sh "$cc"
  wrap compiler.sh "x86_64-linux-gnu-$cc"
done
for ver in "$root"/usr/bin/gcc-[0-9]* "$root"/usr/bin/g++-[0-9]*; do
  [[ -L $ver || -e $ver ]] || continue
  wrap compiler.sh "${ver##*/}"
  wrap compiler.sh "x86_64-linux-gnu-${ver##*/}"
done
for driver in make ctest cmake ninja; do
  wrap driver.sh "$driver"
done
ls "$root$dir/bin"
