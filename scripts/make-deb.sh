#!/usr/bin/env bash
# `make deb`: a Debian package of themed built with dpkg-deb, no debhelper.
#
# The binary is linked with Swift's standard library and Foundation statically, so it needs only
# Debian's own libraries; Depends is worked out from the libraries it links (the package that
# owns each, at least the installed version). Contents:
#   /usr/bin/themed
#   /lib/systemd/system/themed.service      (config/systemd/themed.service)
#   /etc/themed/themed.json                 (a conffile: themes in /var/lib/themed/themes)
#   /var/lib/themed/themes/                 (empty; the service's working directory)
#   /usr/share/doc/themed/                  (README, API, CONFIG, copyright, changelog)
# postinst makes the `themed` system user and group and gives it /var/lib/themed; postrm purge
# removes them again.
set -euo pipefail
fail() { echo "make-deb.sh: $*" >&2; exit 1; }
trap 'echo "make-deb.sh: line $LINENO failed (exit $?): $BASH_COMMAND" >&2' ERR
cd "$(dirname "$0")/.."
BINARY=${BINARY:-.build-deb/release/themed}
OUT=${OUT:-out}
version=$(sed -n 's/.*static let version = "\(.*\)".*/\1/p' Sources/themed/Themed.swift)
architecture=$(dpkg --print-architecture)
package="themed_${version}_${architecture}"
root="$OUT/$package"
rm -rf "$root"
install -d "$root/DEBIAN" "$root/usr/bin" "$root/lib/systemd/system" "$root/etc/themed" \
  "$root/var/lib/themed/themes" "$root/usr/share/doc/themed" "$root/usr/share/lintian/overrides"

install -m 0755 "$BINARY" "$root/usr/bin/themed"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/themed"
install -m 0644 config/systemd/themed.service "$root/lib/systemd/system/themed.service"
cat > "$root/etc/themed/themed.json" <<'JSON'
{
  "host": "127.0.0.1",
  "port": 8080,
  "themes": "/var/lib/themed/themes",
  "db": "/var/lib/themed/themed.sqlite",
  "blobs": "/var/lib/themed/blobs",
  "logFormat": "json"
}
JSON
chmod 0644 "$root/etc/themed/themed.json"
echo /etc/themed/themed.json > "$root/DEBIAN/conffiles"

for doc in README.md docs/API.md docs/CONFIG.md; do install -m 0644 "$doc" "$root/usr/share/doc/themed/"; done
cat > "$root/usr/share/doc/themed/copyright" <<EOF
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: themed
Source: https://github.com/themed/themed

Files: *
Copyright: 2026 the themed authors
License: Apache-2.0
 On Debian systems, the full text of the Apache License, Version 2.0 can be found in
 /usr/share/common-licenses/Apache-2.0.
EOF
changelog_date=$(date -R -d "@$(git log -1 --format=%ct 2>/dev/null || date +%s)")
cat > "$OUT/changelog" <<EOF
themed ($version) unstable; urgency=medium

  * Package built from $(git describe --always --dirty 2>/dev/null || echo "a source tree").

 -- themed maintainers <themed@example.org>  $changelog_date
EOF
gzip -9n < "$OUT/changelog" > "$root/usr/share/doc/themed/changelog.gz"
chmod 0644 "$root/usr/share/doc/themed/changelog.gz"
rm "$OUT/changelog"
# Documented override: no manual page (the commands document themselves).
cat > "$root/usr/share/lintian/overrides/themed" <<'EOF'
# A service binary without a manual page; `themed --help` documents every command.
themed: no-manual-page [usr/bin/themed]
EOF
chmod 0644 "$root/usr/share/lintian/overrides/themed"

# Depends: the package of every shared library the binary links, at its installed version, and
# libvips, which it loads when it first codes an image (Sources/CVips/vips.c).
# Every reader here reads its input to the end: under pipefail, a reader that stops early (awk's
# `exit`) kills the writer with SIGPIPE once ldconfig's cache outgrows a pipe's buffer, and the
# script ended there without a word.
libraries=$(ldd "$root/usr/bin/themed" | awk '/=> \// {print $3}'
  ldconfig -p | awk '$1 == "libvips.so.42" && !found {print $NF; found = 1}')
[[ $libraries == *libvips.so.42* ]] || fail "libvips.so.42 is not installed (apt-get install libvips42)"
depends=$(for library in $libraries; do
  owner=$(dpkg -S "$(readlink -f "$library")" 2>/dev/null || dpkg -S "$library" 2>/dev/null) ||
    fail "no installed Debian package owns $library, so Depends cannot name it"
  name=${owner%%:*}
  echo "$name (>= $(dpkg-query -W -f='${Version}' "$name" | sed 's/-[^-]*$//'))"
done | sort -u | paste -sd, | sed 's/,/, /g')

cat > "$root/DEBIAN/control" <<EOF
Package: themed
Version: $version
Architecture: $architecture
Maintainer: themed maintainers <themed@example.org>
Depends: adduser, $depends
Section: net
Priority: optional
Homepage: https://github.com/themed/themed
Installed-Size: $(du -sk "$root" --exclude=DEBIAN | cut -f1)
Description: theme resource server for Apple asset catalogs
 themed loads themes made of Apple asset catalogs (.car files, .xcassets
 folders and bundles with .lproj folders), indexes every colour, image and
 string with its traits in SQLite and answers lookups over HTTP/JSON. A
 catalog dropped into a theme folder is served at once; a broken one never
 replaces a good one.
EOF

cat > "$root/DEBIAN/postinst" <<'EOF'
#!/bin/sh
set -e
if [ "$1" = configure ]; then
    if ! getent passwd themed >/dev/null; then
        adduser --system --group --home /var/lib/themed --no-create-home --gecos "themed theme server" themed >/dev/null
    fi
    chown themed:themed /var/lib/themed /var/lib/themed/themes
    if [ -d /run/systemd/system ]; then
        systemctl --system daemon-reload >/dev/null || true
        deb-systemd-helper enable themed.service >/dev/null || true
        deb-systemd-invoke start themed.service >/dev/null || true
    fi
fi
EOF
cat > "$root/DEBIAN/prerm" <<'EOF'
#!/bin/sh
set -e
if [ -d /run/systemd/system ] && [ "$1" = remove ]; then
    deb-systemd-invoke stop themed.service >/dev/null || true
fi
EOF
cat > "$root/DEBIAN/postrm" <<'EOF'
#!/bin/sh
set -e
if [ "$1" = purge ]; then
    rm -rf /var/lib/themed/blobs /var/lib/themed/themed.sqlite /var/lib/themed/themed.sqlite-wal /var/lib/themed/themed.sqlite-shm
    if getent passwd themed >/dev/null; then deluser --system themed >/dev/null 2>&1 || true; fi
    if command -v deb-systemd-helper >/dev/null; then deb-systemd-helper purge themed.service >/dev/null || true; fi
fi
if [ -d /run/systemd/system ]; then systemctl --system daemon-reload >/dev/null || true; fi
EOF
chmod 0755 "$root/DEBIAN/postinst" "$root/DEBIAN/prerm" "$root/DEBIAN/postrm"

(cd "$root" && find . -path ./DEBIAN -prune -o -type f -print | sed 's|^\./||' | sort | xargs md5sum) > "$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/md5sums"
dpkg-deb --root-owner-group --build "$root" "$OUT/$package.deb" >/dev/null
echo "$OUT/$package.deb"
