#!/usr/bin/env bash
# Makes a Debian package of queued, queuectl, queued-mqtt, queued-web and queued-fleet: the release build of contrib/install.sh (Swift runtime
# linked in) staged as /usr/bin, man pages, completions, the systemd units in /usr/lib/systemd and
# /etc/queued/queued.conf (a conffile), then `dpkg-deb --build`. Depends: is what dpkg-shlibdeps finds the
# binaries linked against — FFmpeg's, SDL2's, SDL2_ttf's, fontconfig's and libpulse's runtime packages, never
# the -dev ones — plus fonts-dejavu-core, the overlays' fallback font.
#
# Usage: contrib/deb/build.sh [--no-build] [--configuration release|debug] [--output DIR]
#        (default DIR: .build/deb; the options go to contrib/install.sh)
# Then:  sudo apt-get install ./.build/deb/queued_VERSION_ARCH.deb
set -euo pipefail
cd "$(dirname "$0")/../.."
root_dir="$PWD"

install_options=()
# xz for a package to ship; the tests' debug build is packaged with fast gzip (xz takes ~90 s on it).
compression=(-Zxz)
output="$root_dir/.build/deb"
while (($#)); do
  case "$1" in
    --no-build) install_options+=(--no-build) ;;
    --configuration)
      install_options+=(--configuration "${2:?--configuration needs release or debug}")
      [[ "$2" == debug ]] && compression=(-Zgzip -z1)
      shift
      ;;
    --output) output="${2:?--output needs a directory}"; shift ;;
    -h | --help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "deb/build.sh: unknown option $1" >&2; exit 64 ;;
  esac
  shift
done
for tool in dpkg-deb dpkg-shlibdeps; do
  command -v "$tool" >/dev/null || { echo "deb/build.sh: $tool is missing (apt-get install dpkg-dev)" >&2; exit 1; }
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
stage="$work/stage"
bash contrib/install.sh --prefix /usr --destdir "$stage" "${install_options[@]}" >/dev/null
# dpkg keeps its own list of the package's files; the config belongs in /etc.
rm -rf "$stage/usr/share/queued"
mkdir -p "$stage/etc"
mv "$stage/usr/etc/queued" "$stage/etc/queued"
rmdir "$stage/usr/etc"

version="$("$stage/usr/bin/queued" --version | head -n1 | cut -d' ' -f2)"
architecture="$(dpkg --print-architecture)"
# dpkg-shlibdeps reads the source package's control file; a minimal one is enough.
mkdir -p "$work/src/debian"
printf 'Source: queued\n\nPackage: queued\nArchitecture: any\n' >"$work/src/debian/control"
depends="$(cd "$work/src" && dpkg-shlibdeps -O "$stage/usr/bin/queued" "$stage/usr/bin/queuectl" "$stage/usr/bin/queued-mqtt" "$stage/usr/bin/queued-web" "$stage/usr/bin/queued-fleet" 2>/dev/null |
  sed -n 's/^shlibs:Depends=//p')"
[[ -n "$depends" ]] || { echo "deb/build.sh: dpkg-shlibdeps found no dependencies" >&2; exit 1; }
# queued-webview (web items) is recommended, not required: without WPE WebKit the daemon refuses web items
# with the reason and plays everything else. Software rendering needs Mesa's drivers, which nothing pulls in.
recommends="pulseaudio | pipewire-pulse"
if [[ -x "$stage/usr/bin/queued-webview" ]]; then
  web_depends="$(cd "$work/src" && dpkg-shlibdeps -O "$stage/usr/bin/queued-webview" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')"
  recommends="$recommends, ${web_depends:+$web_depends, }libegl-mesa0, libgl1-mesa-dri"
fi

mkdir -p "$stage/DEBIAN"
printf '/etc/queued/queued.conf\n/etc/queued/queued-mqtt.conf\n/etc/queued/queued-web.conf\n/etc/queued/queued-fleet.conf\n' >"$stage/DEBIAN/conffiles"
cat >"$stage/DEBIAN/control" <<EOF
Package: queued
Version: $version-1
Architecture: $architecture
Maintainer: queued developers <queued@localhost>
Installed-Size: $(du -sk --exclude=DEBIAN "$stage" | cut -f1)
Depends: $depends, fonts-dejavu-core
Recommends: $recommends
Section: video
Priority: optional
Description: gapless media-queue playback daemon for unattended screens
 queued owns a queue of videos, sounds, still images and http(s) items and plays it gaplessly,
 forever if asked, through FFmpeg, SDL2 and PulseAudio. Clients drive it with JSON-RPC 2.0 on a
 Unix socket; queuectl is its command-line client; queued-mqtt connects a screen to a fleet
 through an MQTT broker; queued-web serves a page to run the screen from a browser; queued-fleet
 serves a page for the whole fleet through the broker. Units: queued.service (user),
 queued-signage.service (a screen with its own user), queued-mqtt.service, queued-web.service and
 queued-fleet.service; settings in /etc/queued/queued.conf, queued-mqtt.conf, queued-web.conf and
 queued-fleet.conf.
EOF
mkdir -p "$output"
package="$output/queued_${version}-1_${architecture}.deb"
dpkg-deb --root-owner-group "${compression[@]}" --build "$stage" "$package" >/dev/null
echo "$package"
