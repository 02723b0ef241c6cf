#!/usr/bin/env python3
"""Figures of the sync benchmark from queued.txt and mpv.txt (lines: RUN_SECONDS B_MINUS_A_MS C_MINUS_A_MS TAG)."""
import math
import sys


def read(path):
    rows = []
    with open(path) as lines:
        for line in lines:
            at, b, c, tag = line.split()
            rows.append((float(at), float(b), float(c), tag))
    return rows


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * q))] if values else float("nan")


work, killed_at = sys.argv[1], float(sys.argv[2])
queued = read(f"{work}/queued.txt")
mpv = read(f"{work}/mpv.txt")
steady = [r for r in queued if r[3] == "steady" and r[0] >= 120]
# Every pair: b-a, c-a and c-b.
sizes = [abs(x) for r in steady for x in (r[1], r[2], r[2] - r[1]) if not math.isnan(x)]
print(f"queued_windows={len(steady)}")
print(f"queued_hours={(steady[-1][0] - steady[0][0]) / 3600 if steady else 0:.2f}")
print(f"queued_offset_p50_ms={percentile(sizes, 0.5):.3f}")
print(f"queued_offset_p99_ms={percentile(sizes, 0.99):.3f}")
print(f"queued_offset_max_ms={max(sizes) if sizes else float('nan'):.3f}")
if mpv:
    last_at = mpv[-1][0]
    last = [r for r in mpv if r[0] >= last_at - 5]
    mpv_sizes = [abs(x) for r in last for x in (r[1], r[2], r[2] - r[1]) if not math.isnan(x)]
    print(f"mpv_hours={last_at / 3600:.2f}")
    print(f"mpv_offset_p99_ms_at_end={percentile(mpv_sizes, 0.99):.3f}")
    if sizes:
        print(f"ratio_mpv_to_queued_p99={percentile(mpv_sizes, 0.99) / max(percentile(sizes, 0.99), 1e-3):.0f}")
failover = [r for r in queued if r[3] == "failover"]
if failover:
    # b and c (the two still in the group): from the kill, when they are within 2 ms of each other for good.
    apart = [r[0] for r in failover if math.isnan(r[2] - r[1]) or abs(r[2] - r[1]) > 2]
    recovered = (max(apart) + 0.5 - killed_at) if apart else 0.0
    print(f"failover_within_2ms_after_s={recovered:.1f}")
    print(f"failover_worst_ms={max(abs(r[2] - r[1]) for r in failover if not math.isnan(r[2] - r[1])):.3f}")
