#!/usr/bin/env bash
# The sync group benchmark (issue 43): how far apart three screens play over hours, measured from outside.
# Three queued daemons, each with its queued-sync, and beside them three free-running mpv — the same 60 s
# white-noise loop — on one private PulseAudio server. Each player's sound goes into its own channel of a
# three-channel null sink (a remap sink per player; one for the daemons, one for mpv), so one recording of a
# sink's monitor, on one clock, shows the offsets between players (offsets.py: cross-correlation every 0.5 s).
# Member b's clock and sound run +SKEW ppm fast and c's -SKEW (the daemons' test option
# QUEUED_TEST_CLOCK_SKEW_PPM; mpv's --speed 1±SKEW ppm), and the members' UDP goes through a relay adding
# 0..JITTER_MS (relay.py). Every SAMPLE_EVERY s both sinks are recorded for 7 s (mpv's offsets, up to
# 2.5 s, need the length). Halfway, the leader's queued-sync is killed (SIGKILL): the time until the two others are within 2 ms again is measured, then it
# is started again.
# Figures: queued's offset p50/p99/max over the run (after the first 2 minutes, without the failover's
# seconds), mpv's at its last sample, the ratio, the failover's recovery time.
# Run:   contrib/setup.sh --bench && contrib/bench/sync/run.sh        (4 h by default; DURATION=600 for 10 min)
# Env:   DURATION (s), SAMPLE_EVERY (s), SKEW (ppm), JITTER_MS, QUEUED=path (queuectl and queued-sync beside
#        it; default: a release build in .build-bench), KEEP_WORK=1 keeps the scratch dir.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bench=$(cd "$here/.." && pwd)
repo=$(cd "$here/../../.." && pwd)
WORK=$(mktemp -d /tmp/queued-sync-bench.XXXXXX)
RESULTS="$WORK/results"
: >"$RESULTS"
# shellcheck source=../lib.sh
source "$bench/lib.sh"
trap cleanup EXIT
trap 'log "interrupted"; exit 130' INT TERM
DURATION=${DURATION:-14400}
SAMPLE_EVERY=${SAMPLE_EVERY:-60}
SKEW=${SKEW:-100}
JITTER_MS=${JITTER_MS:-5}

for tool in ffmpeg mpv pulseaudio pactl parec python3 timeout; do
  command -v "$tool" >/dev/null || { log "missing $tool: run contrib/setup.sh --bench"; exit 1; }
done
python3 -c 'import numpy' 2>/dev/null || { log "missing numpy (python3-numpy)"; exit 1; }
if [[ -z "${QUEUED:-}" ]]; then
  log "building queued, queuectl and queued-sync (release, scratch path .build-bench)"
  (cd "$repo" && for product in queued queuectl queued-sync; do
    swift build -c release --product "$product" --scratch-path .build-bench || exit 1
  done) >"$WORK/build.log" 2>&1 || { tail -n 30 "$WORK/build.log" >&2; log "build failed"; exit 1; }
  QUEUED="$repo/.build-bench/release/queued"
fi
SYNC="$(dirname "$QUEUED")/queued-sync"
[[ -x "$QUEUED" && -x "$SYNC" ]] || { log "no queued/queued-sync at $QUEUED"; exit 1; }

start_pulse || exit 1
for wall in wall mpvwall; do
  pactl --server="$PULSE" load-module module-null-sink sink_name=$wall rate=48000 channels=3 \
    channel_map=front-left,front-right,front-center norewinds=1 >/dev/null
  for pair in a:front-left b:front-right c:front-center; do
    name=${pair%%:*}
    pactl --server="$PULSE" load-module module-remap-sink sink_name=${wall}_$name master=$wall channels=1 \
      master_channel_map=${pair#*:} channel_map=mono remix=no >/dev/null
  done
done
# The sinks render in 10 ms blocks from the start (see Tests/TestSupport/PrivatePulseServer.swift).
bg env PULSE_SERVER="$PULSE" parec --latency-msec=10 --raw -d wall.monitor >/dev/null 2>&1

NOISE="$WORK/noise.wav"
ffmpeg -nostdin -loglevel error -f lavfi -i "anoisesrc=d=60:c=white:seed=7:a=0.5" -ac 2 -ar 48000 "$NOISE" || exit 1
head -c 32 /dev/urandom >"$WORK/group.key"
chmod 600 "$WORK/group.key"
declare -A skew=([a]=0 [b]=$SKEW [c]=-$SKEW) port relay_port speed=([a]=1 [b]=$(python3 -c "print(1+$SKEW/1e6)") [c]=$(python3 -c "print(1-$SKEW/1e6)"))
free_port() { python3 -c 'import socket; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
relays=()
for name in a b c; do
  port[$name]=$(free_port)
  relay_port[$name]=$(free_port)
  relays+=("$name=${relay_port[$name]}:${port[$name]}")
done
bg python3 "$here/relay.py" "$JITTER_MS" "${relays[@]}"

for name in a b c; do
  bg env PULSE_SINK=wall_$name QUEUED_TEST_CLOCK_SKEW_PPM=${skew[$name]} "$QUEUED" --socket "$WORK/$name.sock" --no-state \
    --audio pulse --pulse-server "$PULSE" --video none --loops 0 --log-level warning "$NOISE" >"$WORK/queued-$name.log" 2>&1
  bg env PULSE_SERVER="$PULSE" mpv --no-config --no-video --ao=pulse --audio-device=pulse/mpvwall_$name --loop-file=inf \
    --speed="${speed[$name]}" --audio-pitch-correction=no --really-quiet "$NOISE" >"$WORK/mpv-$name.log" 2>&1
done
start_sync() {
  local name=$1 peers=() other
  for other in a b c; do [[ $other == "$name" ]] || peers+=(--peer "127.0.0.1:${relay_port[$other]}"); done
  bg env QUEUED_TEST_CLOCK_SKEW_PPM=${skew[$name]} "$SYNC" --sync-group bench --id "$name" --listen "127.0.0.1:${port[$name]}" \
    --key-file "$WORK/group.key" --socket "$WORK/$name.sock" "${peers[@]}" >>"$WORK/sync-$name.log" 2>&1
  SYNC_PID[$name]=$BG_PID
}
declare -A SYNC_PID
for name in a b c; do
  for _ in $(seq 300); do [[ -S "$WORK/$name.sock" ]] && break; sleep 0.1; done
  [[ -S "$WORK/$name.sock" ]] || { log "queued $name did not start"; cat "$WORK/queued-$name.log" >&2; exit 1; }
  start_sync "$name"
done
log "three daemons and three mpv playing; sampling every $SAMPLE_EVERY s for $DURATION s"

# Records both sinks for `seconds` and appends the offsets, with the run's seconds, to queued.txt and mpv.txt.
sample() {
  local seconds=$1 tag=$2 at recorders=()
  at=$(($(date +%s) - START))
  for wall in wall mpvwall; do
    timeout "$seconds" env PULSE_SERVER="$PULSE" parec --latency-msec=20 --raw --format=s16le --rate=48000 --channels=3 \
      -d $wall.monitor >"$WORK/$wall.raw" 2>/dev/null &
    recorders+=($!)
  done
  wait "${recorders[@]}"
  python3 "$here/offsets.py" "$WORK/wall.raw" 500 | awk -v at="$at" -v tag="$tag" '{print at + $1, $2, $3, tag}' >>"$WORK/queued.txt"
  python3 "$here/offsets.py" "$WORK/mpvwall.raw" 2500 | awk -v at="$at" -v tag="$tag" '{print at + $1, $2, $3, tag}' >>"$WORK/mpv.txt"
}
START=$(date +%s)
killed=0
while (($(date +%s) - START < DURATION)); do
  if ((killed == 0 && $(date +%s) - START >= DURATION / 2)); then
    killed=1
    log "killing the leader's queued-sync (a)"
    kill -KILL "${SYNC_PID[a]}"
    forget_pid "${SYNC_PID[a]}"
    KILLED_AT=$(($(date +%s) - START))
    sample 12 failover
    start_sync a
    continue
  fi
  sample 7 steady
  sleep "$((SAMPLE_EVERY - 7))"
done
put killed_at_s "${KILLED_AT:-}"
python3 "$here/report.py" "$WORK" "${KILLED_AT:-0}" >>"$RESULTS"
log "results:"
cat "$RESULTS"
