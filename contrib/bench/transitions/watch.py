#!/usr/bin/env python3
"""Samples a running queued: its CPU ticks every 50 ms and its picture drops, split into the windows around
each item start (the fade: +-HALF seconds around the join, moved by OFFSET: a crossfade's overlap follows
the incoming item's start) and the rest (steady playback), for SECONDS.
Usage: watch.py SOCKET PID SECONDS HALF [OFFSET] -> prints key=value lines (cpu percent of one core, drops)."""
import json, os, socket, sys, time

path, pid, seconds, half = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
offset = float(sys.argv[5]) if len(sys.argv) > 5 else 0.0
hz = os.sysconf("SC_CLK_TCK")


def ticks():
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


sock = socket.socket(socket.AF_UNIX)
sock.connect(path)
sock.settimeout(0.05)
stream = sock.makefile("rwb")


def call(method, params=None, ident=[0]):
    ident[0] += 1
    sock.sendall((json.dumps({"jsonrpc": "2.0", "id": ident[0], "method": method, "params": params or {}}) + "\n").encode())


call("events.subscribe", {"events": ["itemStarted"]})
buffer = b""
starts, samples, drops = [], [], []
end = time.time() + seconds
last_health = 0
while time.time() < end:
    samples.append((time.time(), ticks()))
    if time.time() - last_health > 0.25:
        call("daemon.health")
        last_health = time.time()
    try:
        buffer += sock.recv(65536)
    except socket.timeout:
        pass
    while b"\n" in buffer:
        line, buffer = buffer.split(b"\n", 1)
        message = json.loads(line)
        if message.get("method") == "event.itemStarted":
            starts.append(message["params"]["at"] if "at" in message["params"] else time.time())
        elif isinstance(message.get("result"), dict) and "framesDropped" in message["result"]:
            drops.append((time.time(), message["result"]["framesDropped"]))
    time.sleep(0.05)

joins = starts[1:]  # the first start is not a join


def in_fade(t):
    return any(abs(t - j - offset) <= half for j in joins)


fade_ticks = steady_ticks = fade_time = steady_time = 0.0
for (t0, k0), (t1, k1) in zip(samples, samples[1:]):
    if in_fade((t0 + t1) / 2):
        fade_ticks += k1 - k0
        fade_time += t1 - t0
    else:
        steady_ticks += k1 - k0
        steady_time += t1 - t0
fade_drops = steady_drops = 0
for (t0, d0), (t1, d1) in zip(drops, drops[1:]):
    if in_fade((t0 + t1) / 2) or in_fade(t0) or in_fade(t1):
        fade_drops += d1 - d0
    else:
        steady_drops += d1 - d0
print(f"joins={len(joins)}")
print(f"fade_cpu_pct={100 * fade_ticks / hz / fade_time if fade_time else 0:.1f}")
print(f"steady_cpu_pct={100 * steady_ticks / hz / steady_time if steady_time else 0:.1f}")
print(f"fade_drops={fade_drops}")
print(f"steady_drops={steady_drops}")
