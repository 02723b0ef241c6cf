#!/usr/bin/env bash
# Fleet benchmark: queued-mqtt (the bridge between one daemon and an MQTT broker) against one private
# Mosquitto on a free 127.0.0.1 port, with real daemons on null outputs. Prints a table and writes it to a
# file (path printed last). Nothing ever leaves 127.0.0.1; every process it starts is stopped on exit.
# There is no mpv equivalent of a fleet bridge, so instead of mpv ratios the figures are set beside their
# natural floors: bytes beside what the MQTT keepalive alone costs, the bridge's RSS beside its own daemon's
# and beside a mosquitto_sub holding one subscription.
#
# Run:   contrib/setup.sh --bench          # once: mosquitto, mosquitto-clients, ffmpeg (its base list) and
#                                          # iproute2 (ss; in the --bench list)
#        contrib/bench/fleet/run.sh        # ~4 min with the defaults on 2 cores (50 daemons + 50 bridges)
#        BIN_DIR=.build/debug contrib/bench/fleet/run.sh    # debug binaries work too (bigger, slower figures)
# Env:   BIN_DIR=dir        holds queued and queued-mqtt (default: release builds in .build-bench, made with
#                           swift build -c release --product X --scratch-path .build-bench, once per product:
#                           swift build takes one --product, a second one replaces the first)
#        WORK=dir           scratch: the broker's config and log, every daemon's state dir, socket and log,
#                           every bridge's log (default: a new /tmp/queued-fleetbench.XXXXXX, kept)
#        BENCH_OUT=file     the table (default $WORK/fleet-results.txt); raw key=value figures: FILE.results
#        BENCH_CACHE=dir    generated media (default ~/.cache/queued-bench/fleet; tiny, made once)
#        FLEET_PLAYERS=50   players (daemon + bridge each) in section 1
#        FLEET_ROUNDS=10    desired documents published in section 1
#        FLEET_SPOOL_RECORDS=2000   proof-of-play records held before the bridge starts (section 2; <= 9000)
#        FLEET_LIVE_SECONDS=10      section 2's live phase
#        FLEET_IDLE_SECONDS=60      each idle window (sections 3 and 4)
#        FLEET_IDLE_CASES="still clip"   which idle screens to measure (see 3 below)
#        FLEET_KEEPALIVE=30 the bridges' --keepalive (30 is queued-mqtt's default)
#        FLEET_SECTIONS="latency spool idle"   run only some sections
#
# The broker: Debian's mosquitto from a private config (user root when run as root, persistence false,
# allow_anonymous false, a password per player and the ACL rules of contrib/mosquitto/acl: each screen writes
# only its own topics and reads its own and group `all`'s documents; the operator, i.e. this benchmark's
# observer, reads and writes queued/#). Plain MQTT, no TLS (TLS adds its record overhead to section 4's
# bytes). One change from the defaults: max_queued_messages 0 (no cap), so that the observer, which
# acknowledges every QoS 1 message at once, is never the one dropping records in section 2.
# The observer is fleetbench.py's own MQTT 3.1.1 client (raw socket, stdlib only; paho-mqtt is not needed).
#
# Media (ffmpeg CLI): clip-a.mp4 and clip-b.mp4, 2 s 160x90 10 fps testsrc/testsrc2 H.264 + a sine in AAC
# (two files so that a new queue can be told from the old on screen); still.png (160x90); tick.wav (50 ms).
#
# Figures:
#  1. Desired → applied, for FLEET_PLAYERS players (each: queued --audio null --video null --loops 0 on its
#     own state dir and socket, looping one 2 s clip, and queued-mqtt --group all). FLEET_ROUNDS times, after
#     a random pause (so the publish falls anywhere in the clip and the bridges' 1 s report timer): one
#     retained document {"rev": r, "queue": [the other clip], "loops": 0} on queued/group/all/desired, QoS 1.
#     Per player and round, three times from just before the PUBLISH leaves the observer:
#       reported  - until the observer has that player's retained `reported` with appliedRev == r (the figure
#                   a fleet console sees). appliedRev turns r once queue.replace is accepted, i.e. the swap is
#                   scheduled, not done. Includes the bridge's throttle: reported goes out at most once a
#                   second, on a 1 s timer, so up to ~2 s can be pure waiting (the "minus" row shows it).
#       daemon    - until the daemon's own socket says appliedRev == r (event.status, watched by this script):
#                   broker → bridge → queue.replace accepted. The bridge's own path without the throttle.
#       screen    - until the first picture of the new queue (event.itemStarted `at`, the daemon's clock):
#                   the bridge always swaps with queue.replace at:"itemEnd" (there is no "now" option), so
#                   this includes waiting for the 2 s play under way to end: expect up to ~2 s by design.
#     p50, p99 (nearest rank) and max over all players × rounds; "missing" counts samples not seen within 15 s.
#     Also counted: a bridge applying the same rev more than once (its log's "applying rev N" lines); a
#     reported appliedRev going backwards; a new queue not on screen by the deadline, with the daemon's
#     state then (player.status); reported documents whose current item has an id but a null uri, and how
#     long each stayed the retained copy. Raw data: WORK/latency/samples.jsonl (seconds per player and
#     round), WORK/latency/<player>/events.jsonl (the daemon's status/itemStarted events as seen, abridged)
#     and messages.jsonl (everything the observer got from that player).
#     Note: FLEET_PLAYERS daemons and bridges share this machine's cores (real screens each have their own),
#     so at 50 the figures include CPU contention; the 1-min load is printed.
#  2. Proof-of-play records through the spool. One daemon plays a 50 ms sound untimed (queued --untimed,
#     ~1,000 plays/s) with no bridge running, until it holds FLEET_SPOOL_RECORDS unacknowledged records,
#     then stops (player.stop); the broker stays up. Then the bridge starts and the observer (subscribed to
#     queued/spool/events, QoS 1) counts records until every seq has arrived: records/s from the bridge's
#     start and from first to last record; messages per record (duplicates: consumers de-duplicate by seq);
#     the time until the daemon has them acknowledged (plays.list ackedThrough); TCP bytes per record.
#     Then "live": with the bridge connected, the daemon plays untimed for FLEET_LIVE_SECONDS: plays made/s
#     vs records arrived/s meanwhile, the backlog when playback stops and how long until it is gone — the
#     most a bridge can forward while its daemon makes records as fast as it can.
#  3. The bridge's idle CPU and RSS over FLEET_IDLE_SECONDS (after 5 s to settle): one daemon, one bridge,
#     CPU % (of one core) from /proc/PID/stat utime+stime, RSS from /proc/PID/status VmRSS (at the end, and
#     the most seen sampling every second). Beside it: its daemon, a mosquitto_sub holding one subscription
#     (the smallest MQTT client that stays connected), and the broker. Two idle screens (FLEET_IDLE_CASES):
#       still - one still image shown for longer than the window: nothing ends or starts on screen, so
#               whatever the bridge does is its own overhead;
#       clip  - the 2 s clip looping: a play (one proof-of-play record, a changed reported) every 2 s.
#  4. Bytes on the bridge's broker connection over the same window, from the kernel's counters for that one
#     TCP socket (ss -ti: bytes_sent, bytes_received, segs_out, segs_in of the bridge's connection to the
#     broker's port): exactly the MQTT bytes both ways, nothing else (not the daemon's Unix socket, which
#     /proc/PID/io would mix in; not other clients, which $SYS/broker/bytes would), and the segment count for
#     the IPv4/TCP headers (20 + 20 B, + 12 B when TCP timestamps are on; loopback has no link header).
#     Extrapolated to one hour, beside the floor: a connected MQTT client that says nothing sends a PINGREQ
#     (2 B) and gets a PINGRESP (2 B) once per keepalive = 4 B per FLEET_KEEPALIVE s, 3 segments with the ACK
#     of PINGRESP. Also: how often `reported` was republished while idle, and which fields changed between
#     consecutive copies (a republish with only health/position changes is traffic the floor does not have).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)

log() { printf '[fleetbench %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

WORK=${WORK:-$(mktemp -d /tmp/queued-fleetbench.XXXXXX)}
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
OUT=${BENCH_OUT:-$WORK/fleet-results.txt}
RESULTS="$OUT.results"
: >"$RESULTS"
MEDIA=${BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/queued-bench}/fleet
PLAYERS=${FLEET_PLAYERS:-50}
ROUNDS=${FLEET_ROUNDS:-10}
SPOOL=${FLEET_SPOOL_RECORDS:-2000}
LIVE=${FLEET_LIVE_SECONDS:-10}
IDLE=${FLEET_IDLE_SECONDS:-60}
IDLE_CASES=${FLEET_IDLE_CASES:-still clip}
KEEPALIVE=${FLEET_KEEPALIVE:-30}
SECTIONS=${FLEET_SECTIONS:-latency spool idle}
MQ="$WORK/mosquitto"
BROKER_PID="" PY_PID="" PORT=""
TOKEN=$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')

for n in "$PLAYERS" "$ROUNDS" "$SPOOL" "$LIVE" "$IDLE" "$KEEPALIVE"; do
  [[ "$n" =~ ^[0-9]+$ && "$n" -gt 0 ]] || { log "FLEET_* counts must be positive integers (got '$n')"; exit 1; }
done
((PLAYERS <= 500)) || { log "FLEET_PLAYERS: at most 500"; exit 1; }

# stop_child PID SIGNAL: one child of ours, SIGNAL then up to 8 s, then SIGKILL.
stop_child() {
  local pid=$1 sig=$2 i
  [[ -n "$pid" ]] || return 0
  kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null; return 0; }
  kill -"$sig" "$pid" 2>/dev/null
  for i in $(seq 80); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
}

cleanup() {
  local pid
  trap - EXIT INT TERM
  stop_child "$PY_PID" TERM   # the helper stops its own daemons, bridges and mosquitto_sub
  # Whatever the helper could not stop (it was killed): by pid, and only if its command line is ours.
  for pid in $(pgrep -x queued 2>/dev/null; pgrep -x queued-mqtt 2>/dev/null; pgrep -x mosquitto_sub 2>/dev/null); do
    if grep -qa -e "$WORK/" -e "fleetbench-ref-$TOKEN" "/proc/$pid/cmdline" 2>/dev/null; then
      kill -KILL "$pid" 2>/dev/null
    fi
  done
  stop_child "$BROKER_PID" TERM
}
trap cleanup EXIT
trap 'log "interrupted"; exit 130' INT TERM

for tool in mosquitto mosquitto_passwd mosquitto_sub ffmpeg python3 ss pgrep timeout od; do
  command -v "$tool" >/dev/null || { log "missing $tool: run contrib/setup.sh --bench (mosquitto, mosquitto-clients, ffmpeg, iproute2)"; exit 1; }
done

BUILD="given"
if [[ -z "${BIN_DIR:-}" ]]; then
  for product in queued queued-mqtt; do
    log "building $product (release, scratch path .build-bench)"
    (cd "$repo" && swift build -c release --product "$product" --scratch-path .build-bench) >>"$WORK/build.log" 2>&1 \
      || { tail -n 30 "$WORK/build.log" >&2; log "build failed"; exit 1; }
  done
  BIN_DIR="$repo/.build-bench/release"
  BUILD="release"
fi
BIN_DIR=$(cd "$BIN_DIR" && pwd)
for b in queued queued-mqtt; do
  [[ -x "$BIN_DIR/$b" ]] || { log "no $b in $BIN_DIR"; exit 1; }
done
[[ "$BUILD" == given ]] && case "$BIN_DIR" in */release*) BUILD="release?" ;; */debug*) BUILD="debug?" ;; esac

# --- media -----------------------------------------------------------------------------------------
mkdir -p "$MEDIA"
gen() {  # NAME, then ffmpeg arguments (the output last); through a temp file so an interrupted run leaves nothing
  local out="$MEDIA/$1" ext=${1##*.}; shift
  [[ -s "$out" ]] && return 0
  log "making $out"
  timeout -k 5 120 nice -n 10 ffmpeg -nostdin -hide_banner -loglevel error -y "$@" "$out.tmp.$ext" \
    && mv "$out.tmp.$ext" "$out" || { rm -f "$out.tmp.$ext"; log "media generation failed: $out"; return 1; }
}
gen clip-a.mp4 -f lavfi -i "testsrc=s=160x90:r=10:d=2" -f lavfi -i "sine=f=440:r=48000:d=2" \
  -c:v libx264 -preset veryfast -pix_fmt yuv420p -c:a aac -b:a 64k -shortest || exit 1
gen clip-b.mp4 -f lavfi -i "testsrc2=s=160x90:r=10:d=2" -f lavfi -i "sine=f=550:r=48000:d=2" \
  -c:v libx264 -preset veryfast -pix_fmt yuv420p -c:a aac -b:a 64k -shortest || exit 1
gen still.png -f lavfi -i "testsrc=s=160x90:r=1:d=1" -frames:v 1 || exit 1
gen tick.wav -f lavfi -i "sine=f=880:r=48000:d=0.05" || exit 1

# --- mosquitto on a free loopback port -------------------------------------------------------------
mkdir -p "$MQ"
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
width=${#PLAYERS}; ((width < 2)) && width=2
users=(operator spool idle-still idle-clip)
for ((i = 1; i <= PLAYERS; i++)); do users+=("$(printf 'p%0*d' "$width" "$i")"); done
: >"$MQ/passwords"
chmod 600 "$MQ/passwords"
for u in "${users[@]}"; do printf '%s:%s-%s\n' "$u" "$u" "$TOKEN" >>"$MQ/passwords"; done
mosquitto_passwd -U "$MQ/passwords" || { log "mosquitto_passwd failed"; exit 1; }
{
  grep '^pattern ' "$repo/contrib/mosquitto/acl"
  printf 'user operator\ntopic readwrite queued/#\n'
  for u in "${users[@]:1}"; do printf 'user %s\ntopic read queued/group/all/desired\n' "$u"; done
} >"$MQ/acl"
user=""; [[ $(id -u) -eq 0 ]] && user="user root"  # as root it would drop to the mosquitto user otherwise
cat >"$MQ/mosquitto.conf" <<EOF
$user
persistence false
allow_anonymous false
password_file $MQ/passwords
acl_file $MQ/acl
max_queued_messages 0
log_dest file $MQ/mosquitto.log
log_type error
log_type warning
log_type notice
listener $PORT 127.0.0.1
EOF
mosquitto -c "$MQ/mosquitto.conf" >"$MQ/stdout.log" 2>&1 </dev/null &
BROKER_PID=$!
for _ in $(seq 100); do
  python3 -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=1).close()' "$PORT" \
    2>/dev/null && break
  kill -0 "$BROKER_PID" 2>/dev/null || break
  sleep 0.1
done
kill -0 "$BROKER_PID" 2>/dev/null \
  || { cat "$MQ/stdout.log" "$MQ/mosquitto.log" >&2; log "mosquitto did not start on 127.0.0.1:$PORT"; exit 1; }
log "mosquitto $(mosquitto -h 2>/dev/null | head -n 1 | grep -o '[0-9][0-9.]*' | head -n 1) on 127.0.0.1:$PORT; scratch dir $WORK"

# --- measurements ----------------------------------------------------------------------------------
put() { printf '%s=%s\n' "$1" "$2" >>"$RESULTS"; }
put meta.date "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
put meta.bin_dir "$BIN_DIR"
put meta.build "$BUILD"
put meta.queued_version "$("$BIN_DIR/queued" --version 2>/dev/null | head -n 1 || true)"
put meta.queued_rev "$(git -C "$repo" describe --always --dirty 2>/dev/null || echo unknown)"
put meta.cpus "$(nproc)"
put meta.players "$PLAYERS"
put meta.rounds "$ROUNDS"
put meta.keepalive "$KEEPALIVE"
put meta.load_before "$(cut -d' ' -f1-3 /proc/loadavg)"
start=$(date +%s)

# Bounded as a whole: generous for 500 players; each wait inside has its own deadline.
limit=$((600 + PLAYERS * 6 + ROUNDS * 70 + LIVE + 2 * (IDLE + 80)))
timeout -k 15 "$limit" python3 -B -u "$here/fleetbench.py" --bin-dir "$BIN_DIR" --build "$BUILD" --work "$WORK" \
  --media "$MEDIA" --port "$PORT" --broker-pid "$BROKER_PID" --token "$TOKEN" --players "$PLAYERS" --rounds "$ROUNDS" \
  --spool-records "$SPOOL" --live-seconds "$LIVE" --idle-seconds "$IDLE" --idle-cases "$IDLE_CASES" \
  --keepalive "$KEEPALIVE" --sections "$SECTIONS" --results "$RESULTS" --out "$OUT" &
PY_PID=$!
wait "$PY_PID"
rc=$?
PY_PID=""
put meta.load_after "$(cut -d' ' -f1-3 /proc/loadavg)"
put meta.total_s "$(($(date +%s) - start))"
((rc == 0)) || { log "fleetbench.py failed (exit $rc); logs in $WORK"; exit "$rc"; }
log "total $(($(date +%s) - start)) s; raw figures: $RESULTS; logs: $WORK"
log "summary written to $OUT"
echo "$OUT"
