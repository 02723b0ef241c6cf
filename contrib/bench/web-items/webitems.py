#!/usr/bin/env python3
"""Web items' figures (see run.sh): one 1080p animated page shown by queued (queued-webview, WPE WebKit, drawn
by SDL's offscreen renderer) and rendered by headless Chromium streaming it over the DevTools screencast, in
one run: CPU (user+sys of each player's whole process tree) and the largest summed RSS over the same window,
frames delivered; how long before its turn a page is loaded and painted; a static page's idle cost; and a soak
of web plays (kept and reloaded) with the daemon's and the renderer's RSS at its start and end.
Loopback and local files only; every wait bounded."""
import json, os, socket, subprocess, sys, threading, time, urllib.request

BIN, WORK = sys.argv[1], sys.argv[2]
SECONDS = float(os.environ.get("WEB_ITEMS_SECONDS", "20"))
SOAK_PLAYS = int(os.environ.get("WEB_ITEMS_SOAK", "1000"))
SOCKET = os.path.join(WORK, "queued.sock")
TICKS = os.sysconf("SC_CLK_TCK")
PAGE_SIZE = 4096

ANIMATED = """<html><head><title>Animated</title><style>
html,body{margin:0;height:100%;overflow:hidden;background:linear-gradient(135deg,#123,#345);font-family:sans-serif}
.box{position:absolute;width:240px;height:240px;border-radius:24px;animation:move 3s ease-in-out infinite alternate}
@keyframes move{from{transform:translate(0,0) rotate(0)}to{transform:translate(1500px,700px) rotate(360deg)}}
#clock{position:absolute;right:40px;bottom:40px;color:#fff;font-size:96px}
</style></head><body>
<div class=box style="background:#e63;top:60px;left:60px"></div>
<div class=box style="background:#3e6;top:300px;left:200px;animation-duration:4s"></div>
<div class=box style="background:#36e;top:500px;left:400px;animation-duration:5s"></div>
<div id=clock></div>
<script>setInterval(function(){document.getElementById('clock').textContent=new Date().toISOString().slice(11,23)},33)</script>
</body></html>"""
STATIC = """<html><head><title>Static</title><style>html,body{margin:0;height:100%;background:#224;color:#fff;
font:64px sans-serif}</style></head><body><h1>Today's menu</h1><p>Soup · Bread · Tea</p></body></html>"""


def rpc(method, params=None, timeout=30):
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(timeout)
        s.connect(SOCKET)
        request = {"jsonrpc": "2.0", "id": 1, "method": method}
        if params is not None:
            request["params"] = params
        s.sendall((json.dumps(request) + "\n").encode())
        data = b""
        while not data.endswith(b"\n"):
            chunk = s.recv(1 << 20)
            if not chunk:
                break
            data += chunk
    reply = json.loads(data)
    if "error" in reply:
        raise RuntimeError(f"{method}: {reply['error']}")
    return reply["result"]


def tree(root):
    """The pid and every descendant of it."""
    children = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        ppid = int(stat[stat.rindex(")") + 2:].split()[1])
        children.setdefault(ppid, []).append(int(name))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += children.get(pid, [])
    return found


def cpu_seconds(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS
    except OSError:
        return 0.0


def rss_mib(pid):
    try:
        with open(f"/proc/{pid}/statm") as f:
            return int(f.read().split()[1]) * PAGE_SIZE / 2**20
    except OSError:
        return 0.0


def measure(root, seconds):
    """CPU seconds of root's tree over `seconds` (processes alive at the end; those that started meanwhile count
    from their start) and the largest summed RSS sampled every 0.5 s."""
    before = {pid: cpu_seconds(pid) for pid in tree(root)}
    peak, end = 0.0, time.monotonic() + seconds
    while time.monotonic() < end:
        peak = max(peak, sum(rss_mib(pid) for pid in tree(root)))
        time.sleep(0.5)
    after = {pid: cpu_seconds(pid) for pid in tree(root)}
    cpu = sum(after[pid] - before.get(pid, 0.0) for pid in after)
    return cpu, peak


def wait(what, predicate, timeout):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise RuntimeError(f"timed out waiting for {what}")


def start_queued(extra=()):
    log = open(os.path.join(WORK, "queued.log"), "a")
    daemon = subprocess.Popen(
        [os.path.join(BIN, "queued"), "--no-config", "--no-state", "--socket", SOCKET, "--audio", "null",
         "--video", "sdl", "--video-driver", "offscreen", "--geometry", "1920x1080", *extra],
        stdout=log, stderr=log)
    wait("queued's socket", lambda: os.path.exists(SOCKET), 20)
    return daemon


def stop(process):
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def queued_page(page, results, key):
    daemon = start_queued()
    try:
        rpc("queue.add", {"items": [{"uri": page, "duration": 3600}]})
        rpc("player.play")
        wait("the page on screen", lambda: (rpc("player.status").get("web") or {}).get("loaded"), 30)
        time.sleep(2)  # let the page's first seconds pass (JIT, caches) before measuring
        dropped = rpc("player.status")["droppedFrames"]
        cpu, rss = measure(daemon.pid, SECONDS)
        results[f"{key}_cpu_percent"] = round(100 * cpu / SECONDS, 1)
        results[f"{key}_rss_mib"] = round(rss)
        results[f"{key}_dropped"] = rpc("player.status")["droppedFrames"] - dropped
    finally:
        stop(daemon)
        os.path.exists(SOCKET) and os.unlink(SOCKET)


def queued_first_paint(page, still, results):
    """A 3 s still, then the page: how long before its turn the page was ready (its itemLoading `ready`)."""
    daemon = start_queued()
    events = []
    try:
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.connect(SOCKET)
        listener.sendall(b'{"jsonrpc":"2.0","id":1,"method":"events.subscribe","params":{"events":["itemLoading","itemStarted"]}}\n')
        reader = listener.makefile()

        def read():
            for line in reader:
                events.append((time.time(), json.loads(line)))
        threading.Thread(target=read, daemon=True).start()
        ids = rpc("queue.add", {"items": [{"uri": still, "duration": 3}, {"uri": page, "duration": 5}]})["ids"]
        rpc("player.play")

        def started():
            return next((e for _, e in events if e.get("method") == "event.itemStarted"
                         and e["params"]["id"] == ids[1]), None)
        start = wait("the page's turn", started, 30)
        ready = next(at for at, e in events if e.get("method") == "event.itemLoading"
                     and e["params"]["id"] == ids[1] and e["params"].get("status") == "ready")
        results["first_paint_before_turn_s"] = round(start["params"]["at"] - ready, 2)
        listener.close()
    finally:
        stop(daemon)
        os.path.exists(SOCKET) and os.unlink(SOCKET)


def chromium_page(page, results):
    import websocket
    port = free_port()
    profile = os.path.join(WORK, "chromium-profile")
    browser = subprocess.Popen(
        ["chromium", "--headless=new", f"--remote-debugging-port={port}", "--remote-debugging-address=127.0.0.1",
         "--window-size=1920,1080", f"--user-data-dir={profile}", "--no-first-run", "--mute-audio",
         "--disable-gpu", "--no-sandbox", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        def target():
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=2) as response:
                    pages = [t for t in json.load(response) if t["type"] == "page"]
                return pages[0]["webSocketDebuggerUrl"] if pages else None
            except (OSError, ValueError):
                return None
        url = wait("chromium's DevTools", target, 30)
        ws = websocket.create_connection(url, timeout=10, suppress_origin=True)
        counter = {"id": 0, "frames": 0}

        def send(method, params=None):
            counter["id"] += 1
            ws.send(json.dumps({"id": counter["id"], "method": method, "params": params or {}}))
        send("Page.enable")
        send("Page.navigate", {"url": "file://" + page})
        time.sleep(2)
        send("Page.startScreencast", {"format": "jpeg", "quality": 80, "maxWidth": 1920, "maxHeight": 1080, "everyNthFrame": 1})
        stop_reading = threading.Event()

        def read():
            while not stop_reading.is_set():
                try:
                    message = json.loads(ws.recv())
                except Exception:
                    return
                if message.get("method") == "Page.screencastFrame":
                    counter["frames"] += 1
                    send("Page.screencastFrameAck", {"sessionId": message["params"]["sessionId"]})
        threading.Thread(target=read, daemon=True).start()
        time.sleep(2)
        frames = counter["frames"]
        cpu, rss = measure(browser.pid, SECONDS)
        results["chromium_cpu_percent"] = round(100 * cpu / SECONDS, 1)
        results["chromium_rss_mib"] = round(rss)
        results["chromium_fps"] = round((counter["frames"] - frames) / SECONDS, 1)
        stop_reading.set()
        ws.close()
    finally:
        stop(browser)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    animated = os.path.join(WORK, "animated.html")
    static = os.path.join(WORK, "static.html")
    with open(animated, "w") as f:
        f.write(ANIMATED)
    with open(static, "w") as f:
        f.write(STATIC)
    still = os.path.join(WORK, "still.png")
    subprocess.run(["ffmpeg", "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "color=c=gray:s=1920x1080",
                    "-frames:v", "1", still], check=True)
    results = {"seconds": SECONDS}
    queued_page(animated, results, "queued_animated")
    queued_page(static, results, "queued_static")
    chromium_page(animated, results)
    queued_first_paint(animated, still, results)
    if SOAK_PLAYS > 0:
        soak_plays(animated, results)
    print(json.dumps(results))


def soak_plays(page, results):
    """SOAK_PLAYS plays of 0.4 s web items, alternately a kept page and one loaded for its play; RSS of the
    daemon and of the renderer's tree at 100 plays and at the end."""
    daemon = start_queued()
    try:
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.connect(SOCKET)
        listener.sendall(b'{"jsonrpc":"2.0","id":1,"method":"events.subscribe","params":{"events":["itemEnded"]}}\n')
        ended = {"count": 0, "errors": 0}
        reader = listener.makefile()

        def read():
            for line in reader:
                message = json.loads(line)
                if message.get("method") == "event.itemEnded":
                    ended["count"] += 1
                    ended["errors"] += message["params"].get("reason") == "error"
        threading.Thread(target=read, daemon=True).start()
        rpc("queue.add", {"items": [
            {"uri": page, "type": "web", "reload": "keep", "duration": 0.5, "loops": 1},
            {"uri": page, "type": "web", "duration": 0.5, "loops": 1}]})
        rpc("queue.setLoops", {"loops": 0})
        rpc("player.play")
        started = time.monotonic()
        web = lambda: sum(rss_mib(p) for p in tree(daemon.pid) if p != daemon.pid)
        at100 = None
        while ended["count"] < SOAK_PLAYS and time.monotonic() - started < 3600:
            if at100 is None and ended["count"] >= 100:
                at100 = (rss_mib(daemon.pid), web())
            time.sleep(0.5)
        results["soak_plays"] = ended["count"]
        results["soak_errors"] = ended["errors"]
        results["soak_seconds"] = round(time.monotonic() - started)
        if at100:
            results["soak_daemon_rss_mib_at_100"] = round(at100[0])
            results["soak_web_rss_mib_at_100"] = round(at100[1])
        results["soak_daemon_rss_mib_end"] = round(rss_mib(daemon.pid))
        results["soak_web_rss_mib_end"] = round(web())
        listener.close()
    finally:
        stop(daemon)
        os.path.exists(SOCKET) and os.unlink(SOCKET)


if __name__ == "__main__":
    main()
