#!/usr/bin/env bash
# queued-web benchmark (contrib/bench/web/webbench.py): a real daemon, queued-web and headless Chromium
# (Selenium), everything on loopback. Prints a table and writes it to a file (path printed last).
#
# Run:   contrib/setup.sh                 # chromium, chromium-driver, selenium (the tests need them too)
#        contrib/bench/web/run.sh         # ~4 min on 2 cores (+ the release build the first time)
# Env:   BIN_DIR=dir   queued, queued-web, queuectl to use (default: swift build -c release of the three,
#                      --scratch-path .build-bench)
#        WEB_BENCH_SECONDS=30   length of each CPU window (preview closed, preview open, idle)
#        WEB_BENCH_SIZES="1000 100000"   queue sizes for the load time
#        WORK=dir      scratch (default: a new /tmp/queued-webbench.XXXXXX, kept)
#
# Figures:
#  1. Load to usable page: seconds from navigating to the page (signed in) to the first page of the queue
#     drawn and the events link live; median of 3, per queue size. The page asks for 100 items at a time
#     (queue.list offset/limit), so the size of the queue should barely show.
#  2. Event to page: from just before a queue.add on the socket (as queuectl does) to the page's queue
#     count changing (a MutationObserver's Date.now(), same machine clock); p50 and max of 20.
#  3. The preview's cost on the screen: the daemon plays a 1280x720 30 fps clip on SDL's offscreen driver
#     (null audio, the system clock) for WEB_BENCH_SECONDS with no page open, then with a page showing the
#     preview: the daemon's CPU % and dropped frames (player.status droppedFrames) in each window, and
#     queued-web's CPU % with the page open. The issue's target: no dropped frame caused by the preview.
#  4. queued-web idle: RSS (MB) and CPU % over WEB_BENCH_SECONDS with no page open.
# No mpv figure: mpv has no web page of its own to compare with; the figures stand alone (and the preview
# window is compared with the window without it).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
WORK=${WORK:-$(mktemp -d /tmp/queued-webbench.XXXXXX)}
mkdir -p "$WORK"
if [[ -z "${BIN_DIR:-}" ]]; then
  echo "webbench: building queued, queued-web, queuectl (release, .build-bench)" >&2
  (cd "$repo" && swift build -c release --product queued --scratch-path .build-bench &&
    swift build -c release --product queued-web --scratch-path .build-bench &&
    swift build -c release --product queuectl --scratch-path .build-bench) >"$WORK/build.log" 2>&1 ||
    { tail -n 30 "$WORK/build.log" >&2; exit 1; }
  BIN_DIR=$repo/.build-bench/release
fi
for tool in ffmpeg python3 /usr/bin/chromium /usr/bin/chromedriver; do
  command -v "$tool" >/dev/null || { echo "webbench: missing $tool: run contrib/setup.sh" >&2; exit 1; }
done
clip=$WORK/clip720.mp4
[[ -f $clip ]] || ffmpeg -loglevel error -f lavfi -i "testsrc2=s=1280x720:r=30:d=20" -c:v libx264 -preset veryfast \
  -pix_fmt yuv420p -b:v 4M "$clip"
python3 -B -u "$here/webbench.py" "$BIN_DIR" "$clip" "$WORK" | tee "$WORK/web-results.txt"
echo "$WORK/web-results.txt"
