#!/usr/bin/env bash
# The zones benchmark (issue 39), side by side in one run on a private Xvfb (1280x720) and a PulseAudio null
# sink, every player playing the 60 s 1080p30 file (or four 540p copies) once in real time:
#   single   queued, the file full screen (no layout)
#   lbar     queued, a 3-zone L-bar: the file in main (75 % x 85 %), a column of stills changing every 5 s
#            (25 % x 85 %), a ticker band (an overlay ticker over the band's own background)
#   mpv      mpv --vo=x11 showing the same file
#   split    queued, a 2x2 split of four 540p videos (one process, one window)
#   mpv4     four mpv processes, each one of the 540p videos in a 640x360 window, at the same time
# Figures: CPU s (user+sys) and max RSS of each player process (GNU time); ratios lbar/single (target
# <= 1.15), lbar/mpv, split/mpv4 (CPU and RSS summed over the four mpv processes); pictures main presented
# and its present jitter (`present=trace`).
# Run:   contrib/setup.sh --bench && contrib/bench/zones/run.sh        (~6 min on 2 cores)
# Env:   QUEUED=path (with queuectl beside it; default: a release build in .build-bench), BENCH_CACHE=dir,
#        KEEP_WORK=1 keeps the scratch dir.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bench=$(cd "$here/.." && pwd)
repo=$(cd "$here/../../.." && pwd)
WORK=$(mktemp -d /tmp/queued-zones-bench.XXXXXX)
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
QUARTER="$WORK/quarter.mp4"
log "making the 540p copy"
ffmpeg -nostdin -loglevel error -i "$LONG" -vf scale=960:540 -c:v libx264 -preset veryfast -c:a copy "$QUARTER" \
  || { log "ffmpeg failed"; exit 1; }
for colour in orange teal; do
  ffmpeg -nostdin -loglevel error -f lavfi -i "color=c=$colour:s=640x1080:d=1" -frames:v 1 "$WORK/$colour.png"
done

cat >"$WORK/lbar.json" <<JSON
{"zones": [
  {"name": "main", "rect": {"x": 0, "y": 0, "w": "75%", "h": "85%"}},
  {"name": "side", "rect": {"x": "75%", "y": 0, "w": "25%", "h": "85%"}, "fit": "fill", "content": "stills"},
  {"name": "ticker", "rect": {"x": 0, "y": "85%", "w": "100%", "h": "15%"}, "content": "text", "background": "#102040"}]}
JSON
cat >"$WORK/split.json" <<JSON
{"zones": [
  {"name": "main", "rect": {"x": 0, "y": 0, "w": "50%", "h": "50%"}},
  {"name": "b", "rect": {"x": "50%", "y": 0, "w": "50%", "h": "50%"}},
  {"name": "c", "rect": {"x": 0, "y": "50%", "w": "50%", "h": "50%"}},
  {"name": "d", "rect": {"x": "50%", "y": "50%", "w": "50%", "h": "50%"}}]}
JSON

start_xvfb || exit 1
start_pulse || exit 1
XENV=(env -u WAYLAND_DISPLAY DISPLAY=":$DISPLAY_NUM" PULSE_SERVER="$PULSE")
QX=("$QUEUED" --no-state --audio pulse --pulse-server "$PULSE" --video sdl --video-driver x11 --log-level info,present=trace)

# feed SOCKET CMD...: once the daemon answers, runs each queuectl command line given (one string each).
feed() {
  local socket=$1 i; shift
  for i in $(seq 200); do "$QUEUECTL" --socket "$socket" status >/dev/null 2>&1 && break; sleep 0.05; done
  while (($#)); do
    # shellcheck disable=SC2086
    "$QUEUECTL" --socket "$socket" $1 >/dev/null || log "queuectl $1 failed"
    shift
  done
}

put meta.date "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
put meta.queued_rev "$(git -C "$repo" describe --always --dirty 2>/dev/null || echo unknown)"
put meta.mpv "$(mpv --no-config --version | head -n 1 | cut -d' ' -f1-2)"
put meta.load_before "$(cut -d' ' -f1-3 /proc/loadavg)"

timed single 150 "${XENV[@]}" "${QX[@]}" --socket "$WORK/q1.sock" --exit-when-done "$LONG"

feed "$WORK/q2.sock" "--zone side add --duration 5 $WORK/orange.png $WORK/teal.png" "--zone side loop forever" "--zone side play" \
  "overlay add --ticker ZONES:A-TICKER-BAND-UNDER-THE-VIDEO-AND-THE-STILLS --anchor bottom --size 40 --speed 150" &
feeder=$!
timed lbar 150 "${XENV[@]}" "${QX[@]}" --socket "$WORK/q2.sock" --layout "$WORK/lbar.json" --exit-when-done "$LONG"
wait "$feeder"

timed mpv 150 "${XENV[@]}" mpv --no-config --no-terminal --vo=x11 --ao=pulse --geometry=1280x720 "$LONG"

feed "$WORK/q3.sock" "--zone b add $QUARTER" "--zone c add $QUARTER" "--zone d add $QUARTER" \
  "--zone b play" "--zone c play" "--zone d play" &
feeder=$!
timed split 150 "${XENV[@]}" "${QX[@]}" --socket "$WORK/q3.sock" --layout "$WORK/split.json" --exit-when-done "$QUARTER"
wait "$feeder"

players=()
for n in 1 2 3 4; do
  x=$(( (n - 1) % 2 * 640 )); y=$(( (n - 1) / 2 * 360 ))
  timed "mpv4_$n" 150 "${XENV[@]}" mpv --no-config --no-terminal --vo=x11 --ao=pulse --geometry=640x360+$x+$y \
    --autofit=640x360 "$QUARTER" &
  players+=($!)
done
wait "${players[@]}"
for label in single lbar split; do queued_errors "$label"; done
put meta.load_after "$(cut -d' ' -f1-3 /proc/loadavg)"
python3 "$here/report.py" "$RESULTS" "$WORK/single.log" "$WORK/lbar.log" "$WORK/split.log"
[[ -n "${KEEP_WORK:-}" ]] && log "scratch dir kept: $WORK"
