#!/usr/bin/env bash
# Sets up queued on Debian 12 and runs it on a generated demo loop: three short clips (picture and
# tone, a picture-only clip, a still) played forever. Video in a window when a display exists
# (DISPLAY/WAYLAND_DISPLAY), headless otherwise; sound through PulseAudio when a server is reachable,
# otherwise on the system clock. Extra arguments go to queued (e.g. --fullscreen).
set -euo pipefail
cd "$(dirname "$0")/.."
bash contrib/setup.sh
swift build -c release --product queued
swift build -c release --product queuectl
demo="${QUEUED_DEMO_DIR:-$PWD/demo}"
mkdir -p "$demo"
make_clip() {  # name, ffmpeg arguments…
  local out="$demo/$1"; shift
  [[ -s "$out" ]] || ffmpeg -nostdin -loglevel error -y "$@" "$out"
}
make_clip 1-testcard.mp4 -f lavfi -i testsrc2=s=1280x720:r=30:d=6 -f lavfi -i "sine=f=440:d=6" \
  -ac 2 -ar 48000 -c:v libx264 -preset veryfast -pix_fmt yuv420p -c:a aac -shortest
make_clip 2-mandelbrot.mp4 -f lavfi -i mandelbrot=s=1280x720:r=30 -t 5 -c:v libx264 -preset veryfast -pix_fmt yuv420p
make_clip 3-tone.flac -f lavfi -i "aevalsrc=0.3*sin(2*PI*330*t)|0.3*sin(2*PI*495*t):s=48000:d=4"
make_clip 4-still.png -f lavfi -i "smptehdbars=s=1280x720" -frames:v 1
echo "queued: playing the demo loop in $demo (Ctrl-C to stop)" >&2
if [[ -z "${XDG_RUNTIME_DIR:-}" && -z "${QUEUED_SOCKET:-}" ]]; then
  export QUEUED_SOCKET="/tmp/queued-$(id -u)/queued.sock"  # no login session (e.g. root over ssh)
fi
echo "queued: control socket ${QUEUED_SOCKET:-$XDG_RUNTIME_DIR/queued/queued.sock}" >&2
ctl="$PWD/.build/release/queuectl"
echo "queued: control it from another shell with $ctl (e.g. $ctl status, $ctl ls, $ctl next)${QUEUED_SOCKET:+, after export QUEUED_SOCKET=$QUEUED_SOCKET}" >&2
# The folder expands to its media files in natural order (1-…, 2-…, 3-…, 4-…), as queuectl add would.
exec .build/release/queued --replace --loops 0 --still-duration 4 "$@" "$demo"
