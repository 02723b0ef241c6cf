#!/usr/bin/env bash
# Installs what queued needs to build, run and test on Debian 12: FFmpeg, SDL2, SDL2_ttf, fontconfig and
# libpulse development packages, the DejaVu fonts (overlay text's default), a PulseAudio server and its
# tools (tests start a private one), Xvfb (video tests), the ffmpeg CLI (test fixtures and the demo loop),
# nginx (network-item tests, on loopback), libmosquitto-dev (the MQTT module) with the mosquitto broker and its
# tools (MQTT tests start a private broker on loopback) and openssl (their TLS test certificates), libgpiod-dev
# (GPIO triggers and outputs), dpkg-dev and
# binutils (contrib/deb/build.sh's dpkg-shlibdeps, install.sh's strip), Chromium and its driver (the web
# page's browser test, headless, with selenium from PyPI), WPE WebKit's development files and Mesa's
# software drivers (queued-webview, which renders web items off-screen; without them the daemon builds and
# plays everything else, and refuses web items with the reason). Idempotent: it installs only what is
# missing.
# Usage: contrib/setup.sh [--bench]   (--bench adds mpv for contrib/bench/)
set -euo pipefail

packages=(
  pkg-config
  libavformat-dev libavcodec-dev libavutil-dev libswresample-dev libswscale-dev libavfilter-dev
  libsdl2-dev libsdl2-ttf-dev libfontconfig-dev fonts-dejavu-core libpulse-dev zlib1g-dev
  pulseaudio pulseaudio-utils xvfb ffmpeg python3 nginx-light dpkg-dev binutils
  libmosquitto-dev mosquitto mosquitto-clients openssl libsqlite3-dev libcurl4-openssl-dev socat xdotool
  libgpiod-dev
  chromium chromium-driver
  gir1.2-gst-rtsp-server-1.0 python3-gi gstreamer1.0-plugins-base gstreamer1.0-plugins-good
  gstreamer1.0-plugins-ugly
  libwpewebkit-1.1-dev libwpebackend-fdo-1.0-dev libwpe-1.0-dev libwayland-dev libegl-mesa0 libgl1-mesa-dri
)
[[ "${1:-}" == "--bench" ]] && packages+=(mpv time iproute2)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
sudo_cmd=()
[[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# The protocol conformance check validates messages with PyPI's jsonschema.
if ! python3 -c "import jsonschema" 2>/dev/null; then
  echo "setup: installing jsonschema for python3" >&2
  python3 -m pip install --quiet jsonschema 2>/dev/null || {
    "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends python3-jsonschema >/dev/null
  }
fi
# The fleet contract's check (Tests/conformance/validate_asyncapi.py) reads YAML.
if ! python3 -c "import yaml" 2>/dev/null; then
  echo "setup: installing PyYAML for python3" >&2
  python3 -m pip install --quiet pyyaml 2>/dev/null || {
    "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends python3-yaml >/dev/null
  }
fi
# The web page's browser test drives Chromium with Selenium — pinned to the version the suite is run with
# (its drag is pointer events Selenium composes: a new version must prove itself before it is taken).
selenium_version=4.51.0
if ! python3 -c "import selenium, sys; sys.exit(selenium.__version__ != '$selenium_version')" 2>/dev/null; then
  echo "setup: installing selenium $selenium_version for python3" >&2
  python3 -m pip install --quiet "selenium==$selenium_version" 2>/dev/null || {
    "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends python3-selenium >/dev/null
  }
fi
echo "setup: all packages present" >&2
