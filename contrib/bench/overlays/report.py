#!/usr/bin/env python3
"""Summary of contrib/bench/overlays/run.sh: CPU and RSS with and without overlays and of mpv, as ratios,
and queued's present-time jitter from its `present=trace` lines.

Usage: report.py RESULTS PLAIN.log OVERLAYS.log
Jitter: for each presented picture, error = present time - item time (pts); the median error is the
constant offset (the audio device's latency and the start), removed; the figures are the median, p99 and
max of |error - offset| in ms. Pictures: how many were presented of the file's 1800.
"""
import re
import statistics
import sys


def figures(path):
    values = {}
    with open(path) as f:
        for line in f:
            key, _, value = line.rstrip("\n").partition("=")
            values[key] = value
    return values


def jitter(log):
    errors = []
    pattern = re.compile(r"at=([0-9.]+) item=\d+ pts=([0-9.]+)")
    with open(log, errors="replace") as f:
        for line in f:
            if "queued.present" not in line:
                continue
            match = pattern.search(line)
            if match:
                errors.append(float(match.group(1)) - float(match.group(2)))
    if not errors:
        return None
    offset = statistics.median(errors)
    deviations = sorted(abs(e - offset) * 1000 for e in errors)
    p99 = deviations[min(len(deviations) - 1, int(len(deviations) * 0.99))]
    return len(errors), statistics.median(deviations), p99, deviations[-1]


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
