#!/usr/bin/env python3
"""Start-to-first-frame: spawn a player RUNS times and time, from just before the spawn, the arrival
of the first output line matching PATTERN (stdout and stderr merged, each line stamped with
time.monotonic() as it is read). The player is then stopped: SIGTERM, and SIGKILL if it is still
running 3 s later (counted as PREFIX.term_ignored: a daemon should exit on SIGTERM).

Usage: first_frame.py PREFIX RUNS PATTERN TIMEOUT_S [NAME=REGEX ...] -- CMD...
  NAME=REGEX: milestones; the median time of each one's first matching line is printed too
  (PREFIX.mark.NAME=…), to show where start-up time goes.
Prints PREFIX.median=…, PREFIX.min=…, PREFIX.max=…, PREFIX.runs=a,b,… (seconds), PREFIX.missed=N,
PREFIX.term_ignored=N, one key=value per line, for run.sh's results file. Writes each run's output to $WORK/PREFIX.runK.log.
"""
import os
import re
import selectors
import signal
import statistics
import subprocess
import sys
import time


def one_run(cmd, pattern, timeout, log_path, marks):
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    try:
        return watch(proc, start, pattern, timeout, log_path, marks)
    finally:
        if proc.poll() is None:  # interrupted: never leave a player running
            proc.kill()
            proc.wait()


def watch(proc, start, pattern, timeout, log_path, marks):
    found = None
    seen = {}
    buffer = b""
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    with open(log_path, "w") as log:
        while found is None:
            left = timeout - (time.monotonic() - start)
            if left <= 0 or not sel.select(left):
                break
            chunk = os.read(proc.stdout.fileno(), 65536)
            now = time.monotonic() - start
            if not chunk:
                break
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            for raw in lines:
                line = raw.decode("utf-8", "replace")
                log.write(f"{now:8.3f} {line}\n")
                if found is None and pattern.search(line):
                    found = now
                for name, regex in marks.items():
                    if name not in seen and regex.search(line):
                        seen[name] = now
        proc.send_signal(signal.SIGTERM)
        ignored = False
        try:
            rest, _ = proc.communicate(timeout=3)
        except subprocess.TimeoutExpired:
            ignored = True
            proc.kill()
            rest, _ = proc.communicate()
        log.write(rest.decode("utf-8", "replace"))
        if ignored:
            log.write("first_frame.py: still running 3 s after SIGTERM; killed (SIGKILL)\n")
    return found, ignored, seen


def main():
    for sig in (signal.SIGTERM, signal.SIGINT):  # run the finally blocks: stop the player
        signal.signal(sig, lambda *_: sys.exit(130))
    prefix, runs, pattern, timeout = sys.argv[1], int(sys.argv[2]), re.compile(sys.argv[3]), float(sys.argv[4])
    split = sys.argv.index("--")
    cmd = sys.argv[split + 1:]
    marks = {m.split("=", 1)[0]: re.compile(m.split("=", 1)[1]) for m in sys.argv[5:split]}
    marked = {name: [] for name in marks}
    work = os.environ.get("WORK", "/tmp")
    times, missed, term_ignored = [], 0, 0
    for k in range(runs):
        t, ignored, seen = one_run(cmd, pattern, timeout, os.path.join(work, f"{prefix}.run{k}.log"), marks)
        for name, at in seen.items():
            marked[name].append(at)
        term_ignored += ignored
        if t is None:
            missed += 1
        else:
            times.append(t)
        time.sleep(0.5)  # let the window go and the audio server settle between runs
    print(f"{prefix}.missed={missed}")
    print(f"{prefix}.term_ignored={term_ignored}")
    if times:
        print(f"{prefix}.median={statistics.median(times):.3f}")
        print(f"{prefix}.min={min(times):.3f}")
        print(f"{prefix}.max={max(times):.3f}")
        print(f"{prefix}.runs={','.join(f'{t:.3f}' for t in times)}")
    for name, ats in marked.items():
        if ats:
            print(f"{prefix}.mark.{name}={statistics.median(ats):.3f}")


if __name__ == "__main__":
    main()
