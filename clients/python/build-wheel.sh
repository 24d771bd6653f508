#!/usr/bin/env bash
# build-wheel.sh: builds the client's wheel (and sdist) into OUTDIR with
# the standard tooling, offline: pip's PEP 517 build with the setuptools
# and wheel Debian installs (--no-build-isolation: an isolated build would
# fetch them from PyPI). `make dist` calls it.
#
#   clients/python/build-wheel.sh OUTDIR
#
# Writes OUTDIR/greenlight_client-VERSION-py3-none-any.whl and
# OUTDIR/greenlight-client-VERSION.tar.gz. It builds from a copy of the
# folder, so the work tree gets no build/ or *.egg-info and two builds do
# not share them. Like test.sh it uses Debian's python3 (PYTHON overrides):
# the python3-* packages are installed for it, not for another python3
# (pyenv, /usr/local) first on PATH.
set -euo pipefail

if [[ $# -ne 1 ]]; then
	echo "usage: $0 OUTDIR" >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
python=${PYTHON:-/usr/bin/python3}
mkdir -p "$1"
out=$(cd "$1" && pwd)

packages=(python3-pip python3-setuptools python3-wheel)
missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
	echo "build-wheel.sh: installing ${missing[*]}"
	if ! apt-get install -y -qq "${missing[@]}" >/dev/null; then
		apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null
	fi
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar -C "$here" --exclude=./tests --exclude=./build --exclude='./*.egg-info' --exclude='*/__pycache__' \
	--exclude=./.venv -cf - . | tar -C "$work" -xf -

export PYTHONDONTWRITEBYTECODE=1 SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$here" log -1 --format=%ct 2>/dev/null || date +%s)}
"$python" -m pip wheel --quiet --no-deps --no-build-isolation --no-cache-dir "$work" -w "$out"
# The sdist through setuptools' PEP 517 hook (Debian has no python3-build in
# every release; the hook is what `python -m build --sdist` calls).
(cd "$work" && "$python" -W ignore -c 'import sys; from setuptools import build_meta as b; print(b.build_sdist(sys.argv[1]))' "$out") >/dev/null
ls "$out"/greenlight_client-*.whl "$out"/greenlight-client-*.tar.gz
