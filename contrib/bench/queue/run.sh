#!/usr/bin/env bash
# Queue memory and method latency at 10k / 100k / 1M realistic items, queued vs mpv in one run
# (queuebench.py says what is measured). Prints RSS with each size and its ratio to mpv, and the
# methods' round trips at the middle of the queue.
# Run:   contrib/setup.sh --bench && contrib/bench/queue/run.sh        (~6 min on 2 cores, after the build)
# Env:   QUEUED=path (default: a release build in .build-bench), QUEUE_SIZES=10000,100000 (fewer sizes),
#        QUEUE_SHAPES=shared,folders (fewer shapes: shared, folders, music, urls),
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
ffmpeg -nostdin -loglevel error -f lavfi -i "sine=f=440:d=20" -ac 2 -ar 48000 "$WORK/clip.flac" \
  || { log "could not make the clip"; exit 1; }
python3 "$here/queuebench.py" --queued "$QUEUED" --work "$WORK" --sizes "${QUEUE_SIZES:-10000,100000,1000000}" \
  --shapes "${QUEUE_SHAPES:-shared,folders,music,urls}" \
  --media "$WORK/clip.flac" --json "$WORK/results.json"
