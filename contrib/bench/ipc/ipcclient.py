"""Minimal newline-delimited JSON clients for queued (JSON-RPC 2.0) and mpv (its JSON IPC), stdlib only,
plus the measurement loops the control-socket benchmark uses (sequential round trips, pipelined
throughput, many concurrent clients, a background monitor).

Both protocols are driven through one small adapter interface so every loop runs the same code for
both players:
    proto.query(i)        bytes of the small query number i (queued player.status, mpv get_property pause)
    proto.is_reply(line)  the line answers a request (not an event/notification)
    proto.ok(line, i)     the line is a successful answer to request number i
Timing brackets only the write of the request and the read of its reply line; parsing and checking
happen outside the timed span.
"""
import json
import socket
import threading
import time

SOCKET_TIMEOUT = 30.0   # any single blocking socket operation; a hang becomes an error, not a stuck run


class LineSocket:
    """A connected Unix stream socket that reads whole lines (however long)."""

    def __init__(self, path, timeout=SOCKET_TIMEOUT, connect_for=10.0):
        # A full listen backlog makes a Unix-socket connect fail at once with EAGAIN (Python sockets with a
        # timeout are non-blocking underneath) instead of waiting: retry for up to `connect_for` s and
        # count the retries (mpv's backlog is small; 100 clients connecting at once overflow it).
        self.connect_retries = 0
        deadline = time.monotonic() + connect_for
        while True:
            self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            self.sock.settimeout(timeout)
            try:
                self.sock.connect(path)
                break
            except (BlockingIOError, ConnectionRefusedError, InterruptedError):
                self.sock.close()
                if time.monotonic() > deadline:
                    raise
                self.connect_retries += 1
                time.sleep(0.002)
        self.buf = bytearray()
        self.scan = 0

    def send(self, data):
        self.sock.sendall(data)

    def readline(self):
        while True:
            i = self.buf.find(b"\n", self.scan)
            if i >= 0:
                line = bytes(self.buf[:i])
                del self.buf[:i + 1]
                self.scan = 0
                return line
            self.scan = len(self.buf)
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise ConnectionError("peer closed the connection")
            self.buf += chunk

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


class RPCError(Exception):
    pass


class QueuedProto:
    name = "queued"

    @staticmethod
    def query(i):
        return b'{"jsonrpc":"2.0","id":%d,"method":"player.status"}\n' % i

    @staticmethod
    def is_reply(line):
        return b'"id"' in line

    @staticmethod
    def ok(line, i):
        try:
            obj = json.loads(line)
        except ValueError:
            return False
        return obj.get("id") == i and "result" in obj and "error" not in obj

    @staticmethod
    def encode(method, params, i):
        req = {"jsonrpc": "2.0", "id": i, "method": method}
        if params is not None:
            req["params"] = params
        return (json.dumps(req, separators=(",", ":")) + "\n").encode()


class MpvProto:
    name = "mpv"

    @staticmethod
    def query(i):
        return b'{"command":["get_property","pause"],"request_id":%d}\n' % i

    @staticmethod
    def is_reply(line):
        return b'"request_id"' in line

    @staticmethod
    def ok(line, i):
        try:
            obj = json.loads(line)
        except ValueError:
            return False
        return obj.get("request_id") == i and obj.get("error") == "success"

    @staticmethod
    def encode(command, _params, i):
        return (json.dumps({"command": command, "request_id": i}, separators=(",", ":")) + "\n").encode()


class Client:
    """One connection with blocking calls. For mpv, events are switched off on connect."""

    def __init__(self, proto, path, timeout=SOCKET_TIMEOUT):
        self.proto = proto
        self.conn = LineSocket(path, timeout)
        self.next_id = 1_000_000_000   # well away from the ids the loops use
        if proto is MpvProto:
            self.call(["disable_event", "all"])

    def raw(self, method_or_command, params=None):
        """Sends one request; returns (reply object, seconds from write to reply line)."""
        self.next_id += 1
        rid = self.next_id
        data = self.proto.encode(method_or_command, params, rid)
        t0 = time.perf_counter()
        self.conn.send(data)
        while True:
            line = self.conn.readline()
            if self.proto.is_reply(line):
                break
        t1 = time.perf_counter()
        obj = json.loads(line)
        got = obj.get("id") if self.proto is QueuedProto else obj.get("request_id")
        if got != rid:
            raise RPCError(f"reply id {got!r} for request {rid}")
        return obj, t1 - t0

    def call(self, method_or_command, params=None):
        obj, _ = self.raw(method_or_command, params)
        if self.proto is QueuedProto:
            if "error" in obj:
                raise RPCError(f"{method_or_command}: {obj['error']}")
            return obj["result"]
        if obj.get("error") != "success":
            raise RPCError(f"{method_or_command}: {obj.get('error')}")
        return obj.get("data")

    def timed(self, method_or_command, params=None):
        """(result, seconds) of one call; raises on an error reply."""
        obj, dt = self.raw(method_or_command, params)
        if self.proto is QueuedProto:
            if "error" in obj:
                raise RPCError(f"{method_or_command}: {obj['error']}")
            return obj["result"], dt
        if obj.get("error") != "success":
            raise RPCError(f"{method_or_command}: {obj.get('error')}")
        return obj.get("data"), dt

    def prop(self, name):
        """mpv: a property's value, or None while it is unavailable (no file loaded yet)."""
        obj, _ = self.raw(["get_property", name])
        return obj.get("data") if obj.get("error") == "success" else None

    def close(self):
        self.conn.close()


def percentile(sorted_values, p):
    """Nearest-rank percentile of an ascending list."""
    if not sorted_values:
        return float("nan")
    k = max(0, min(len(sorted_values) - 1, int(round(p / 100.0 * len(sorted_values) + 0.5)) - 1))
    return sorted_values[k]


def summarize_us(samples_ns):
    s = sorted(samples_ns)
    return {
        "n": len(s),
        "p50_us": percentile(s, 50) / 1e3,
        "p99_us": percentile(s, 99) / 1e3,
        "max_us": s[-1] / 1e3 if s else float("nan"),
        "mean_us": (sum(s) / len(s) / 1e3) if s else float("nan"),
    }


def round_trips(proto, path, n=20_000, warmup=1_000):
    """n sequential small queries on one connection (after `warmup` untimed ones): latency figures."""
    c = Client(proto, path)
    conn = c.conn
    lat = []
    bad = 0
    perf = time.perf_counter_ns
    try:
        for i in range(warmup + n):
            data = proto.query(i)
            t0 = perf()
            conn.send(data)
            line = conn.readline()
            while not proto.is_reply(line):
                line = conn.readline()
            t1 = perf()
            if i >= warmup:
                lat.append(t1 - t0)
                if not proto.ok(line, i):
                    bad += 1
    finally:
        c.close()
    out = summarize_us(lat)
    out["errors"] = bad
    out["raw_ns"] = lat
    return out


def pipelined(proto, path, n=100_000, keep_replies=True):
    """Writes n requests as fast as possible from one thread while another reads the replies; returns
    replies per second from the first write to the last reply, and the checked reply count."""
    c = Client(proto, path)
    sock = c.conn.sock
    leftover = bytes(c.conn.buf)   # nothing expected, but keep the framing honest
    blob = b"".join(proto.query(i) for i in range(n))
    chunks = [leftover] if leftover else []
    state = {"lines": leftover.count(b"\n"), "t_end": None, "error": None}

    def reader():
        try:
            count = state["lines"]
            while count < n:
                chunk = sock.recv(1 << 20)
                if not chunk:
                    raise ConnectionError("peer closed the connection")
                count += chunk.count(b"\n")
                if keep_replies:
                    chunks.append(chunk)
            state["t_end"] = time.perf_counter()
            state["lines"] = count
        except Exception as e:  # noqa: BLE001 - reported as a figure
            state["error"] = repr(e)

    def writer():
        try:
            sock.sendall(blob)
            state["t_written"] = time.perf_counter()
        except Exception as e:  # noqa: BLE001
            state["error"] = repr(e)

    rt = threading.Thread(target=reader, daemon=True)
    wt = threading.Thread(target=writer, daemon=True)
    rt.start()
    t0 = time.perf_counter()
    wt.start()
    wt.join(120)
    rt.join(120)
    c.close()
    if state["t_end"] is None:
        return {"error": state["error"] or "timed out", "replies": state["lines"]}
    elapsed = state["t_end"] - t0
    bad = 0
    if keep_replies:
        lines = b"".join(chunks).split(b"\n")
        replies = [l for l in lines if l and proto.is_reply(l)]
        for i, line in enumerate(replies):
            if not proto.ok(line, i):
                bad += 1
        bad += abs(len(replies) - n)
    return {"n": n, "seconds": elapsed, "per_s": n / elapsed,
            "write_s": state.get("t_written", float("nan")) - t0, "errors": bad}


def many_clients(proto, path, clients=100, per_client=1_000):
    """`clients` threads, each with its own connection, each doing `per_client` sequential small
    queries, all released together. Total wall time, errors, and the per-request latency spread."""
    barrier = threading.Barrier(clients + 1)
    results = [None] * clients

    def worker(k):
        lat = []
        errors = 0
        note = None
        c = None
        retries = 0
        try:
            c = Client(proto, path)
            retries = c.conn.connect_retries
        except Exception as e:  # noqa: BLE001
            note = f"connect: {e!r}"
        try:
            barrier.wait(60)
        except threading.BrokenBarrierError:
            note = note or "barrier broken"
        if c is None:
            results[k] = (lat, per_client, note, retries)
            return
        conn = c.conn
        perf = time.perf_counter_ns
        try:
            for i in range(per_client):
                data = proto.query(i)
                t0 = perf()
                conn.send(data)
                line = conn.readline()
                while not proto.is_reply(line):
                    line = conn.readline()
                lat.append(perf() - t0)
                if not proto.ok(line, i):
                    errors += 1
        except Exception as e:  # noqa: BLE001
            errors += per_client - len(lat)
            note = repr(e)
        finally:
            c.close()
        results[k] = (lat, errors, note, retries)

    threads = [threading.Thread(target=worker, args=(k,), daemon=True) for k in range(clients)]
    for t in threads:
        t.start()
    barrier.wait(60)
    t0 = time.perf_counter()
    for t in threads:
        t.join(300)
    elapsed = time.perf_counter() - t0
    all_lat = []
    errors = 0
    retries = 0
    notes = []
    for r in results:
        if r is None:
            errors += per_client
            notes.append("worker did not finish")
            continue
        lat, e, note, rt = r
        all_lat.extend(lat)
        errors += e
        retries += rt
        if note:
            notes.append(note)
    out = summarize_us(all_lat)
    out.update({"clients": clients, "per_client": per_client, "seconds": elapsed,
                "per_s": clients * per_client / elapsed, "errors": errors, "connect_retries": retries,
                "notes": notes[:5]})
    return out, t0, t0 + elapsed


class Monitor:
    """Samples the player every `interval` s on its own connection: wall time, position, duration,
    and for mpv its frame-drop counters. Used to tell whether playback kept real time."""

    def __init__(self, proto, path, interval=0.2):
        self.proto = proto
        self.client = Client(proto, path)
        self.interval = interval
        self.samples = []
        self.stop_flag = threading.Event()
        self.error = None
        self.thread = threading.Thread(target=self.run, daemon=True)

    def sample(self):
        c = self.client
        now = time.perf_counter()
        if self.proto is QueuedProto:
            st = c.call("player.status")
            return (now, st.get("position"), st.get("duration"), None, None, st.get("state"))
        pos = c.prop("time-pos")
        dur = c.prop("duration")
        vo = c.prop("frame-drop-count")
        dec = c.prop("decoder-frame-drop-count")
        return (now, pos, dur, vo, dec, None)

    def run(self):
        try:
            while not self.stop_flag.is_set():
                self.samples.append(self.sample())
                self.stop_flag.wait(self.interval)
        except Exception as e:  # noqa: BLE001
            self.error = repr(e)

    def start(self):
        self.thread.start()

    def stop(self):
        self.stop_flag.set()
        self.thread.join(10)
        self.client.close()

    def window(self, t_a, t_b):
        """Figures over samples taken in [t_a, t_b]: media seconds played vs wall seconds (position
        wraps at loop seams are unfolded), largest step without progress, drop counter deltas."""
        s = [x for x in self.samples if t_a - self.interval <= x[0] <= t_b + self.interval]
        if len(s) < 2:
            return {"error": "too few samples"}
        media = 0.0
        longest_stall = 0.0
        stall_since = None
        prev = None
        for x in s:
            t, pos, dur = x[0], x[1], x[2]
            if pos is None:
                continue
            if prev is not None:
                pt, ppos, pdur = prev
                if pos >= ppos - 0.5:
                    d = max(0.0, pos - ppos)
                else:                      # wrapped: a new play of the looping item
                    d = max(0.0, (pdur or ppos) - ppos) + pos
                media += d
                if d < 0.25 * (t - pt):
                    stall_since = stall_since if stall_since is not None else pt
                    longest_stall = max(longest_stall, t - stall_since)
                else:
                    stall_since = None
            prev = (t, pos, dur)
        wall = s[-1][0] - s[0][0]
        out = {"wall_s": wall, "media_s": media, "realtime_pct": 100.0 * media / wall if wall > 0 else float("nan"),
               "longest_stall_s": longest_stall}
        if s[0][3] is not None and s[-1][3] is not None:
            vo0, vo1 = s[0][3], s[-1][3]
            dec0, dec1 = s[0][4], s[-1][4]
            out["vo_drops"] = vo1 - vo0 if vo1 >= vo0 else vo1
            out["dec_drops"] = (dec1 - dec0 if dec1 >= dec0 else dec1) if dec0 is not None and dec1 is not None else None
            out["counter_reset"] = vo1 < vo0 or (dec0 is not None and dec1 is not None and dec1 < dec0)
        return out
