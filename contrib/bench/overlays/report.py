#!/usr/bin/env python3
"""Summary of contrib/bench/overlays/run.sh: CPU and RSS with and without overlays and of mpv, as ratios,
and queued's present-time jitter from its `present=trace` lines.

Usage: report.py RESULTS PLAIN.log OVERLAYS.log
Jitter: for each presented picture, error = present time - item time (pts); the median error is the
constant offset (the audio device's latency and the start), removed; the figures are the median, p99 and
max of |error - offset| in ms. Pictures: how many were presented of the file's 1800.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from present_jitter import figures, jitter  # noqa: E402


def main():
    results, plain_log, overlay_log = sys.argv[1:4]
    r = figures(results)

    def num(key):
        try:
            return float(r.get(key, "nan"))
        except ValueError:
            return float("nan")

    print(f"queued {r.get('meta.queued_rev', '?')}, {r.get('meta.mpv', 'mpv ?')}, {r.get('meta.date', '')}")
    print(f"{'run':<34}{'CPU s':>8}{'RSS MB':>9}{'CPU/mpv':>9}{'RSS/mpv':>9}")
    for label, name in [("plain", "queued, no overlays"), ("overlays", "queued, clock + ticker + logo"), ("mpv", "mpv --vo=x11, no overlays")]:
        cpu, rss = num(f"{label}.cpu"), num(f"{label}.rss_mb")
        print(f"{name:<34}{cpu:>8.2f}{rss:>9.1f}{cpu / num('mpv.cpu'):>9.2f}{rss / num('mpv.rss_mb'):>9.2f}")
    print(f"overlays / no overlays: CPU {num('overlays.cpu') / num('plain.cpu'):.2f}x, RSS {num('overlays.rss_mb') / num('plain.rss_mb'):.2f}x")
    for name, log in [("no overlays", plain_log), ("clock + ticker + logo", overlay_log)]:
        j = jitter(log)
        if j is None:
            print(f"present jitter, {name}: no present lines")
        else:
            count, median, p99, worst = j
            print(f"present jitter, {name}: {count}/1800 pictures; |error| median {median:.2f} ms, p99 {p99:.2f} ms, max {worst:.2f} ms")


main()
