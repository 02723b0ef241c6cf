#!/usr/bin/env bash
# The overlay benchmark: what a clock, a ticker and a logo cost while the 60 s 1080p30 file plays, side by
# side with the same file without overlays and with mpv (no overlays) in one run, on a private Xvfb and a
# PulseAudio null sink (as contrib/bench/run.sh's "x11" figures).
#   CPU s, RSS MB: GNU time of the player process playing the file once in real time.
#   present jitter: queued's own present times (`--log-level present=trace`, CLOCK_MONOTONIC right after
#     each SDL_RenderPresent) against each picture's time in the item, after the constant offset is
#     removed: median, p99 and max |error| in ms; and how many of the 1800 pictures were presented.
# Run:   contrib/setup.sh --bench && contrib/bench/overlays/run.sh        (~4 min on 2 cores)
# Env:   QUEUED=path (with queuectl beside it; default: a release build in .build-bench), BENCH_CACHE=dir,
#        KEEP_WORK=1 keeps the scratch dir.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bench=$(cd "$here/.." && pwd)
repo=$(cd "$here/../../.." && pwd)
WORK=$(mktemp -d /tmp/queued-overlay-bench.XXXXXX)
RESULTS="$WORK/results"
: >"$RESULTS"
# shellcheck source=../lib.sh
source "$bench/lib.sh"
trap cleanup EXIT
trap 'log "interrupted"; exit 130' INT TERM

for tool in ffmpeg mpv Xvfb pulseaudio pactl python3 timeout /usr/bin/time; do
  command -v "$tool" >/dev/null || { log "missing $tool: run contrib/setup.sh --bench"; exit 1; }
done
build_queued_and_queuectl "$repo" || exit 1
MEDIA=$(bash "$bench/gen-media.sh" "${BENCH_CACHE:-}" | tail -n 1) || { log "media generation failed"; exit 1; }
LONG="$MEDIA/long.mp4"
LOGO="$WORK/logo.png"
ffmpeg -nostdin -loglevel error -f lavfi -i "color=c=white@0.6:s=200x80:d=1,format=rgba" -frames:v 1 "$LOGO"

start_xvfb || exit 1
start_pulse || exit 1
XENV=(env -u WAYLAND_DISPLAY DISPLAY=":$DISPLAY_NUM" PULSE_SERVER="$PULSE")
QX=("$QUEUED" --audio pulse --pulse-server "$PULSE" --video sdl --video-driver x11 --log-level info,present=trace)

# The layers go into a state directory first (a daemon with no items, told over its socket), so the
# measured run has them from its first picture, restored like a screen's after a reboot.
prepare_state() {
  local dir=$1 socket="$WORK/prepare.sock" pid i; shift
  mkdir -p "$dir"
  "$QUEUED" --state-dir "$dir" --socket "$socket" --audio null --video null >"$WORK/prepare.log" 2>&1 &
  pid=$!
  for i in $(seq 100); do "$QUEUECTL" --socket "$socket" status >/dev/null 2>&1 && break; sleep 0.1; done
  while (($#)); do
    "$QUEUECTL" --socket "$socket" call overlay.add "$1" >/dev/null || log "overlay.add $1 failed"
    shift
  done
  kill -TERM "$pid"; wait "$pid"
}
prepare_state "$WORK/state-plain"
prepare_state "$WORK/state-overlays" \
  '{"type":"clock","format":"%H:%M:%S","anchor":"top-right","x":"2%","y":"2%","size":48,"background":"#00000080"}' \
  '{"type":"ticker","text":"News ticker: queued draws this line across the screen","speed":150,"anchor":"bottom","size":36,"background":"#000000a0"}' \
  "{\"type\":\"image\",\"path\":\"$LOGO\",\"anchor\":\"top-left\",\"x\":\"2%\",\"y\":\"2%\"}"
put meta.date "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
put meta.queued_rev "$(git -C "$repo" describe --always --dirty 2>/dev/null || echo unknown)"
put meta.mpv "$(mpv --no-config --version | head -n 1 | cut -d' ' -f1-2)"
put meta.load_before "$(cut -d' ' -f1-3 /proc/loadavg)"

timed plain 150 "${XENV[@]}" "${QX[@]}" --state-dir "$WORK/state-plain" --socket "$WORK/q.sock" --exit-when-done "$LONG"
timed overlays 150 "${XENV[@]}" "${QX[@]}" --state-dir "$WORK/state-overlays" --socket "$WORK/q.sock" --exit-when-done "$LONG"
timed mpv 150 "${XENV[@]}" mpv --no-config --no-terminal --vo=x11 --ao=pulse --geometry=1280x720 "$LONG"
python3 "$here/report.py" "$RESULTS" "$WORK/plain.log" "$WORK/overlays.log"
[[ -n "${KEEP_WORK:-}" ]] && log "scratch dir kept: $WORK"
