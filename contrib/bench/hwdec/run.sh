#!/usr/bin/env bash
# Hardware decoding benchmark, for a box that has a device (a Pi 4/5, an Intel PC with VA-API, an NVIDIA box):
# it validates queued's --hwdec there in one run. On a machine without one (like CI) it says so and stops.
#
# Run:   contrib/setup.sh --bench            # mpv, ffmpeg
#        contrib/bench/hwdec/run.sh          # ~25 min with the defaults (10 min of playback per method)
# Env:   QUEUED=path      queued binary (default: swift build -c release --product queued --scratch-path .build-bench)
#        HWDEC_METHODS="vaapi nvdec v4l2m2m drm"   methods to try (those this machine's FFmpeg and devices offer)
#        HWDEC_SECONDS=600   playback per method for the dropped-frame and CPU figures
#        HWDEC_CLIPS=dir     clips to use (default: made here: 1080p30 H.264, 1080p30 HEVC, 1080p VP9, 4K HEVC)
#        WORK=dir            scratch (default: a new /tmp/queued-hwdec.XXXXXX, kept)
#
# Figures, per method and clip, beside software and beside mpv with the same --hwdec:
#  1. Same pictures: ffmpeg's own hardware decode (-hwaccel METHOD -hwaccel_output_format nv12 … -f framemd5)
#     against its software decode of the same clip, frame by frame; where the hashes differ (hardware decoders
#     may round differently), the PSNR of the two decodes (ffmpeg's psnr filter) must stay above 50 dB.
#  2. What queued chose: the daemon's log ("item N: CODEC decoded with METHOD" or "decoded in software: why")
#     and player.status's decoder, with --hwdec METHOD, and whether its joins stayed gapless (the status's
#     droppedFrames and the log's stalls).
#  3. Cost: queued's and mpv's CPU (user+sys, from /proc) and dropped frames playing each clip in a loop for
#     HWDEC_SECONDS, with --hwdec no and --hwdec METHOD (mpv: --hwdec=METHOD-copy, the same copy-back).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
WORK=${WORK:-$(mktemp -d /tmp/queued-hwdec.XXXXXX)}
SECONDS_PER=${HWDEC_SECONDS:-600}
OUT="$WORK/hwdec-results.txt"
: >"$OUT"
say() { echo "$*" | tee -a "$OUT"; }

methods=()
for method in ${HWDEC_METHODS:-vaapi nvdec v4l2m2m drm}; do
  case "$method" in
    vaapi) ls /dev/dri/renderD* >/dev/null 2>&1 && methods+=(vaapi) ;;
    drm) ls /dev/dri/card* >/dev/null 2>&1 && methods+=(drm) ;;
    nvdec) command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1 && methods+=(nvdec) ;;
    v4l2m2m) ls /dev/video1[0-9] >/dev/null 2>&1 && methods+=(v4l2m2m) ;;
  esac
done
if ((${#methods[@]} == 0)); then
  say "hwdec benchmark: no hardware decoding device on this machine (no /dev/dri, no NVIDIA GPU, no V4L2 M2M decoder)."
  say "Nothing to compare; run it on a box with a GPU or a Pi. (The fallback to software is tested by the test suite.)"
  echo "$OUT"
  exit 0
fi
for tool in ffmpeg mpv python3; do
  command -v "$tool" >/dev/null || { echo "hwdec benchmark: missing $tool: run contrib/setup.sh --bench" >&2; exit 1; }
done
if [[ -z "${QUEUED:-}" ]]; then
  (cd "$repo" && swift build -c release --product queued --scratch-path .build-bench) >"$WORK/build.log" 2>&1 ||
    { tail -n 30 "$WORK/build.log" >&2; exit 1; }
  QUEUED="$repo/.build-bench/release/queued"
fi

clips=${HWDEC_CLIPS:-$WORK/clips}
if [[ -z "${HWDEC_CLIPS:-}" ]]; then
  mkdir -p "$clips"
  make_clip() { [[ -f "$clips/$1" ]] || ffmpeg -loglevel error -f lavfi -i "testsrc2=s=$2:r=30:d=20" -f lavfi -i "sine=f=440:d=20" \
    -c:v "$3" ${4:-} -pix_fmt yuv420p -c:a aac -shortest "$clips/$1"; }
  make_clip h264-1080p.mp4 1920x1080 libx264 "-preset veryfast -b:v 8M"
  make_clip hevc-1080p.mp4 1920x1080 libx265 "-preset veryfast -b:v 6M"
  make_clip vp9-1080p.webm 1920x1080 libvpx-vp9 "-deadline realtime -cpu-used 8 -b:v 6M"
  make_clip hevc-2160p.mp4 3840x2160 libx265 "-preset ultrafast -b:v 20M"
fi

ffmpeg_hwaccel() { case "$1" in nvdec) echo cuda ;; *) echo "$1" ;; esac; }
say "hwdec benchmark $(date -u '+%F %T') UTC; methods: ${methods[*]}; clips: $clips; $SECONDS_PER s per run"
for method in "${methods[@]}"; do
  for clip in "$clips"/*; do
    name=$(basename "$clip")
    # 1. Same pictures (ffmpeg's decoders: what queued's Decoder drives).
    ffmpeg -loglevel error -i "$clip" -an -pix_fmt nv12 -f framemd5 "$WORK/$name.sw.md5" 2>/dev/null
    if ffmpeg -loglevel error -hwaccel "$(ffmpeg_hwaccel "$method")" -hwaccel_output_format nv12 -i "$clip" -an \
      -pix_fmt nv12 -f framemd5 "$WORK/$name.$method.md5" 2>"$WORK/$name.$method.err"; then
      same=$(python3 - "$WORK/$name.sw.md5" "$WORK/$name.$method.md5" <<'PY'
import sys
def hashes(p): return [l.split(",")[-1].strip() for l in open(p) if not l.startswith("#")]
a, b = hashes(sys.argv[1]), hashes(sys.argv[2])
print(f"{sum(x == y for x, y in zip(a, b))}/{max(len(a), len(b))} frames identical")
PY
)
      psnr=$(ffmpeg -loglevel info -hwaccel "$(ffmpeg_hwaccel "$method")" -i "$clip" -i "$clip" \
        -lavfi "[0:v][1:v]psnr" -f null - 2>&1 | sed -n 's/.*PSNR.*average:\([0-9.inf]*\).*/\1/p' | tail -1)
      say "$method $name: pictures: $same; PSNR vs software ${psnr:-?} dB"
    else
      say "$method $name: ffmpeg's own $method decode failed: $(tail -n 1 "$WORK/$name.$method.err")"
    fi
    # 2 and 3. queued and mpv, software and hardware, looping the clip for SECONDS_PER: CPU seconds from
    # /proc (user+sys), dropped pictures from each player's own count (player.status; mpv's
    # frame-drop-count over its IPC socket), read just before each is stopped.
    for mode in no "$method"; do
      log="$WORK/queued-$name-$mode.log"
      "$QUEUED" --no-config --no-state --hwdec "$mode" --loops 0 --video sdl --audio null --socket "$WORK/q.sock" \
        "$clip" >"$log" 2>&1 &
      qpid=$!
      mpvhw=$([[ $mode == no ]] && echo no || echo "$mode-copy")
      sleep "$SECONDS_PER"  # the measured window itself
      read -r cpu dropped < <(python3 - "$qpid" "$WORK/q.sock" <<'PY'
import json, os, socket, sys
pid, path = int(sys.argv[1]), sys.argv[2]
fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
s = socket.socket(socket.AF_UNIX); s.connect(path)
s.sendall(b'{"jsonrpc":"2.0","id":1,"method":"player.status"}\n')
print(cpu, json.loads(s.makefile().readline())["result"]["droppedFrames"])
PY
)
      kill "$qpid"; wait "$qpid" 2>/dev/null
      chose=$(grep -m1 -oE 'decoded (with [a-z0-9]+|in software[^;]*)' "$log" || echo "software (hwdec no)")
      mpv --no-config --loop-file=inf --hwdec="$mpvhw" --ao=null --input-ipc-server="$WORK/mpv.sock" "$clip" \
        >"$WORK/mpv-$name-$mode.log" 2>&1 &
      mpid=$!
      sleep "$SECONDS_PER"
      read -r mcpu mdropped < <(python3 - "$mpid" "$WORK/mpv.sock" <<'PY'
import json, os, socket, sys
pid, path = int(sys.argv[1]), sys.argv[2]
fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
s = socket.socket(socket.AF_UNIX); s.connect(path)
s.sendall(b'{"command":["get_property","frame-drop-count"]}\n')
print(cpu, json.loads(s.makefile().readline()).get("data"))
PY
)
      kill "$mpid"; wait "$mpid" 2>/dev/null
      say "$name --hwdec $mode: queued CPU ${cpu} s, ${dropped} dropped ($chose); mpv --hwdec=$mpvhw CPU ${mcpu} s, ${mdropped} dropped; CPU ratio $(python3 -c "print(round($cpu / max($mcpu, 0.001), 2))")"
    done
  done
done
echo "$OUT"
