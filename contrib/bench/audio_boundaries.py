#!/usr/bin/env python3
"""Samples inserted or dropped at each item boundary of a recorded playback.

Usage: audio_boundaries.py PREFIX RECORDING.s16 SEGMENT...
  RECORDING: raw s16le stereo 48 kHz (parec of the null sink's monitor).
  SEGMENT:   FILE (the item's audio, trimmed to the audio stream's declared duration) or
             FILE:shortest (trimmed to the shorter of the audio and video durations, what
             --shortest-track plays), in the order the player should have played them.

Reference of each segment: the ffmpeg CLI's decode of FILE (edit list applied, so AAC priming is
gone), trimmed to the declared duration (FFmpeg leaves a few ms of encoder padding at the end).
Alignment: the head (first W samples) and the tail (last W samples) of each segment are located in
the recording by normalised cross-correlation (W = min(0.1 s, length/2); every clip carries a chirp,
so exactly one lag matches; a looped item matches at every play: the earliest match wins). start = where the head begins, end = where the tail ends.
  boundary k = start(k+1) - end(k): 0 is gapless, +N = N samples inserted (silence, padding,
               a repeat), -N = N samples dropped;
  inner k    = end(k) - start(k) - length(k): samples lost or added inside the item;
  bad blocks = 10 ms blocks whose residual exceeds 10 % of the reference's level with the item
               aligned on its head and on its tail (glitches inside items; 0 expected);
  glitches   = items with inner != 0 or bad blocks, with the time of the first bad block.
Prints key=value lines (PREFIX.boundaries=+0,+0 …) for run.sh's results file.
"""
import subprocess
import sys

import numpy as np

RATE = 48000


def probe_duration(path, kind):
    out = subprocess.run(["ffprobe", "-v", "error", "-select_streams", f"{kind}:0", "-show_entries",
                          "stream=duration", "-of", "csv=p=0", path], capture_output=True, text=True).stdout
    return float(out.strip().splitlines()[0])


def reference(spec):
    path, _, mode = spec.partition(":")
    seconds = probe_duration(path, "a")
    if mode == "shortest":
        seconds = min(seconds, probe_duration(path, "v"))
    raw = subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-i", path, "-map", "0:a:0", "-f", "f32le",
                          "-ac", "2", "-ar", str(RATE), "-"], capture_output=True, check=True).stdout
    pcm = np.frombuffer(raw, np.float32).reshape(-1, 2).mean(axis=1)
    return pcm[:int(round(seconds * RATE))].astype(np.float64)


def locate(rec, needle, lo, hi):
    """Lag in [lo, hi) of needle in rec by normalised cross-correlation; (lag, peak). The earliest lag
    within 0.5 % of the best wins: a looped item matches equally well at every play."""
    lo, hi = max(0, lo), min(len(rec) - len(needle), hi)
    if hi <= lo:
        return None, 0.0
    seg = rec[lo:hi + len(needle)]
    n = 1 << int(np.ceil(np.log2(len(seg) + len(needle))))
    corr = np.fft.irfft(np.fft.rfft(seg, n) * np.conj(np.fft.rfft(needle, n)), n)[:hi - lo]
    energy = np.concatenate(([0.0], np.cumsum(seg * seg)))
    window = energy[len(needle):len(needle) + hi - lo] - energy[:hi - lo]
    norm = corr / (np.sqrt(np.maximum(window, 1e-12)) * np.linalg.norm(needle))
    first = int(np.argmax(norm >= 0.995 * norm.max()))
    best = first + int(np.argmax(norm[first:first + RATE // 20]))
    return lo + best, float(norm[best])


def block_errors(rec, ref, start):
    """Per 10 ms block of ref placed at start in rec: True where the residual exceeds 10 % of the
    reference's level (or the recording has ended)."""
    block = RATE // 100
    level = np.sqrt(np.mean(ref * ref))
    out = []
    for i in range(0, len(ref) - block + 1, block):
        a = rec[start + i:start + i + block] if start >= 0 else []
        out.append(len(a) < block or np.sqrt(np.mean((a - ref[i:i + block]) ** 2)) > 0.1 * level)
    return np.array(out, bool)


def first_bad_block(rec, ref, start):
    bad = np.flatnonzero(block_errors(rec, ref, start))
    return int(bad[0]) * (RATE // 100) if len(bad) else len(ref)


def main():
    prefix, rec_path, specs = sys.argv[1], sys.argv[2], sys.argv[3:]
    rec = np.fromfile(rec_path, np.int16).reshape(-1, 2).astype(np.float64).mean(axis=1) / 32768.0
    refs, segs = {}, []
    for spec in specs:
        if spec not in refs:
            refs[spec] = reference(spec)
        segs.append(refs[spec])
    starts, ends, peaks, bads, glitches = [], [], [], 0, []
    expected = None
    for ref in segs:
        w = min(RATE // 10, len(ref) // 2)
        lo, hi = (0, len(rec)) if expected is None else (expected - RATE // 2, expected + RATE // 2)
        start, p1 = locate(rec, ref[:w], lo, hi)
        if start is None or p1 < 0.95:
            print(f"{prefix}.error=segment {len(starts) + 1} of {len(segs)} not found (peak {p1:.3f})")
            break
        tail, p2 = locate(rec, ref[-w:], start + len(ref) - w - RATE // 2, start + len(ref) - w + RATE // 2)
        if tail is None or p2 < 0.95:
            played = first_bad_block(rec, ref, start)
            print(f"{prefix}.error=end of segment {len(starts) + 1} not found (peak {p2:.3f}); it matches "
                  f"its reference for the first {played * 1000 / RATE:.0f} ms of {len(ref) * 1000 / RATE:.0f} ms")
            break
        starts.append(start)
        ends.append(tail + w)
        peaks += [p1, p2]
        # Glitch inside the item: blocks that match neither with the head nor with the tail aligned.
        bad = block_errors(rec, ref, start) & block_errors(rec, ref, tail + w - len(ref))
        bads += int(bad.sum())
        if ends[-1] - start != len(ref) or bad.any():
            first = np.flatnonzero(bad if bad.any() else block_errors(rec, ref, start))
            where = f"{first[0] * 10} ms" if len(first) else "?"
            glitches.append(f"item {len(starts)} at {where}: {ends[-1] - start - len(ref):+d} samples")
        expected = tail + w
    fmt = lambda values: ",".join(f"{v:+d}" for v in values) or "-"
    print(f"{prefix}.segments_found={len(starts)}/{len(segs)}")
    print(f"{prefix}.boundaries={fmt([starts[k + 1] - ends[k] for k in range(len(starts) - 1)])}")
    print(f"{prefix}.inner={fmt([ends[k] - starts[k] - len(segs[k]) for k in range(len(starts))])}")
    print(f"{prefix}.bad_blocks={bads}")
    print(f"{prefix}.glitches={'; '.join(glitches) or 'none'}")
    if peaks:
        print(f"{prefix}.min_peak={min(peaks):.4f}")
    if starts:
        print(f"{prefix}.lead_in_ms={starts[0] * 1000 / RATE:.0f}")
        # Whether the last item was heard to its end: silence right after it is expected.
        tail = rec[ends[-1]:ends[-1] + RATE // 10]
        print(f"{prefix}.after_end_rms={np.sqrt(np.mean(tail * tail)) if len(tail) else 0:.5f}")


if __name__ == "__main__":
    main()
