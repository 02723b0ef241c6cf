#!/usr/bin/env bash
# queued vs mpv benchmark: one run measures both players side by side on the same generated files
# and the same private outputs, prints a summary table and writes it to a file (path printed last).
#
# Run:   contrib/setup.sh --bench      # once: mpv and GNU time (plus ffmpeg, Xvfb, PulseAudio tools)
#        contrib/bench/run.sh          # ~7 min on 2 cores (+1 min the first time, making the media)
# Env:   QUEUED=path      use this queued binary instead of building one (default: swift build -c
#                         release --product queued --scratch-path .build-bench, in the repo)
#        BENCH_CACHE=dir  generated media (default ~/.cache/queued-bench); BENCH_OUT=file summary path
#        BENCH_RUNS=5     start-to-first-frame runs per player; BENCH_MPV_VO=x11|gpu forces mpv's VO
#        BENCH_SECTIONS="cpu first_frame boundaries"   run only some of the measurements
#        KEEP_WORK=1      keep the scratch dir (recordings, captures, every log) and print its path
#
# What each figure means (details at the top of each helper):
#  1. CPU s  = user+sys CPU seconds of the player process (GNU time, children included) playing the
#     60 s 1080p30 H.264+AAC file once in real time; RSS = its peak resident set (MB).
#     (a) null outputs: queued --audio null --video null vs mpv --vo=null --ao=null (both decode
#         everything, show and play nothing, on the system clock);
#     (b) Xvfb + PulseAudio null sink: queued SDL(x11) + pulse vs mpv --vo=x11 (or gpu) + pulse,
#         both windows 1280x720 (the 1080p picture is scaled down by both).
#     ref: ffmpeg -i FILE -f null - (decode only, as fast as possible) and queued --untimed.
#     Ratios queued/mpv; the issue's targets are CPU <= 0.8x and RSS <= 0.8x mpv.
#  2. Start to first frame: seconds from spawn to the player's "picture is up" log line (queued:
#     its first "started item"; mpv: "first video frame after restart shown"), median of
#     BENCH_RUNS; with PulseAudio, and with null audio (isolates the audio device's start-up).
#  3. Audio boundaries: the null sink's monitor is recorded (parec) while each player plays
#     gap-a,b,c (mpv --gapless-audio=yes) and gap-d five times (queued --item-loops 5
#     --shortest-track; mpv --loop-file=4); each item is located in the recording against the ffmpeg
#     CLI's decode trimmed to the declared duration: samples inserted (+) or dropped (-) per boundary.
#  4. Video boundaries: the top 48 rows of the screen (frame/clip stamp strip) are grabbed at 60 Hz
#     (ffmpeg -f x11grab) in the same runs; longest hold of a picture at each boundary, in ms.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
WORK=$(mktemp -d /tmp/queued-bench.XXXXXX)
RESULTS="$WORK/results"
: >"$RESULTS"
# shellcheck source=lib.sh
source "$here/lib.sh"
trap cleanup EXIT
trap 'log "interrupted"; exit 130' INT TERM
OUT="${BENCH_OUT:-/tmp/queued-bench-$(date +%Y%m%d-%H%M%S).txt}"
RUNS="${BENCH_RUNS:-5}"

for tool in ffmpeg ffprobe mpv Xvfb pulseaudio parec pactl python3 timeout /usr/bin/time; do
  command -v "$tool" >/dev/null || { log "missing $tool: run contrib/setup.sh --bench"; exit 1; }
done
python3 -c 'import numpy' 2>/dev/null || { log "missing python3-numpy"; exit 1; }

if [[ -z "${QUEUED:-}" ]]; then
  log "building queued (release, scratch path .build-bench)"
  (cd "$repo" && swift build -c release --product queued --scratch-path .build-bench) >"$WORK/build.log" 2>&1 \
    || { tail -n 30 "$WORK/build.log" >&2; log "build failed"; exit 1; }
  QUEUED="$repo/.build-bench/release/queued"
fi
[[ -x "$QUEUED" ]] || { log "no queued binary at $QUEUED"; exit 1; }

MEDIA=$(bash "$here/gen-media.sh" "${BENCH_CACHE:-}" | tail -n 1) || { log "media generation failed"; exit 1; }
LONG="$MEDIA/long.mp4" A="$MEDIA/gap-a.mp4" B="$MEDIA/gap-b.mp4" C="$MEDIA/gap-c.mp4" D="$MEDIA/gap-d.mp4"

put meta.date "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
put meta.queued_bin "$QUEUED"
put meta.queued_version "$("$QUEUED" --version 2>/dev/null | head -n 1 || true)"
put meta.queued_rev "$(git -C "$repo" describe --always --dirty 2>/dev/null || echo unknown)"
put meta.mpv "$(mpv --no-config --version | head -n 1 | cut -d' ' -f1-2)"
put meta.ffmpeg "$(ffmpeg -version | head -n 1 | cut -d' ' -f1-3)"
put meta.cpus "$(nproc)"
put meta.runs "$RUNS"
put meta.load_before "$(cut -d' ' -f1-3 /proc/loadavg)"
put meta.media "$MEDIA"

start_xvfb || exit 1
start_pulse || exit 1
XENV=(env -u WAYLAND_DISPLAY DISPLAY=":$DISPLAY_NUM" PULSE_SERVER="$PULSE")
NOENV=(env -u DISPLAY -u WAYLAND_DISPLAY -u PULSE_SERVER)
# Newer queued serves a control socket (and refuses to start without XDG_RUNTIME_DIR unless told
# where): give it one in the scratch dir, as a deployed daemon would have.
Q=("$QUEUED")
"$QUEUED" --help 2>&1 | grep -q -- '--socket <' && Q+=(--socket "$WORK/queued.sock")
# Newer queued keeps its queue across restarts; a benchmark starts empty every run and saves nothing.
"$QUEUED" --help 2>&1 | grep -q -- '--no-state' && Q+=(--no-state)
QX=("${Q[@]}" --audio pulse --pulse-server "$PULSE" --video sdl --video-driver x11 --log-level info)

# mpv's VO: gpu when it works here, else x11 (software scaling, like queued's SDL software renderer).
if [[ -n "${BENCH_MPV_VO:-}" ]]; then
  MPV_VO=$BENCH_MPV_VO; put meta.mpv_vo_note "set by BENCH_MPV_VO"
elif timeout -k 2 20 "${XENV[@]}" mpv --no-config --vo=gpu --ao=null --frames=3 "$A" >"$WORK/gpu-probe.log" 2>&1; then
  MPV_VO=gpu; put meta.mpv_vo_note "--vo=gpu works on this display"
else
  MPV_VO=x11
  if grep -q "software renderer" "$WORK/gpu-probe.log"; then
    put meta.mpv_vo_note "--vo=gpu refused: OpenGL here is llvmpipe, a software rasterizer (mpv wants --gpu-sw)"
  else
    put meta.mpv_vo_note "--vo=gpu failed: $(grep -m1 -iE 'error|fail' "$WORK/gpu-probe.log" | cut -c1-100)"
  fi
fi
put meta.mpv_vo "$MPV_VO"
MX=(mpv --no-config --vo="$MPV_VO" --ao=pulse --geometry=1280x720)

section_cpu() {
  timed cpu_null_queued 150 "${NOENV[@]}" "${Q[@]}" --audio null --video null --exit-when-done "$LONG"
  timed cpu_null_mpv 150 "${NOENV[@]}" mpv --no-config --no-terminal --vo=null --ao=null "$LONG"
  timed cpu_x11_queued 150 "${XENV[@]}" "${QX[@]}" --exit-when-done "$LONG"
  timed cpu_x11_mpv 150 "${XENV[@]}" "${MX[@]}" --no-terminal "$LONG"
  timed cpu_ffmpeg 150 ffmpeg -nostdin -v error -i "$LONG" -f null -
  timed cpu_untimed_queued 150 "${NOENV[@]}" "${Q[@]}" --untimed --audio null --video null --exit-when-done "$LONG"
  local label
  for label in cpu_null_queued cpu_x11_queued cpu_untimed_queued; do queued_errors "$label"; done
}

section_first_frame() {
  local qpat='started item 1 play 1' mpat='first video frame after restart shown' mlog=--msg-level=all=warn,cplayer=v
  log "start to first frame, $RUNS runs per player and output"
  export WORK
  local qmarks=("audio_ready=PulseAudio stream ready" "video_open=video output open" "playing=status playing")
  waitfor python3 "$here/first_frame.py" ff_x11_queued "$RUNS" "$qpat" 20 "${qmarks[@]}" -- "${XENV[@]}" "${QX[@]}" "$LONG" >>"$RESULTS"
  local mmarks=("audio_ready=^AO: " "video_open=^VO: ")
  waitfor python3 "$here/first_frame.py" ff_x11_mpv "$RUNS" "$mpat" 20 "${mmarks[@]}" -- "${XENV[@]}" "${MX[@]}" "$mlog" "$LONG" >>"$RESULTS"
  waitfor python3 "$here/first_frame.py" ff_xnull_queued "$RUNS" "$qpat" 20 -- "${XENV[@]}" "${Q[@]}" --audio null \
    --video sdl --video-driver x11 --log-level info "$LONG" >>"$RESULTS"
  waitfor python3 "$here/first_frame.py" ff_xnull_mpv "$RUNS" "$mpat" 20 -- "${XENV[@]}" mpv --no-config --vo="$MPV_VO" \
    --ao=null --geometry=1280x720 "$mlog" "$LONG" >>"$RESULTS"
  cat "$WORK"/ff_*_queued.run*.log >"$WORK/ff_queued.log"
  queued_errors ff_queued
}

# record LABEL CMD...: plays CMD while recording the null sink's monitor ($WORK/LABEL.s16) and
# grabbing the top 1280x48 of the screen at 60 Hz ($WORK/LABEL.nut).
record() {
  local label=$1 rec grab rc; shift
  bg parec --server="$PULSE" -d null.monitor --format=s16le --rate=48000 --channels=2 --raw "$WORK/$label.s16"
  rec=$BG_PID
  bg ffmpeg -nostdin -loglevel error -y -f x11grab -draw_mouse 0 -framerate 60 -video_size 1280x48 \
    -i ":$DISPLAY_NUM+0,0" -vf format=gray -c:v rawvideo -fps_mode passthrough "$WORK/$label.nut"
  grab=$BG_PID
  sleep 1
  log "record $label: $*"
  waitfor timeout -k 5 60 "$@" >"$WORK/$label.log" 2>&1 </dev/null
  rc=$?
  put "$label.rc" "$rc"
  sleep 0.7
  stop_pid "$grab" INT
  stop_pid "$rec"
}

section_boundaries() {
  local d5=("$D" "$D" "$D" "$D" "$D") ds=("$D:shortest" "$D:shortest" "$D:shortest" "$D:shortest" "$D:shortest")
  record set_queued "${XENV[@]}" "${QX[@]}" --exit-when-done "$A" "$B" "$C"
  record set_mpv "${XENV[@]}" "${MX[@]}" --gapless-audio=yes "$A" "$B" "$C"
  record loop_queued "${XENV[@]}" "${QX[@]}" --exit-when-done --item-loops 5 --shortest-track "$D"
  record loop_mpv "${XENV[@]}" "${MX[@]}" --gapless-audio=yes --loop-file=4 "$D"
  queued_errors set_queued
  queued_errors loop_queued
  local ab="$here/audio_boundaries.py" vh="$here/video_holds.py" who
  for who in queued mpv; do
    python3 "$ab" "ab_set_$who" "$WORK/set_$who.s16" "$A" "$B" "$C" >>"$RESULTS" || put note "audio analysis of set_$who failed"
    python3 "$vh" "vh_set_$who" "$WORK/set_$who.nut" 0:60,1:60,2:60 >>"$RESULTS" || put note "video analysis of set_$who failed"
    python3 "$vh" "vh_loop_$who" "$WORK/loop_$who.nut" 3:30,3:30,3:30,3:30,3:30 >>"$RESULTS" \
      || put note "video analysis of loop_$who failed"
  done
  python3 "$ab" ab_loop_queued "$WORK/loop_queued.s16" "${ds[@]}" >>"$RESULTS" || put note "audio analysis of loop_queued failed"
  python3 "$ab" ab_loop_mpv "$WORK/loop_mpv.s16" "${d5[@]}" >>"$RESULTS" || put note "audio analysis of loop_mpv failed"
}

for section in ${BENCH_SECTIONS:-cpu first_frame boundaries}; do "section_$section"; done
put meta.load_after "$(cut -d' ' -f1-3 /proc/loadavg)"
echo
python3 "$here/report.py" "$RESULTS" "$OUT"
cp "$RESULTS" "$OUT.results"
[[ -n "${KEEP_WORK:-}" ]] && log "scratch dir kept: $WORK"
log "summary written to $OUT (raw figures: $OUT.results)"
