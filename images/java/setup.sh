#!/usr/bin/env bash
# setup.sh ROOTFS — make Debian's Maven repository the offline default: the
# Maven global settings (Debian repo first, local repository under HOME),
# `mvn -o` allowed to read file:// repositories, a batch-mode `mvn`, and the
# Gradle init script.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$1
install -m 0644 "$here/settings.xml" "$root/etc/maven/settings.xml"
install -m 0644 "$here/mavenrc" "$root/etc/mavenrc"
# `mvn` on PATH is a wrapper adding --batch-mode and --no-transfer-progress
# (Maven 3.8 has no MAVEN_ARGS): plain log lines without colour codes or
# download progress, as a CI log would have them.
install -m 0755 "$here/mvn" "$root/usr/local/bin/mvn"
install -d -m 0755 "$root/usr/share/gradle/init.d"
install -m 0644 "$here/debian-repo.gradle" "$root/usr/share/gradle/init.d/greenlight-debian-repo.gradle"
