#!/usr/bin/env bash
# The fleet console benchmark (issue 41): queued-fleet with thousands of simulated players on a private
# Mosquitto (127.0.0.1 only). Figures: the console's start until it holds every screen; the first view (the
# whole fleet's /api/screens request; the page in headless Chromium from navigation to the wall drawn); a
# live update with nothing new; RSS of the console and of the browser; proof-of-play ingest in records/s
# (QoS 1, 10 % sent twice, counted once) and the CSV report's time. No mpv equivalent exists for a fleet
# page: the figures stand alone, set beside the issue's targets (first view < 2 s with 5,000 screens).
# Run:   contrib/setup.sh --bench && contrib/bench/fleet-console/run.sh      (~3 min on 2 cores)
# Env:   QUEUED_FLEET=path (default: a release build in .build-bench), FLEET_SCREENS (5000),
#        FLEET_RECORDS (100000), KEEP_WORK=1 keeps the scratch directory.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
WORK=$(mktemp -d /tmp/queued-fleet-console-bench.XXXXXX)
broker_pid=""
cleanup() {
  [[ -n "$broker_pid" ]] && kill "$broker_pid" 2>/dev/null
  [[ -z "${KEEP_WORK:-}" ]] && rm -rf "$WORK"
}
trap cleanup EXIT
log() { printf '[bench %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

for tool in mosquitto chromium python3; do
  command -v "$tool" >/dev/null || { log "missing $tool: run contrib/setup.sh --bench"; exit 1; }
done
if [[ -z "${QUEUED_FLEET:-}" ]]; then
  log "building queued-fleet (release, .build-bench)"
  (cd "$repo" && swift build -c release --scratch-path .build-bench --product queued-fleet >&2) || { log "build failed"; exit 1; }
  QUEUED_FLEET="$repo/.build-bench/release/queued-fleet"
fi
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
printf 'listener %s 127.0.0.1\nallow_anonymous true\npersistence false\nmax_queued_messages 1000000\nmax_inflight_messages 100\n' "$port" >"$WORK/mosquitto.conf"
mosquitto -c "$WORK/mosquitto.conf" >"$WORK/mosquitto.log" 2>&1 &
broker_pid=$!
python3 -c "
import socket, sys, time
for _ in range(200):
    try: socket.create_connection(('127.0.0.1', $port), 0.1).close(); sys.exit(0)
    except OSError: time.sleep(0.05)
sys.exit(1)" || { log "mosquitto did not start"; exit 1; }

log "measuring with ${FLEET_SCREENS:-5000} screens and ${FLEET_RECORDS:-100000} records"
python3 "$here/console.py" "$QUEUED_FLEET" "$WORK" "$port" >"$WORK/figures.json" || { log "console.py failed"; tail -20 "$WORK/console.log" >&2; exit 1; }
python3 - "$WORK/figures.json" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))
print(f"fleet console: {f['screens']} simulated screens, {f['records']} proof-of-play records")
print(f"  console holds every screen   {f['console_ready_s']} s after its start")
print(f"  first view (Chromium)        {f['first_view_s_median']} s median of 3 (target < 2 s)")
print(f"  /api/screens, whole fleet    {f['screens_request_ms_median']} ms, {f['screens_request_bytes'] // 1024} KiB")
print(f"  live update, nothing new     {f['live_update_ms_median']} ms")
print(f"  console RSS                  {f['console_rss_mib']} MiB ({f['console_rss_mib_after_ingest']} MiB after the ingest)")
print(f"  browser                      PSS {f['browser_pss_mib']} MiB, summed RSS {f['browser_rss_mib']} MiB (JS heap {f['browser_js_heap_mib']} MiB)")
print(f"  ingest                       {f['ingest_records_per_s']} records/s ({f['records_stored']} stored, repeats counted once)")
print(f"  report as CSV                {f['report_csv_ms']} ms")
PY
