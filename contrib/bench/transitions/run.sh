#!/usr/bin/env bash
# What transitions and moving stills cost, in one run on a private Xvfb (1280x720 window, SDL's x11 driver)
# with a PulseAudio null sink:
#   1. two 6 s 1080p30 H.264 clips looping with `--transition fade:1`: the daemon's CPU (percent of one core)
#      in the second around each join (the fade: 0.5 s each side) against the rest (steady playback), and
#      the pictures dropped in each; mpv playing the same clips (no transitions: it has none) for the
#      steady ratio;
#   2. the same clips with `--transition crossfade:1`: the second after each incoming item starts (the
#      overlap: both clips decoded, both pictures drawn, both sounds mixed) against the rest;
#   3. a 1920x1080 still shown 10 s with `motion: auto` (a redraw at display rate for as long as it shows)
#      against the same still standing, 8 s each.
# Run:   contrib/setup.sh --bench && contrib/bench/transitions/run.sh   (~2.5 min after a build)
# Env:   BIN_DIR=dir holding queued (default: .build/debug, built if missing — a release build is what
#        to quote: BIN_DIR=.build/install/release after contrib/install.sh --configuration release --build-only).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bench=$(cd "$here/.." && pwd)
repo=$(cd "$here/../../.." && pwd)
WORK=$(mktemp -d /tmp/queued-transitions-bench.XXXXXX)
RESULTS="$WORK/results"
: >"$RESULTS"
# shellcheck source=../lib.sh
source "$bench/lib.sh"
trap cleanup EXIT
trap 'log "interrupted"; exit 130' INT TERM

for tool in ffmpeg mpv Xvfb pulseaudio pactl python3; do
  command -v "$tool" >/dev/null || { log "missing $tool: run contrib/setup.sh --bench"; exit 1; }
done
if [[ -z "${BIN_DIR:-}" ]]; then
  (cd "$repo" && swift build --product queued) >"$WORK/build.log" 2>&1 || { tail -n 30 "$WORK/build.log" >&2; exit 1; }
  BIN_DIR="$repo/.build/debug"
fi
QUEUED="$BIN_DIR/queued"
media="${BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/queued-bench}"
bash "$bench/gen-media.sh" "$media" || { log "could not make the media"; exit 1; }
clips="$media/transitions"
mkdir -p "$clips"
for part in a:0 b:20; do
  name=${part%%:*} from=${part##*:}
  [[ -s "$clips/$name.mp4" ]] || ffmpeg -v error -y -ss "$from" -t 6 -i "$media/long.mp4" -c:v libx264 -preset veryfast \
    -c:a aac "$clips/$name.mp4" || { log "could not cut $name"; exit 1; }
done
[[ -s "$clips/still.png" ]] || ffmpeg -v error -y -ss 30 -i "$media/long.mp4" -frames:v 1 "$clips/still.png" || exit 1

start_xvfb || exit 1
start_pulse || exit 1
XENV=(env -u WAYLAND_DISPLAY DISPLAY=":$DISPLAY_NUM" PULSE_SERVER="$PULSE")
OUT=(--audio pulse --pulse-server "$PULSE" --video sdl --video-driver x11 --geometry 1280x720 --no-state)

# ticks PID SECONDS: the CPU percent of one core PID used over SECONDS.
ticks() {
  python3 - "$1" "$2" <<'PY'
import os, sys, time
pid, seconds = sys.argv[1], float(sys.argv[2])
read = lambda: sum(int(x) for x in open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[11:13])
start = read(); time.sleep(seconds)
print(f"{100 * (read() - start) / os.sysconf('SC_CLK_TCK') / seconds:.1f}")
PY
}

log "fades between two 1080p clips (30 s)"
bg "${XENV[@]}" "$QUEUED" --socket "$WORK/fade.sock" "${OUT[@]}" --transition fade:1 --loops 0 \
  "$clips/a.mp4" "$clips/b.mp4" >"$WORK/fade.log" 2>&1
pid=$BG_PID
for _ in $(seq 100); do [[ -S "$WORK/fade.sock" ]] && break; sleep 0.1; done
python3 "$here/watch.py" "$WORK/fade.sock" "$pid" 30 0.5 | sed 's/^/fade./' >>"$RESULTS"
stop_pid "$pid"

log "crossfades between the same clips (30 s)"
bg "${XENV[@]}" "$QUEUED" --socket "$WORK/crossfade.sock" "${OUT[@]}" --transition crossfade:1 --loops 0 \
  "$clips/a.mp4" "$clips/b.mp4" >"$WORK/crossfade.log" 2>&1
pid=$BG_PID
for _ in $(seq 100); do [[ -S "$WORK/crossfade.sock" ]] && break; sleep 0.1; done
python3 "$here/watch.py" "$WORK/crossfade.sock" "$pid" 30 0.5 0.5 | sed 's/^/crossfade./' >>"$RESULTS"
stop_pid "$pid"

log "mpv on the same clips (20 s)"
bg "${XENV[@]}" mpv --no-config --no-terminal --vo=x11 --ao=pulse --geometry=1280x720 --loop-playlist=inf \
  "$clips/a.mp4" "$clips/b.mp4"
pid=$BG_PID
sleep 2
put mpv.steady_cpu_pct "$(ticks "$pid" 20)"
stop_pid "$pid"

for kind in still moving; do
  log "a 1080p still, $kind (8 s)"
  if [[ $kind == moving ]]; then
    add='{"uri":"'"$clips/still.png"'","duration":12,"motion":"auto"}'
  else
    add='{"uri":"'"$clips/still.png"'","duration":12}'
  fi
  bg "${XENV[@]}" "$QUEUED" --socket "$WORK/$kind.sock" "${OUT[@]}" >"$WORK/$kind.log" 2>&1
  pid=$BG_PID
  for _ in $(seq 100); do [[ -S "$WORK/$kind.sock" ]] && break; sleep 0.1; done
  "$BIN_DIR/queuectl" --socket "$WORK/$kind.sock" call queue.add '{"items":['"$add"']}' >/dev/null
  "$BIN_DIR/queuectl" --socket "$WORK/$kind.sock" play >/dev/null
  sleep 2
  put "$kind.cpu_pct" "$(ticks "$pid" 8)"
  stop_pid "$pid"
done

num() { grep "^$1=" "$RESULTS" | tail -n 1 | cut -d= -f2; }
printf 'queued %s (%s), %s, %s\n' "$(git -C "$repo" describe --always --dirty 2>/dev/null)" "$BIN_DIR" \
  "$(mpv --no-config --version | head -n 1 | cut -d' ' -f1-2)" "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
printf '\n%-44s%12s%12s\n' "1080p30 clips, 1280x720 window" "CPU %" "dropped"
printf '%-44s%12s%12s\n' "queued, 1 s fades (+-0.5 s at $(num fade.joins) joins)" "$(num fade.fade_cpu_pct)" "$(num fade.fade_drops)"
printf '%-44s%12s%12s\n' "queued, steady between them" "$(num fade.steady_cpu_pct)" "$(num fade.steady_drops)"
printf '%-44s%12s%12s\n' "queued, 1 s crossfades (at $(num crossfade.joins) joins)" "$(num crossfade.fade_cpu_pct)" "$(num crossfade.fade_drops)"
printf '%-44s%12s%12s\n' "queued, steady between them" "$(num crossfade.steady_cpu_pct)" "$(num crossfade.steady_drops)"
printf '%-44s%12s\n' "mpv, steady (no transitions)" "$(num mpv.steady_cpu_pct)"
printf '\n%-44s%12s\n' "1080p still, 1280x720 window" "CPU %"
printf '%-44s%12s\n' "standing" "$(num still.cpu_pct)"
printf '%-44s%12s\n' "moving (motion auto, redrawn at 60 Hz)" "$(num moving.cpu_pct)"
awk -v f="$(num fade.fade_cpu_pct)" -v c="$(num crossfade.fade_cpu_pct)" -v s="$(num fade.steady_cpu_pct)" \
  -v m="$(num mpv.steady_cpu_pct)" \
  'BEGIN{ if (s > 0 && m > 0) printf "\nfade/steady CPU %.2f; crossfade/steady %.2f; queued steady/mpv steady %.2f\n", f / s, c / s, s / m }'
[[ -n "${KEEP_WORK:-}" ]] && log "scratch dir kept: $WORK"
exit 0
