#!/usr/bin/env bash
# The web items benchmark (issue 40), in one run: a 1920x1080 animated page (three boxes moving, a clock
# ticking every 33 ms) shown by queued (queued-webview, WPE WebKit, frames at most 30 a second, drawn by
# SDL's offscreen renderer) and rendered by headless Chromium streaming it over the DevTools screencast
# (JPEG frames acknowledged as they come); a static page shown by queued (its idle cost); how long before
# its turn a page after a 3 s still is loaded and painted; and a soak of web plays (0.5 s each, a kept page
# and one loaded for its play in turn) with the RSS of the daemon and of the renderer's process tree at 100
# plays and at the end.
# Figures: CPU % (user+sys of each player's whole process tree over WEB_ITEMS_SECONDS) and largest summed
# RSS; ratios queued/Chromium (targets: CPU <= 0.5, RSS <= 0.35).
# Run:   contrib/setup.sh && contrib/bench/web-items/run.sh        (~12 min on 2 cores with the soak)
# Env:   QUEUED=path (queued-webview beside it; default: a release build in .build-bench), WEB_ITEMS_SECONDS
#        (default 20), WEB_ITEMS_SOAK plays (default 1000; 0 skips the soak), KEEP_WORK=1 keeps the scratch dir.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bench=$(cd "$here/.." && pwd)
repo=$(cd "$here/../../.." && pwd)
WORK=$(mktemp -d /tmp/queued-web-items-bench.XXXXXX)
RESULTS="$WORK/results"
: >"$RESULTS"
# shellcheck source=../lib.sh
source "$bench/lib.sh"
trap cleanup EXIT
trap 'log "interrupted"; exit 130' INT TERM

for tool in ffmpeg chromium python3; do
  command -v "$tool" >/dev/null || { log "missing $tool: run contrib/setup.sh"; exit 1; }
done
if [[ -z "${QUEUED:-}" ]]; then
  log "building queued and queued-webview (release, .build-bench)"
  (cd "$repo" && swift build -c release --scratch-path .build-bench --product queued >&2 \
    && swift build -c release --scratch-path .build-bench --product queued-webview >&2) || { log "build failed"; exit 1; }
  QUEUED="$repo/.build-bench/release/queued"
fi
BIN=$(dirname "$QUEUED")
[[ -x "$BIN/queued-webview" ]] || { log "no queued-webview beside $QUEUED (WPE WebKit's development files missing?)"; exit 1; }

log "measuring (${WEB_ITEMS_SECONDS:-20} s windows, soak of ${WEB_ITEMS_SOAK:-1000} plays)"
python3 "$here/webitems.py" "$BIN" "$WORK" >"$WORK/figures.json" || { log "webitems.py failed"; tail -20 "$WORK/queued.log" >&2; exit 1; }
python3 - "$WORK/figures.json" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))
def ratio(a, b):
    return f"{f[a] / f[b]:.2f}" if f.get(b) else "n/a"
print("web items: a 1920x1080 animated page, %s s windows" % f["seconds"])
print(f"  queued   animated page  CPU {f['queued_animated_cpu_percent']:6.1f} %   RSS {f['queued_animated_rss_mib']:5d} MiB   (dropped pictures {f['queued_animated_dropped']})")
print(f"  chromium screencast     CPU {f['chromium_cpu_percent']:6.1f} %   RSS {f['chromium_rss_mib']:5d} MiB   ({f['chromium_fps']} frames/s)")
print(f"  ratio queued/chromium   CPU {ratio('queued_animated_cpu_percent', 'chromium_cpu_percent')} (target <= 0.5)   RSS {ratio('queued_animated_rss_mib', 'chromium_rss_mib')} (target <= 0.35)")
print(f"  queued   static page    CPU {f['queued_static_cpu_percent']:6.1f} %   RSS {f['queued_static_rss_mib']:5d} MiB")
print(f"  first paint ready {f['first_paint_before_turn_s']} s before the page's turn (after a 3 s still)")
if "soak_plays" in f:
    print(f"  soak: {f['soak_plays']} plays in {f['soak_seconds']} s, {f['soak_errors']} errors; daemon RSS "
          f"{f.get('soak_daemon_rss_mib_at_100', '?')} MiB at 100 plays, {f['soak_daemon_rss_mib_end']} MiB at the end; renderer "
          f"tree {f.get('soak_web_rss_mib_at_100', '?')} -> {f['soak_web_rss_mib_end']} MiB")
PY
if [[ -n "${KEEP_WORK:-}" ]]; then log "kept $WORK"; fi
