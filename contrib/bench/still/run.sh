#!/usr/bin/env bash
# The big-still benchmark: a camera's photo (8000x6000 JPEG) shown for 5 s, three times, on a 640x360
# window of a private Xvfb with a PulseAudio null sink, by queued and by mpv (--vo=x11 at the same size)
# in one run. Peak RSS and CPU come from GNU time. (To compare two builds of queued, run it once with
# each as QUEUED=…)
# Run:   contrib/setup.sh --bench && contrib/bench/still/run.sh        (~1 min on 2 cores)
# Env:   QUEUED=path (default: a release build in .build-bench), KEEP_WORK=1 keeps the scratch dir.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bench=$(cd "$here/.." && pwd)
repo=$(cd "$here/../../.." && pwd)
WORK=$(mktemp -d /tmp/queued-still-bench.XXXXXX)
RESULTS="$WORK/results"
: >"$RESULTS"
# shellcheck source=../lib.sh
source "$bench/lib.sh"
trap cleanup EXIT
trap 'log "interrupted"; exit 130' INT TERM

for tool in ffmpeg mpv Xvfb pulseaudio pactl timeout /usr/bin/time; do
  command -v "$tool" >/dev/null || { log "missing $tool: run contrib/setup.sh --bench"; exit 1; }
done
if [[ -z "${QUEUED:-}" ]]; then
  log "building queued (release, scratch path .build-bench)"
  (cd "$repo" && swift build -c release --product queued --scratch-path .build-bench) >"$WORK/build.log" 2>&1 \
    || { tail -n 30 "$WORK/build.log" >&2; log "build failed"; exit 1; }
  QUEUED="$repo/.build-bench/release/queued"
fi
PHOTO="$WORK/photo-8000x6000.jpg"
ffmpeg -nostdin -loglevel error -f lavfi -i "testsrc2=s=8000x6000:d=1" -frames:v 1 -q:v 3 -update 1 "$PHOTO" \
  || { log "could not make the photo"; exit 1; }

start_xvfb || exit 1
start_pulse || exit 1
XENV=(env -u WAYLAND_DISPLAY DISPLAY=":$DISPLAY_NUM" PULSE_SERVER="$PULSE")
QX=("$QUEUED" --audio pulse --pulse-server "$PULSE" --video sdl --video-driver x11 --geometry 640x360 --no-state
  --socket "$WORK/q.sock" --still-duration 5 --exit-when-done)

timed queued 60 "${XENV[@]}" "${QX[@]}" "$PHOTO" "$PHOTO" "$PHOTO"
timed mpv 60 "${XENV[@]}" mpv --no-config --no-terminal --vo=x11 --ao=pulse --geometry=640x360 \
  --image-display-duration=5 "$PHOTO" "$PHOTO" "$PHOTO"

num() { grep "^$1=" "$RESULTS" | tail -n 1 | cut -d= -f2; }
printf 'queued %s, %s, %s\n' "$(git -C "$repo" describe --always --dirty 2>/dev/null)" \
  "$(mpv --no-config --version | head -n 1 | cut -d' ' -f1-2)" "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
printf '%-44s%10s%8s\n' "an 8000x6000 JPEG, 3 x 5 s on 640x360" "peak MB" "CPU s"
for label in queued mpv; do
  printf '%-44s%10s%8s\n' "$label" "$(num "$label.rss_mb")" "$(num "$label.cpu")"
done
awk -v q="$(num queued.rss_mb)" -v m="$(num mpv.rss_mb)" 'BEGIN{ if (m > 0) printf "peak RSS queued/mpv: %.2f\n", q / m }'
[[ -n "${KEEP_WORK:-}" ]] && log "scratch dir kept: $WORK"
