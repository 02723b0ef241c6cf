#!/usr/bin/env python3
"""Longest picture hold at each item boundary, from an x11grab capture of the stamp strip.

Usage: video_holds.py PREFIX GRAB.nut PLAYS
  GRAB.nut: ffmpeg -f x11grab -framerate 60 of the top 1280x48 of the screen, gray rawvideo; each
            captured frame carries its wall-clock capture time.
  PLAYS:    expected plays as CLIP:FRAMES,… (e.g. 0:60,1:60,2:60 or 3:30,3:30,…) — see gen-media.sh
            for the stamp layout (frame number and clip number in blocks of the strip).

Every capture is decoded to (clip, frame) or "no stamp" (black window, tearing). Consecutive captures
are grouped into plays: a new play begins when the clip number changes or the frame number goes back.
  hold of a picture  = time from its first capture to the first capture of the next picture;
  hold at boundary k = the longer hold of play k's last shown picture and play k+1's first picture
                       (a freeze on either side of the join; nominal 33 ms at 30 fps; the 60 Hz
                       capture makes every figure ±17 ms);
  last/first         = frame numbers shown last in play k and first in play k+1 (expected N-1 / 0);
  inside             = median and longest hold of the other pictures (not the very first, shown while
                       the player starts, nor the last, held until exit), for comparison.
Prints key=value lines for run.sh's results file.
"""
import subprocess
import sys

import numpy as np

W, H, BLOCK = 1280, 48, 80


def captures(path):
    pts = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time",
                          "-of", "csv=p=0", path], capture_output=True, text=True).stdout.split()
    raw = subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-i", path, "-fps_mode", "passthrough", "-f",
                          "rawvideo", "-pix_fmt", "gray", "-"], capture_output=True).stdout
    frames = np.frombuffer(raw, np.uint8).reshape(-1, H, W)
    n = min(len(frames), len(pts))
    return [float(t) for t in pts[:n]], frames[:n]


def stamp(frame):
    bits = frame[H // 2, BLOCK // 2::BLOCK] > 128
    if not (bits[0] and not bits[1] and bits[14] and not bits[15]):
        return None
    number = sum(1 << i for i in range(8) if bits[2 + i])
    clip = sum(1 << i for i in range(4) if bits[10 + i])
    return clip, number


def main():
    prefix, path, plays_arg = sys.argv[1], sys.argv[2], sys.argv[3]
    expected = [tuple(int(x) for x in p.split(":")) for p in plays_arg.split(",")]
    times, frames = captures(path)
    seen = [(t, stamp(f)) for t, f in zip(times, frames)]
    stamped = [(t, s) for t, s in seen if s is not None]
    print(f"{prefix}.captures={len(seen)} stamped={len(stamped)}")
    # Changes of picture: (time first seen, (clip, frame)).
    changes = []
    for t, s in stamped:
        if not changes or changes[-1][1] != s:
            changes.append((t, s))
    plays = []
    for t, (clip, number) in changes:
        if not plays or plays[-1]["clip"] != clip or number < plays[-1]["pics"][-1][1]:
            plays.append({"clip": clip, "pics": []})
        plays[-1]["pics"].append((t, number))
    print(f"{prefix}.plays_seen={len(plays)}/{len(expected)}")
    if len(plays) != len(expected) or any(p["clip"] != e[0] for p, e in zip(plays, expected)):
        got = ",".join(f"{p['clip']}:{len(p['pics'])}" for p in plays)
        print(f"{prefix}.error=plays seen ({got}) differ from the expected ({plays_arg})")
    # Hold of every picture: from its first capture to the next picture's first capture.
    pics = [(k, i, t) for k, play in enumerate(plays) for i, (t, _) in enumerate(play["pics"])]
    hold = {(k, i): (pics[j + 1][2] - t) * 1000 for j, (k, i, t) in enumerate(pics[:-1])}
    boundary, lasts, firsts, around = [], [], [], set()
    for k in range(len(plays) - 1):
        last, first = (k, len(plays[k]["pics"]) - 1), (k + 1, 0)
        around |= {last, first}
        boundary.append(max(hold[last], hold.get(first, 0.0)))
        lasts.append(plays[k]["pics"][-1][1])
        firsts.append(plays[k + 1]["pics"][0][1])
    # Inside: every other picture but the very first (start-up) and the last (held until exit).
    inside = [h for key, h in hold.items() if key not in around and key != (0, 0)]
    skipped = sum(q[1] - p[1] - 1 for play in plays for p, q in zip(play["pics"], play["pics"][1:]))
    print(f"{prefix}.boundary_holds_ms={','.join(f'{h:.0f}' for h in boundary) or '-'}")
    print(f"{prefix}.max_boundary_hold_ms={max(boundary):.0f}" if boundary else f"{prefix}.max_boundary_hold_ms=nan")
    print(f"{prefix}.last_first={' '.join(f'{a}/{b}' for a, b in zip(lasts, firsts)) or '-'}")
    if inside:
        print(f"{prefix}.inside_median_ms={np.median(inside):.0f}")
        print(f"{prefix}.inside_max_ms={max(inside):.0f}")
    print(f"{prefix}.pictures_not_seen_inside={skipped}")


if __name__ == "__main__":
    main()
