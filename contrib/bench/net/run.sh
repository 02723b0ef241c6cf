#!/usr/bin/env bash
# Network (http) items benchmark, queued vs mpv side by side in one run: a private nginx on a free
# 127.0.0.1 port serves generated A/V files (also throttled under /slow/: limit_rate 10m, i.e. 10 MiB/s,
# "10 MB/s" below); both players fetch them from it, one process at a time, and a table of figures
# with queued/mpv ratios is printed and written to a file (path printed last). Nothing ever leaves
# 127.0.0.1.
#
# Run:   contrib/setup.sh --bench          # once: mpv, GNU time, ffmpeg, nginx
#        contrib/bench/net/run.sh          # ~2-3 min on 2 cores (+~40 s the first time, making the
#                                          # media); QUEUED=.build/debug/queued works too (slower figures)
# Env:   QUEUED=path   the queued binary (default: swift build -c release --product queued
#                      --scratch-path .build-bench in the repo, as contrib/bench/run.sh does)
#        WORK=dir      scratch dir: logs, raw results, the players' caches (default: a new
#                      /tmp/queued-netbench.XXXXXX, kept: the results live there; caches are removed)
#        BENCH_OUT=file   the table (default $WORK/net-results.txt); raw key=value figures: FILE.results
#        BENCH_RUNS=3  start-to-first-frame runs per player and case (median reported)
#        BENCH_CACHE=dir  generated media (default ~/.cache/queued-bench/net; made once, ~60 MB)
#        BENCH_NET_FILES="moov-end faststart"  which 40 s files the TTFF section uses (the first one is
#                      also the CPU/RSS file); BENCH_NET_SECTIONS="ttff loops cpu" runs only some parts
#
# Media (ffmpeg CLI; av40 is testsrc2 with temporal noise, so that x264 really spends its bits):
#   av40.mp4            40 s 1280x720 30 fps H.264 ~3.9 Mbit/s + AAC 128k stereo, ~20 MB, moov at the
#                       end (ffmpeg's default: a player needs the file's tail before its first frame)
#   av40-faststart.mp4  the same streams remuxed with -movflags +faststart (moov first)
#   loops4.mp4          4 s 640x360 30 fps H.264 CBR 40 Mbit/s + AAC, ~20 MB (the loops section): x264
#                       pads the easy picture to the bit rate with filler NAL units, so the file is as
#                       big as wanted but cheap to decode and 10 untimed plays take seconds
#
# Figures (all with null outputs: queued --audio null --video null, mpv --vo=null --ao=null):
#  1. Start to first frame (TTFF), median of BENCH_RUNS: seconds from just before spawning the player
#     to its "first picture" log line - queued "started item 1 play 1" (logged on event.itemStarted,
#     which fires when the first picture is presented), mpv "first video frame after restart shown"
#     (--msg-level=cplayer=v) - measured with contrib/bench/first_frame.py's own code, as the main
#     benchmark does. Cases: cold URL throttled to 10 MB/s (nginx limit_rate 10m), cold URL
#     unthrottled (queued: a new empty --cache-dir every run), cached URL (queued: a second daemon run
#     on a --cache-dir that one earlier run filled completely; mpv keeps no cache between runs, so its
#     "cached" figure is just another cold unthrottled run), and the local file by path. Also the bytes
#     nginx sent per run.
#     Goals: queued's cached TTFF within 10 % of its local-file TTFF; queued's cold TTFF <= mpv's.
#  2. Bytes over 10 loops: what nginx sent while each player plays loops4.mp4 ten times as fast as it
#     can (queued --untimed --item-loops 10; mpv --untimed --ao-null-untimed --loop-file=9), from the
#     access log ($body_bytes_sent summed). Goal: queued fetches the file once (1.0 x its size). mpv's
#     demuxer cache (on by default for network streams, up to 150 MiB ahead / 50 MiB behind) can hold
#     a 20 MB file, so mpv may need far fewer than 10 downloads; mpv --cache=no is shown as reference.
#  3. CPU seconds (user+sys, GNU time) and peak RSS of one real-time play (40 s) of av40.mp4 fetched
#     at 10 MB/s, queued with an empty cache dir.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bench=$(cd "$here/.." && pwd)
repo=$(cd "$here/../../.." && pwd)

log() { printf '[netbench %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

WORK=${WORK:-$(mktemp -d /tmp/queued-netbench.XXXXXX)}
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
OUT=${BENCH_OUT:-$WORK/net-results.txt}
RESULTS="$OUT.results"
: >"$RESULTS"
RUNS=${BENCH_RUNS:-3}
MEDIA=${BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/queued-bench}/net
NG="$WORK/nginx"
NGINX_PID="" PY_PID="" PORT=""

# stop_child PID SIGNAL: one child of ours, SIGNAL then up to 8 s, then SIGKILL (and the group of a
# child that leads one: timeout does).
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
  stop_child "$PY_PID" TERM
  # Players the helper could not stop (it was killed): by pid, and only if their command line is ours
  # (a path in $WORK or our server's URL).
  for pid in $(pgrep -x queued 2>/dev/null; pgrep -x mpv 2>/dev/null); do
    if grep -qa -e "$WORK/" -e "127.0.0.1:${PORT:-none}/" "/proc/$pid/cmdline" 2>/dev/null; then
      kill -KILL "$pid" 2>/dev/null
    fi
  done
  if [[ -n "$NGINX_PID" ]]; then
    local workers
    workers=$(pgrep -P "$NGINX_PID" 2>/dev/null)
    stop_child "$NGINX_PID" QUIT  # graceful: finishes responses in flight and logs them
    for pid in $workers; do kill -KILL "$pid" 2>/dev/null; done
  fi
  rm -rf "$WORK"/cache-*
}
trap cleanup EXIT
trap 'log "interrupted"; exit 130' INT TERM

for tool in ffmpeg ffprobe mpv nginx python3 timeout /usr/bin/time pgrep; do
  command -v "$tool" >/dev/null || { log "missing $tool: run contrib/setup.sh --bench"; exit 1; }
done

if [[ -z "${QUEUED:-}" ]]; then
  log "building queued (release, scratch path .build-bench)"
  (cd "$repo" && swift build -c release --product queued --scratch-path .build-bench) >"$WORK/build.log" 2>&1 \
    || { tail -n 30 "$WORK/build.log" >&2; log "build failed"; exit 1; }
  QUEUED="$repo/.build-bench/release/queued"
fi
[[ -x "$QUEUED" ]] || { log "no queued binary at $QUEUED"; exit 1; }

# --- media -----------------------------------------------------------------------------------------
mkdir -p "$MEDIA"
gen() {  # NAME, then ffmpeg arguments; through a temp file so an interrupted run leaves nothing
  local out="$MEDIA/$1"; shift
  [[ -s "$out" ]] && return 0
  log "making $out"
  timeout -k 5 600 nice -n 10 ffmpeg -nostdin -hide_banner -loglevel error -y "$@" "$out.tmp.mp4" \
    && mv "$out.tmp.mp4" "$out" || { rm -f "$out.tmp.mp4"; log "media generation failed: $out"; return 1; }
}
gen av40.mp4 -f lavfi -i "testsrc2=s=1280x720:r=30:d=40,noise=alls=10:allf=t" -f lavfi -i "sine=f=440:r=48000:d=40" \
  -ac 2 -c:v libx264 -preset veryfast -b:v 3900k -maxrate 4500k -bufsize 8M -pix_fmt yuv420p \
  -c:a aac -b:a 128k -shortest || exit 1
gen av40-faststart.mp4 -i "$MEDIA/av40.mp4" -c copy -movflags +faststart || exit 1
gen loops4.mp4 -f lavfi -i "testsrc2=s=640x360:r=30:d=4" -f lavfi -i "sine=f=440:r=48000:d=4" \
  -ac 2 -c:v libx264 -preset veryfast -b:v 40M -minrate 40M -maxrate 40M -bufsize 20M -x264-params nal-hrd=cbr \
  -pix_fmt yuv420p -c:a aac -b:a 128k -shortest || exit 1

files=()
for f in ${BENCH_NET_FILES:-moov-end faststart}; do
  case $f in
    moov-end) files+=("moov-end=av40.mp4") ;;
    faststart) files+=("faststart=av40-faststart.mp4") ;;
    *) log "unknown BENCH_NET_FILES entry $f (moov-end, faststart)"; exit 1 ;;
  esac
done
FILES=$(IFS=,; echo "${files[*]}")

# --- nginx on a free loopback port -----------------------------------------------------------------
mkdir -p "$NG"
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
user=""; [[ $(id -u) -eq 0 ]] && user="user root;"  # as root its workers would run as nobody otherwise
cat >"$NG/nginx.conf" <<EOF
daemon off;
$user
worker_processes 1;
pid $NG/nginx.pid;
error_log $NG/error.log warn;
events { worker_connections 256; }
http {
    client_body_temp_path $NG/body;
    proxy_temp_path $NG/proxy;
    fastcgi_temp_path $NG/fastcgi;
    uwsgi_temp_path $NG/uwsgi;
    scgi_temp_path $NG/scgi;
    log_format transfer '\$uri \$status \$body_bytes_sent "\$http_range"';
    access_log $NG/access.log transfer;
    types { video/mp4 mp4; }
    sendfile on;
    server {
        listen 127.0.0.1:$PORT;
        root $MEDIA;
        location /slow/ { alias $MEDIA/; limit_rate 10m; }
        location = /nginx-status { stub_status; access_log off; }
    }
}
EOF
nginx -e "$NG/error.log" -c "$NG/nginx.conf" -p "$NG" >"$NG/stdout.log" 2>&1 </dev/null &
NGINX_PID=$!
BASE="http://127.0.0.1:$PORT"
for _ in $(seq 100); do
  python3 -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=1)' "$BASE/nginx-status" \
    2>/dev/null && break
  kill -0 "$NGINX_PID" 2>/dev/null || break
  sleep 0.1
done
python3 -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=1)' "$BASE/nginx-status" 2>/dev/null \
  || { cat "$NG/error.log" "$NG/stdout.log" >&2; log "nginx did not start on 127.0.0.1:$PORT"; exit 1; }
log "nginx on 127.0.0.1:$PORT serving $MEDIA; scratch dir $WORK"

# --- measurements ----------------------------------------------------------------------------------
put() { printf '%s=%s\n' "$1" "$2" >>"$RESULTS"; }
put meta.date "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
put meta.queued_bin "$QUEUED"
put meta.queued_version "$("$QUEUED" --version 2>/dev/null | head -n 1 || true)"
put meta.queued_rev "$(git -C "$repo" describe --always --dirty 2>/dev/null || echo unknown)"
put meta.mpv "$(mpv --no-config --version | head -n 1 | cut -d' ' -f1-2)"
put meta.nginx "$(nginx -v 2>&1 | sed 's/.*: //')"
put meta.cpus "$(nproc)"
put meta.runs "$RUNS"
put meta.load_before "$(cut -d' ' -f1-3 /proc/loadavg)"
start=$(date +%s)

timeout -k 15 2400 python3 -B -u "$here/netbench.py" --queued "$QUEUED" --work "$WORK" --media "$MEDIA" \
  --files "$FILES" --burst loops4.mp4 --base-url "$BASE" --access-log "$NG/access.log" --bench-dir "$bench" \
  --results "$RESULTS" --out "$OUT" --runs "$RUNS" --sections "${BENCH_NET_SECTIONS:-ttff loops cpu}" &
PY_PID=$!
wait "$PY_PID"
rc=$?
PY_PID=""
put meta.load_after "$(cut -d' ' -f1-3 /proc/loadavg)"
put meta.total_s "$(($(date +%s) - start))"
((rc == 0)) || { log "netbench.py failed (exit $rc); logs in $WORK"; exit "$rc"; }
log "total $(($(date +%s) - start)) s; raw figures: $RESULTS; logs: $WORK"
log "summary written to $OUT"
echo "$OUT"
