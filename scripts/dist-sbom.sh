#!/usr/bin/env bash
# dist-sbom.sh — one CycloneDX SBOM (JSON) for one release archive.
#
# GoReleaser's sboms step runs it for each archive of `make dist`
# (.goreleaser.yaml). It extracts the archive, asks cyclonedx-gomod for the
# SBOM of each Go binary in it (the modules Go recorded in the binary, with
# their versions and go.sum hashes: what was really linked, for the
# archive's own OS and architecture), and merges them into one document
# whose subject is the archive and whose components are the union.
#
# Usage: scripts/dist-sbom.sh ARCHIVE DOCUMENT
# Environment: GREENLIGHT_VERSION (the release's version, set by
# scripts/dist.sh). Needs cyclonedx-gomod (make dist installs it into .bin/),
# go (cyclonedx-gomod runs `go version -m`), jq, tar.
set -euo pipefail

archive=${1:?usage: dist-sbom.sh ARCHIVE DOCUMENT}
document=${2:?usage: dist-sbom.sh ARCHIVE DOCUMENT}
version=${GREENLIGHT_VERSION:-dev}
command -v cyclonedx-gomod >/dev/null || { echo "dist-sbom: cyclonedx-gomod is missing (make dist installs it into .bin/)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/x" "$work/boms"
tar -C "$work/x" -xzf "$archive"

# buildsetting prints one build setting Go recorded in a binary (GOOS...).
buildsetting() { go version -m "$1" | awk -v k="$2" '$1 == "build" && index($2, k "=") == 1 { print substr($2, length(k) + 2) }'; }

n=0
while IFS= read -r -d '' bin; do
  # cyclonedx-gomod takes the package URLs' goos and goarch from `go env`:
  # those of the binary, not of this machine.
  GOOS=$(buildsetting "$bin" GOOS) GOARCH=$(buildsetting "$bin" GOARCH) \
    cyclonedx-gomod bin -json -output-version 1.6 -version "$version" \
    -output "$work/boms/$(basename "$bin").cdx.json" "$bin" 2>"$work/log" ||
    { cat "$work/log" >&2; exit 1; }
  n=$((n + 1))
done < <(find "$work/x" -maxdepth 2 -type f -name 'greenlight*' -perm -u+x -print0)
((n > 0)) || { echo "dist-sbom: no greenlight binary in $archive" >&2; exit 1; }

name=$(basename "$archive")
name=${name%.tar.gz}
serial=$(cat /proc/sys/kernel/random/uuid 2>/dev/null || uuidgen | tr '[:upper:]' '[:lower:]')
# The archive is the SBOM's subject; each binary's main module is one of
# its components; the modules and their dependency edges are the union of
# the binaries' (edges of one module merged).
jq -s --arg name "$name" --arg version "$version" --arg serial "urn:uuid:$serial" '
  {
    bomFormat: "CycloneDX",
    specVersion: .[0].specVersion,
    serialNumber: $serial,
    version: 1,
    metadata: {
      timestamp: (now | todate),
      tools: .[0].metadata.tools,
      component: {
        type: "application", "bom-ref": ("archive:" + $name), name: $name, version: $version,
        components: ([.[].metadata.component] | unique_by(.["bom-ref"]))
      }
    },
    components: ([.[].components // [] | .[]] | unique_by(.["bom-ref"])),
    dependencies: ([.[].dependencies // [] | .[]] | group_by(.ref)
      | map({ref: .[0].ref, dependsOn: ([.[].dependsOn // [] | .[]] | unique)}))
  }' "$work"/boms/*.cdx.json >"$document"
