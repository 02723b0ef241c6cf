#!/usr/bin/env python3
"""A live stream played for a long time (issue 38: "30 minutes of live HLS: latency within its band, no
growing buffer, RSS flat"), every source on 127.0.0.1.

The `ffmpeg` CLI publishes the stream (streambench.py's Source: 640x360 25 fps H.264 + AAC; HLS into a folder
nginx serves), at its own pace or `--readrate` times it (a sender whose clock runs fast or slow). queued plays
it on the null outputs (timed: the sound card's clock is the monotonic clock) for `--minutes`; every
`--every` seconds `player.status` is read over the socket (stream.latency, pace, bitrate, stalls) and the
daemon's RSS from /proc. Prints a line per sample and key=value results:
  latency   min / median / max after the first `--settle` seconds, and the band the daemon keeps
            (learned target ± 25 % for HLS, given or 1 s ± 25 % for the others)
  drift     how far the latency moved from the first settled quarter to the last (s), and the pace's share
  rss       MB after `--settle`, at the end, and the slope over the rest (MB/h)
  stalls    drops counted by the daemon
Run:  python3 contrib/bench/streams/soak.py --queued .build-bench/release/queued --kind hls --minutes 30
"""
import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from streambench import SRC, Source  # noqa: E402


class Client:
    """Newline-delimited JSON-RPC 2.0 on the daemon's socket (one request at a time)."""

    def __init__(self, path, timeout=30):
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX)
                self.sock.connect(path)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        self.sock.settimeout(10)
        self.buffer = b""
        self.next_id = 0

    def call(self, method, params=None):
        self.next_id += 1
        request = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            request["params"] = params
        self.sock.sendall(json.dumps(request).encode() + b"\n")
        while True:
            while b"\n" not in self.buffer:
                chunk = self.sock.recv(65536)
                if not chunk:
                    raise ConnectionError("the daemon closed the socket")
                self.buffer += chunk
            line, self.buffer = self.buffer.split(b"\n", 1)
            message = json.loads(line)
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message["result"]


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def slope_per_hour(samples):
    """Least-squares slope of (seconds, value) pairs, per hour."""
    if len(samples) < 2:
        return 0.0
    xs, ys = [s for s, _ in samples], [v for _, v in samples]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    den = sum((x - mx) ** 2 for x in xs)
    return 0.0 if den == 0 else sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / den * 3600


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--queued", required=True)
    p.add_argument("--repo", default=os.path.abspath(os.path.join(os.path.dirname(__file__), "../../..")))
    p.add_argument("--kind", default="hls", choices=["hls", "udp", "srt", "rtmp", "rtsp"])
    p.add_argument("--minutes", type=float, default=30)
    p.add_argument("--every", type=float, default=10)
    p.add_argument("--settle", type=float, default=60)
    p.add_argument("--readrate", type=float, default=1.0, help="the sender's pace against the clock")
    p.add_argument("--latency", type=float, default=None, help="the item's latency (seconds)")
    a = p.parse_args()

    work = tempfile.mkdtemp(prefix="queued-soak.")
    os.chmod(work, 0o755)  # nginx's workers read the HLS folder as their own user
    if a.readrate != 1.0:
        SRC[SRC.index("-re")] = "-readrate"
        SRC.insert(SRC.index("-readrate") + 1, str(a.readrate))
    source = Source(a.kind, work, a.repo)
    source.start()
    sock = f"{work}/queued.sock"
    daemon = subprocess.Popen(
        [a.queued, "--socket", sock, "--no-state", "--audio", "null", "--video", "null", "--log-level", "info"],
        stdout=subprocess.DEVNULL, stderr=open(f"{work}/queued.log", "w"))
    try:
        client = Client(sock)
        item = {"uri": source.url}
        if a.latency:
            item["latency"] = a.latency
        client.call("queue.add", {"items": [item]})
        client.call("player.play")
        start = time.monotonic()
        samples = []
        print(f"kind={a.kind} readrate={a.readrate} minutes={a.minutes} work={work}", flush=True)
        while time.monotonic() - start < a.minutes * 60:
            time.sleep(a.every)  # the sampling interval itself: what is measured is the daemon's state then
            t = time.monotonic() - start
            status = client.call("player.status")
            stream = status.get("stream") or {}
            sample = (t, stream.get("latency"), stream.get("pace"), stream.get("bitrate"), stream.get("stalls"),
                      rss_mb(daemon.pid), status.get("state"))
            samples.append(sample)
            print(f"t={t:7.1f} latency={sample[1]} pace={sample[2]} bitrate={sample[3]} stalls={sample[4]} "
                  f"rss={sample[5]:.1f} state={sample[6]}", flush=True)
        settled = [s for s in samples if s[0] >= a.settle and s[1] is not None]
        latencies = [s[1] for s in settled]
        if latencies:
            quarter = max(1, len(latencies) // 4)
            print(f"latency.min={min(latencies):.3f} latency.median={statistics.median(latencies):.3f} "
                  f"latency.max={max(latencies):.3f}")
            print(f"latency.first_quarter={statistics.median(latencies[:quarter]):.3f} "
                  f"latency.last_quarter={statistics.median(latencies[-quarter:]):.3f}")
            paces = [s[2] for s in settled if s[2] is not None]
            if paces:
                print(f"pace.faster_share={sum(1 for x in paces if x > 1) / len(paces):.2f} "
                      f"pace.slower_share={sum(1 for x in paces if x < 1) / len(paces):.2f}")
        rss = [(s[0], s[5]) for s in samples if s[0] >= a.settle]
        if rss:
            print(f"rss.settled={rss[0][1]:.1f} rss.end={rss[-1][1]:.1f} rss.slope_mb_per_h={slope_per_hour(rss):.2f}")
        print(f"stalls={samples[-1][4] if samples else None}")
        with open(f"{work}/queued.log") as f:
            paced = [line.strip() for line in f if "playing" in line and "behind" in line]
        print(f"pace_changes={len(paced)}")
        for line in paced[:10]:
            print("  " + line)
    finally:
        daemon.terminate()
        try:
            daemon.wait(10)
        except subprocess.TimeoutExpired:
            daemon.kill()
        source.close()


if __name__ == "__main__":
    main()
