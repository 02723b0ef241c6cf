#!/usr/bin/env python3
"""queued-web's figures (see run.sh): load to usable page at two queue sizes, event to page, the preview's
cost on the screen, queued-web idle. Loopback only; every wait bounded."""
import json, os, socket, statistics, subprocess, sys, threading, time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

BIN, CLIP, WORK = sys.argv[1], sys.argv[2], sys.argv[3]
SOCKET = os.path.join(WORK, "queued.sock")
SECONDS = float(os.environ.get("WEB_BENCH_SECONDS", "30"))
SIZES = [int(n) for n in os.environ.get("WEB_BENCH_SIZES", "1000 100000").split()]
TICKS = os.sysconf("SC_CLK_TCK")


def rpc(method, params=None, timeout=60):
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


def wait(predicate, timeout, what):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if predicate():
                return True
        except Exception:
            pass
        time.sleep(0.01)
    raise SystemExit(f"webbench: timed out waiting for {what}")


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def window(pids, seconds):
    """CPU % of each pid over `seconds` of wall time."""
    before = [cpu_seconds(p) for p in pids]
    start = time.monotonic()
    time.sleep(seconds)  # the measured window itself, not a synchronisation
    elapsed = time.monotonic() - start
    return [100 * (cpu_seconds(p) - b) / elapsed for p, b in zip(pids, before)]


def main():
    log = open(os.path.join(WORK, "queued.log"), "w")
    daemon = subprocess.Popen(
        [os.path.join(BIN, "queued"), "--no-config", "--no-state", "--socket", SOCKET, "--audio", "null",
         "--video", "sdl", "--video-driver", "offscreen", "--geometry", "1280x720", "--loops", "0",
         "--log-level", "warning"], stdout=log, stderr=log)
    web = subprocess.Popen(
        [os.path.join(BIN, "queued-web"), "--no-config", "--listen", "127.0.0.1:0", "--socket", SOCKET,
         "--token-file", os.path.join(WORK, "web-token"), "--media-dir", os.path.join(WORK, "media"),
         "--log-level", "warning"], stderr=subprocess.PIPE, text=True)
    port = []
    ready = threading.Event()

    def read():
        for line in web.stderr:
            if "listening on" in line and not port:
                port.append(int(line.rsplit(":", 1)[1]))
                ready.set()
    threading.Thread(target=read, daemon=True).start()
    driver = None
    rows = []
    try:
        wait(lambda: rpc("daemon.info", timeout=2), 30, "the daemon")
        if not ready.wait(30):
            raise SystemExit("webbench: queued-web did not start")
        base = f"http://127.0.0.1:{port[0]}"
        token = open(os.path.join(WORK, "web-token")).read().strip()

        # 4. queued-web idle, nothing open.
        rpc("queue.add", {"items": [CLIP]})
        rpc("player.play")
        time.sleep(2)  # settle after start (not a synchronisation)
        idle_cpu = window([web.pid], SECONDS)[0]
        rows.append(("queued-web idle: RSS", f"{rss_mb(web.pid):.1f} MB"))
        rows.append(("queued-web idle: CPU", f"{idle_cpu:.2f} %"))

        # 3. The preview's cost: a window with no page, then one with the page showing the preview.
        dropped = lambda: rpc("player.status")["droppedFrames"]
        d0 = dropped()
        closed = window([daemon.pid], SECONDS)[0]
        d1 = dropped()
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,900",
                         "--disable-dev-shm-usage"]:
            options.add_argument(argument)
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        driver.get(base + "/")
        wait(lambda: driver.find_element("id", "secret").is_displayed(), 20, "the sign-in form")
        driver.find_element("id", "secret").send_keys(token)
        driver.find_element("css selector", "#signin-form button").click()
        wait(lambda: driver.execute_script("return document.getElementById('preview').src.startsWith('blob:')"), 20,
             "the preview")
        d2 = dropped()
        opened, web_cpu = window([daemon.pid, web.pid], SECONDS)
        d3 = dropped()
        rows.append(("daemon CPU, preview closed", f"{closed:.1f} %"))
        rows.append(("daemon CPU, preview open", f"{opened:.1f} %  (ratio {opened / closed:.2f})" if closed else f"{opened:.1f} %"))
        rows.append(("dropped frames, preview closed", f"{d1 - d0} in {SECONDS:.0f} s"))
        rows.append(("dropped frames, preview open", f"{d3 - d2} in {SECONDS:.0f} s"))
        rows.append(("queued-web CPU, preview open", f"{web_cpu:.1f} %"))
        rows.append(("queued-web RSS, page open", f"{rss_mb(web.pid):.1f} MB"))

        # 2. Event to page.
        driver.execute_script("""
          window.__changes = [];
          new MutationObserver(() => window.__changes.push(Date.now()))
            .observe(document.getElementById('queue-count'), { childList: true, characterData: true, subtree: true });""")
        latencies = []
        for index in range(20):
            seen = driver.execute_script("return window.__changes.length")
            started = time.time()
            rpc("queue.add", {"items": [{"uri": CLIP, "title": f"event {index}"}]})
            wait(lambda: driver.execute_script("return window.__changes.length") > seen, 10, "the page's change")
            changed = driver.execute_script("return window.__changes[window.__changes.length - 1]") / 1000
            latencies.append(max(0.0, changed - started))
        rows.append(("event to page (queue.add → count shown), p50",
                     f"{1000 * statistics.median(latencies):.0f} ms"))
        rows.append(("event to page, max of 20", f"{1000 * max(latencies):.0f} ms"))

        # 1. Load to usable page at each queue size.
        for size in SIZES:
            have = rpc("queue.list", {"limit": 1})["total"]
            batch = 5000
            while have < size:
                count = min(batch, size - have)
                rpc("queue.add", {"items": [{"uri": CLIP, "title": f"item {have + i}"} for i in range(count)]})
                have += count
            times = []
            for _ in range(3):
                driver.get("about:blank")
                started = time.monotonic()
                driver.get(base + "/")
                wait(lambda: driver.execute_script(
                    "return document.querySelectorAll('#queue li.item').length >= 100"
                    " && document.getElementById('link-state').textContent === 'live'"), 60, "the page")
                times.append(time.monotonic() - started)
            rows.append((f"load to usable page, {have:,} items (median of 3)", f"{statistics.median(times):.3f} s"))
            rows.append((f"daemon RSS with {have:,} items", f"{rss_mb(daemon.pid):.0f} MB"))
    finally:
        if driver:
            driver.quit()
        web.terminate()
        daemon.terminate()
        web.wait(timeout=10)
        daemon.wait(timeout=10)
    width = max(len(name) for name, _ in rows)
    print("queued-web benchmark")
    for name, value in rows:
        print(f"  {name.ljust(width)}  {value}")


if __name__ == "__main__":
    main()
