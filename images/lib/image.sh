# shellcheck shell=bash
# image.sh — recipe hashing, `docker import`, the smoke check and tagging.
# Sourced by images/build.sh.

# recipe_files prints, relative to images/, every file that shapes image $1:
# the build script and its library, the common recipe and the image's own.
# README.md files are documentation and do not count.
recipe_files() {
  (cd "$IMAGES_DIR" && find build.sh lib common "$1" -type f ! -name '*.md' | LC_ALL=C sort)
}

# recipe_hash prints the first 12 hex digits of a sha256 over the suite, the
# recipe files' names and contents, the greenlight-runner binary, and the
# host inputs the image's optional inputs.sh prints (the Go toolchain's
# version for go).
recipe_hash() {
  local name=$1 f
  {
    printf 'suite %s\n' "$(debian_suite)"
    printf 'runner %s\n' "$(runner_digest)"
    for f in $(recipe_files "$name"); do
      printf 'file %s %s\n' "$f" "$(sha256sum <"$IMAGES_DIR/$f" | cut -d' ' -f1)"
    done
    if [[ -r $IMAGES_DIR/$name/inputs.sh ]]; then
      printf 'inputs\n'
      bash "$IMAGES_DIR/$name/inputs.sh"
    fi
  } | sha256sum | cut -c1-12
}

# image_exists reports whether a local image reference exists.
image_exists() { docker image inspect "$1" >/dev/null 2>&1 </dev/null; }

# import_rootfs streams the tree into `docker import` with the recipe's
# --change lines and prints the new image id. Device nodes, /proc and /sys
# contents stay out: the engine provides its own at run time.
import_rootfs() {
  local root=$1 name=$2 hash=$3 line changes=()
  while IFS= read -r line; do
    changes+=(--change "$line")
  done < <(read_list "$IMAGES_DIR/common/changes" "$IMAGES_DIR/$name/changes")
  changes+=(--change "LABEL greenlight.image=$name greenlight.recipe=$hash greenlight.runner=$RUNNER_PROTOCOL")
  tar -C "$root" --numeric-owner --exclude='./dev/*' --exclude='./proc/*' --exclude='./sys/*' -c . |
    docker import "${changes[@]}" --message "greenlight $name recipe $hash" - | tail -n 1
}

# check_image runs the runner check and the recipe's check script in the
# new image the way the executor runs steps: no network, read-only root,
# tmpfs scratch, uid 10001, no capabilities, an init process. An image that
# fails it is never tagged.
check_image() {
  local id=$1 name=$2
  docker run --rm --init --network none --read-only \
    --tmpfs /tmp:exec,mode=1777 \
    --tmpfs "$SANDBOX_HOME:exec,uid=$SANDBOX_UID,gid=$SANDBOX_GID" \
    --tmpfs "/workspace:exec,uid=$SANDBOX_UID,gid=$SANDBOX_GID" \
    --user "$SANDBOX_UID:$SANDBOX_GID" --cap-drop ALL --security-opt no-new-privileges \
    "$id" sh -ec "$(runner_check; cat "$IMAGES_DIR/$name/check")" </dev/null
}

# tag_image points NAME:hash and NAME:latest at the image. The image they
# pointed at before (a --force rebuild of the same recipe) is removed once
# no tag is left on it.
tag_image() {
  local id=$1 ref=$2 hash=$3 old
  old=$(docker image inspect --format '{{.Id}}' "$ref:latest" 2>/dev/null </dev/null || true)
  docker tag "$id" "$ref:$hash"
  docker tag "$id" "$ref:latest"
  if [[ -n $old && $old != "$id" ]] &&
    [[ -z $(docker image inspect --format '{{join .RepoTags ""}}' "$old" 2>/dev/null </dev/null) ]]; then
    docker rmi "$old" >/dev/null 2>&1 </dev/null || true
  fi
}

# prune_old removes this image's tags from earlier recipes, so rebuilding
# after recipe changes does not pile up gigabytes. In-use images stay.
prune_old() {
  local ref=$1 hash=$2 tag
  for tag in $(docker image ls --format '{{.Tag}}' "$ref" </dev/null); do
    [[ $tag == "$hash" || $tag == latest || $tag == '<none>' ]] && continue
    if docker rmi "$ref:$tag" >/dev/null 2>&1 </dev/null; then log "removed old $ref:$tag"; fi
  done
}

# image_size prints an image's size as docker reports it.
image_size() { docker image ls --format '{{.Size}}' "$1" </dev/null | head -n 1; }
