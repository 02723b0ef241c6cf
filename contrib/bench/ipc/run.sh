#!/usr/bin/env bash
# Control-socket benchmark, queued vs mpv: one run measures both players' IPC side by side (one player
# at a time, each on its own socket in a scratch dir) with the same stdlib-Python clients, prints a table
# of figures and queued/mpv ratios, says which targets are met, and writes the table to a file.
#
# Run:   contrib/setup.sh --bench          # once: mpv, ffmpeg
#        contrib/bench/ipc/run.sh          # ~5-10 min on 2 cores (+ the build and the media, first time)
# Env:   QUEUED=path   use this queued binary (default: swift build -c release --scratch-path
#                      .build-ipcbench in the repo, built if missing or older than Sources/)
#        IPC_MEDIA=file   the 1080p30 file (default: generated once into /tmp/queued-ipcbench-media/)
#        IPC_SECTIONS="idle playing scale"   run only some sections
#        IPC_ARGS="--rtt-n 2000 ..."         extra bench.py options (smaller runs while developing)
#        IPC_OUT=file  where the table goes (default /tmp/queued-ipcbench-DATE.txt); KEEP_WORK=1 keeps
#                      the scratch dir (daemon logs, raw results.json)
#
# Figures (bench.py; ipcclient.py has the client loops):
#  1. Round trip of a small query on one connection, 20,000 sequential requests (after 1,000 warm-up):
#     queued player.status vs mpv get_property pause; p50/p99 µs, (a) idle, (b) playing a 60 s
#     1080p30 H.264+AAC file with null outputs (queued --audio null --video null --loops 0, mpv
#     --vo=null --ao=null --loop-file=inf). Target: queued p99 <= mpv p99.
#  2. Pipelined: 100,000 small queries written as fast as possible by one thread while another reads
#     the replies; replies/s from the first write to the last reply (median of 3). Target >= 2x mpv.
#  3. 100 clients x 1,000 sequential small queries each (threads, released together) while playing:
#     total time, errors (must be 0), per-request latency; playback health over the run vs a baseline of
#     the same length without clients: mpv frame-drop-count + decoder-frame-drop-count; both players'
#     position advance vs wall clock and the player's CPU seconds. queued has no dropped-frame counter
#     on its socket (see the notes in the output).
#  4. Queue scale with dummy paths (never opened; the run checks that playback never starts):
#     (a) 100,000 items: queued in 10 requests of 10,000; mpv 100,000 pipelined loadfile append;
#     (b) 100,000 single-item adds pipelined, both (target queued <= 0.5x mpv);
#     (c) at 100,000 items, one insert / remove / move near the middle, 100 times each (target < 1 ms);
#     (d) a queue.list page of 1,000 (target < 5 ms), a full read (10 pages of 10,000 vs mpv
#         get_property playlist); (e) RSS with 100,000 items (target <= 0.5x mpv);
#     (f) the same single-op latencies at 1,000 and 10,000 items, to show what grows with the queue.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)

log() { printf '[ipcbench %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

WORK=$(mktemp -d /tmp/queued-ipcbench.XXXXXX)
PY_PID=""
cleanup() {
  local pid
  trap - EXIT INT TERM
  if [[ -n "$PY_PID" ]] && kill -0 "$PY_PID" 2>/dev/null; then
    kill -TERM "$PY_PID" 2>/dev/null
    for _ in $(seq 50); do kill -0 "$PY_PID" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$PY_PID" 2>/dev/null
  fi
  # Daemons bench.py started and did not stop (it was killed): by pid, and only if still ours.
  if [[ -f "$WORK/pids" ]]; then
    while read -r pid; do
      [[ -n "$pid" ]] || continue
      if grep -qa -- "$WORK/" "/proc/$pid/cmdline" 2>/dev/null; then
        kill -TERM "$pid" 2>/dev/null
        sleep 0.5
        grep -qa -- "$WORK/" "/proc/$pid/cmdline" 2>/dev/null && kill -KILL "$pid" 2>/dev/null
      fi
    done <"$WORK/pids"
  fi
  if [[ -n "${KEEP_WORK:-}" ]]; then log "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'log "interrupted"; exit 130' INT TERM

for tool in ffmpeg mpv python3 timeout; do
  command -v "$tool" >/dev/null || { log "missing $tool: run contrib/setup.sh --bench"; exit 1; }
done

if [[ -z "${QUEUED:-}" ]]; then
  QUEUED="$repo/.build-ipcbench/release/queued"
  if [[ ! -x "$QUEUED" ]] || [[ -n "$(find "$repo/Sources" "$repo/Package.swift" -newer "$QUEUED" -print -quit)" ]]; then
    log "building queued (release, scratch path .build-ipcbench; several minutes the first time)"
    if ! (cd "$repo" && swift build -c release --scratch-path .build-ipcbench) >"$WORK/build.log" 2>&1; then
      tail -n 30 "$WORK/build.log" >&2
      [[ -x "$QUEUED" ]] || { log "build failed"; exit 1; }
      log "build failed: measuring the previous binary ($QUEUED, built $(date -r "$QUEUED" '+%F %T'))"
      STALE=" (stale build: the tree did not compile)"
    fi
  fi
fi
[[ -x "$QUEUED" ]] || { log "no queued binary at $QUEUED"; exit 1; }

MEDIA="${IPC_MEDIA:-}"
if [[ -z "$MEDIA" ]]; then
  mdir=/tmp/queued-ipcbench-media
  MEDIA="$mdir/long1080p30.mp4"
  mkdir -p "$mdir"
  if [[ ! -s "$MEDIA" ]]; then
    log "making $MEDIA (60 s 1920x1080 30 fps H.264 + AAC; about a minute)"
    timeout -k 5 900 ffmpeg -nostdin -hide_banner -loglevel error -y \
      -f lavfi -i "testsrc2=s=1920x1080:r=30:d=60" -f lavfi -i "sine=f=440:r=48000:d=60" \
      -ac 2 -c:v libx264 -preset medium -pix_fmt yuv420p -c:a aac -b:a 128k -shortest "$MEDIA.tmp.mp4" \
      && mv "$MEDIA.tmp.mp4" "$MEDIA" || { rm -f "$MEDIA.tmp.mp4"; log "media generation failed"; exit 1; }
  fi
fi
[[ -s "$MEDIA" ]] || { log "no media file $MEDIA"; exit 1; }

OUT="${IPC_OUT:-/tmp/queued-ipcbench-$(date +%Y%m%d-%H%M%S).txt}"
META=$(python3 -c 'import json,sys; print(json.dumps({"queued_rev": sys.argv[1], "mpv": sys.argv[2], "queued_bin": sys.argv[3]}))' \
  "$(git -C "$repo" describe --always --dirty 2>/dev/null || echo unknown)${STALE:-}" \
  "$(mpv --no-config --version | head -n 1 | cut -d' ' -f1-2)" "$QUEUED")

log "scratch dir $WORK; queued $QUEUED; media $MEDIA"
# shellcheck disable=SC2086
timeout -k 15 2400 python3 -B -u "$here/bench.py" --queued "$QUEUED" --media "$MEDIA" --work "$WORK" \
  --json "$WORK/results.json" --out "$OUT" --meta "$META" \
  --sections "${IPC_SECTIONS:-idle playing scale}" ${IPC_ARGS:-} &
PY_PID=$!
wait "$PY_PID"
rc=$?
PY_PID=""
if [[ $rc -ne 0 ]]; then
  log "bench.py failed (exit $rc); daemon logs:"
  for f in "$WORK"/*.log; do [[ -f "$f" ]] && { echo "== $f" >&2; tail -n 15 "$f" >&2; }; done
  exit "$rc"
fi
log "summary written to $OUT"
echo "$OUT"
