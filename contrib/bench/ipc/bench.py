#!/usr/bin/env python3
"""Control-socket benchmark, queued vs mpv (see run.sh for how to run it and what each figure means).

Every measurement starts a fresh daemon (one player at a time, so they never compete for the two
cores), runs the same client code against it, and stops it. Raw figures go to --json, the table to
stdout and --out.
"""
import argparse
import json
import os
import signal
import statistics
import sys
import time

sys.dont_write_bytecode = True   # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from daemons import Daemon, mpv_argv, queued_argv  # noqa: E402
from ipcclient import (Client, MpvProto, Monitor, QueuedProto, many_clients, pipelined,  # noqa: E402
                       round_trips, summarize_us)

KINDS = ("queued", "mpv")
PROTO = {"queued": QueuedProto, "mpv": MpvProto}
DUMMY_DIR = "/nonexistent/queued-ipcbench"   # scale-test paths: never opened (playback is never started)


def log(msg):
    print(f"[ipcbench {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def dummy(i):
    return f"{DUMMY_DIR}/item-{i:07d}.mp4"


class Bench:
    def __init__(self, args):
        self.args = args
        self.work = args.work
        self.running = []
        self.seq = 0
        self.R = {"meta": {}, "queued": {}, "mpv": {}, "notes": []}

    # ---- daemons -------------------------------------------------------------------------------

    def start(self, kind, tag, files=(), playing=False):
        self.seq += 1
        sock = os.path.join(self.work, f"{self.seq:02d}-{kind}-{tag}.sock")
        logf = os.path.join(self.work, f"{self.seq:02d}-{kind}-{tag}.log")
        if kind == "queued":
            argv = queued_argv(self.args.queued, sock, files, loops=0 if playing else None)
        else:
            argv = mpv_argv(sock, files, loop_file=playing)
        d = Daemon(kind, argv, sock, logf, os.path.join(self.work, "pids"))
        self.running.append(d)
        d.start()
        log(f"{kind} ({tag}) pid {d.pid} on {sock}")
        return d

    def stop(self, d):
        how = d.stop()
        self.R["meta"].setdefault("stops", []).append(f"{d.kind}: {how}")
        if d in self.running:
            self.running.remove(d)

    def stop_all(self):
        for d in reversed(self.running):
            try:
                d.stop()
            except Exception as e:  # noqa: BLE001
                log(f"stopping {d.kind}: {e!r}")
        self.running = []

    def wait_playing(self, kind, d, timeout=30.0, settle=1.0):
        """Until the player is playing and its position has moved `settle` s since we started looking."""
        c = Client(PROTO[kind], d.sock_path)
        deadline = time.monotonic() + timeout
        first = None
        try:
            while time.monotonic() < deadline:
                if not d.alive():
                    raise RuntimeError(f"{kind} died:\n{d.log_tail()}")
                if kind == "queued":
                    st = c.call("player.status")
                    pos = st.get("position") if st["state"] == "playing" else None
                else:
                    pos = None if c.prop("pause") else c.prop("time-pos")
                if pos is not None:
                    if first is None:
                        first = pos
                    elif pos - first >= settle or pos < first:   # moved on (or looped)
                        return
                time.sleep(0.05)
        finally:
            c.close()
        raise RuntimeError(f"{kind} did not start playing within {timeout} s:\n{d.log_tail()}")

    # ---- 1 + 2: idle round trips and pipelining ------------------------------------------------
    # Timing on this kind of machine drifts by tens of percent from one second to the next, so the two
    # players are measured in alternating blocks (both daemons up, only one being asked at a time) and
    # the blocks are pooled: drift hits both alike.

    def interleaved_rtt(self, daemons, key, before_block=None, after_block=None):
        blocks = self.args.rtt_blocks
        per = self.args.rtt_n // blocks
        raw = {k: [] for k in KINDS}
        errs = {k: 0 for k in KINDS}
        cpu = {k: 0.0 for k in KINDS}
        ctx = {k: 0 for k in KINDS}
        block_p50 = {k: [] for k in KINDS}
        for b in range(blocks):
            order = KINDS if b % 2 == 0 else tuple(reversed(KINDS))
            for kind in order:
                d = daemons[kind]
                if before_block:
                    before_block(kind, d)
                c0, x0 = d.cpu_s(), d.ctx_switches()
                r = round_trips(PROTO[kind], d.sock_path, per, 500 if b == 0 else 100)
                cpu[kind] += d.cpu_s() - c0
                ctx[kind] += d.ctx_switches() - x0
                raw[kind] += r["raw_ns"]
                errs[kind] += r["errors"]
                block_p50[kind].append(r["p50_us"])
                if after_block:
                    after_block(kind, d)
        for kind in KINDS:
            out = summarize_us(raw[kind])
            out["errors"] = errs[kind]
            out["blocks"] = blocks
            out["block_p50_us"] = block_p50[kind]
            # warm-up requests ran too; CPU per request counts them
            sent = len(raw[kind]) + 500 + 100 * (blocks - 1)
            out["daemon_cpu_us_per_req"] = cpu[kind] / sent * 1e6
            out["daemon_ctx_per_req"] = ctx[kind] / sent
            self.R[kind][key] = out

    def section_idle(self):
        daemons = {kind: self.start(kind, "idle") for kind in KINDS}
        log(f"1a: {self.args.rtt_n} sequential round trips per player, idle, in {self.args.rtt_blocks} "
            f"alternating blocks")
        self.interleaved_rtt(daemons, "rtt_idle")
        runs = {k: [] for k in KINDS}
        for i in range(self.args.pipe_runs):
            for kind in (KINDS if i % 2 == 0 else tuple(reversed(KINDS))):
                d = daemons[kind]
                log(f"{kind}: 2 pipelined {self.args.pipe_n} requests, run {i + 1}/{self.args.pipe_runs}")
                c0, x0 = d.cpu_s(), d.ctx_switches()
                r = pipelined(PROTO[kind], d.sock_path, self.args.pipe_n)
                r["daemon_cpu_us_per_req"] = (d.cpu_s() - c0) / self.args.pipe_n * 1e6
                r["daemon_ctx_per_req"] = (d.ctx_switches() - x0) / self.args.pipe_n
                runs[kind].append(r)
        for kind in KINDS:
            ok_runs = [r for r in runs[kind] if "per_s" in r]
            self.R[kind]["pipe_runs"] = runs[kind]
            self.R[kind]["pipe"] = {
                "per_s": statistics.median(r["per_s"] for r in ok_runs) if ok_runs else None,
                "all_per_s": [r["per_s"] for r in ok_runs],
                "daemon_cpu_us_per_req": statistics.median(r["daemon_cpu_us_per_req"] for r in ok_runs) if ok_runs else None,
                "daemon_ctx_per_req": statistics.median(r["daemon_ctx_per_req"] for r in ok_runs) if ok_runs else None,
                "errors": sum(r.get("errors", 0) for r in ok_runs) + sum(1 for r in runs[kind] if "per_s" not in r),
            }
            self.R[kind]["rss_idle_kb"] = daemons[kind].rss_kb()
        for d in daemons.values():
            self.stop(d)

    # ---- 1b + 3: while playing -----------------------------------------------------------------
    # Both daemons play the file on a loop, but only one at a time: the other is paused (queued
    # player.pause, mpv pause=yes), so a measurement never pays for the other player's decoding.

    def set_playing(self, kind, d, on):
        c = Client(PROTO[kind], d.sock_path)
        try:
            if kind == "queued":
                c.call("player.play" if on else "player.pause")
            else:
                c.call(["set_property", "pause", not on])
        finally:
            c.close()
        if on:
            self.wait_playing(kind, d, settle=self.args.settle)

    def section_playing(self):
        media = self.args.media
        daemons = {}
        for kind in KINDS:
            daemons[kind] = self.start(kind, "play", files=[media], playing=True)
            self.wait_playing(kind, daemons[kind])
            self.set_playing(kind, daemons[kind], False)
        log(f"1b: {self.args.rtt_n} sequential round trips per player while it plays, in "
            f"{self.args.rtt_blocks} alternating blocks (the other player paused)")
        self.interleaved_rtt(daemons, "rtt_play",
                             before_block=lambda k, d: self.set_playing(k, d, True),
                             after_block=lambda k, d: self.set_playing(k, d, False))
        rounds = {k: [] for k in KINDS}
        order = []
        for i in range(self.args.load_rounds):     # ABBA...: drift hits both alike
            order += list(KINDS if i % 2 == 0 else reversed(KINDS))
        for i, kind in enumerate(order):
            rounds[kind].append(self.load_run(kind, daemons[kind], len(rounds[kind]) + 1))
        for kind in KINDS:
            self.R[kind]["load_runs"] = rounds[kind]
            self.R[kind]["load"] = merge_load_runs(rounds[kind])
        for d in daemons.values():
            self.stop(d)

    def load_run(self, kind, d, number):
        """Section 3, once: the clients while the player plays, then a baseline of the same length."""
        proto = PROTO[kind]
        self.set_playing(kind, d, True)
        mon = Monitor(proto, d.sock_path)
        mon.start()
        time.sleep(1.0)
        log(f"{kind}: 3 {self.args.clients} clients x {self.args.per_client} requests while playing, "
            f"round {number}/{self.args.load_rounds}")
        cpu0 = d.cpu_s()
        load, ta, tb = many_clients(proto, d.sock_path, self.args.clients, self.args.per_client)
        cpu1 = d.cpu_s()
        span = max(tb - ta, 5.0)
        log(f"{kind}: 3 baseline: {span:.1f} s of playback without clients")
        time.sleep(0.5)
        tc = time.perf_counter()
        cpu2 = d.cpu_s()
        time.sleep(span)
        td = time.perf_counter()
        cpu3 = d.cpu_s()
        mon.stop()
        load["window"] = mon.window(ta, tb)
        load["baseline"] = mon.window(tc, td)
        load["cpu_s"] = cpu1 - cpu0
        load["baseline_cpu_s"] = (cpu3 - cpu2) * (tb - ta) / (td - tc)   # scaled to the load run's length
        load["daemon_cpu_us_per_req"] = (load["cpu_s"] - load["baseline_cpu_s"]) / \
            (self.args.clients * self.args.per_client) * 1e6
        load["monitor_error"] = mon.error
        load["alive_after"] = d.alive()
        self.set_playing(kind, d, False)
        return load

    # ---- 4: queue scale ------------------------------------------------------------------------

    def check_not_playing(self, kind, c):
        if kind == "queued":
            st = c.call("player.status")
            return {"state": st["state"], "currentId": st["currentId"],
                    "playing": st["state"] in ("playing", "paused") or st["currentId"] is not None}
        idle = c.call(["get_property", "idle-active"])
        ppos = c.call(["get_property", "playlist-playing-pos"])
        return {"idle-active": idle, "playlist-playing-pos": ppos, "playing": (not idle) or ppos != -1}

    def count(self, kind, c):
        if kind == "queued":
            return c.call("queue.list", {"offset": 0, "limit": 1})["total"]
        return c.call(["get_property", "playlist-count"])

    def add_batches(self, c, total, batch, start=0):
        """queued: `total` items in requests of `batch`, each sent after the previous reply."""
        payloads = []
        for k in range(start, start + total, batch):
            payloads.append(QueuedProto.encode("queue.add", {"items": [dummy(i) for i in range(k, k + batch)]},
                                               900_000 + k // batch))
        largest = max(len(p) for p in payloads)
        per = []
        t0 = time.perf_counter()
        for p in payloads:
            t = time.perf_counter()
            c.conn.send(p)
            line = c.conn.readline()
            per.append(time.perf_counter() - t)
            obj = json.loads(line)
            if "error" in obj or len(obj["result"]["ids"]) != batch:
                raise RuntimeError(f"queue.add batch failed: {line[:300]!r}")
        return {"seconds": time.perf_counter() - t0, "per_request_ms": [x * 1e3 for x in per],
                "largest_request_bytes": largest}

    def pipelined_adds(self, kind, d, n, start=0):
        """n single-item adds on a fresh connection, written as fast as possible by one thread while
        another reads the replies (queued: queue.add {items:[p]}; mpv: loadfile p append)."""
        import socket as _s
        import threading
        proto = PROTO[kind]
        c = Client(proto, d.sock_path, timeout=120)
        if kind == "queued":
            blob = b"".join(b'{"jsonrpc":"2.0","id":%d,"method":"queue.add","params":{"items":["%s"]}}\n'
                            % (i, dummy(start + i).encode()) for i in range(n))
        else:
            blob = b"".join(b'{"command":["loadfile","%s","append"],"request_id":%d}\n'
                            % (dummy(start + i).encode(), i) for i in range(n))
        sock = c.conn.sock
        chunks = []
        st = {"t_end": None, "err": None}

        def reader():
            try:
                cnt = 0
                while cnt < n:
                    ch = sock.recv(1 << 20)
                    if not ch:
                        raise ConnectionError("closed")
                    cnt += ch.count(b"\n")
                    chunks.append(ch)
                st["t_end"] = time.perf_counter()
            except (OSError, _s.timeout, ConnectionError) as e:
                st["err"] = repr(e)

        rt = threading.Thread(target=reader, daemon=True)
        c0, x0 = d.cpu_s(), d.ctx_switches()
        rt.start()
        t0 = time.perf_counter()
        sock.sendall(blob)
        t_written = time.perf_counter()
        rt.join(300)
        cpu, ctx = d.cpu_s() - c0, d.ctx_switches() - x0
        c.close()
        if st["t_end"] is None:
            return {"error": st["err"] or "timed out"}
        lines = [l for l in b"".join(chunks).split(b"\n") if l]
        bad = sum(1 for i, l in enumerate(lines) if not proto.ok(l, i)) + abs(len(lines) - n)
        return {"seconds": st["t_end"] - t0, "write_s": t_written - t0, "per_s": n / (st["t_end"] - t0),
                "errors": bad, "daemon_cpu_us_per_req": cpu / n * 1e6, "daemon_ctx_per_req": ctx / n}

    def grow(self, kind, c, d, target):
        have = self.count(kind, c)
        if target <= have:
            return
        if kind == "queued":
            need = target - have
            batch = min(10_000, need)
            while need > 0:
                b = min(batch, need)
                self.add_batches(c, b, b, start=have)
                have += b
                need -= b
        else:
            r = self.pipelined_adds(kind, d, target - have, start=have)
            if r.get("errors"):
                raise RuntimeError(f"mpv grow: {r}")

    def probe_ops(self, kind, c, reps):
        """Latency of one small query and of single-item edits near the middle of the queue."""
        size = self.count(kind, c)
        mid = size // 2
        dist = max(1, size // 10)
        f = {"size": size}
        q, ins, rem, app, rem_end, mv, lst = [], [], [], [], [], [], []
        P = "/nonexistent/queued-ipcbench/probe.mp4"
        if kind == "queued":
            for _ in range(reps):
                q.append(c.timed("player.status")[1])
            for _ in range(reps):
                r, dt = c.timed("queue.insert", {"items": [P], "index": mid})
                ins.append(dt)
                _, dt = c.timed("queue.remove", {"ids": r["ids"]})
                rem.append(dt)
            for _ in range(reps):
                r, dt = c.timed("queue.add", {"items": [P]})
                app.append(dt)
                _, dt = c.timed("queue.remove", {"ids": r["ids"]})
                rem_end.append(dt)
            x = c.call("queue.list", {"offset": mid, "limit": 1})["items"][0]["id"]
            for _ in range(reps):
                mv.append(c.timed("queue.move", {"id": x, "index": min(size - 1, mid + dist)})[1])
                mv.append(c.timed("queue.move", {"id": x, "index": mid})[1])
            if size >= 1000:
                for _ in range(min(reps, 50)):
                    r, dt = c.timed("queue.list", {"offset": max(0, mid - 500), "limit": 1000})
                    lst.append(dt)
                    if len(r["items"]) != 1000:
                        raise RuntimeError("queue.list page short")
        else:
            for _ in range(reps):
                q.append(c.timed(["get_property", "pause"])[1])
            for _ in range(reps):
                # mpv 0.35 has no positional insert: append, then move the new last entry to the middle
                _, dt1 = c.timed(["loadfile", P, "append"])
                _, dt2 = c.timed(["playlist-move", size, mid])
                ins.append(dt1 + dt2)
                _, dt = c.timed(["playlist-remove", mid])
                rem.append(dt)
            for _ in range(reps):
                _, dt = c.timed(["loadfile", P, "append"])
                app.append(dt)
                _, dt = c.timed(["playlist-remove", size])
                rem_end.append(dt)
            for _ in range(reps):
                # playlist-move A B puts entry A where entry B is (so +1 when moving down)
                mv.append(c.timed(["playlist-move", mid, min(size, mid + dist + 1)])[1])
                mv.append(c.timed(["playlist-move", min(size - 1, mid + dist), mid])[1])
        for name, xs in (("query", q), ("insert_mid", ins), ("remove_mid", rem), ("append_end", app),
                         ("remove_end", rem_end), ("move_mid", mv), ("list1000", lst)):
            if xs:
                s = sorted(xs)
                f[name] = {"first_us": xs[0] * 1e6, "p50_us": statistics.median(s) * 1e6, "max_us": s[-1] * 1e6,
                           "n": len(s)}
        if self.count(kind, c) != size:
            raise RuntimeError(f"{kind}: probe left the queue at {self.count(kind, c)} items, not {size}")
        return f

    def full_read(self, kind, c, reps=3):
        times, nbytes = [], 0
        for _ in range(reps):
            if kind == "queued":
                t0 = time.perf_counter()
                lines = []
                for k in range(10):
                    c.conn.send(QueuedProto.encode("queue.list", {"offset": k * 10_000, "limit": 10_000}, 800_000 + k))
                    lines.append(c.conn.readline())
                times.append(time.perf_counter() - t0)
                got = sum(len(json.loads(l)["result"]["items"]) for l in lines)
                nbytes = sum(len(l) + 1 for l in lines)
            else:
                t0 = time.perf_counter()
                c.conn.send(MpvProto.encode(["get_property", "playlist"], None, 800_000))
                line = c.conn.readline()
                times.append(time.perf_counter() - t0)
                got = len(json.loads(line)["data"])
                nbytes = len(line) + 1
            if got != self.args.scale_n:
                raise RuntimeError(f"{kind}: full read returned {got} entries")
        return {"ms": [t * 1e3 for t in times], "median_ms": statistics.median(times) * 1e3, "bytes": nbytes}

    def section_scale(self):
        n = self.args.scale_n
        reps = self.args.op_reps
        for kind in KINDS:
            # (a) + (c) + (d) + (e): one daemon filled the fastest way it offers
            d = self.start(kind, "scale")
            c = Client(PROTO[kind], d.sock_path, timeout=120)
            R = self.R[kind]
            R["rss_empty_kb"] = d.rss_kb()
            if kind == "queued":
                log(f"queued: 4a {n} items in requests of {self.args.batch}")
                R["add_batch"] = self.add_batches(c, n, self.args.batch)
            else:
                log(f"mpv: 4a {n} x loadfile append, pipelined (mpv has no batch add)")
                R["add_batch"] = self.pipelined_adds(kind, d, n)
                if R["add_batch"].get("errors"):
                    raise RuntimeError(f"mpv loadfile append: {R['add_batch']}")
            R["count_after_add"] = self.count(kind, c)
            time.sleep(1.0)   # let anything that would start playback do so before we check
            R["scale_not_playing"] = self.check_not_playing(kind, c)
            R["rss_full_kb"] = d.rss_kb()
            log(f"{kind}: 4c/4d single edits and list pages at {n} items")
            R["ops_full"] = self.probe_ops(kind, c, reps)
            R["rtt_full"] = round_trips(PROTO[kind], d.sock_path, 2_000, 200)
            R["rtt_full"].pop("raw_ns", None)
            R["full_read"] = self.full_read(kind, c)
            R["scale_not_playing_end"] = self.check_not_playing(kind, c)
            R["rss_full_end_kb"] = d.rss_kb()
            c.close()
            self.stop(d)

            # (f): the same single-op probes at smaller sizes, to see what grows with the queue
            d = self.start(kind, "growth")
            c = Client(PROTO[kind], d.sock_path, timeout=120)
            R["ops_by_size"] = {}
            for size in self.args.probe_sizes:
                self.grow(kind, c, d, size)
                log(f"{kind}: 4f probe at {size} items")
                R["ops_by_size"][str(size)] = self.probe_ops(kind, c, reps)
            R["ops_by_size"][str(n)] = R["ops_full"]
            R["growth_not_playing"] = self.check_not_playing(kind, c)
            c.close()
            self.stop(d)

    def section_single_adds(self):
        """(b): 100,000 single-item adds pipelined into a fresh daemon; rounds alternate the players."""
        n = self.args.scale_n
        runs = {k: [] for k in KINDS}
        for i in range(self.args.add_rounds):
            for kind in (KINDS if i % 2 == 0 else tuple(reversed(KINDS))):
                d = self.start(kind, "single")
                log(f"{kind}: 4b {n} single-item adds, pipelined, round {i + 1}/{self.args.add_rounds}")
                r = self.pipelined_adds(kind, d, n)
                c = Client(PROTO[kind], d.sock_path, timeout=120)
                r["count_after"] = self.count(kind, c)
                r["not_playing"] = self.check_not_playing(kind, c)
                r["rss_kb"] = d.rss_kb()
                c.close()
                self.stop(d)
                runs[kind].append(r)
        for kind in KINDS:
            R = self.R[kind]
            ok = [r for r in runs[kind] if "seconds" in r]
            R["add_single_runs"] = runs[kind]
            R["add_single"] = {
                "seconds": statistics.median(r["seconds"] for r in ok) if ok else None,
                "all_seconds": [r["seconds"] for r in ok],
                "daemon_cpu_us_per_req": statistics.median(r["daemon_cpu_us_per_req"] for r in ok) if ok else None,
                "daemon_ctx_per_req": statistics.median(r["daemon_ctx_per_req"] for r in ok) if ok else None,
                "errors": sum(r.get("errors", 0) for r in ok) + sum(1 for r in runs[kind] if "seconds" not in r),
            }
            R["count_after_single"] = min((r["count_after"] for r in ok), default=None)
            R["single_not_playing"] = {"playing": any(r["not_playing"]["playing"] for r in ok)}
            R["rss_single_kb"] = ok[-1]["rss_kb"] if ok else None

    def run(self):
        m = self.R["meta"]
        m["date"] = time.strftime("%Y-%m-%dT%H:%M:%S")
        m["cpus"] = os.cpu_count()
        m["media"] = self.args.media
        m.update(json.loads(self.args.meta) if self.args.meta else {})
        sections = self.args.sections.split()
        try:
            if "idle" in sections:
                self.section_idle()
            if "playing" in sections:
                self.section_playing()
            if "scale" in sections:
                self.section_scale()
                self.section_single_adds()
        finally:
            self.stop_all()
            with open(self.args.json, "w") as f:
                json.dump(self.R, f, indent=1, default=str)
        text = report(self.R, self.args)
        print(text)
        if self.args.out:
            with open(self.args.out, "w") as f:
                f.write(text + "\n")


def merge_load_runs(runs):
    """Section 3 over its rounds: medians of times and latencies, sums of errors, retries and drops,
    the worst real-time figures."""
    if not runs:
        return {}
    med = lambda key: statistics.median(r[key] for r in runs)  # noqa: E731
    out = {k: med(k) for k in ("seconds", "per_s", "p50_us", "p99_us", "cpu_s", "baseline_cpu_s",
                                "daemon_cpu_us_per_req")}
    out["all_seconds"] = [r["seconds"] for r in runs]
    out["errors"] = sum(r["errors"] for r in runs)
    out["connect_retries"] = sum(r.get("connect_retries", 0) for r in runs)
    out["notes"] = [x for r in runs for x in r.get("notes", [])][:5]
    out["rounds"] = len(runs)
    for w in ("window", "baseline"):
        ws = [r[w] for r in runs if "wall_s" in r.get(w, {})]
        if not ws:
            continue
        m = {"realtime_pct": min(x["realtime_pct"] for x in ws),
             "longest_stall_s": max(x["longest_stall_s"] for x in ws)}
        if all("vo_drops" in x for x in ws):
            m["vo_drops"] = sum(x["vo_drops"] for x in ws)
            m["dec_drops"] = sum(x["dec_drops"] or 0 for x in ws)
        out[w] = m
    return out


# ---- the table -----------------------------------------------------------------------------------

def g(d, *path):
    for p in path:
        if d is None:
            return None
        d = d.get(p) if isinstance(d, dict) else None
    return d


def fmt(v, spec):
    if v is None:
        return "n/a"
    if isinstance(v, str):
        return v
    try:
        return format(v, spec)
    except (TypeError, ValueError):
        return str(v)


def ratio(a, b):
    if a is None or b is None or not isinstance(a, (int, float)) or not isinstance(b, (int, float)) or b == 0:
        return None
    return a / b


def pair(d, key1, key2, spec, scale=1.0):
    a, b = g(d, *key1), g(d, *key2)
    a = a * scale if isinstance(a, (int, float)) else a
    b = b * scale if isinstance(b, (int, float)) else b
    return f"{fmt(a, spec)} / {fmt(b, spec)}"


def report(R, args):
    q, m = R["queued"], R["mpv"]
    rows = []      # (id, label, queued, mpv, ratio, target text, verdict)
    verdicts = []  # (text, met, detail)

    def row(ident, label, qv, mv, spec="", target="", met=None, rat="auto", detail=""):
        r = ratio(qv, mv) if rat == "auto" else rat
        v = "" if met is None else ("MET" if met else "NOT MET")
        rows.append((ident, label, fmt(qv, spec), fmt(mv, spec), "" if r is None else f"{r:.2f}x", target, v))
        if met is not None:
            verdicts.append((f"{ident} {label.strip()}: {target}", met, detail))

    def le(a, b, k=1.0):
        return None if a is None or b is None else a <= k * b

    n = args.scale_n
    # 1
    for key, ident, what in (("rtt_idle", "1a", "idle"), ("rtt_play", "1b", "playing")):
        if key not in q and key not in m:
            continue
        row(ident, f"query RTT p50 µs, {what}", g(q, key, "p50_us"), g(m, key, "p50_us"), ".1f")
        qp, mp = g(q, key, "p99_us"), g(m, key, "p99_us")
        row(ident, f"query RTT p99 µs, {what}", qp, mp, ".1f", "q p99 <= mpv p99", le(qp, mp),
            detail=f"{fmt(qp, '.0f')} vs {fmt(mp, '.0f')} µs")
        bq, bm = g(q, key, "block_p50_us"), g(m, key, "block_p50_us")
        row(ident, "  p50 range over the blocks µs",
            None if not bq else f"{min(bq):.0f}-{max(bq):.0f}", None if not bm else f"{min(bm):.0f}-{max(bm):.0f}",
            rat=None)
        row(ident, "  max µs / reply errors", f"{fmt(g(q, key, 'max_us'), '.0f')} / {g(q, key, 'errors')}",
            f"{fmt(g(m, key, 'max_us'), '.0f')} / {g(m, key, 'errors')}", rat=None)
        row(ident, "  daemon CPU µs per request", g(q, key, "daemon_cpu_us_per_req"),
            g(m, key, "daemon_cpu_us_per_req"), ".1f")
        row(ident, "  daemon context switches per request", g(q, key, "daemon_ctx_per_req"),
            g(m, key, "daemon_ctx_per_req"), ".2f")
    # 2
    if "pipe" in q or "pipe" in m:
        qv, mv = g(q, "pipe", "per_s"), g(m, "pipe", "per_s")
        row("2", f"pipelined replies/s (median of {args.pipe_runs})", qv, mv, ",.0f", ">= 2x mpv",
            None if qv is None or mv is None else qv >= 2 * mv,
            detail=f"{fmt(qv, ',.0f')} vs {fmt(mv, ',.0f')}/s = {fmt(ratio(qv, mv), '.2f')}x")
        aq, am = g(q, "pipe", "all_per_s"), g(m, "pipe", "all_per_s")
        row("2", "  every run, thousands/s", None if not aq else " ".join(f"{x / 1e3:.0f}" for x in aq),
            None if not am else " ".join(f"{x / 1e3:.0f}" for x in am), rat=None)
        row("2", "  daemon CPU µs per request", g(q, "pipe", "daemon_cpu_us_per_req"),
            g(m, "pipe", "daemon_cpu_us_per_req"), ".1f")
        row("2", "  daemon context switches per request", g(q, "pipe", "daemon_ctx_per_req"),
            g(m, "pipe", "daemon_ctx_per_req"), ".2f")
        row("2", "  reply errors", g(q, "pipe", "errors"), g(m, "pipe", "errors"), "d", rat=None)
    # 3
    if "load" in q or "load" in m:
        ql, ml = q.get("load", {}), m.get("load", {})
        lbl = f"{args.clients}x{args.per_client:,}"
        row("3", f"{lbl} while playing: total s (median {ql.get('rounds', ml.get('rounds'))})",
            ql.get("seconds"), ml.get("seconds"), ".2f")
        row("3", "  every round s", None if not ql.get("all_seconds") else " ".join(f"{x:.2f}" for x in ql["all_seconds"]),
            None if not ml.get("all_seconds") else " ".join(f"{x:.2f}" for x in ml["all_seconds"]), rat=None)
        row("3", "  requests/s", ql.get("per_s"), ml.get("per_s"), ",.0f")
        row("3", "  per-request p50 / p99 µs", pair(ql, ("p50_us",), ("p99_us",), ".0f"),
            pair(ml, ("p50_us",), ("p99_us",), ".0f"), rat=None)
        qe, me = ql.get("errors"), ml.get("errors")
        row("3", "  errors (failed or wrong replies)", qe, me, "d", "0 errors",
            None if qe is None or me is None else qe == 0 and me == 0, rat=None, detail=f"queued {qe}, mpv {me}")
        row("3", "  connect retries (listen backlog full)", ql.get("connect_retries"), ml.get("connect_retries"), "d",
            rat=None)
        row("3", "  daemon CPU µs per request (over baseline)", ql.get("daemon_cpu_us_per_req"),
            ml.get("daemon_cpu_us_per_req"), ".1f")
        row("3", "  player CPU s: load run / baseline", pair(ql, ("cpu_s",), ("baseline_cpu_s",), ".2f"),
            pair(ml, ("cpu_s",), ("baseline_cpu_s",), ".2f"), rat=None)
        row("3", "  dropped frames (all rounds): load / baseline", "not exposed",
            f"{fmt(g(ml, 'window', 'vo_drops'), 'd')}+{fmt(g(ml, 'window', 'dec_drops'), 'd')} / "
            f"{fmt(g(ml, 'baseline', 'vo_drops'), 'd')}+{fmt(g(ml, 'baseline', 'dec_drops'), 'd')}", rat=None)
        row("3", "  media s per wall s % (worst): load / baseline",
            pair(ql, ("window", "realtime_pct"), ("baseline", "realtime_pct"), ".1f"),
            pair(ml, ("window", "realtime_pct"), ("baseline", "realtime_pct"), ".1f"), rat=None)
        row("3", "  longest position stall s (worst): load / baseline",
            pair(ql, ("window", "longest_stall_s"), ("baseline", "longest_stall_s"), ".2f"),
            pair(ml, ("window", "longest_stall_s"), ("baseline", "longest_stall_s"), ".2f"), rat=None)
    # 4
    if "add_batch" in q or "add_batch" in m:
        row("4a", f"{n:,} items: q {n // args.batch}x{args.batch:,}/request; mpv loadfile (s)",
            g(q, "add_batch", "seconds"), g(m, "add_batch", "seconds"), ".3f")
        pr = g(q, "add_batch", "per_request_ms")
        row("4a", f"  queued ms per {args.batch:,}-item request min/med/max",
            None if not pr else f"{min(pr):.1f}/{statistics.median(pr):.1f}/{max(pr):.1f}", "n/a", rat=None)
        row("4a", "  largest request, bytes", g(q, "add_batch", "largest_request_bytes"), None, ",d", rat=None)
    if "add_single" in q or "add_single" in m:
        qs, ms = g(q, "add_single", "seconds"), g(m, "add_single", "seconds")
        row("4b", f"{n:,} single-item adds pipelined s (median {args.add_rounds})", qs, ms, ".3f",
            "q <= 0.5x mpv", le(qs, ms, 0.5), detail=f"{fmt(qs, '.3f')} vs {fmt(ms, '.3f')} s = "
                                                  f"{fmt(ratio(qs, ms), '.2f')}x")
        aq, am = g(q, "add_single", "all_seconds"), g(m, "add_single", "all_seconds")
        row("4b", "  every round s", None if not aq else " ".join(f"{x:.3f}" for x in aq),
            None if not am else " ".join(f"{x:.3f}" for x in am), rat=None)
        row("4b", "  daemon CPU µs / context switches per add",
            pair(q, ("add_single", "daemon_cpu_us_per_req"), ("add_single", "daemon_ctx_per_req"), ".1f"),
            pair(m, ("add_single", "daemon_cpu_us_per_req"), ("add_single", "daemon_ctx_per_req"), ".1f"), rat=None)
        row("4b", "  reply errors / items queued after",
            f"{g(q, 'add_single', 'errors')} / {q.get('count_after_single')}",
            f"{g(m, 'add_single', 'errors')} / {m.get('count_after_single')}", rat=None)
    if "ops_full" in q or "ops_full" in m:
        for op, label in (("insert_mid", "insert 1 at middle"), ("remove_mid", "remove 1 at middle"),
                          ("move_mid", "move 1 middle -> +10%")):
            qv, mv = g(q, "ops_full", op, "p50_us"), g(m, "ops_full", op, "p50_us")
            qmax = g(q, "ops_full", op, "max_us")
            row("4c", f"{label} @{n:,}: p50 µs", qv, mv, ".0f", "q < 1 ms", None if qv is None else qv < 1000,
                detail=f"p50 {fmt(qv, '.0f')} µs, first {fmt(g(q, 'ops_full', op, 'first_us'), '.0f')}, "
                       f"max {fmt(qmax, '.0f')} µs")
            row("4c", "  first / max µs", pair(q, ("ops_full", op, "first_us"), ("ops_full", op, "max_us"), ".0f"),
                pair(m, ("ops_full", op, "first_us"), ("ops_full", op, "max_us"), ".0f"), rat=None)
        qv = g(q, "ops_full", "list1000", "p50_us")
        row("4d", f"queue.list 1,000 @{n:,}: p50 ms", None if qv is None else qv / 1e3, "no paging", ".2f",
            "q < 5 ms", None if qv is None else qv < 5000, rat=None,
            detail=f"p50 {fmt(qv and qv / 1e3, '.2f')} ms, max "
                   f"{fmt(g(q, 'ops_full', 'list1000', 'max_us') and g(q, 'ops_full', 'list1000', 'max_us') / 1e3, '.2f')} ms")
        row("4d", "  first / max ms", pair(q, ("ops_full", "list1000", "first_us"), ("ops_full", "list1000", "max_us"),
                                         ".2f", 1e-3), "n/a", rat=None)
        row("4d", f"full read of {n:,}: q 10x10,000 pages; mpv playlist (ms)",
            g(q, "full_read", "median_ms"), g(m, "full_read", "median_ms"), ".1f")
        row("4d", "  bytes read", g(q, "full_read", "bytes"), g(m, "full_read", "bytes"), ",d")
        row("4", f"  query RTT p50 / p99 µs with {n:,} queued", pair(q, ("rtt_full", "p50_us"), ("rtt_full", "p99_us"), ".0f"),
            pair(m, ("rtt_full", "p50_us"), ("rtt_full", "p99_us"), ".0f"), rat=None)
        qr, mr = q.get("rss_full_kb"), m.get("rss_full_kb")
        row("4e", f"RSS with {n:,} items, MB", None if qr is None else qr / 1024, None if mr is None else mr / 1024,
            ".1f", "q <= 0.5x mpv", le(qr, mr, 0.5), detail=f"{fmt(qr and qr / 1024, '.1f')} vs "
                                                           f"{fmt(mr and mr / 1024, '.1f')} MB = {fmt(ratio(qr, mr), '.2f')}x")
        qe_, me_ = q.get("rss_empty_kb"), m.get("rss_empty_kb")
        row("4e", "  RSS empty (same daemon, before adding), MB", None if qe_ is None else qe_ / 1024,
            None if me_ is None else me_ / 1024, ".1f")
        row("4e", "  growth for the items, MB", None if qr is None or qe_ is None else (qr - qe_) / 1024,
            None if mr is None or me_ is None else (mr - me_) / 1024, ".1f")
        row("4e", "  RSS after the probes and 3 full reads, MB", None if q.get("rss_full_end_kb") is None else q["rss_full_end_kb"] / 1024,
            None if m.get("rss_full_end_kb") is None else m["rss_full_end_kb"] / 1024, ".1f")
        keys = ("scale_not_playing", "scale_not_playing_end", "single_not_playing", "growth_not_playing")
        row("4", "  playback started during scale tests?",
            "YES (!)" if any(g(q, k, "playing") for k in keys) else "no",
            "YES (!)" if any(g(m, k, "playing") for k in keys) else "no", rat=None)

    out = []
    w = [3, 50, 17, 17, 7, 17, 7]

    def fmt_row(cells):
        parts = []
        for i, c in enumerate(cells):
            parts.append(c.ljust(w[i]) if i in (0, 1, 5, 6) else c.rjust(w[i]))
        return "  ".join(parts).rstrip()

    meta = R["meta"]
    out.append("queued vs mpv: control socket benchmark (contrib/bench/ipc)")
    out.append(f"  {meta.get('date')}  {meta.get('cpus')} cpus  queued {meta.get('queued_rev', '?')}  "
               f"{meta.get('mpv', 'mpv')}  media {os.path.basename(str(meta.get('media')))}")
    out.append("")
    head = fmt_row(("#", "figure", "queued", "mpv", "q/mpv", "target", ""))
    out.append(head)
    out.append("-" * max(len(head), 130))
    for r in rows:
        out.append(fmt_row(r))

    if "ops_by_size" in q or "ops_by_size" in m:
        out.append("")
        out.append("4f single-request latency vs queue size: p50 µs (max); 100 of each; "
                   "mpv insert = loadfile append + playlist-move")
        sizes = sorted({int(x) for k in (q, m) for x in k.get("ops_by_size", {})})
        labels = {"query": "query", "append_end": "add 1 at end", "remove_end": "remove 1 at end",
                  "insert_mid": "insert 1 at middle", "remove_mid": "remove 1 at middle",
                  "move_mid": "move 1 at middle", "list1000": "list 1,000 at middle"}
        out.append("  " + "".ljust(20) + "".join(f"{'queued @' + format(x, ','):>18}" for x in sizes)
                   + "".join(f"{'mpv @' + format(x, ','):>18}" for x in sizes))
        for op, label in labels.items():
            cells = []
            for k in (q, m):
                for x in sizes:
                    v = g(k, "ops_by_size", str(x), op)
                    cells.append("-" if v is None else f"{v['p50_us']:.0f} ({v['max_us']:.0f})")
            out.append("  " + label.ljust(20) + "".join(f"{c:>18}" for c in cells))

    out.append("")
    out.append("targets:")
    for text, met, detail in verdicts:
        out.append(f"  [{'MET' if met else 'NOT MET'}] {text}  ({detail})" if detail else
                   f"  [{'MET' if met else 'NOT MET'}] {text}")
    notes = [
        "one player measured at a time; 1a/1b/2 alternate the two players in blocks (both daemons up, the "
        "other one idle or paused) so machine drift hits both alike; RTTs include the Python client's own "
        "cost, the same for both.",
        "queued exposes no dropped-frame counter over the socket (player.status has none; the engine counts "
        "late pictures internally, but neither the API nor the log reports them): for queued, section 3 shows "
        "whether playback kept real time (position advance vs wall clock, sampled every 0.2 s; with --audio "
        "null the clock stops when decoding starves it) and the daemon's CPU.",
        "mpv 0.35 has no batch add, no positional insert and no paged list: 4a/4b use pipelined "
        "'loadfile PATH append'; its insert is 'loadfile append' + 'playlist-move' (two round trips, summed).",
    ]
    stops = meta.get("stops", [])
    for kind in KINDS:
        mine = [x for x in stops if x.startswith(kind + ":")]
        ignored = [x for x in mine if "ignored SIGTERM" in x]
        if ignored:
            notes.append(f"{kind} did not exit on SIGTERM in {len(ignored)} of {len(mine)} stops (SIGKILLed after "
                         f"the grace period)")
    for k in (q, m):
        for r in k.get("pipe_runs", []):
            if "error" in r:
                notes.append(f"pipelined run error: {r['error']}")
        if k.get("load", {}).get("notes"):
            notes.append(f"load notes: {k['load']['notes']}")
    out.append("")
    out.append("notes:")
    for n_ in notes:
        out.append("  - " + n_)
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--queued", required=True)
    ap.add_argument("--media", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--json", required=True)
    ap.add_argument("--out")
    ap.add_argument("--meta")
    ap.add_argument("--sections", default="idle playing scale")
    ap.add_argument("--rtt-n", type=int, default=20_000)
    ap.add_argument("--rtt-blocks", type=int, default=8)
    ap.add_argument("--settle", type=float, default=1.0)
    ap.add_argument("--pipe-n", type=int, default=100_000)
    ap.add_argument("--pipe-runs", type=int, default=3)
    ap.add_argument("--clients", type=int, default=100)
    ap.add_argument("--per-client", type=int, default=1_000)
    ap.add_argument("--load-rounds", type=int, default=2)
    ap.add_argument("--scale-n", type=int, default=100_000)
    ap.add_argument("--batch", type=int, default=10_000)
    ap.add_argument("--op-reps", type=int, default=100)
    ap.add_argument("--add-rounds", type=int, default=2)
    ap.add_argument("--probe-sizes", default="1000,10000")
    ap.add_argument("--report-only", action="store_true", help="re-print the table from --json")
    args = ap.parse_args()
    args.probe_sizes = [int(x) for x in args.probe_sizes.split(",") if x]
    if args.report_only:
        with open(args.json) as f:
            print(report(json.load(f), args))
        return
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    b = Bench(args)
    b.run()


if __name__ == "__main__":
    main()
