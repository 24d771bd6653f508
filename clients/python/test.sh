#!/usr/bin/env bash
# test.sh: the Python client's checks, callable from the Makefile.
#
#   clients/python/test.sh [PYTEST ARGS...]
#
# Installs the Debian packages it needs when missing (PyPI is not used),
# checks that the committed stubs match the protos (generate.sh --check),
# type-checks the package (mypy) and runs pytest, the install recipe and
# build-wheel.sh included. The integration tests start .bin/greenlight serve (build
# it first: make build) and need Docker and the sandbox images (make
# images); they skip without them unless GREENLIGHT_INTEGRATION=1.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# Debian's interpreter: the python3-* packages are installed for it, not
# for another python3 (pyenv, /usr/local) that may come first on PATH.
python=${PYTHON:-/usr/bin/python3}

packages=(python3-grpcio python3-protobuf python3-pytest python3-pytest-timeout python3-mypy python3-venv python3-pip python3-setuptools openssl
	protobuf-compiler protobuf-compiler-grpc)
missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
	echo "test.sh: installing ${missing[*]}"
	if ! apt-get install -y -qq "${missing[@]}" >/dev/null; then
		apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null
	fi
fi

"$here/generate.sh" --check

cd "$here"
export PYTHONDONTWRITEBYTECODE=1 # no __pycache__ in the shared tree
# Type hints: every hand-written function annotated ([tool.mypy] in pyproject.toml).
"$python" -m mypy --cache-dir=/dev/null
exec "$python" -m pytest -p no:cacheprovider "$@"
