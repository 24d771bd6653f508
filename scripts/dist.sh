#!/usr/bin/env bash
# dist.sh — greenlight's release files (make dist).
#
# GoReleaser (.goreleaser.yaml, in snapshot mode: nothing is published)
# cross-builds the CLI, the four services and the images' step runner with
# CGO off for linux/amd64, linux/arm64 and darwin/arm64, the CLI stamped with
# the version and commit, and packs one archive per platform:
# greenlight_VERSION_OS_ARCH.tar.gz holding the binaries, README.md,
# INSTALL.md, man pages and shell completions (share/), the sandbox images'
# recipes (images/, scripts/ensure-docker.sh).
# scripts/dist-sbom.sh writes a CycloneDX SBOM beside each archive
# (ARCHIVE.cdx.json). Then the Python client's wheel and sdist and the
# TypeScript client's npm tarball are added, and SHA256SUMS covers every
# release file.
#
# Usage: scripts/dist.sh [--host] [--no-clients]
#   --host        only this Linux machine's archive (quick: the archive-install
#                 test uses it); no client packages
#   --no-clients  no wheel or npm tarball
# Environment: VERSION (default `git describe --tags --always --dirty`),
# COMMIT (default `git rev-parse HEAD`),
# DIST_DIR (default dist/ in the repository). Needs go, goreleaser and
# cyclonedx-gomod on PATH (make dist installs both into .bin/), jq; for
# the clients what clients/python/build-wheel.sh installs, node and npm.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
HOST=0
CLIENTS=1
while (($#)); do
  case $1 in
  --host) HOST=1 CLIENTS=0 ;;
  --no-clients) CLIENTS=0 ;;
  -h | --help) sed -n '2,/^set /s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; exit 0 ;;
  *) echo "dist: unknown argument '$1' (want --host, --no-clients)" >&2; exit 2 ;;
  esac
  shift
done

log() { printf '[dist] %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

cd "$ROOT"
for tool in go goreleaser cyclonedx-gomod jq; do
  command -v "$tool" >/dev/null || die "$tool is missing (make dist installs goreleaser and cyclonedx-gomod into .bin/)"
done
VERSION=${VERSION:-$(git describe --tags --always --dirty 2>/dev/null || echo dev)}
COMMIT=${COMMIT:-$(git rev-parse HEAD 2>/dev/null || true)}
export GREENLIGHT_VERSION=$VERSION GREENLIGHT_COMMIT=$COMMIT GREENLIGHT_ROOT=$ROOT
DIST_DIR=${DIST_DIR:-$ROOT/dist}
mkdir -p "$(dirname "$DIST_DIR")"
DIST_DIR=$(cd "$(dirname "$DIST_DIR")" && pwd)/$(basename "$DIST_DIR")

# The effective configuration: the repository's, with dist set to DIST_DIR
# and, for --host, every `# dist:targets` list cut to this machine's target.
cfg=$(mktemp --suffix .yaml)
trap 'rm -f "$cfg"' EXIT
if ((HOST)); then
  [[ $(go env GOOS) == linux ]] || die "--host builds a Linux machine's archive; elsewhere run make dist"
  case $(go env GOARCH) in
  amd64) target=linux_amd64_v1 ;;
  arm64) target=linux_arm64_v8.0 ;;
  *) die "no release target for $(go env GOARCH)" ;;
  esac
  sed -E "s/\[[^]]*\] # dist:targets/[$target] # dist:targets/" .goreleaser.yaml >"$cfg"
  grep -q "\[$target\] # dist:targets" "$cfg" || die ".goreleaser.yaml has no '# dist:targets' list"
else
  cp .goreleaser.yaml "$cfg"
fi
printf '\ndist: %s\n' "$DIST_DIR" >>"$cfg"

# Man pages and shell completion scripts for the archives, written by a
# host build of the CLI (the same text for every platform) in a clean
# environment, so no GREENLIGHT_* variable of this shell shows as a default.
# GoReleaser's archive globs must be relative: the directory is under .bin/
# (ignored by git).
mkdir -p .bin
extras=$ROOT/$(mktemp -d .bin/dist-extras.XXXXXX)
trap 'rm -f "$cfg"; rm -rf "$extras"' EXIT
(cd cmd/greenlight && go build -o "$extras/greenlight" .)
mkdir -p "$extras/completions"
env -i PATH="$PATH" HOME=/nonexistent "$extras/greenlight" man "$extras/man" >/dev/null
env -i PATH="$PATH" HOME=/nonexistent "$extras/greenlight" completion bash >"$extras/completions/greenlight.bash"
env -i PATH="$PATH" HOME=/nonexistent "$extras/greenlight" completion zsh >"$extras/completions/_greenlight"
env -i PATH="$PATH" HOME=/nonexistent "$extras/greenlight" completion fish >"$extras/completions/greenlight.fish"
export GREENLIGHT_EXTRAS=${extras#"$ROOT"/}

log "version $VERSION, into $DIST_DIR"
goreleaser release --snapshot --clean --config "$cfg"

if ((CLIENTS)); then
  # The clients' own build commands (their READMEs): a wheel and an sdist,
  # and the npm tarball whose prepare script installs the locked build tools
  # and compiles dist/.
  log "Python client: wheel and sdist"
  bash clients/python/build-wheel.sh "$DIST_DIR" ||
    die "the Python client did not build (bash clients/python/build-wheel.sh DIR)"
  log "TypeScript client: npm tarball"
  (cd clients/typescript && npm pack --pack-destination "$DIST_DIR") ||
    die "the TypeScript client did not pack (cd clients/typescript && npm pack)"
fi

# SHA256SUMS: every release file, in the format `sha256sum -c` checks.
(
  cd "$DIST_DIR"
  shopt -s nullglob
  files=(*.tar.gz *.cdx.json *.whl *.tgz)
  ((${#files[@]})) || die "no release file in $DIST_DIR"
  sha256sum -- "${files[@]}" >SHA256SUMS
  log "release files in $DIST_DIR:"
  ls -l -- "${files[@]}" SHA256SUMS >&2
)
