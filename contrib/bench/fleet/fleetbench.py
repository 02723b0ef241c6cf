#!/usr/bin/env python3
"""The fleet benchmark's measuring half (contrib/bench/fleet/run.sh starts the broker and calls this).

Python 3 standard library only: a minimal MQTT 3.1.1 client on a raw socket (CONNECT, SUBSCRIBE, PUBLISH
QoS 0/1, PUBACK, PINGREQ), a JSON-RPC client for the daemons' Unix sockets, /proc for CPU and RSS, and
`ss -tinp` (iproute2) for the bytes and segments of one TCP connection. It starts and stops its own
daemons (queued), bridges (queued-mqtt) and one reference mosquitto_sub; everything it starts is stopped
in a `finally` (SIGTERM, then SIGKILL after 8 s), also on SIGTERM/SIGINT. Every wait has a deadline.
Only 127.0.0.1 is ever contacted. See run.sh's header for what each figure means.
"""

import argparse
import collections
import json
import math
import os
import random
import re
import select
import signal
import socket
import struct
import subprocess
import sys
import time

CLK_TCK = os.sysconf("SC_CLK_TCK")


def log(message):
    print(f"[fleetbench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


class BenchError(Exception):
    pass


# --- processes ------------------------------------------------------------------------------------


class Processes:
    """Every child this script starts, stopped newest first at the end."""

    def __init__(self):
        self.children = []  # (name, Popen)

    def start(self, name, argv, log_path):
        with open(log_path, "ab") as out:  # the child keeps its own copy (select() wants few descriptors here)
            proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT)
        self.children.append((name, proc))
        return proc

    def stop(self, proc, sig=signal.SIGTERM, grace=8.0):
        if proc.poll() is None:
            try:
                proc.send_signal(sig)
            except ProcessLookupError:
                pass
            try:
                proc.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                proc.kill()
                try:
                    proc.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    pass
        for entry in list(self.children):
            if entry[1] is proc:
                self.children.remove(entry)

    def stop_many(self, procs):
        """SIGTERM to all first (they stop in parallel), then wait for each (bounded), then SIGKILL."""
        for proc in procs:
            if proc.poll() is None:
                try:
                    proc.send_signal(signal.SIGTERM)
                except ProcessLookupError:
                    pass
        deadline = time.monotonic() + 10
        for proc in procs:
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
        for proc in procs:
            self.stop(proc, signal.SIGKILL, grace=5)

    def stop_all(self):
        self.stop_many([proc for _, proc in reversed(self.children)])


def cpu_ticks(pid):
    """utime + stime of a process, in clock ticks (None when it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
    except OSError:
        return None
    fields = stat[stat.rindex(")") + 2:].split()
    return int(fields[11]) + int(fields[12])


def rss_kb(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def tcp_stats(pid, port):
    """Counters of the established TCP connection from process `pid` to 127.0.0.1:`port` (ss -tinp)."""
    try:
        out = subprocess.run(
            ["ss", "-tinpH", "state", "established", f"( dport = :{port} )"],
            capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    entries, current = [], None
    for line in out.splitlines():
        if line and not line[0].isspace():
            current = [line]
            entries.append(current)
        elif current is not None:
            current.append(line)
    for entry in entries:
        text = " ".join(entry)
        if f"pid={pid}," not in text:
            continue
        stats = {key: int(value) for key, value in re.findall(r"\b(bytes_sent|bytes_received|segs_out|segs_in):(\d+)", text)}
        for key in ("bytes_sent", "bytes_received", "segs_out", "segs_in"):
            stats.setdefault(key, 0)
        info = entry[1] if len(entry) > 1 else ""
        stats["timestamps"] = bool(re.search(r"(^|\s)ts(\s|$)", info))
        return stats
    return None


# --- MQTT 3.1.1, just enough ----------------------------------------------------------------------


def _varint(n):
    out = bytearray()
    while True:
        byte = n % 128
        n //= 128
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _string(text):
    data = text.encode() if isinstance(text, str) else text
    return struct.pack("!H", len(data)) + data


class MQTTClient:
    """One connection to the broker; messages are handed to on_message(t, topic, payload, retain)."""

    def __init__(self, port, client_id, username, password, keepalive=60, on_message=None):
        self.keepalive = keepalive
        self.on_message = on_message or (lambda *a: None)
        self.buffer = bytearray()
        self.next_id = 1
        self.acked = set()
        self.subacked = set()
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        flags = 0x02 | 0x80 | 0x40  # clean session, username, password
        variable = _string("MQTT") + bytes([4, flags]) + struct.pack("!H", keepalive)
        payload = _string(client_id) + _string(username) + _string(password)
        self._send(0x10, variable + payload)
        deadline = time.monotonic() + 10
        self.connected = None
        while self.connected is None and time.monotonic() < deadline:
            self.poll(0.1)
        if not self.connected:
            raise BenchError(f"MQTT CONNECT refused or unanswered ({self.connected})")

    def fileno(self):
        return self.sock.fileno()

    def _send(self, header, body):
        self.sock.sendall(bytes([header]) + _varint(len(body)) + body)
        self.last_send = time.monotonic()

    def _id(self):
        pid = self.next_id
        self.next_id = self.next_id % 65535 + 1
        return pid

    def subscribe(self, topics, qos=1, timeout=10):
        pid = self._id()
        body = struct.pack("!H", pid) + b"".join(_string(t) + bytes([qos]) for t in topics)
        self._send(0x82, body)
        deadline = time.monotonic() + timeout
        while pid not in self.subacked and time.monotonic() < deadline:
            self.poll(0.05)
        if pid not in self.subacked:
            raise BenchError(f"no SUBACK for {topics}")

    def publish(self, topic, payload, qos=1, retain=False):
        """Sends a PUBLISH; returns (monotonic, wall) times taken just before the send, and its id."""
        data = payload.encode() if isinstance(payload, str) else payload
        pid = self._id() if qos else None
        body = _string(topic) + (struct.pack("!H", pid) if pid else b"") + data
        t, wall = time.monotonic(), time.time()
        self._send(0x30 | (qos << 1) | (1 if retain else 0), body)
        return t, wall, pid

    def wait_ack(self, pid, timeout=10):
        deadline = time.monotonic() + timeout
        while pid not in self.acked and time.monotonic() < deadline:
            self.poll(0.05)
        return pid in self.acked

    def on_readable(self):
        try:
            data = self.sock.recv(1 << 16)
        except BlockingIOError:
            return
        if not data:
            raise BenchError("the broker closed the observer's connection")
        now = time.monotonic()
        self.buffer += data
        while True:
            if len(self.buffer) < 2:
                break
            length, multiplier, index = 0, 1, 1
            while True:
                if index >= len(self.buffer):
                    return
                byte = self.buffer[index]
                length += (byte & 0x7F) * multiplier
                multiplier *= 128
                index += 1
                if not byte & 0x80:
                    break
            if len(self.buffer) < index + length:
                break
            header = self.buffer[0]
            body = bytes(self.buffer[index:index + length])
            del self.buffer[:index + length]
            self._packet(header, body, now)

    def _packet(self, header, body, now):
        kind = header >> 4
        if kind == 3:  # PUBLISH
            qos = (header >> 1) & 3
            retain = bool(header & 1)
            (tlen,) = struct.unpack("!H", body[:2])
            topic = body[2:2 + tlen].decode()
            rest = body[2 + tlen:]
            if qos:
                pid = rest[:2]
                rest = rest[2:]
                self._send(0x40, pid)  # PUBACK (QoS 1; this client never subscribes at QoS 2)
            self.on_message(now, topic, rest, retain)
        elif kind == 2:  # CONNACK
            self.connected = body[1] == 0 if len(body) >= 2 else False
            if not self.connected:
                self.connected = False
        elif kind == 4:  # PUBACK
            self.acked.add(struct.unpack("!H", body[:2])[0])
        elif kind == 9:  # SUBACK
            self.subacked.add(struct.unpack("!H", body[:2])[0])

    def keep_alive(self):
        if time.monotonic() - self.last_send > self.keepalive / 2:
            self._send(0xC0, b"")

    def poll(self, timeout):
        ready, _, _ = select.select([self.sock], [], [], timeout)
        if ready:
            self.on_readable()
        self.keep_alive()

    def close(self):
        try:
            self._send(0xE0, b"")
        except OSError:
            pass
        self.sock.close()


# --- the daemons' socket --------------------------------------------------------------------------


class RPC:
    """Blocking JSON-RPC calls on one connection to a daemon's control socket."""

    def __init__(self, path, timeout=30):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(path)
        self.file = self.sock.makefile("rb")
        self.next_id = 1

    def call(self, method, params=None):
        request_id = self.next_id
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        self.sock.sendall((json.dumps(message) + "\n").encode())
        while True:
            line = self.file.readline()
            if not line:
                raise BenchError(f"daemon closed the connection during {method}")
            answer = json.loads(line)
            if answer.get("id") == request_id:
                if "error" in answer:
                    raise BenchError(f"{method}: {answer['error']}")
                return answer["result"]

    def close(self):
        self.file.close()
        self.sock.close()


class DaemonWatch:
    """A daemon's status and itemStarted events, read without blocking: what it applied and showed when."""

    def __init__(self, name, path):
        self.name = name
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(10)
        self.sock.connect(path)
        self.sock.sendall(b'{"jsonrpc":"2.0","id":1,"method":"events.subscribe","params":{"events":["status","itemStarted"]}}\n')
        self.sock.setblocking(False)
        self.buffer = b""
        self.uris = {}          # item id -> uri (from event.status)
        self.applied = []       # (monotonic, appliedRev) on each change
        self.started = []       # (monotonic, id, at) of each itemStarted
        self.last_rev = None
        self.trace = []         # every event, abridged, for WORK/latency/<player>/events.jsonl

    def fileno(self):
        return self.sock.fileno()

    def on_readable(self):
        try:
            data = self.sock.recv(1 << 16)
        except BlockingIOError:
            return
        if not data:
            raise BenchError(f"daemon {self.name} closed its event connection")
        now = time.monotonic()
        self.buffer += data
        *lines, self.buffer = self.buffer.split(b"\n")
        for line in lines:
            if not line.strip():
                continue
            message = json.loads(line)
            params = message.get("params") or {}
            method = message.get("method")
            if method == "event.status":
                self.trace.append({"t": now, "status": [params.get(k) for k in (
                    "state", "currentId", "uri", "appliedRev", "queueVersion")]})
                if params.get("currentId") is not None and params.get("uri"):
                    self.uris[params["currentId"]] = params["uri"]
                rev = params.get("appliedRev")
                if rev != self.last_rev:
                    self.last_rev = rev
                    self.applied.append((now, rev))
            elif method == "event.itemStarted":
                self.trace.append({"t": now, "itemStarted": [params.get("id"), params.get("at")]})
                self.started.append((now, params.get("id"), params.get("at")))


def wait_socket(path, proc, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise BenchError(f"{path}: the daemon exited with status {proc.returncode}")
        try:
            rpc = RPC(path, timeout=5)
            rpc.call("player.status")
            rpc.close()
            return
        except (OSError, BenchError):
            time.sleep(0.1)
    raise BenchError(f"no daemon answering on {path} after {timeout} s")


def pump(sources, timeout):
    """Reads whatever arrives on `sources` (objects with fileno/on_readable) for up to `timeout` s."""
    ready, _, _ = select.select(sources, [], [], max(0.0, timeout))
    for source in ready:
        source.on_readable()
    for source in sources:
        if isinstance(source, MQTTClient):
            source.keep_alive()


def pump_until(sources, condition, timeout, step=0.05):
    deadline = time.monotonic() + timeout
    while not condition():
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        pump(sources, min(step, left))
    return True


def percentile(values, p):
    """Nearest rank."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


# --- the bench ------------------------------------------------------------------------------------


class Bench:
    def __init__(self, args):
        self.a = args
        self.procs = Processes()
        self.results = open(args.results, "a")
        self.lines = []
        self.observer = None
        self.messages = []  # (t, topic, payload bytes, retain)
        self.by_player = collections.defaultdict(list)

    def put(self, key, value):
        self.results.write(f"{key}={value}\n")
        self.results.flush()

    def out(self, text=""):
        self.lines.append(text)

    # Paths and programs.
    def bin(self, name):
        return os.path.join(self.a.bin_dir, name)

    def password(self, user):
        return f"{user}-{self.a.token}"

    def credentials(self, directory, user):
        path = os.path.join(directory, "credentials")
        with open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as f:
            f.write(f"username={user}\npassword={self.password(user)}\n")
        return path

    def start_daemon(self, name, directory, extra, media):
        os.makedirs(directory, exist_ok=True)
        sock = os.path.join(directory, "queued.sock")
        argv = [self.bin("queued"), "--no-config", "--audio", "null", "--video", "null", "--state-dir",
                os.path.join(directory, "state"), "--socket", sock, "--log-level", "warning"] + extra + media
        proc = self.procs.start("queued " + name, argv, os.path.join(directory, "daemon.log"))
        return proc, sock

    def start_bridge(self, name, directory, sock, groups=()):
        argv = [self.bin("queued-mqtt"), "--no-config", "--broker", f"mqtt://127.0.0.1:{self.a.port}",
                "--player", name, "--credentials", self.credentials(directory, name), "--socket", sock,
                "--keepalive", str(self.a.keepalive), "--log-level", "info"]
        for group in groups:
            argv += ["--group", group]
        return self.procs.start("queued-mqtt " + name, argv, os.path.join(directory, "bridge.log"))

    def on_message(self, t, topic, payload, retain):
        self.messages.append((t, topic, payload, retain))
        parts = topic.split("/")
        if len(parts) >= 3 and parts[0] == "queued" and parts[1] != "group":
            self.by_player[parts[1]].append((t, parts[2], payload, retain))

    def connect_observer(self):
        self.observer = MQTTClient(self.a.port, f"fleetbench-observer-{os.getpid()}", "operator",
                                   self.password("operator"), keepalive=60, on_message=self.on_message)
        self.observer.subscribe(["queued/+/status", "queued/+/reported", "queued/+/events"], qos=1)

    def latest(self, player, kind):
        for t, k, payload, _ in reversed(self.by_player[player]):
            if k == kind:
                try:
                    return json.loads(payload)
                except ValueError:
                    return None
        return None

    def wait_online(self, names, sources, timeout):
        def ready():
            for name in names:
                status = self.latest(name, "status")
                reported = self.latest(name, "reported")
                if not status or status.get("state") != "online":
                    return False
                if not reported or reported.get("state") != "playing":
                    return False
            return True
        if not pump_until(sources, ready, timeout):
            missing = [n for n in names if (self.latest(n, "reported") or {}).get("state") != "playing"]
            raise BenchError(f"not online and playing after {timeout} s: {missing[:10]}")

    # 1. desired → applied ------------------------------------------------------------------------

    def latency(self):
        a = self.a
        n = a.players
        width = max(2, len(str(n)))
        names = [f"p{i:0{width}d}" for i in range(1, n + 1)]
        clips = [os.path.join(a.media, "clip-a.mp4"), os.path.join(a.media, "clip-b.mp4")]
        log(f"latency: starting {n} daemons")
        daemons, socks = [], {}
        for name in names:
            directory = os.path.join(a.work, "latency", name)
            proc, sock = self.start_daemon(name, directory, ["--loops", "0"], [clips[0]])
            wait_socket(sock, proc)
            daemons.append(proc)
            socks[name] = sock
        watches = {name: DaemonWatch(name, socks[name]) for name in names}
        log(f"latency: starting {n} bridges")
        bridges = []
        for name in names:
            bridges.append(self.start_bridge(name, os.path.join(a.work, "latency", name), socks[name], ["all"]))
        sources = [self.observer] + list(watches.values())
        self.wait_online(names, sources, timeout=60 + 2 * n)
        pump_until(sources, lambda: False, 3)  # settle
        rng = random.Random(20261126)
        raw = open(os.path.join(a.work, "latency", "samples.jsonl"), "w")  # seconds; null = not seen
        samples = {"reported": [], "daemon": [], "screen": []}
        throttle = []  # reported - daemon, per player and round: the bridge's wait before it reports
        missing = collections.Counter()
        unseen = []  # (player, rev, daemon state) when the new queue was not on screen by the deadline
        backwards = []
        max_rev_seen = collections.defaultdict(lambda: -1)
        load = []
        for r in range(1, a.rounds + 1):
            pump_until(sources, lambda: False, rng.uniform(0.2, a.clip_seconds + 1.0))
            rev = r
            clip = clips[r % 2]
            document = json.dumps({"rev": rev, "queue": [clip], "loops": 0})
            for w in watches.values():
                w.started.clear()
            first_msg = {name: len(self.by_player[name]) for name in names}
            t_pub, wall_pub, pid = self.observer.publish("queued/group/all/desired", document, qos=1, retain=True)
            for w in watches.values():
                w.trace.append({"t": t_pub, "published": rev, "clip": clip})
            got = {"reported": {}, "daemon": {}, "screen": {}}

            def check():
                for name in names:
                    if name not in got["reported"]:
                        messages = self.by_player[name]
                        for t, kind, payload, _ in messages[first_msg[name]:]:
                            if kind == "reported" and (json.loads(payload) or {}).get("appliedRev") == rev:
                                got["reported"][name] = t - t_pub
                                break
                        first_msg[name] = len(messages)  # scanned (a later match cannot be earlier)
                    w = watches[name]
                    if name not in got["daemon"]:
                        for t, applied in reversed(w.applied):
                            if t < t_pub:
                                break
                            if applied == rev:
                                got["daemon"][name] = t - t_pub
                    if name not in got["screen"]:
                        for t, item, at in w.started:
                            if w.uris.get(item) == clip and at is not None:
                                got["screen"][name] = at - wall_pub
                                break
                return all(len(got[k]) == n for k in got)

            done = pump_until(sources, check, a.round_timeout)
            check()
            for name in names:
                if name not in got["screen"]:  # what the daemon is doing instead
                    try:
                        rpc = RPC(socks[name], timeout=10)
                        st = rpc.call("player.status")
                        rpc.close()
                        unseen.append((name, rev, st["state"]))
                    except (OSError, BenchError) as error:
                        unseen.append((name, rev, f"unanswered: {error}"))
            for kind in samples:
                samples[kind].extend(got[kind].values())
                missing[kind] += n - len(got[kind])
            throttle.extend(got["reported"][k] - got["daemon"][k] for k in got["reported"] if k in got["daemon"])
            for name in names:
                raw.write(json.dumps({"round": r, "rev": rev, "player": name, "t_published": t_pub,
                                      **{k: got[k].get(name) for k in got}}) + "\n")
            load.append(os.getloadavg()[0])
            log(f"latency: round {r}/{a.rounds} rev {rev}: reported {len(got['reported'])}/{n}, "
                f"max {max(got['reported'].values(), default=float('nan')) * 1000:.0f} ms"
                + ("" if done else " (timed out)"))
        t_section_end = time.monotonic()
        # appliedRev going backwards in a player's retained reports, over the whole section; reports whose
        # current item has an id but no uri.
        reports, no_uri, no_uri_example, no_uri_held = 0, 0, None, []
        for name in names:
            held_since = None
            for t, kind, payload, _ in self.by_player[name]:
                if kind != "reported":
                    continue
                document = json.loads(payload) or {}
                reports += 1
                if held_since is not None:
                    no_uri_held.append(t - held_since)
                    held_since = None
                current = document.get("current") or {}
                if current.get("id") is not None and current.get("uri") is None:
                    no_uri += 1
                    held_since = t
                    no_uri_example = no_uri_example or (name, current, document.get("appliedRev"))
            if held_since is not None:  # still the retained copy when the rounds ended
                no_uri_held.append(t_section_end - held_since)
                applied = document.get("appliedRev")
                if applied is None:
                    continue
                if applied < max_rev_seen[name]:
                    backwards.append((name, max_rev_seen[name], applied))
                max_rev_seen[name] = max(max_rev_seen[name], applied)
        # How many times each bridge started applying each rev (its log).
        applies = collections.Counter()
        for name in names:
            try:
                with open(os.path.join(a.work, "latency", name, "bridge.log"), errors="replace") as f:
                    for line in f:
                        m = re.search(r"applying rev (\d+) from", line)
                        if m:
                            applies[(name, int(m.group(1)))] += 1
            except OSError:
                pass
        twice = {k: v for k, v in applies.items() if v > 1}
        # The RSS of every bridge and daemon at the end (50 screens on one box: what each costs).
        bridge_rss = [rss_kb(p.pid) or 0 for p in bridges]
        daemon_rss = [rss_kb(p.pid) or 0 for p in daemons]
        raw.close()
        for name, w in watches.items():
            w.sock.close()
            with open(os.path.join(a.work, "latency", name, "events.jsonl"), "w") as f:
                f.writelines(json.dumps(e) + "\n" for e in w.trace)
            with open(os.path.join(a.work, "latency", name, "messages.jsonl"), "w") as f:
                for t, kind, payload, retain in self.by_player[name]:
                    f.write(json.dumps({"t": t, "topic": kind, "retain": retain,
                                        "payload": payload.decode(errors="replace")}) + "\n")
        log("latency: stopping bridges and daemons")
        self.procs.stop_many(bridges)
        self.procs.stop_many(daemons)

        self.out(f"1. Desired → applied: {n} players × {a.rounds} rounds = {n * a.rounds} samples per row; one retained "
                 f"group document per round")
        self.out(f"   (queue of one {a.clip_seconds:g} s clip, looping; the bridge always swaps at:itemEnd, there is no "
                 f"'now' option)")
        self.out(f"   {'':<52}{'p50':>8}{'p99':>8}{'max':>8}  ms   samples  missing")
        rows = [
            ("reported", "publish → retained reported shows appliedRev == rev"),
            ("daemon", "publish → daemon's appliedRev == rev (its socket)"),
            ("screen", "publish → first picture of the new queue"),
        ]
        for kind, label in rows:
            v = [x * 1000 for x in samples[kind]]
            self.out(f"   {label:<52}{percentile(v, 50):8.0f}{percentile(v, 99):8.0f}{max(v, default=float('nan')):8.0f}"
                     f"       {len(v):7d}  {missing[kind]:7d}")
            self.put(f"latency.{kind}.p50_ms", f"{percentile(v, 50):.1f}")
            self.put(f"latency.{kind}.p99_ms", f"{percentile(v, 99):.1f}")
            self.put(f"latency.{kind}.max_ms", f"{max(v, default=float('nan')):.1f}")
            self.put(f"latency.{kind}.samples", len(v))
            self.put(f"latency.{kind}.missing", missing[kind])
        v = [x * 1000 for x in throttle]
        self.out(f"   {'publish → reported minus publish → daemon':<52}{percentile(v, 50):8.0f}{percentile(v, 99):8.0f}"
                 f"{max(v, default=float('nan')):8.0f}       {len(v):7d}")
        self.put("latency.report_wait.p50_ms", f"{percentile(v, 50):.1f}")
        self.put("latency.report_wait.p99_ms", f"{percentile(v, 99):.1f}")
        self.out(f"   a rev applied twice by one bridge: {len(twice)} (player, rev) pairs"
                 + (f", e.g. {sorted(twice.items())[:3]}" if twice else "")
                 + f"; reported appliedRev going backwards: {len(backwards)}"
                 + (f", e.g. {backwards[:3]}" if backwards else ""))
        self.out(f"   end of section: bridge RSS median {percentile(bridge_rss, 50) / 1024:.1f} MB, daemon RSS median "
                 f"{percentile(daemon_rss, 50) / 1024:.1f} MB; 1-min load during the rounds "
                 f"{min(load, default=0):.1f}-{max(load, default=0):.1f} on {os.cpu_count()} CPUs")
        if unseen:
            states = collections.Counter(state for _, _, state in unseen)
            self.out(f"   new queue not on screen within {a.round_timeout:g} s: {len(unseen)} times; the daemon's state then: "
                     + ", ".join(f"{k} {v}" for k, v in states.most_common())
                     + f"; e.g. {unseen[:4]} (their events: WORK/latency/<player>/events.jsonl)")
        self.put("latency.not_on_screen", len(unseen))
        self.put("latency.not_on_screen_idle", sum(1 for u in unseen if u[2] == "idle"))
        self.out(f"   reported documents whose current item has an id but uri null: {no_uri} of {reports}"
                 + (f", each the retained copy for {percentile(no_uri_held, 50) * 1000:.0f} ms (median), up to "
                    f"{max(no_uri_held, default=0) * 1000:.0f} ms; e.g. {no_uri_example[0]}: current "
                    f"{json.dumps(no_uri_example[1])}" if no_uri_example else ""))
        self.put("latency.reported_uri_null", no_uri)
        self.put("latency.reported_total", reports)
        self.put("latency.applied_twice", len(twice))
        self.put("latency.reported_backwards", len(backwards))
        self.put("latency.bridge_rss_mb_median", f"{percentile(bridge_rss, 50) / 1024:.1f}")
        self.put("latency.daemon_rss_mb_median", f"{percentile(daemon_rss, 50) / 1024:.1f}")
        self.out()

    # 2. proof of play through the spool ---------------------------------------------------------

    def spool(self):
        a = self.a
        name = "spool"
        directory = os.path.join(a.work, name)
        tick = os.path.join(a.media, "tick.wav")
        proc, sock = self.start_daemon(name, directory, ["--untimed", "--loops", "0"], [tick])
        wait_socket(sock, proc)
        rpc = RPC(sock)
        log(f"spool: the daemon plays untimed until it holds {a.spool_records} records (no bridge yet)")
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            listed = rpc.call("plays.list", {"limit": 1})
            if listed["nextSeq"] - 1 >= a.spool_records:
                break
            time.sleep(0.05)
        rpc.call("player.stop")
        time.sleep(0.5)
        listed = rpc.call("plays.list", {"limit": 1})
        held = listed["nextSeq"] - 1 - listed["ackedThrough"]
        made = listed["nextSeq"] - 1
        if held < a.spool_records:
            raise BenchError(f"the daemon holds only {held} records")
        first_index = len(self.by_player[name])

        def received(since_index=first_index, until=None):
            seqs = collections.Counter()
            times = {}
            for t, kind, payload, _ in self.by_player[name][since_index:]:
                if kind != "events" or (until is not None and t > until):
                    continue
                seq = json.loads(payload)["seq"]
                seqs[seq] += 1
                times.setdefault(seq, t)
            return seqs, times

        log(f"spool: {held} records held; starting the bridge")
        t0 = time.monotonic()
        bridge = self.start_bridge(name, directory, sock)
        want = set(range(listed["ackedThrough"] + 1, made + 1))
        state = {"seen": set()}

        def all_seen():
            for t, kind, payload, _ in self.by_player[name][first_index + state.get("scanned", 0):]:
                if kind == "events":
                    state["seen"].add(json.loads(payload)["seq"])
            state["scanned"] = len(self.by_player[name]) - first_index
            return want <= state["seen"]

        complete = pump_until([self.observer], all_seen, 120)
        t_all = time.monotonic()
        acked_at = None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            pump([self.observer], 0.05)
            if rpc.call("plays.list", {"limit": 1})["ackedThrough"] >= made:
                acked_at = time.monotonic()
                break
        wire = tcp_stats(bridge.pid, a.port)
        counts, times = received()
        first_t = min(times.values(), default=t0)
        delivered = len(set(counts) & want)
        sent = sum(counts.values())
        drain_rate = delivered / (t_all - first_t) if t_all > first_t else float("nan")
        start_rate = delivered / (t_all - t0)
        self.put("spool.records", held)
        self.put("spool.delivered", delivered)
        self.put("spool.messages", sent)
        self.put("spool.records_per_s", f"{drain_rate:.0f}")
        self.put("spool.records_per_s_from_start", f"{start_rate:.0f}")
        self.put("spool.seconds_to_all", f"{t_all - t0:.3f}")
        self.put("spool.seconds_to_acked", f"{(acked_at - t0) if acked_at else float('nan'):.3f}")

        # The steady rate with the bridge live: the daemon plays untimed again for a while.
        log(f"spool: live for {a.live_seconds:g} s (untimed daemon, bridge connected)")
        live_index = len(self.by_player[name])
        base = rpc.call("plays.list", {"limit": 1})["nextSeq"] - 1
        cpu_before = cpu_ticks(bridge.pid)
        rpc.call("player.play")
        t_live = time.monotonic()
        pump_until([self.observer], lambda: False, a.live_seconds)
        rpc.call("player.stop")
        t_stop = time.monotonic()
        cpu_live = (cpu_ticks(bridge.pid) or 0) - (cpu_before or 0)
        produced_to = rpc.call("plays.list", {"limit": 1})["nextSeq"] - 1
        produced = produced_to - base
        live_want = set(range(base + 1, produced_to + 1))
        by_stop, _ = received(live_index, until=t_stop)
        live_seen = {"seen": set(), "scanned": live_index}

        def live_done():
            messages = self.by_player[name]
            for t, kind, payload, _ in messages[live_seen["scanned"]:]:
                if kind == "events":
                    live_seen["seen"].add(json.loads(payload)["seq"])
            live_seen["scanned"] = len(messages)
            return live_want <= live_seen["seen"]

        pump_until([self.observer], live_done, 120)
        t_drained = time.monotonic()
        live_counts, _ = received(live_index)
        live_delivered = len(set(live_counts) & live_want)
        live_dups = sum(live_counts.values()) - len(live_counts)
        self.procs.stop(bridge)
        rpc.close()
        self.procs.stop(proc)
        self.put("spool.live.produced_per_s", f"{produced / (t_stop - t_live):.0f}")
        self.put("spool.live.delivered_by_stop_per_s", f"{len(set(by_stop) & live_want) / (t_stop - t_live):.0f}")
        self.put("spool.live.backlog_at_stop", produced - len(set(by_stop) & live_want))
        self.put("spool.live.drain_s", f"{t_drained - t_stop:.3f}")
        self.put("spool.live.duplicates", live_dups)
        self.put("spool.live.bridge_cpu_pct", f"{cpu_live / CLK_TCK / (t_stop - t_live) * 100:.0f}")

        per_record = (wire["bytes_sent"] + wire["bytes_received"]) / delivered if wire and delivered else float("nan")
        self.out(f"2. Proof of play through the spool (one untimed daemon playing a {a.tick_ms} ms sound; records/s as "
                 f"the consumer sees them)")
        self.out(f"   catch-up: {held} records held with no bridge, then the bridge started:")
        self.out(f"     {delivered}/{held} records arrived in {t_all - t0:.2f} s from the bridge's start = "
                 f"{start_rate:.0f} records/s ({drain_rate:.0f}/s first to last)"
                 + ("" if complete else " (TIMED OUT)"))
        self.out(f"     messages on queued/{name}/events: {sent} for {delivered} records "
                 f"({sent / delivered if delivered else float('nan'):.2f} each; consumers de-duplicate by seq)")
        self.out(f"     all acknowledged back to the daemon (plays.ack) {(acked_at - t0) if acked_at else float('nan'):.2f} s "
                 f"after the bridge started; TCP bytes on the bridge's connection per record: {per_record:.0f}")
        self.out(f"   live: {produced} plays in {t_stop - t_live:.1f} s = {produced / (t_stop - t_live):.0f} made/s, "
                 f"{len(set(by_stop) & live_want) / (t_stop - t_live):.0f}/s arrived meanwhile; backlog at stop "
                 f"{produced - len(set(by_stop) & live_want)}, gone {t_drained - t_stop:.2f} s later; "
                 f"{live_delivered}/{produced} arrived, {live_dups} duplicates; bridge CPU {cpu_live / CLK_TCK / (t_stop - t_live) * 100:.0f} %")
        self.out()

    # 3 + 4. an idle bridge: CPU, RSS, bytes on the wire -------------------------------------------

    def idle(self, case):
        a = self.a
        name = f"idle-{case}"
        directory = os.path.join(a.work, name)
        if case == "still":
            extra, media = ["--loops", "0", "--still-duration", str(max(3600, 4 * a.idle_seconds))], [
                os.path.join(a.media, "still.png")]
            what = f"one still image shown for longer than the window (no item ends)"
        else:
            extra, media = ["--loops", "0"], [os.path.join(a.media, "clip-a.mp4")]
            what = f"one {a.clip_seconds:g} s clip looping (a play ends every {a.clip_seconds:g} s)"
        proc, sock = self.start_daemon(name, directory, extra, media)
        wait_socket(sock, proc)
        ref = self.procs.start("mosquitto_sub", [
            "mosquitto_sub", "-h", "127.0.0.1", "-p", str(a.port), "-u", "operator", "-P", self.password("operator"),
            "-i", f"fleetbench-ref-{a.token}-{case}", "-k", str(a.keepalive), "-q", "1", "-t", f"queued/{name}/desired"],
            os.path.join(directory, "mosquitto_sub.log"))
        bridge = self.start_bridge(name, directory, sock)
        self.wait_online([name], [self.observer], 60)
        log(f"idle ({case}): settling {a.settle:g} s, then measuring {a.idle_seconds:g} s")
        pump_until([self.observer], lambda: False, a.settle)
        pids = {"bridge": bridge.pid, "daemon": proc.pid, "sub": ref.pid, "broker": a.broker_pid}
        before = {k: cpu_ticks(p) for k, p in pids.items()}
        wire_before = tcp_stats(bridge.pid, a.port)
        first_index = len(self.by_player[name])
        t_start = time.monotonic()
        rss = collections.defaultdict(list)
        next_sample = t_start
        end = t_start + a.idle_seconds
        while time.monotonic() < end:
            if time.monotonic() >= next_sample:
                for k, p in pids.items():
                    value = rss_kb(p)
                    if value:
                        rss[k].append(value)
                next_sample += 1
            pump([self.observer], min(0.2, max(0, end - time.monotonic())))
        t_end = time.monotonic()
        after = {k: cpu_ticks(p) for k, p in pids.items()}
        wire_after = tcp_stats(bridge.pid, a.port)
        for k, p in pids.items():
            value = rss_kb(p)
            if value:
                rss[k].append(value)
        window = t_end - t_start
        cpu = {k: ((after[k] - before[k]) / CLK_TCK / window * 100) if after[k] is not None and before[k] is not None
               else float("nan") for k in pids}
        msgs = [(t, kind, payload) for t, kind, payload, _ in self.by_player[name][first_index:] if t <= t_end]
        per_topic = collections.Counter(kind for _, kind, _ in msgs)
        payload_bytes = collections.Counter()
        for _, kind, payload in msgs:
            payload_bytes[kind] += len(payload)
        # What changed between consecutive reported documents (including the one before the window).
        changed = collections.Counter()
        reports = [json.loads(p) for _, k, p, _ in self.by_player[name] if k == "reported"]
        in_window = per_topic["reported"]
        window_reports = reports[-(in_window + 1):] if in_window else []

        def diff(x, y, prefix=""):
            keys = set(x) | set(y) if isinstance(x, dict) and isinstance(y, dict) else None
            if keys is None:
                return [prefix or "."] if x != y else []
            out = []
            for key in sorted(keys):
                out += diff(x.get(key), y.get(key), f"{prefix}.{key}" if prefix else key)
            return out
        for x, y in zip(window_reports, window_reports[1:]):
            changed.update(diff(x, y))
        plays = per_topic["events"]
        self.procs.stop(bridge)
        self.procs.stop(ref)
        self.procs.stop(proc)

        key = f"idle.{case}"
        rss_mb = {k: (max(v) / 1024 if v else float("nan")) for k, v in rss.items()}
        rss_last = {k: (v[-1] / 1024 if v else float("nan")) for k, v in rss.items()}
        for k in pids:
            self.put(f"{key}.{k}.cpu_pct", f"{cpu[k]:.3f}")
            self.put(f"{key}.{k}.rss_mb", f"{rss_last.get(k, float('nan')):.1f}")
            self.put(f"{key}.{k}.rss_max_mb", f"{rss_mb.get(k, float('nan')):.1f}")
        self.out(f"3.{'a' if case == 'still' else 'b'} Idle bridge, {window:.0f} s window: {what}")
        ratio_daemon = rss_last["bridge"] / rss_last["daemon"]
        ratio_sub = rss_last["bridge"] / rss_last["sub"]
        self.out(f"   {'':<30}{'CPU %':>9}{'RSS MB':>9}{'max RSS':>9}")
        for k, label in [("bridge", "queued-mqtt (the bridge)"), ("daemon", "queued (its daemon)"),
                         ("sub", "mosquitto_sub, 1 subscription"), ("broker", "mosquitto (the broker)")]:
            self.out(f"   {label:<30}{cpu[k]:9.3f}{rss_last.get(k, float('nan')):9.1f}{rss_mb.get(k, float('nan')):9.1f}")
        cpu_vs_sub = f"{cpu['bridge'] / cpu['sub']:.1f}x" if cpu["sub"] > 0 else "n/a (mosquitto_sub used no tick)"
        self.out(f"   ratios: bridge RSS / daemon RSS {ratio_daemon:.2f}x, bridge RSS / mosquitto_sub RSS {ratio_sub:.1f}x; "
                 f"bridge CPU / mosquitto_sub CPU {cpu_vs_sub}")
        self.put(f"{key}.rss_ratio_daemon", f"{ratio_daemon:.3f}")
        self.put(f"{key}.rss_ratio_sub", f"{ratio_sub:.2f}")

        if wire_before and wire_after:
            sent = wire_after["bytes_sent"] - wire_before["bytes_sent"]
            received = wire_after["bytes_received"] - wire_before["bytes_received"]
            segs = (wire_after["segs_out"] - wire_before["segs_out"]) + (wire_after["segs_in"] - wire_before["segs_in"])
            header = 40 + (12 if wire_after["timestamps"] else 0)  # IPv4 20 + TCP 20 (+ timestamps 12)
            per_hour = (sent + received) * 3600 / window
            wire_per_hour = (sent + received + segs * header) * 3600 / window
            pings = 3600 / a.keepalive
            floor = 4 * pings                       # PINGREQ 2 B + PINGRESP 2 B per keepalive
            wire_floor = (4 + 3 * header) * pings   # + PINGREQ, PINGRESP and the ACK of PINGRESP segments
            self.put(f"{key}.mqtt_bytes_per_hour", f"{per_hour:.0f}")
            self.put(f"{key}.wire_bytes_per_hour", f"{wire_per_hour:.0f}")
            self.put(f"{key}.mqtt_floor_per_hour", f"{floor:.0f}")
            self.put(f"{key}.wire_floor_per_hour", f"{wire_floor:.0f}")
            self.put(f"{key}.bytes_up", sent)
            self.put(f"{key}.bytes_down", received)
            self.put(f"{key}.segments", segs)
            self.out(f"4.{'a' if case == 'still' else 'b'} Bytes on the bridge's broker connection (ss -ti: TCP payload = "
                     f"MQTT bytes; wire = + {header} B of IPv4/TCP headers per segment, loopback)")
            self.out(f"   in the window: {sent} B up, {received} B down, {segs} segments; messages from the bridge: "
                     + (", ".join(f"{k} {per_topic[k]} ({payload_bytes[k]} B payload)" for k in sorted(per_topic)) or "none"))
            self.out(f"   {'':<30}{'per hour':>14}{'floor':>12}{'ratio':>10}")
            self.out(f"   {'MQTT bytes':<30}{per_hour:14,.0f}{floor:12,.0f}{per_hour / floor:9.1f}x")
            self.out(f"   {'wire bytes (with headers)':<30}{wire_per_hour:14,.0f}{wire_floor:12,.0f}{wire_per_hour / wire_floor:9.1f}x")
            self.out(f"   floor: keepalive {a.keepalive} s = {pings:.0f} PINGREQ+PINGRESP an hour (4 B; 3 segments with the ACK)"
                     + (f"; NB the window holds only {window / a.keepalive:.1f} keepalives, so the per-hour figures are "
                        f"coarse" if window < 2 * a.keepalive else ""))
            if plays:
                self.out(f"   per play: {(sent + received) / plays:.0f} MQTT bytes ({plays} plays in the window)")
                self.put(f"{key}.bytes_per_play", f"{(sent + received) / plays:.0f}")
        republished = per_topic["reported"]
        self.put(f"{key}.reported_messages", republished)
        self.put(f"{key}.events_messages", plays)
        if republished:
            fields = ", ".join(f"{k} {v}" for k, v in changed.most_common(8))
            self.out(f"   reported republished {republished} times in {window:.0f} s "
                     f"({republished / window * 60:.1f}/min); fields that changed between them: {fields or 'none'}")
        else:
            self.out(f"   reported was not republished in the window")
        self.out()

    def run(self):
        a = self.a
        self.connect_observer()
        sections = a.sections.split()
        self.out(f"queued-mqtt fleet benchmark, {time.strftime('%Y-%m-%d %H:%M:%S %Z')}; binaries {a.bin_dir} "
                 f"({a.build}); mosquitto on 127.0.0.1:{a.port}; {os.cpu_count()} CPUs; load {os.getloadavg()[0]:.2f} at start")
        self.out("No mpv equivalent exists for a fleet bridge: ratios are against natural floors (the keepalive's bytes; "
                 "the daemon's and a mosquitto_sub's RSS).")
        self.out()
        if "latency" in sections:
            self.latency()
        if "spool" in sections:
            self.spool()
        for case in a.idle_cases.split():
            if "idle" in sections:
                self.idle(case)
        self.out(f"load {os.getloadavg()[0]:.2f} at the end")
        self.observer.close()
        text = "\n".join(self.lines) + "\n"
        with open(a.out, "w") as f:
            f.write(text)
        sys.stdout.write(text)


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--bin-dir", required=True)
    p.add_argument("--build", default="")
    p.add_argument("--work", required=True)
    p.add_argument("--media", required=True)
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--broker-pid", type=int, required=True)
    p.add_argument("--token", required=True)
    p.add_argument("--players", type=int, default=50)
    p.add_argument("--rounds", type=int, default=10)
    p.add_argument("--round-timeout", type=float, default=15)
    p.add_argument("--clip-seconds", type=float, default=2)
    p.add_argument("--tick-ms", type=int, default=50)
    p.add_argument("--spool-records", type=int, default=2000)
    p.add_argument("--live-seconds", type=float, default=10)
    p.add_argument("--idle-seconds", type=float, default=60)
    p.add_argument("--idle-cases", default="still clip")
    p.add_argument("--settle", type=float, default=5)
    p.add_argument("--keepalive", type=int, default=30)
    p.add_argument("--sections", default="latency spool idle")
    p.add_argument("--results", required=True)
    p.add_argument("--out", required=True)
    a = p.parse_args()
    if not 1 <= a.spool_records <= 9000:
        p.error("--spool-records: 1 to 9000 (the daemon keeps at most 10,000)")
    bench = Bench(a)

    def stop(signum, frame):
        raise SystemExit(128 + signum)
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        bench.run()
    except BenchError as error:
        log(f"failed: {error}")
        return 1
    finally:
        bench.procs.stop_all()
    return 0


if __name__ == "__main__":
    sys.exit(main())
