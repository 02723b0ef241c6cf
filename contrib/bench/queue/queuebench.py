#!/usr/bin/env python3
"""Queue memory and method latency at 10k / 100k / 1M items, queued vs mpv, in one run (see run.sh).

Items come in shapes (--shapes): `shared`, what a signage playlist holds — a ~60-byte path in one of three
folders and a title ("/srv/signage/media/campaigns/2026-spring/clip-0001234-hd.mp4", "Spring campaign clip
1234"); `folders`, a folder per item ("/srv/signage/day-0001234/clip.mp4"); `music`, a library's naming, a
few files per album folder ("/music/Artist 0123/Album 04/07 Track 7.flac"); `urls`, a unique path per item
("https://127.0.0.1:9/3f2a…/v.mp4": loopback, nothing listens, and nothing is fetched ahead: --prefetch 0). The paths
are never opened: neither player is asked to play. queued gets them by queue.add in requests of 5,000 (under the 1 MiB line limit)
items; mpv by `loadlist` of an M3U with #EXTINF titles (its fastest way in). RSS is read once the count is
reached and after 1 s of rest. At each size, queued's methods are timed at the middle of the queue, 50
times each (round trip on one connection, ms): queue.list (a page of 100), queue.get, queue.insert of one
item, queue.move, queue.remove; mpv's nearest equivalents beside them (playlist/N/filename,
loadfile … append then playlist-move, playlist-move, playlist-remove).
Restore (with --media): a saved state of the largest size whose first item is a real clip (a picture and
a sound), playing, is killed with -9; the restart is timed to the socket answering, to its first picture
(the daemon's own `present=trace` line: CLOCK_MONOTONIC, the clock this script reads) and to the clip's
position moving (polled every 10 ms: its first samples heard), and its peak RSS (VmHWM) is read.
Flood (with --media and --flood-seconds): at the largest size, the clip playing forever at the top, 4
clients edit at 250 a second each for that long — inserts of one item at a random place, moves of an
item they inserted, removals of one, title updates — each answer timed; the status's droppedFrames and
the pictures presented are read before and after.
"""
import argparse
import json
import os
import random
import re
import threading
import statistics
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ipc"))
from daemons import Daemon, mpv_argv, queued_argv  # noqa: E402
from ipcclient import Client, MpvProto, QueuedProto  # noqa: E402

FOLDERS = ["/srv/signage/media/campaigns/2026-spring/", "/srv/signage/media/campaigns/2026-summer/",
           "/srv/signage/media/evergreen/store-front/"]


SHAPES = ("shared", "folders", "music", "urls")
SHAPE = "shared"


def path(i, shape=None):
    shape = shape or SHAPE
    if shape == "folders":
        return f"/srv/signage/day-{i:07d}/clip.mp4"
    if shape == "music":
        # 10 tracks an album, 8 albums an artist.
        return f"/music/Artist {i // 80:05d}/Album {i // 10 % 8:02d}/{i % 10 + 1:02d} Track {i % 10 + 1}.flac"
    if shape == "urls":
        return f"https://127.0.0.1:9/{(i * 2654435761) % (1 << 64):016x}{i:07d}/v.mp4"
    return f"{FOLDERS[i % len(FOLDERS)]}clip-{i:07d}-hd.mp4"


def title(i):
    return f"Spring campaign clip {i}"


def log(msg):
    print(f"[queuebench {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def timed(client, method, params=None, reps=50, before=None):
    samples = []
    for r in range(reps):
        args = before(r) if before else params
        # mpv's commands are whole lists; queued's are a method and its params.
        _, dt = client.timed(args, None) if isinstance(args, list) else client.timed(method, args)
        samples.append(dt * 1e3)
    samples.sort()
    return {"p50_ms": statistics.median(samples), "p99_ms": samples[min(len(samples) - 1, int(len(samples) * 0.99))],
            "max_ms": samples[-1]}


def fill_queued(client, n):
    for start in range(0, n, 5_000):
        items = [{"uri": path(i), "title": title(i)} for i in range(start, min(n, start + 5_000))]
        client.call("queue.add", {"items": items})
    return client.call("queue.list", {"offset": 0, "limit": 1})["total"]


def fill_mpv(client, n, work):
    playlist = os.path.join(work, f"list-{n}.m3u")
    with open(playlist, "w") as f:
        f.write("#EXTM3U\n")
        for i in range(n):
            f.write(f"#EXTINF:-1,{title(i)}\n{path(i)}\n")
    client.call(["loadlist", playlist, "append"])
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        count = client.prop("playlist-count") or 0
        if count >= n:
            return count
        time.sleep(0.2)
    return client.prop("playlist-count")


def queued_ops(client, n):
    middle = n // 2
    ids = [row["id"] for row in client.call("queue.list", {"offset": middle, "limit": 60})["items"]]
    ops = {}
    ops["queue.list (100 at the middle)"] = timed(client, "queue.list", {"offset": middle, "limit": 100})
    ops["queue.get"] = timed(client, "queue.get", {"ids": [ids[0]]})
    inserted = []

    def insert(r):
        inserted.append(r)
        return {"index": middle, "items": [{"uri": path(n + r), "title": title(n + r)}]}
    ops["queue.insert (1 at the middle)"] = timed(client, "queue.insert", before=insert)
    ops["queue.move (middle to a quarter)"] = timed(
        client, "queue.move", before=lambda r: {"id": ids[r % len(ids)], "index": n // 4})
    # The items just inserted go again (a queue of 10 has too few of its own).
    fresh = [row["id"] for row in client.call("queue.list", {"offset": middle, "limit": len(inserted)})["items"]]
    ops["queue.remove (1 near the middle)"] = timed(client, "queue.remove", before=lambda r: {"ids": [fresh[r]]})
    return ops


def mpv_ops(client, n):
    middle = n // 2
    ops = {}
    ops["queue.list (100 at the middle)"] = timed(
        client, "get_property", before=lambda r: ["get_property", f"playlist/{middle}/filename"], reps=50)
    ops["queue.get"] = ops["queue.list (100 at the middle)"]
    ops["queue.move (middle to a quarter)"] = timed(
        client, "playlist-move", before=lambda r: ["playlist-move", (middle + r) % n, n // 4], reps=50)

    def remove(r):
        client.call(["loadfile", path(n + r), "append"])  # untimed: one to remove, so a short list lasts
        return ["playlist-remove", middle]
    ops["queue.remove (1 near the middle)"] = timed(client, "playlist-remove", before=remove, reps=50)
    return ops


def vm_hwm_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return None


def restore(queued, work, n, media):
    import signal
    state = os.path.join(work, f"state-{SHAPE}-{n}")
    sock = os.path.join(work, f"restore-{SHAPE}-{n}.sock")
    argv = queued_argv(queued, sock, state=(state, "batch")) + [
        "--loops", "0", "--prefetch", "0", "--log-level", "info,present=trace"]
    d = Daemon("queued", argv, sock, os.path.join(work, f"restore-{SHAPE}-{n}-a.log"), os.path.join(work, "pids"))
    d.start()
    client = Client(QueuedProto, sock, timeout=600)
    client.call("queue.add", {"items": [media]})
    for start in range(1, n, 5_000):
        items = [{"uri": path(i), "title": title(i)} for i in range(start, min(n, start + 5_000))]
        client.call("queue.add", {"items": items})
    client.call("player.play")
    time.sleep(2.0)
    client.close()
    os.kill(d.pid, signal.SIGKILL)
    d.proc.wait()
    d = Daemon("queued", argv, sock, os.path.join(work, f"restore-{SHAPE}-{n}-b.log"), os.path.join(work, "pids"))
    t0 = time.monotonic()
    d.start(wait_s=120)
    up = time.monotonic() - t0
    client = Client(QueuedProto, sock, timeout=120)
    # An edit as soon as the socket answers: acknowledged only once kept, while the first snapshot is written.
    _, edit_s = client.timed("queue.insert", {"index": 1, "items": [{"uri": path(n + 1), "title": title(n + 1)}]})
    # The play resumes where it was: poll until the clip's position moves on from there (its samples heard).
    first = None
    resumed_at = None
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        status = client.call("player.status")
        position = status.get("position") or 0
        if status.get("state") == "playing":
            if resumed_at is None:
                resumed_at = position
            elif position > resumed_at:
                first = time.monotonic() - t0
                break
        time.sleep(0.01)
    log_b = os.path.join(work, f"restore-{SHAPE}-{n}-b.log")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not present_times(log_b):
        time.sleep(0.05)
    status = client.call("queue.list", {"offset": 0, "limit": 1})
    hwm = vm_hwm_kb(d.pid)
    rss = d.rss_kb()
    client.close()
    d.stop()
    presents = present_times(log_b)
    picture = presents[0] - t0 if presents else None
    return {"items": status["total"], "socket_s": up, "first_edit_ms": edit_s * 1e3, "first_picture_s": picture, "first_item_s": first,
            "peak_kb": hwm, "rss_kb": rss}


PRESENT = re.compile(r"queued\.present: at=([0-9.]+)")


def present_times(log_path):
    """The daemon's present times (CLOCK_MONOTONIC, as time.monotonic()) from its present=trace lines."""
    with open(log_path, errors="replace") as f:
        return [float(m.group(1)) for m in map(PRESENT.search, f) if m]


def flood(queued, work, n, media, seconds, clients=4, rate=250):
    sock = os.path.join(work, f"flood-{SHAPE}-{n}.sock")
    log_path = os.path.join(work, f"flood-{SHAPE}-{n}.log")
    argv = queued_argv(queued, sock) + ["--prefetch", "0", "--log-level", "info,present=trace"]
    d = Daemon("queued", argv, sock, log_path, os.path.join(work, "pids"))
    d.start()
    client = Client(QueuedProto, sock, timeout=600)
    client.call("queue.add", {"items": [{"uri": os.path.abspath(media), "loops": 0}]})
    fill_queued(client, n)
    client.call("player.play")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and client.call("player.status").get("state") != "playing":
        time.sleep(0.05)
    time.sleep(2.0)  # past the start: the flood meets a play under way
    before = client.call("player.status")["droppedFrames"]
    presented_before = len(present_times(log_path))
    samples = [[] for _ in range(clients)]
    errors = [0] * clients

    def edits(k):
        rng = random.Random(k)
        mine = []
        c = Client(QueuedProto, sock, timeout=60)
        start = time.monotonic()
        total = int(seconds * rate)
        for i in range(total):
            wait = start + i / rate - time.monotonic()
            if wait > 0:
                time.sleep(wait)  # pacing the load, not synchronising on the daemon
            kind = rng.random()
            if kind < 0.4 or len(mine) < 10:
                method, params = "queue.insert", {"index": rng.randrange(1, n), "items": [{"uri": path(n + k * 10**7 + i), "title": title(i)}]}
            elif kind < 0.6:
                method, params = "queue.move", {"id": rng.choice(mine), "index": rng.randrange(1, n)}
            elif kind < 0.9:
                method, params = "queue.remove", {"ids": [mine.pop(rng.randrange(len(mine)))]}
            else:
                method, params = "queue.update", {"id": rng.choice(mine), "title": f"edited {i}"}
            try:
                result, dt = c.timed(method, params)
            except Exception:
                errors[k] += 1
                continue
            samples[k].append(dt * 1e3)
            if method == "queue.insert":
                mine.extend(result["ids"])
        c.close()

    threads = [threading.Thread(target=edits, args=(k,)) for k in range(clients)]
    t0 = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    took = time.monotonic() - t0
    status = client.call("player.status")
    presented = len(present_times(log_path)) - presented_before
    rss = d.rss_kb()
    client.close()
    d.stop()
    every = sorted(x for s in samples for x in s)
    return {"edits": len(every), "errors": sum(errors), "seconds": took, "rate": len(every) / took,
            "p50_ms": statistics.median(every), "p99_ms": every[int(len(every) * 0.99)], "max_ms": every[-1],
            "dropped_frames": status["droppedFrames"] - before, "presented": presented,
            "state": status.get("state"), "rss_kb": rss}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--queued", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--json")
    parser.add_argument("--media", help="a real clip for the restore measurement (skipped without)")
    parser.add_argument("--shapes", default="shared", help="comma-separated: " + ", ".join(SHAPES))
    parser.add_argument("--flood-seconds", type=float, default=0, help="the edit flood's length (0: none)")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    shapes = args.shapes.split(",")
    for shape in shapes:
        if shape not in SHAPES:
            parser.error(f"unknown shape {shape}")
    everything = {}
    for shape in shapes:
        global SHAPE
        SHAPE = shape
        log(f"shape {shape}: {path(1)}")
        everything[shape] = run_shape(args, sizes)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(everything, f, indent=1)


def run_shape(args, sizes):
    results = {"queued": {}, "mpv": {}}
    for n in sizes:
        for kind in ("queued", "mpv"):
            sock = os.path.join(args.work, f"{kind}-{n}.sock")
            argv = queued_argv(args.queued, sock) + ["--prefetch", "0"] if kind == "queued" else mpv_argv(sock)
            d = Daemon(kind, argv, sock, os.path.join(args.work, f"{kind}-{n}.log"), os.path.join(args.work, "pids"))
            d.start()
            proto = QueuedProto if kind == "queued" else MpvProto
            client = Client(proto, sock, timeout=600)
            empty = d.rss_kb()
            t0 = time.perf_counter()
            count = fill_queued(client, n) if kind == "queued" else fill_mpv(client, n, args.work)
            fill_s = time.perf_counter() - t0
            time.sleep(1.0)
            rss = d.rss_kb()
            log(f"{kind} {n}: {count} items in {fill_s:.1f} s, RSS {empty} -> {rss} KiB")
            ops = queued_ops(client, n) if kind == "queued" else mpv_ops(client, n)
            results[kind][str(n)] = {"count": count, "fill_s": fill_s, "rss_empty_kb": empty, "rss_kb": rss, "ops": ops}
            client.close()
            d.stop()
    if args.media:
        results["restore"] = restore(args.queued, args.work, sizes[-1], args.media)
        log(f"restore: {results['restore']}")
    if args.media and args.flood_seconds > 0:
        results["flood"] = flood(args.queued, args.work, sizes[-1], args.media, args.flood_seconds)
        log(f"flood: {results['flood']}")
    print(f"\nshape {SHAPE} ({path(1)})")
    print(f"{'items':>9}{'queued MB':>11}{'mpv MB':>9}{'ratio':>7}   (RSS with the queue; empty: "
          f"queued {results['queued'][str(sizes[0])]['rss_empty_kb'] / 1024:.1f} MB, "
          f"mpv {results['mpv'][str(sizes[0])]['rss_empty_kb'] / 1024:.1f} MB)")
    for n in sizes:
        q, m = results["queued"][str(n)], results["mpv"][str(n)]
        per_item = (q['rss_kb'] - q['rss_empty_kb']) * 1024 / n
        print(f"{n:>9}{q['rss_kb'] / 1024:>11.1f}{m['rss_kb'] / 1024:>9.1f}{q['rss_kb'] / m['rss_kb']:>7.2f}"
              f"   ({per_item:.0f} bytes an item)")
    for n in sizes:
        print(f"\nmethods at {n} items: p50 / p99 / max ms, queued | mpv's nearest")
        q, m = results["queued"][str(n)]["ops"], results["mpv"][str(n)]["ops"]
        for name, figures in q.items():
            other = m.get(name)
            theirs = f"{other['p50_ms']:.3f} / {other['max_ms']:.3f}" if other else "-"
            print(f"  {name:<36}{figures['p50_ms']:>8.3f} / {figures['p99_ms']:.3f} / {figures['max_ms']:<8.3f} | {theirs}")
    if "restore" in results:
        r = results["restore"]
        print(f"\nrestart after kill -9 with {r['items']} saved items: socket answering {r['socket_s']:.2f} s, "
              f"first picture {r['first_picture_s'] or float('nan'):.2f} s, "
              f"first sound {r['first_item_s'] or float('nan'):.2f} s, peak RSS {r['peak_kb'] / 1024:.1f} MB, "
              f"then {r['rss_kb'] / 1024:.1f} MB; an insert sent as the socket answered took {r['first_edit_ms']:.0f} ms")
    if "flood" in results:
        f = results["flood"]
        print(f"\nedit flood at {sizes[-1]} items, 4 clients, {f['rate']:.0f} edits/s for {f['seconds']:.0f} s: "
              f"p50 {f['p50_ms']:.3f} / p99 {f['p99_ms']:.3f} / max {f['max_ms']:.1f} ms, {f['errors']} errors; "
              f"playback {f['state']}, {f['presented']} pictures presented, {f['dropped_frames']} dropped; "
              f"RSS {f['rss_kb'] / 1024:.1f} MB")
    return results


if __name__ == "__main__":
    main()
