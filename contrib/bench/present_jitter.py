"""What the overlay and zone benchmarks read back: the `put` figures of a run (lib.sh) and queued's present
jitter from its `--log-level present=trace` lines.

Jitter: for each presented picture, error = present time - item time (pts); the median error is the constant
offset (the audio device's latency and the start), removed; returned are the count, and the median, p99 and
max of |error - offset| in ms.
"""
import re
import statistics


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
            if "queued.present" in line and (match := pattern.search(line)):
                errors.append(float(match.group(1)) - float(match.group(2)))
    if not errors:
        return None
    offset = statistics.median(errors)
    deviations = sorted(abs(e - offset) * 1000 for e in errors)
    p99 = deviations[min(len(deviations) - 1, int(len(deviations) * 0.99))]
    return len(errors), statistics.median(deviations), p99, deviations[-1]
