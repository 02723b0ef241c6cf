#!/usr/bin/env bash
# The durable-state benchmark (contrib/bench/state/bench.py): edits/s with --no-state, --sync batch and
# --sync always; kill -9 → first itemStarted after restart; state bytes per 100,000 items.
# Env: QUEUED=path (default: a release build in .build/bench-release), WORK=dir (default: a temp dir).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
WORK=${WORK:-$(mktemp -d /tmp/queued-state-bench-XXXXXX)}
mkdir -p "$WORK"
if [[ -z "${QUEUED:-}" ]]; then
  (cd "$repo" && swift build -c release --product queued --scratch-path .build/bench-release) >"$WORK/build.log" 2>&1
  QUEUED=$repo/.build/bench-release/release/queued
fi
media=$WORK/clip.flac
[[ -f $media ]] || ffmpeg -loglevel error -f lavfi -i "sine=f=440:d=20" -ac 2 -ar 48000 "$media"
python3 -B -u "$here/bench.py" "$QUEUED" "$media" "$WORK"
