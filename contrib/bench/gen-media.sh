#!/usr/bin/env bash
# Generates the benchmark media with the ffmpeg CLI into DIR (default: the cache dir below); files
# already present are kept, so a second run costs nothing.
#   long.mp4          60 s 1920x1080 30 fps H.264 (x264 preset medium, testsrc2: ~6 Mbit/s) + 440 Hz
#                     stereo AAC 48 kHz. Decode cost of the CPU/RSS and first-frame figures.
#   gap-a/b/c.mp4     2 s 1280x720 30 fps H.264 + AAC: the gapless set.
#   gap-d.mp4         1 s of video, 1.3 s of audio (audio runs 0.3 s longer): the loop clip.
# Gapless-set audio: a distinct tone per clip (440, 660, 880, 550 Hz) plus a quiet chirp whose start
# frequency differs per clip, so any 0.1 s window of a clip lines up with exactly one place of its
# decode (a pure tone would match every period). Gapless-set video: testsrc2 with a 1280x48 stamp
# strip on top: 16 blocks of 80 px; block 0 and 14 white, 1 and 15 black (a "this is a stamp"
# check), blocks 2-9 the frame number (bit 0 first), blocks 10-13 the clip number (a=0 … d=3).
# Usage: gen-media.sh [DIR]
set -euo pipefail
dir="${1:-${BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/queued-bench}}"
mkdir -p "$dir"

ff() { ffmpeg -nostdin -hide_banner -loglevel error -y "$@"; }

gen() {  # NAME, then ffmpeg arguments; writes through a temp file so an interrupted run leaves nothing
  local out="$dir/$1"; shift
  [[ -s "$out" ]] && return 0
  echo "gen-media: making $out" >&2
  ff "$@" "$out.tmp.mp4"
  mv "$out.tmp.mp4" "$out"
}

gen long.mp4 -f lavfi -i "testsrc2=s=1920x1080:r=30:d=60" -f lavfi -i "sine=f=440:r=48000:d=60" \
  -ac 2 -c:v libx264 -preset medium -pix_fmt yuv420p -c:a aac -b:a 128k -shortest

# stamp LUMA expression for clip number $1 (geq, per pixel of the strip; N = frame number).
stamp() {
  local b='floor(X/80)'
  local bit="if(mod(floor(N/pow(2,$b-2)),2),235,16)"
  local clip="if(mod(floor($1/pow(2,$b-10)),2),235,16)"
  echo "if(eq($b,0)+eq($b,14),235,if(eq($b,1)+eq($b,15),16,if(lt($b,10),$bit,$clip)))"
}

clip() {  # NAME CLIPNUMBER TONE_HZ VIDEO_SECONDS AUDIO_SECONDS
  local name=$1 n=$2 f=$3 vd=$4 ad=$5
  local chirp="0.12*sin(2*PI*((200+150*$n)*t+300*t*t))"
  local tone="0.25*sin(2*PI*$f*t)+$chirp"
  gen "$name" \
    -f lavfi -i "testsrc2=s=1280x720:r=30:d=$vd" \
    -f lavfi -i "color=c=black:s=1280x48:r=30:d=$vd,format=yuv420p,geq=lum='$(stamp "$n")':cb=128:cr=128" \
    -f lavfi -i "aevalsrc=$tone|$tone:s=48000:d=$ad" \
    -filter_complex "[0:v][1:v]overlay=0:0:shortest=1,format=yuv420p[v]" -map "[v]" -map 2:a \
    -c:v libx264 -preset medium -crf 18 -g 30 -c:a aac -b:a 192k
}
clip gap-a.mp4 0 440 2 2
clip gap-b.mp4 1 660 2 2
clip gap-c.mp4 2 880 2 2
clip gap-d.mp4 3 550 1 1.3
echo "$dir"
