#!/usr/bin/env python3
"""Live streams, queued vs mpv side by side, one process at a time, every source on 127.0.0.1.

Per protocol (udp, srt, rtmp, hls, rtsp) the `ffmpeg` CLI publishes a realtime 640x360 25 fps H.264 picture
(a keyframe a second) with AAC sound (rtsp: GStreamer's RTSP server, Tests/streams/rtsp_server.py), and:
  ttff   spawn -> first picture, median of --runs (first_frame.py's definition: queued's log line
         "started item 1 play 1", mpv's "first video frame after restart shown"); null outputs.
  cpu    CPU seconds (utime+stime from /proc) over --cpu-seconds of playing, after the first picture.
  back   queued only, the item given a duration: a publisher killed, then started again once queued said
         "stream stalled": seconds from the restart to "stream resumed" (the first new packet; its picture
         follows at once). mpv has no such step: it ends a stream that drops (RTMP, SRT, HLS), or goes on
         reading the same UDP socket.
Prints key=value lines and a table with queued/mpv ratios.
"""
import argparse
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import time

QPAT = re.compile(r"started item 1 play 1\b")
MPAT = re.compile(r"first video frame after restart shown")
SRC = ["-re", "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25", "-f", "lavfi", "-i",
       "sine=frequency=440:sample_rate=48000", "-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency",
       "-g", "25", "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "96k"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Source:
    """One protocol's publisher (restarted per run where it serves one player: srt, rtmp)."""

    def __init__(self, kind, work, repo):
        self.kind, self.work, self.repo = kind, work, repo
        self.port = free_port()
        self.proc = None
        self.nginx = None
        if kind == "hls":
            os.makedirs(f"{work}/hls", mode=0o755, exist_ok=True)
            conf = f"{work}/nginx.conf"
            with open(conf, "w") as f:
                f.write(f"daemon off; pid {work}/nginx.pid; error_log {work}/nginx.err; events {{}}\n"
                        f"http {{ access_log off; server {{ listen 127.0.0.1:{self.port}; root {work}; }} }}\n")
            self.nginx = subprocess.Popen(["nginx", "-p", work, "-c", conf], stderr=subprocess.DEVNULL)

    @property
    def url(self):
        p = self.port
        return {"udp": f"udp://127.0.0.1:{p}", "srt": f"srt://127.0.0.1:{p}", "rtmp": f"rtmp://127.0.0.1:{p}/live/b",
                "hls": f"http://127.0.0.1:{p}/hls/live.m3u8", "rtsp": f"rtsp://127.0.0.1:{p}/live"}[self.kind]

    def start(self):
        self.stop()
        p, w = self.port, self.work
        if self.kind == "rtsp":
            cmd = ["/usr/bin/python3", f"{self.repo}/Tests/streams/rtsp_server.py", str(p)]
        else:
            out = {"udp": ["-f", "mpegts", f"udp://127.0.0.1:{p}?pkt_size=1316"],
                   "srt": ["-f", "mpegts", f"srt://127.0.0.1:{p}?mode=listener&pkt_size=1316"],
                   "rtmp": ["-listen", "1", "-f", "flv", f"rtmp://127.0.0.1:{p}/live/b"],
                   "hls": ["-f", "hls", "-hls_time", "1", "-hls_list_size", "5", "-hls_flags", "delete_segments",
                           f"{w}/hls/live.m3u8"]}[self.kind]
            cmd = ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error"] + SRC + out
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=open(f"{w}/{self.kind}.pub.log", "a"))
        # Ready: the TCP servers listen; HLS has a few segments; UDP/SRT need nothing (callers retry/wait).
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.kind == "rtsp":
                try:
                    socket.create_connection(("127.0.0.1", p), timeout=0.2).close()
                    break
                except OSError:
                    pass
            elif self.kind == "hls":
                try:
                    if open(f"{w}/hls/live.m3u8").read().count("#EXTINF") >= 3:
                        break
                except OSError:
                    pass
            else:
                time.sleep(0.5)  # the encoder's start (rtmp's listener must not be probed: it serves one)
                break
            time.sleep(0.1)

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.proc = None

    def close(self):
        self.stop()
        if self.nginx:
            self.nginx.kill()
            self.nginx.wait()


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def play(cmd, pattern, timeout, log_path, hold=0.0):
    """Spawns cmd; returns (seconds to the first line matching pattern or None, CPU seconds over `hold`
    seconds after it). Stops it with SIGTERM, then SIGKILL."""
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    found, cpu = None, None
    os.set_blocking(proc.stdout.fileno(), False)
    buffer = b""
    with open(log_path, "w") as log:
        def pump():
            nonlocal buffer, found
            try:
                chunk = os.read(proc.stdout.fileno(), 65536)
            except BlockingIOError:
                return
            buffer += chunk or b""
            *lines, buffer = buffer.split(b"\n")
            for raw in lines:
                line = raw.decode("utf-8", "replace")
                log.write(f"{time.monotonic() - start:8.3f} {line}\n")
                if found is None and pattern.search(line):
                    found = time.monotonic() - start
        while found is None and time.monotonic() - start < timeout and proc.poll() is None:
            pump()
            time.sleep(0.01)
        if found is not None and hold > 0:
            before = cpu_seconds(proc.pid)
            end = time.monotonic() + hold
            while time.monotonic() < end and proc.poll() is None:
                pump()
                time.sleep(0.05)
            if proc.poll() is None:
                cpu = cpu_seconds(proc.pid) - before
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(3)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return found, cpu


def back_after_drop(queued, source, work, timeout):
    """queued playing the stream; the publisher killed; restarted once queued logs the stall: seconds from
    the restart to queued's "stream resumed"."""
    log_path = f"{work}/{source.kind}.back.log"
    # The item has a duration, as a channel on a signage loop has: without one, a live HLS playlist that
    # stops updating ends its item when FFmpeg's reader says it ended, and there is no drop to come back from.
    playlist = f"{work}/{source.kind}.back.m3u"
    with open(playlist, "w") as f:
        f.write(f"#EXTM3U\n#EXTQUEUED:duration={timeout}\n{source.url}\n")
    proc = subprocess.Popen(queued + [playlist], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, text=True)
    restarted = None
    result = None
    deadline = time.monotonic() + timeout
    with open(log_path, "w") as log:
        os.set_blocking(proc.stdout.fileno(), False)
        pending = ""
        while time.monotonic() < deadline and proc.poll() is None and result is None:
            try:
                pending += proc.stdout.read() or ""
            except (BlockingIOError, TypeError):
                pass
            *lines, pending = pending.split("\n")
            for line in lines:
                log.write(line + "\n")
                if "started item 1 play 1" in line and restarted is None and source.proc:
                    source.stop()  # the drop
                elif "stream stalled" in line and restarted is None:
                    source.start()
                    restarted = time.monotonic()
                elif "stream resumed" in line and restarted is not None:
                    result = time.monotonic() - restarted
            time.sleep(0.01)
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(3)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    return result


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--queued", required=True)
    p.add_argument("--repo", required=True)
    p.add_argument("--work", required=True)
    p.add_argument("--kinds", default="udp,srt,rtmp,hls,rtsp")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--cpu-seconds", type=float, default=20)
    p.add_argument("--timeout", type=float, default=30)
    a = p.parse_args()
    os.chmod(a.work, 0o755)  # nginx's workers read the HLS folder as their own user
    runs = iter(range(1_000_000))

    class Queued(list):
        """queued's command line with a state directory of its own per spawn (a shared one would resume
        the last run's queue)."""
        def __add__(self, other):
            return [a.queued, "--audio", "null", "--video", "null", "--no-socket", "--state-dir",
                    f"{a.work}/state{next(runs)}"] + list(other)

    queued = Queued()
    mpv = ["mpv", "--no-config", "--vo=null", "--ao=null", "--msg-level=all=warn,cplayer=v"]
    results = {}
    for kind in a.kinds.split(","):
        source = Source(kind, a.work, a.repo)
        try:
            for name, base, pattern in (("queued", queued, QPAT), ("mpv", mpv, MPAT)):
                times = []
                for run in range(a.runs):
                    source.start()
                    found, _ = play(base + [source.url], pattern, a.timeout, f"{a.work}/{kind}.{name}.ttff{run}.log")
                    if found is not None:
                        times.append(found)
                results[f"{kind}.{name}.ttff"] = statistics.median(times) if times else None
                source.start()
                _, cpu = play(base + [source.url], pattern, a.timeout, f"{a.work}/{kind}.{name}.cpu.log", a.cpu_seconds)
                results[f"{kind}.{name}.cpu"] = cpu
            if kind in ("udp", "srt", "rtmp", "hls", "rtsp"):
                source.start()
                results[f"{kind}.queued.back"] = back_after_drop(queued, source, a.work, 90)
        finally:
            source.close()
        for key in sorted(k for k in results if k.startswith(kind + ".")):
            print(f"{key}={results[key]}", flush=True)

    def fmt(v, unit=" s"):
        return "-" if v is None else f"{v:.2f}{unit}"

    def ratio(q, m):
        return "-" if q is None or m in (None, 0) else f"{q / m:.2f}x"

    print()
    print(f"{'stream':6} {'first picture queued':>21} {'mpv':>8} {'ratio':>7}   {'CPU/' + str(int(a.cpu_seconds)) + ' s queued':>16} "
          f"{'mpv':>8} {'ratio':>7}   {'back after a drop':>17}")
    for kind in a.kinds.split(","):
        qt, mt = results.get(f"{kind}.queued.ttff"), results.get(f"{kind}.mpv.ttff")
        qc, mc = results.get(f"{kind}.queued.cpu"), results.get(f"{kind}.mpv.cpu")
        print(f"{kind:6} {fmt(qt):>21} {fmt(mt):>8} {ratio(qt, mt):>7}   {fmt(qc):>16} {fmt(mc):>8} {ratio(qc, mc):>7}   "
              f"{fmt(results.get(f'{kind}.queued.back')):>17}")


if __name__ == "__main__":
    sys.exit(main())
