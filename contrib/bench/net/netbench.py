#!/usr/bin/env python3
"""Network-item benchmark, queued vs mpv: the measurements behind contrib/bench/net/run.sh (which
makes the media, starts nginx on 127.0.0.1 and calls this). Python 3 stdlib only.

Every player runs with null outputs (queued --audio null --video null, mpv --vo=null --ao=null) and
without DISPLAY/WAYLAND_DISPLAY/PULSE_SERVER, one process at a time. Bytes are what nginx's access
log says it sent (sum of $body_bytes_sent of the responses for the item's URI); before reading the
log we wait until nginx has no connection open but the status probe's, so every response is logged.

Sections (--sections, default "ttff loops cpu"):
  ttff   start to first frame (first_frame.py's definition and code: seconds from just before the
         spawn to the first output line matching the player's "picture is up" line: queued
         "started item 1 play 1" (logged on event.itemStarted, i.e. the first picture presented),
         mpv "first video frame after restart shown" at --msg-level=cplayer=v), median of --runs,
         for each file of --files:
           cold 10 MB/s   /slow/FILE (nginx limit_rate); queued: a new empty --cache-dir every run
           cold           /FILE unthrottled; queued: a new empty --cache-dir every run
           cached         queued: the same --cache-dir every run, filled beforehand by one run that
                          downloaded the whole file (then stopped); mpv keeps nothing between runs,
                          so its "cached" is just the cold unthrottled measurement again
           local file     the file's path (no server)
  loops  bytes nginx sent while each player plays the loop clip (4 s, ~20 MB) 10 times, as fast as
         it can: queued --untimed --item-loops 10; mpv --untimed --ao-null-untimed --loop-file=9
         (and, as a reference, the same with --cache=no: mpv's demuxer cache off)
  cpu    GNU time: user+sys CPU seconds and peak RSS of one real-time play of FILE (the first of
         --files) from /slow/ (10 MB/s), queued with a new empty --cache-dir

Writes key=value results to --results as it goes, and the table to --out (and stdout).
"""
import argparse
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import time
import urllib.request

QPAT = r"started item 1 play 1\b"
MPAT = r"first video frame after restart shown"
MPV = ["mpv", "--no-config", "--vo=null", "--ao=null", "--msg-level=all=warn,cplayer=v"]


def log(msg):
    print(f"[netbench {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


class Nginx:
    """The access log (format: '$uri $status $body_bytes_sent "$http_range"') and stub_status."""

    def __init__(self, access_log, status_url):
        self.access_log = access_log
        self.status_url = status_url

    def active(self):
        with urllib.request.urlopen(self.status_url, timeout=5) as r:
            m = re.search(rb"Active connections:\s*(\d+)", r.read())
            return int(m.group(1)) if m else -1

    def wait_idle(self, limit=15.0):
        """Until only the probe's own connection is open (every response finished and logged)."""
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            try:
                if self.active() <= 1:
                    time.sleep(0.05)  # the log line is written when the request ends; be generous
                    return True
            except OSError:
                pass
            time.sleep(0.1)
        log(f"warning: nginx still has connections open after {limit:.0f} s")
        return False

    def mark(self):
        try:
            return os.path.getsize(self.access_log)
        except OSError:
            return 0

    def since(self, offset, uri=None):
        """[(uri, status, bytes, range)] logged after offset (for uri, when given)."""
        out = []
        with open(self.access_log, "rb") as f:
            f.seek(offset)
            for line in f.read().decode("utf-8", "replace").splitlines():
                parts = line.split(" ", 3)
                if len(parts) != 4 or not parts[1].isdigit() or not parts[2].isdigit():
                    continue
                if uri is None or parts[0] == uri:
                    out.append((parts[0], int(parts[1]), int(parts[2]), parts[3].strip('"')))
        return out


class Bench:
    def __init__(self, a):
        self.a = a
        self.work = a.work
        self.nginx = Nginx(a.access_log, a.base_url + "/nginx-status")
        self.results = open(a.results, "a")
        self.children = []  # Popen objects of ours still to be reaped
        self.caches = 0
        sys.path.insert(0, a.bench_dir)
        from first_frame import one_run  # the existing benchmark's TTFF definition, unchanged
        self.one_run = one_run

    # -- plumbing ---------------------------------------------------------------------------------
    def put(self, key, value):
        self.results.write(f"{key}={value}\n")
        self.results.flush()

    def queued(self, *args, cache=None):
        argv = [self.a.queued, "--no-state", "--socket", os.path.join(self.work, "queued.sock"),
                "--audio", "null", "--video", "null"]
        if cache:
            argv += ["--cache-dir", cache]
        return argv + list(args)

    def new_cache(self):
        self.caches += 1
        path = os.path.join(self.work, f"cache-{self.caches}")
        shutil.rmtree(path, ignore_errors=True)
        return path

    def url(self, name, slow=False):
        return f"{self.a.base_url}/{'slow/' if slow else ''}{name}"

    def uri(self, name, slow=False):
        return f"/{'slow/' if slow else ''}{name}"

    def size(self, name):
        return os.path.getsize(os.path.join(self.a.media, name))

    # -- start to first frame ---------------------------------------------------------------------
    def ttff(self, series, uri=None):
        """Series [(KEY, make_cmd, pattern)], run interleaved (run k of each series, then run k+1), so
        a load that changes during the run weighs on both players alike. RUNS spawns of make_cmd(k)
        per series; records KEY.median/min/max/runs/missed and, with uri, the bytes nginx sent for it
        per run (KEY.bytes: median; KEY.requests: median response count)."""
        acc = {key: ([], [], [], [0, 0]) for key, _, _ in series}  # times, bytes, requests, [missed, ignored]
        for k in range(self.a.runs):
            for key, make_cmd, pattern in series:
                times, per_bytes, per_requests, counts = acc[key]
                self.nginx.wait_idle()
                offset = self.nginx.mark()
                found, ignored, _ = self.one_run(make_cmd(k), re.compile(pattern), self.a.ttff_timeout,
                                                 os.path.join(self.work, f"{key}.run{k}.log"), {})
                counts[1] += ignored
                if found is None:
                    counts[0] += 1
                    log(f"{key} run {k}: no first frame within {self.a.ttff_timeout:.0f} s "
                        f"(log {self.work}/{key}.run{k}.log)")
                else:
                    times.append(found)
                if uri:
                    self.nginx.wait_idle()
                    lines = self.nginx.since(offset, uri)
                    per_bytes.append(sum(b for _, _, b, _ in lines))
                    per_requests.append(len(lines))
                time.sleep(0.3)
        for key, (times, per_bytes, per_requests, (missed, ignored_n)) in acc.items():
            self.put(f"{key}.missed", missed)
            self.put(f"{key}.term_ignored", ignored_n)
            if times:
                self.put(f"{key}.median", f"{statistics.median(times):.3f}")
                self.put(f"{key}.min", f"{min(times):.3f}")
                self.put(f"{key}.max", f"{max(times):.3f}")
                self.put(f"{key}.runs", ",".join(f"{t:.3f}" for t in times))
            if per_bytes:
                self.put(f"{key}.bytes", int(statistics.median(per_bytes)))
                self.put(f"{key}.bytes_max", max(per_bytes))
                self.put(f"{key}.requests", int(statistics.median(per_requests)))
            log(f"{key}: " + (", ".join(f"{t:.3f}" for t in times) or "no first frame") + " s"
                + (f"; server bytes/run {per_bytes}" if per_bytes else ""))

    def prime(self, cache, name):
        """Fills `cache` with the whole file: plays the unthrottled URL until nginx has sent the
        file's size for it, then stops. Returns True when it got there."""
        self.nginx.wait_idle()
        offset = self.nginx.mark()
        want = self.size(name)
        logf = open(os.path.join(self.work, f"prime-{name}.log"), "w")
        proc = subprocess.Popen(self.queued(self.url(name), cache=cache), stdout=logf, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL)
        self.children.append(proc)
        deadline, done = time.monotonic() + self.a.ttff_timeout + 30, False
        try:
            while time.monotonic() < deadline and proc.poll() is None:
                # A response is logged once it ends: the one that completed the file shows up then.
                if sum(b for _, _, b, _ in self.nginx.since(offset, self.uri(name))) >= want:
                    done = True
                    break
                time.sleep(0.2)
            time.sleep(0.5)  # let the daemon write what it just received
        finally:
            self.stop(proc)
        data = sum(os.path.getsize(os.path.join(cache, f)) for f in os.listdir(cache)) if os.path.isdir(cache) else 0
        log(f"cache for {name} primed: {'complete' if done else 'INCOMPLETE'} ({data} bytes on disk in {cache})")
        return done

    def stop(self, proc, grace=5.0):
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(grace)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if proc in self.children:
            self.children.remove(proc)

    def section_ttff(self):
        for tag, name in self.a.files:
            local = os.path.join(self.a.media, name)
            log(f"start to first frame, {name} ({tag}), {self.a.runs} runs per player and case")
            # cold, throttled and not: a new empty cache every run
            for slow, case in ((True, "cold10"), (False, "cold")):
                u, uri = self.url(name, slow), self.uri(name, slow)
                self.ttff([(f"ttff.{tag}.{case}.queued", lambda k: self.queued(u, cache=self.new_cache()), QPAT),
                           (f"ttff.{tag}.{case}.mpv", lambda k: MPV + [u], MPAT)], uri)
                self.drop_caches()
            # cached: one cache directory, filled first; every run must find it complete
            cache = self.new_cache()
            u, uri = self.url(name), self.uri(name)
            self.put(f"ttff.{tag}.cached.primed", int(self.prime(cache, name)))
            self.ttff([(f"ttff.{tag}.cached.queued", lambda k: self.queued(u, cache=cache), QPAT),
                       (f"ttff.{tag}.cached.mpv", lambda k: MPV + [u], MPAT)], uri)
            shutil.rmtree(cache, ignore_errors=True)
            # local path
            self.ttff([(f"ttff.{tag}.local.queued", lambda k: self.queued(local), QPAT),
                       (f"ttff.{tag}.local.mpv", lambda k: MPV + [local], MPAT)])

    def drop_caches(self):
        for entry in os.listdir(self.work):
            if entry.startswith("cache-"):
                shutil.rmtree(os.path.join(self.work, entry), ignore_errors=True)

    # -- timed whole runs -------------------------------------------------------------------------
    def timed(self, key, cmd, limit, uri=None):
        """Runs cmd to its end under GNU time (and timeout); records KEY.cpu/user/sys/rss_mb/wall/rc,
        and KEY.bytes / KEY.requests (nginx) when uri is given. Returns the log path."""
        tf = os.path.join(self.work, f"{key}.time")
        logp = os.path.join(self.work, f"{key}.log")
        self.nginx.wait_idle()
        offset = self.nginx.mark()
        full = ["timeout", "-k", "5", str(limit), "/usr/bin/time", "-o", tf, "-f", "%U %S %M %e"] + cmd
        log(f"run {key}: {' '.join(cmd)}")
        with open(logp, "w") as logf:
            proc = subprocess.Popen(full, stdout=logf, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
            self.children.append(proc)
            rc = proc.wait()
            self.children.remove(proc)
        self.put(f"{key}.rc", rc)
        if rc != 0:
            log(f"warning: {key} exited with status {rc} (log {logp})")
        try:
            user, sys_, rss, wall = open(tf).read().split("\n")[-2].split()
            self.put(f"{key}.user", user)
            self.put(f"{key}.sys", sys_)
            self.put(f"{key}.cpu", f"{float(user) + float(sys_):.2f}")
            self.put(f"{key}.rss_mb", f"{int(rss) / 1024:.1f}")
            self.put(f"{key}.wall", wall)
        except (OSError, ValueError, IndexError):
            log(f"warning: no GNU time figures for {key}")
        if uri:
            self.nginx.wait_idle()
            lines = self.nginx.since(offset, uri)
            self.put(f"{key}.bytes", sum(b for _, _, b, _ in lines))
            self.put(f"{key}.requests", len(lines))
            self.put(f"{key}.ranges", " ".join(f"{r or '-'}:{b}" for _, _, b, r in lines[:12]))
        return logp

    def section_loops(self):
        name = self.a.burst
        u, uri = self.url(name), self.uri(name)
        self.put("loops.file_bytes", self.size(name))
        logp = self.timed("loops.queued", self.queued("--untimed", "--exit-when-done", "--item-loops", "10", u,
                                                       cache=self.new_cache()), self.a.loop_timeout, uri)
        self.put("loops.queued.plays", len(re.findall(r"started item 1 play \d+", open(logp, errors="replace").read())))
        for key, extra in (("loops.mpv", []), ("loops.mpv_nocache", ["--cache=no"])):
            logp = self.timed(key, MPV + extra + ["--untimed", "--ao-null-untimed", "--loop-file=9", u],
                              self.a.loop_timeout, uri)
            self.put(f"{key}.plays", len(re.findall(MPAT, open(logp, errors="replace").read())))
        self.drop_caches()

    def section_cpu(self):
        name = self.a.files[0][1]
        u, uri = self.url(name, slow=True), self.uri(name, slow=True)
        self.put("cpu.file", name)
        logp = self.timed("cpu.queued", self.queued("--exit-when-done", u, cache=self.new_cache()),
                          self.a.cpu_timeout, uri)
        self.put("cpu.queued.plays", len(re.findall(r"ended item 1 play 1: eof", open(logp, errors="replace").read())))
        self.timed("cpu.mpv", MPV[:-1] + ["--no-terminal", u], self.a.cpu_timeout, uri)
        self.drop_caches()

    def close(self):
        # Never leave a player running. A `timeout` child leads its own process group (the player is
        # in it): signal the group, so the player goes too.
        for proc in list(self.children):
            try:
                if proc.poll() is not None:
                    continue
                group = os.getpgid(proc.pid) == proc.pid
                for sig in (signal.SIGTERM, signal.SIGKILL):
                    os.killpg(proc.pid, sig) if group else proc.send_signal(sig)
                    try:
                        proc.wait(5)
                        break
                    except subprocess.TimeoutExpired:
                        pass
            except Exception:
                pass
        self.drop_caches()


# -- the table --------------------------------------------------------------------------------------
def report(results_path, out_path, files):
    r = {}
    for line in open(results_path):
        k, _, v = line.rstrip("\n").partition("=")
        r[k] = v

    def num(k):
        try:
            x = float(r[k])
            return x if x == x else None
        except (KeyError, ValueError):
            return None

    rows, notes = [], []

    def fmt(x, unit):
        if x is None:
            return "n/a"
        if unit == "s":
            return f"{x:.3f}"
        if unit == "MB":
            return f"{x / 1e6:.1f}"
        if unit == "n":
            return str(int(x))
        return f"{x:.2f}"

    def row(label, q, m, unit):
        ratio = f"{q / m:.2f}" if q is not None and m not in (None, 0) else "n/a"
        rows.append((label, fmt(q, unit), fmt(m, unit), ratio))

    def miss(k):
        n = r.get(f"{k}.missed")
        return f" ({n} of the runs showed no frame)" if n not in (None, "0") else ""

    def loops_rows(fb):
        rows.append((f"Bytes over 10 loops of the {fmt(fb, 'MB')} MB clip, MB", "", "", ""))
        row("  sent by nginx", num("loops.queued.bytes"), num("loops.mpv.bytes"), "MB")
        if fb:
            qb, mb = num("loops.queued.bytes"), num("loops.mpv.bytes")
            row("  x the file size (goal queued 1.0)", qb / fb if qb is not None else None,
                mb / fb if mb is not None else None, "x")
            nb = num("loops.mpv_nocache.bytes")
            rows.append(("  ref: mpv --cache=no, x file size", "", fmt(nb / fb if nb is not None else None, "x"), ""))
        row("  plays seen (want 10)", num("loops.queued.plays"), num("loops.mpv.plays"), "n")
        row("  wall s (untimed)", num("loops.queued.wall"), num("loops.mpv.wall"), "x")
        row("  CPU s", num("loops.queued.cpu"), num("loops.mpv.cpu"), "x")

    def cpu_rows():
        rows.append((f"One real-time play of {r.get('cpu.file', '?')} at 10 MB/s, null outputs", "", "", ""))
        row("  CPU s (user+sys)", num("cpu.queued.cpu"), num("cpu.mpv.cpu"), "x")
        row("  peak RSS, MB", num("cpu.queued.rss_mb"), num("cpu.mpv.rss_mb"), "x")
        row("  wall s", num("cpu.queued.wall"), num("cpu.mpv.wall"), "x")
        row("  server MB", num("cpu.queued.bytes"), num("cpu.mpv.bytes"), "MB")

    have_ttff = any(k.startswith("ttff.") for k in r)
    if have_ttff:
        rows.append(("Start to first frame, s (median)", "", "", ""))
    for tag, name in files if have_ttff else []:
        size = num(f"meta.size.{tag}")
        rows.append((f"  {name} ({tag}, {fmt(size, 'MB')} MB)", "", "", ""))
        for case, label in (("cold10", "cold URL, 10 MB/s"), ("cold", "cold URL, unthrottled"),
                            ("cached", "cached URL [mpv: 2nd run]"), ("local", "local file")):
            q, m = f"ttff.{tag}.{case}.queued", f"ttff.{tag}.{case}.mpv"
            row(f"    {label}", num(q + ".median"), num(m + ".median"), "s")
            if miss(q) or miss(m):
                notes.append(f"{name} {label}: queued{miss(q) or ' ok'}, mpv{miss(m) or ' ok'}")
        for case, label in (("cold10", "cold 10 MB/s"), ("cold", "cold unthrottled"), ("cached", "cached")):
            q, m = num(f"ttff.{tag}.{case}.queued.bytes"), num(f"ttff.{tag}.{case}.mpv.bytes")
            row(f"    server MB per run, {label}", q, m, "MB")
        q, l = num(f"ttff.{tag}.cached.queued.median"), num(f"ttff.{tag}.local.queued.median")
        c, mc = num(f"ttff.{tag}.cold.queued.median"), num(f"ttff.{tag}.cold.mpv.median")
        c10, mc10 = num(f"ttff.{tag}.cold10.queued.median"), num(f"ttff.{tag}.cold10.mpv.median")
        goal = []
        if q and l:
            goal.append(f"queued cached/local = {q / l:.2f} (goal <= 1.10: {'met' if q / l <= 1.10 else 'NOT met'})")
        for a, b, what in ((c10, mc10, "cold 10 MB/s"), (c, mc, "cold")):
            if a and b:
                goal.append(f"{what} queued/mpv = {a / b:.2f} (goal <= 1.00: {'met' if a / b <= 1.0 else 'NOT met'})")
        rows.extend((f"    goal: {g}", "", "", "") for g in goal)
        if r.get(f"ttff.{tag}.cached.primed") == "0":
            notes.append(f"{name}: the cache could not be filled before the cached runs; they are cold runs")
        cb = num(f"ttff.{tag}.cached.queued.bytes")
        if cb:
            notes.append(f"{name}: queued fetched {cb / 1e6:.2f} MB from the server per cached run "
                         f"({r.get(f'ttff.{tag}.cached.queued.requests')} requests)")

    fb = num("loops.file_bytes")
    if fb is not None:
        loops_rows(fb)
    if "cpu.file" in r:
        cpu_rows()
    for k in ("loops.queued", "loops.mpv", "loops.mpv_nocache", "cpu.queued", "cpu.mpv"):
        if r.get(f"{k}.rc") not in (None, "0"):
            notes.append(f"{k} exited with status {r[k + '.rc']}")
    for k in ("loops.queued", "loops.mpv", "cpu.queued", "cpu.mpv"):
        if f"{k}.ranges" in r:
            notes.append(f"{k} requests (Range:bytes): {r[k + '.ranges']}")

    w = max((len(x[0]) for x in rows), default=20)
    out = [f"queued vs mpv, network (http) items - {r.get('meta.date', '')}",
           f"queued {r.get('meta.queued_version', '?')} ({r.get('meta.queued_bin', '?')}), {r.get('meta.mpv', '?')}, "
           f"{r.get('meta.cpus', '?')} CPUs, load {r.get('meta.load_before', '?')}, runs {r.get('meta.runs', '?')}, "
           f"server nginx on 127.0.0.1 (throttle: limit_rate 10m = 10 MiB/s)",
           "",
           f"{'figure':<{w}}  {'queued':>9}  {'mpv':>9}  {'q/mpv':>6}",
           "-" * (w + 32)]
    for label, q, m, ratio in rows:
        out.append(f"{label:<{w}}  {q:>9}  {m:>9}  {ratio:>6}" if (q or m or ratio) else label)
    out += ["", "Notes:",
            "- TTFF: spawn -> the player's first-picture log line (queued 'started item 1 play 1', mpv 'first video "
            "frame after restart shown'), null audio+video outputs, median of the runs.",
            "- mpv keeps nothing between runs: its 'cached' row is simply another cold unthrottled series.",
            "- server MB: nginx $body_bytes_sent summed over the item's responses (a player stopped right after "
            "its first frame still counts what nginx had already pushed into the socket)."]
    out += [f"- {n}" for n in notes]
    text = "\n".join(out) + "\n"
    with open(out_path, "w") as f:
        f.write(text)
    print(text, end="")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--queued", required=True)
    p.add_argument("--work", required=True)
    p.add_argument("--media", required=True, help="the directory nginx serves")
    p.add_argument("--files", required=True, help="TAG=NAME,TAG=NAME: files for TTFF (the first also for cpu)")
    p.add_argument("--burst", required=True, help="the clip of the loops section")
    p.add_argument("--base-url", required=True)
    p.add_argument("--access-log", required=True)
    p.add_argument("--bench-dir", required=True, help="contrib/bench (for first_frame.py)")
    p.add_argument("--results", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--sections", default="ttff loops cpu")
    p.add_argument("--ttff-timeout", type=float, default=30)
    p.add_argument("--loop-timeout", type=float, default=180)
    p.add_argument("--cpu-timeout", type=float, default=150)
    p.add_argument("--report-only", action="store_true")
    a = p.parse_args()
    a.files = [tuple(x.split("=", 1)) for x in a.files.split(",")]
    if not a.base_url.startswith("http://127.0.0.1:"):
        raise SystemExit("netbench: only ever a server on 127.0.0.1")
    if not a.report_only:
        for var in ("DISPLAY", "WAYLAND_DISPLAY", "PULSE_SERVER"):
            os.environ.pop(var, None)
        for sig in (signal.SIGTERM, signal.SIGINT):  # run the finally blocks: stop the players
            signal.signal(sig, lambda *_: sys.exit(130))
        b = Bench(a)
        try:
            for tag, name in a.files:
                b.put(f"meta.size.{tag}", b.size(name))
            for section in a.sections.split():
                getattr(b, f"section_{section}")()
        finally:
            b.close()
    report(a.results, a.out, a.files)


if __name__ == "__main__":
    main()
