#!/usr/bin/env python3
"""Summary of contrib/bench/zones/run.sh: CPU and RSS of queued with one zone, an L-bar and a 2x2 split,
against mpv (one process; four for the split), as ratios, and the main zone's present jitter.

Usage: report.py RESULTS SINGLE.log LBAR.log SPLIT.log
Jitter: present_jitter.py (error = present time - item time, the median removed).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from present_jitter import figures, jitter  # noqa: E402


def main():
    results, single_log, lbar_log, split_log = sys.argv[1:5]
    r = figures(results)

    def num(key):
        try:
            return float(r.get(key, "nan"))
        except ValueError:
            return float("nan")

    mpv4_cpu = sum(num(f"mpv4_{n}.cpu") for n in range(1, 5))
    mpv4_rss = sum(num(f"mpv4_{n}.rss_mb") for n in range(1, 5))
    print(f"queued {r.get('meta.queued_rev', '?')}, {r.get('meta.mpv', 'mpv ?')}, {r.get('meta.date', '')}")
    print(f"{'run':<46}{'CPU s':>8}{'RSS MB':>9}")
    rows = [
        ("queued, 1080p30 full screen", num("single.cpu"), num("single.rss_mb")),
        ("queued, L-bar (1080p30 + stills + ticker)", num("lbar.cpu"), num("lbar.rss_mb")),
        ("mpv --vo=x11, 1080p30", num("mpv.cpu"), num("mpv.rss_mb")),
        ("queued, 2x2 split of four 540p30", num("split.cpu"), num("split.rss_mb")),
        ("four mpv processes, 540p30 each (summed)", mpv4_cpu, mpv4_rss),
    ]
    for name, cpu, rss in rows:
        print(f"{name:<46}{cpu:>8.2f}{rss:>9.1f}")
    print(f"L-bar / one zone: CPU {num('lbar.cpu') / num('single.cpu'):.2f}x (target <= 1.15), RSS {num('lbar.rss_mb') / num('single.rss_mb'):.2f}x")
    print(f"L-bar / mpv: CPU {num('lbar.cpu') / num('mpv.cpu'):.2f}x, RSS {num('lbar.rss_mb') / num('mpv.rss_mb'):.2f}x")
    print(f"2x2 split / four mpv: CPU {num('split.cpu') / mpv4_cpu:.2f}x, RSS {num('split.rss_mb') / mpv4_rss:.2f}x")
    for name, log, total in [("one zone", single_log, 1800), ("L-bar, main", lbar_log, 1800), ("2x2, main", split_log, 1800)]:
        j = jitter(log)
        if j is None:
            print(f"present jitter, {name}: no present lines")
        else:
            count, median, p99, worst = j
            print(f"present jitter, {name}: {count}/{total} pictures; |error| median {median:.2f} ms, p99 {p99:.2f} ms, max {worst:.2f} ms")
    for label in ["single", "lbar", "split"]:
        problems = r.get(f"{label}.log_problems", "0")
        if problems not in ("", "0"):
            print(f"{label}: {problems} warning/error lines in the log, e.g. {r.get(f'{label}.log_problem', '')}")
    print(f"load before {r.get('meta.load_before', '?')}, after {r.get('meta.load_after', '?')}")


main()
