#!/usr/bin/env bash
# setup.sh ROOTFS — make Debian's Maven repository the offline default: the
# Maven global settings (Debian repo first, local repository under HOME),
# `mvn -o` allowed to read file:// repositories, and the Gradle init script.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$1
install -m 0644 "$here/settings.xml" "$root/etc/maven/settings.xml"
# The mvn script sources /etc/mavenrc (unless MAVEN_SKIP_RC): resolver
# config from system properties, kept ahead of the user's own MAVEN_OPTS.
printf '%s\n' '# greenlight: let `mvn -o` use the file:// Debian repository.' \
  'MAVEN_OPTS="-Daether.offline.protocols=file ${MAVEN_OPTS:-}"' >"$root/etc/mavenrc"
chmod 0644 "$root/etc/mavenrc"
install -d -m 0755 "$root/usr/share/gradle/init.d"
install -m 0644 "$here/debian-repo.gradle" "$root/usr/share/gradle/init.d/greenlight-debian-repo.gradle"
