#!/usr/bin/env bash
# Live streams, queued vs mpv in one run (streambench.py says what is measured): the first picture, CPU
# while playing, and queued's time from a source coming back to its picture, for UDP, SRT, RTMP, HLS and
# RTSP published on 127.0.0.1 by the ffmpeg CLI (RTSP: GStreamer's RTSP server).
# Run:   contrib/setup.sh --bench && contrib/bench/streams/run.sh      (~6 min on 2 cores, after the build)
# Env:   QUEUED=path (default: a release build in .build-bench), STREAM_KINDS=udp,hls (fewer protocols),
#        BENCH_RUNS=3 (first-picture runs per player), CPU_SECONDS=20, KEEP_WORK=1 keeps the logs.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
log() { printf '[streambench %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
for tool in mpv ffmpeg nginx /usr/bin/python3; do
  command -v "$tool" >/dev/null || { log "missing $tool: run contrib/setup.sh --bench"; exit 1; }
done
WORK=$(mktemp -d /tmp/queued-stream-bench.XXXXXX)
trap '[[ -n "${KEEP_WORK:-}" ]] || rm -rf "$WORK"' EXIT
if [[ -z "${QUEUED:-}" ]]; then
  log "building queued (release, scratch path .build-bench)"
  (cd "$repo" && swift build -c release --product queued --scratch-path .build-bench) >"$WORK/build.log" 2>&1 \
    || { tail -n 30 "$WORK/build.log" >&2; log "build failed"; exit 1; }
  QUEUED="$repo/.build-bench/release/queued"
fi
printf 'queued %s, %s, %s\n' "$(git -C "$repo" describe --always --dirty 2>/dev/null)" \
  "$(mpv --no-config --version | head -n 1 | cut -d' ' -f1-2)" "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
python3 "$here/streambench.py" --queued "$QUEUED" --repo "$repo" --work "$WORK" \
  --kinds "${STREAM_KINDS:-udp,srt,rtmp,hls,rtsp}" --runs "${BENCH_RUNS:-3}" --cpu-seconds "${CPU_SECONDS:-20}"
