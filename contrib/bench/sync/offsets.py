#!/usr/bin/env python3
"""Offsets between the channels of a 3-channel s16le 48 kHz recording of white noise: for every 0.5 s, the
lag (within +-LIMIT ms) at which channel 1 and channel 2 best match channel 0, by cross-correlating 50 ms.
Prints one line per window: SECONDS_INTO_RECORDING OFFSET1_MS OFFSET2_MS (positive: later than channel 0;
'nan' where the reference was silent or no lag within the limit stands out)."""
import sys

import numpy as np

RATE = 48000


def lag(reference, other, start, window, limit):
    ref = reference[start:start + window]
    if np.dot(ref, ref) < 1e6 * window / 2400:
        return float("nan")
    lo, hi = start - limit, start + limit + window
    if lo < 0 or hi > len(other):
        return float("nan")
    segment = other[lo:hi]
    size = 1 << int(np.ceil(np.log2(len(segment) + window)))
    # Cross-correlation by FFT: index k is `other` shifted by k - limit against the reference window.
    scores = np.fft.irfft(np.fft.rfft(segment, size) * np.conj(np.fft.rfft(ref, size)), size)[:2 * limit + 1]
    best = int(np.argmax(scores))
    return (best - limit) / RATE * 1000


def main():
    path, limit_ms = sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else 500
    data = np.fromfile(path, dtype="<i2").astype(np.float64)
    frames = len(data) // 3
    channels = [data[c:frames * 3:3] for c in range(3)]
    limit = int(limit_ms / 1000 * RATE)
    window = 2400
    start = max(4800, limit)
    while start + window + limit < frames:
        print(f"{start / RATE:.2f} {lag(channels[0], channels[1], start, window, limit):.3f} "
              f"{lag(channels[0], channels[2], start, window, limit):.3f}")
        start += RATE // 2


main()
