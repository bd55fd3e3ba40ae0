#!/usr/bin/env bash
# Proves a Debian package made by tools/package.sh on a bare root of its release,
# as a teacher's fresh machine would take it: makes the root (mmdebstrap
# --variant=apt, from the Debian mirror this machine's apt uses), installs the
# package there with apt, which brings its Depends from Debian, then a virtual
# display (xvfb, xauth); runs the app's --tour (it must exit 0 and save PNGs)
# and vitviz-cli on the built-in digits model, checks that the package holds
# the menu entry and icon, and that `apt remove` leaves none of its files.
#   bash tools/package-check.sh DEB RELEASE   (as root; RELEASE: bookworm or trixie)
# Prints each step's time. The root and its mounts go when it exits;
# PACKAGE_CHECK_TOUR=DIR keeps the tour's screenshots in DIR.
set -euo pipefail
case "${1:-}" in
  --help|-h) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
esac
[ $# -eq 2 ] && [ -f "$1" ] && [[ "$2" =~ ^(bookworm|trixie)$ ]] ||
  { echo "usage: tools/package-check.sh DEB bookworm|trixie (--help says more)" >&2; exit 2; }
deb=$(realpath "$1")
release=$2

source "$(dirname "$0")/bare_root.sh"
root=$(mktemp -d "/tmp/vitviz-package-$release.XXXXXX")
trap 'bare_root_remove "$root"' EXIT

step_start=$SECONDS
step() { echo "== $1"; step_start=$SECONDS; }
took() { echo "   took $((SECONDS - step_start)) s"; }
in_root() { chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
  DEBIAN_FRONTEND=noninteractive /bin/bash -c "$1"; }

step "bare $release root in $root"
bare_root "$release" "$root"
cp "$deb" "$root/tmp/"
took

step "apt install ./$(basename "$deb")"
in_root "apt-get update -qq && apt-get install -y -qq ./tmp/$(basename "$deb") >/dev/null"
in_root 'dpkg-query -W vitviz'
took

step "virtual display (xvfb, xauth)"
in_root 'apt-get install -y -qq --no-install-recommends xvfb xauth >/dev/null'
took

step "vitviz --tour /tmp/tour under xvfb-run"
# X servers in other roots share the display numbers: start the search away from 99.
in_root "xvfb-run -a -n $((300 + RANDOM % 300)) -s '-screen 0 1600x1000x24' vitviz --tour /tmp/tour >/tmp/tour.log 2>&1" ||
  { tail -20 "$root/tmp/tour.log"; echo "vitviz --tour failed" >&2; exit 1; }
shots=$(find "$root/tmp/tour" -name '*.png' | wc -l)
echo "   the tour saved $shots screenshots"
[ "$shots" -gt 0 ]
if [ -n "${PACKAGE_CHECK_TOUR:-}" ]; then
  mkdir -p "$PACKAGE_CHECK_TOUR"
  cp "$root"/tmp/tour/*.png "$PACKAGE_CHECK_TOUR/"
fi
took

step "vitviz-cli --model digits --top 3"
in_root 'vitviz-cli --help >/dev/null && vitviz-cli --model digits --top 3'
took

step "the menu entry and icon, then apt remove"
in_root 'dpkg -L vitviz' | grep -E 'applications/vitviz.desktop|icons/hicolor/.*/vitviz\.(png|svg)|bin/vitviz'
files=$(in_root 'dpkg -L vitviz' | grep -E '^/usr/(bin|share/(vitviz|applications|icons))/' || true)
in_root 'apt-get remove -y -qq vitviz >/dev/null'
left=$(for f in $files; do [ -e "$root$f" ] && [ ! -d "$root$f" ] && echo "$f"; done || true)
[ -z "$left" ] || { echo "apt remove left: $left" >&2; exit 1; }
[ ! -e "$root/usr/share/vitviz" ] || { echo "apt remove left /usr/share/vitviz" >&2; exit 1; }
echo "   apt remove left none of the package's files"
took
echo "package-check: $(basename "$deb") passed on a bare $release root in $SECONDS s"
