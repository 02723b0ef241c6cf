#!/usr/bin/env bash
# Queue memory and method latency at 10k / 100k / 1M realistic items, queued vs mpv in one run
# (queuebench.py says what is measured). Prints RSS with each size and its ratio to mpv, and the
# methods' round trips at the middle of the queue.
# Run:   contrib/setup.sh --bench && contrib/bench/queue/run.sh        (~6 min on 2 cores, after the build)
# Env:   QUEUED=path (default: a release build in .build-bench), QUEUE_SIZES=10000,100000 (fewer sizes),
#        QUEUE_SHAPES=shared,folders (fewer shapes: shared, folders, music, urls),
#        FLOOD_SECONDS=60 (the edit flood at the largest size, per shape; 0: none),
#        KEEP_WORK=1 keeps the scratch dir (daemon logs, results.json).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
log() { printf '[queuebench %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
for tool in mpv python3 ffmpeg; do
  command -v "$tool" >/dev/null || { log "missing $tool: run contrib/setup.sh --bench"; exit 1; }
done
WORK=$(mktemp -d /tmp/queued-queue-bench.XXXXXX)
trap '[[ -n "${KEEP_WORK:-}" ]] || rm -rf "$WORK"' EXIT
if [[ -z "${QUEUED:-}" ]]; then
  log "building queued (release, scratch path .build-bench)"
  (cd "$repo" && swift build -c release --product queued --scratch-path .build-bench) >"$WORK/build.log" 2>&1 \
    || { tail -n 30 "$WORK/build.log" >&2; log "build failed"; exit 1; }
  QUEUED="$repo/.build-bench/release/queued"
fi
printf 'queued %s, %s, %s\n' "$(git -C "$repo" describe --always --dirty 2>/dev/null)" \
  "$(mpv --no-config --version | head -n 1 | cut -d' ' -f1-2)" "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
# A picture and a sound: the restart is timed to both, and the flood plays it forever.
ffmpeg -nostdin -loglevel error -f lavfi -i "testsrc2=s=320x240:r=25:d=10" -f lavfi -i "sine=f=440:d=10" \
  -c:v libx264 -pix_fmt yuv420p -c:a aac -ac 2 -ar 48000 -shortest "$WORK/clip.mp4" \
  || { log "could not make the clip"; exit 1; }
python3 "$here/queuebench.py" --queued "$QUEUED" --work "$WORK" --sizes "${QUEUE_SIZES:-10000,100000,1000000}" \
  --shapes "${QUEUE_SHAPES:-shared,folders,music,urls}" \
  --media "$WORK/clip.mp4" --flood-seconds "${FLOOD_SECONDS:-60}" --json "$WORK/results.json"
