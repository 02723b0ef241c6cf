#!/usr/bin/env bash
# Where the installed binaries' size and the daemon's memory go, beside mpv, in one run:
#   1. each installed program (static Swift runtime, as contrib/install.sh builds it): size as built and
#      stripped (what is installed);
#   2. an idle daemon (null outputs, no state) and `mpv --idle` (null outputs): resident memory after 2 s at
#      rest, by part (smaps.py: the program's file, FFmpeg's libraries, libavfilter's dependencies, other
#      libraries, heap and anonymous memory);
#   3. the same, playing the 60 s 1080p30 H.264+AAC clip on a 1280x720 window of a private Xvfb with a
#      PulseAudio null sink (queued --video sdl, mpv --vo=x11), 20 s in: resident memory by part, and CPU
#      over those 20 s.
# Run:   contrib/setup.sh --bench && contrib/bench/footprint/run.sh        (~1 min, after a release build
#        that takes ~30 min on 2 cores from a clean tree)
# Env:   BIN_DIR=dir holding queued, queuectl, queued-mqtt, queued-web (default: a static release build in
#        .build/install, as install.sh makes it); KEEP_WORK=1 keeps the scratch dir.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bench=$(cd "$here/.." && pwd)
repo=$(cd "$here/../../.." && pwd)
WORK=$(mktemp -d /tmp/queued-footprint-bench.XXXXXX)
RESULTS="$WORK/results"
: >"$RESULTS"
# shellcheck source=../lib.sh
source "$bench/lib.sh"
trap cleanup EXIT
trap 'log "interrupted"; exit 130' INT TERM

for tool in ffmpeg mpv Xvfb pulseaudio pactl strip python3; do
  command -v "$tool" >/dev/null || { log "missing $tool: run contrib/setup.sh --bench"; exit 1; }
done
if [[ -z "${BIN_DIR:-}" ]]; then
  log "building the installed programs (release, static Swift runtime, .build/install)"
  (cd "$repo" && bash contrib/install.sh --configuration release --build-only) >"$WORK/build.log" 2>&1 \
    || { tail -n 30 "$WORK/build.log" >&2; log "build failed"; exit 1; }
  BIN_DIR="$repo/.build/install/release"
fi
QUEUED="$BIN_DIR/queued"
media="${BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/queued-bench}"
bash "$bench/gen-media.sh" "$media" || { log "could not make the media"; exit 1; }
LONG="$media/long.mp4"

for program in queued queuectl queued-mqtt queued-web; do
  [[ -x "$BIN_DIR/$program" ]] || continue
  strip --strip-unneeded -o "$WORK/$program.stripped" "$BIN_DIR/$program"
  put "size.$program.built" "$(( $(stat -c %s "$BIN_DIR/$program") / 1000000 ))"
  put "size.$program.stripped" "$(( $(stat -c %s "$WORK/$program.stripped") / 1000000 ))"
done

# measure LABEL SECONDS CMD...: runs CMD in the background, waits SECONDS, records its RSS by part and
# the CPU seconds it used over the wait, and stops it.
measure() {
  local label=$1 seconds=$2
  shift 2
  bg "$@" >"$WORK/$label.log" 2>&1
  local pid=$BG_PID
  local hz
  hz=$(getconf CLK_TCK)
  python3 - "$pid" "$seconds" >"$WORK/$label.cpu" <<'PY' || true
import sys, time
pid, seconds = sys.argv[1], float(sys.argv[2])
def ticks():
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])
start = ticks()
time.sleep(seconds)
print(ticks() - start)
PY
  if alive "$pid"; then
    python3 "$here/smaps.py" "$pid" "$label" >>"$RESULTS"
    put "$label.cpu_s" "$(awk -v t="$(cat "$WORK/$label.cpu")" -v hz="$hz" 'BEGIN{printf "%.2f", t / hz}')"
  else
    log "$label exited early: $(tail -n 3 "$WORK/$label.log")"
  fi
  stop_pid "$pid"
}

measure idle_queued 2 "$QUEUED" --socket "$WORK/q.sock" --audio null --video null --no-state
measure idle_mpv 2 mpv --no-config --idle=yes --vo=null --ao=null --input-terminal=no \
  --input-ipc-server="$WORK/m.sock"

start_xvfb || exit 1
start_pulse || exit 1
XENV=(env -u WAYLAND_DISPLAY DISPLAY=":$DISPLAY_NUM" PULSE_SERVER="$PULSE")
measure play_queued 20 "${XENV[@]}" "$QUEUED" --socket "$WORK/q2.sock" --audio pulse --pulse-server "$PULSE" \
  --video sdl --video-driver x11 --geometry 1280x720 --no-state "$LONG"
measure play_mpv 20 "${XENV[@]}" mpv --no-config --no-terminal --vo=x11 --ao=pulse --geometry=1280x720 "$LONG"

num() { grep "^$1=" "$RESULTS" | tail -n 1 | cut -d= -f2; }
printf 'queued %s, %s, %s\n' "$(git -C "$repo" describe --always --dirty 2>/dev/null)" \
  "$(mpv --no-config --version | head -n 1 | cut -d' ' -f1-2)" "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
printf '\n%-14s%12s%12s\n' "program" "built MB" "stripped MB"
for program in queued queuectl queued-mqtt queued-web; do
  printf '%-14s%12s%12s\n' "$program" "$(num "size.$program.built")" "$(num "size.$program.stripped")"
done
printf '\n%-34s%10s%10s%10s%10s\n' "resident MB by part" "idle q" "idle mpv" "1080p q" "1080p mpv"
for part in program swift_foundation ffmpeg filter_deps other_libs heap_anon stacks kernel total; do
  printf '%-34s%10s%10s%10s%10s\n' "$part" "$(num "idle_queued.$part")" "$(num "idle_mpv.$part")" \
    "$(num "play_queued.$part")" "$(num "play_mpv.$part")"
done
printf '%-34s%10s%10s%10s%10s\n' "CPU s over the wait" "$(num idle_queued.cpu_s)" "$(num idle_mpv.cpu_s)" \
  "$(num play_queued.cpu_s)" "$(num play_mpv.cpu_s)"
awk -v a="$(num idle_queued.total)" -v b="$(num idle_mpv.total)" -v c="$(num play_queued.total)" \
  -v d="$(num play_mpv.total)" -v e="$(num play_queued.cpu_s)" -v f="$(num play_mpv.cpu_s)" \
  'BEGIN{ if (b > 0 && d > 0 && f > 0) printf "queued/mpv: idle RSS %.2f, 1080p RSS %.2f, 1080p CPU %.2f\n", a / b, c / d, e / f }'
[[ -n "${KEEP_WORK:-}" ]] && log "scratch dir kept: $WORK"
