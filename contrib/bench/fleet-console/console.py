#!/usr/bin/env python3
"""The fleet console benchmark's measurements (run.sh starts it): a private Mosquitto on 127.0.0.1, thousands
of simulated players (retained status and reported, as bridges publish them, through the raw MQTT client of
contrib/bench/fleet/fleetbench.py), queued-fleet, and Debian's headless Chromium with Selenium.

Figures (JSON on stdout): how long the console takes from its start to holding every screen; the first view —
GET /api/screens for the whole fleet (time, bytes) and the page in Chromium from navigation to the wall drawn
with its counts; a live update with nothing changed; the console's RSS and the browser's; proof-of-play
ingest (records/s from the first publish until the store holds them all, de-duplicated by (player, seq)).
argv: queued-fleet binary, work directory, broker port. Env: FLEET_SCREENS (5000), FLEET_RECORDS (100000).
"""
import http.client, json, os, subprocess, sys, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fleet"))
from fleetbench import MQTTClient  # noqa: E402

BINARY, WORK, PORT = sys.argv[1], sys.argv[2], int(sys.argv[3])
SCREENS = int(os.environ.get("FLEET_SCREENS", "5000"))
RECORDS = int(os.environ.get("FLEET_RECORDS", "100000"))
figures = {"screens": SCREENS, "records": RECORDS}


def log(text):
    print(f"[fleet-console {time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


def tree_rss_mib(pid):
    """RSS of a process and its descendants, MiB."""
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/status") as f:
                total += next(int(l.split()[1]) for l in f if l.startswith("VmRSS:"))
            with open(f"/proc/{p}/task/{p}/children") as f:
                todo += [int(c) for c in f.read().split()]
        except (OSError, StopIteration):
            pass
    return total // 1024


def browser_memory_mib():
    """Every Chromium process (the browser, its renderers and helpers, chromedriver): summed RSS (shared pages
    counted in each) and summed PSS (shared pages divided among their users), MiB."""
    total, proportional = 0, 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/comm") as f:
                if not f.read().startswith("chrom"):
                    continue
            with open(f"/proc/{entry}/status") as f:
                total += next(int(l.split()[1]) for l in f if l.startswith("VmRSS:"))
            with open(f"/proc/{entry}/smaps_rollup") as f:
                proportional += next(int(l.split()[1]) for l in f if l.startswith("Pss:"))
        except (OSError, StopIteration):
            pass
    return total // 1024, proportional // 1024


def wait(what, predicate, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.02)
    raise SystemExit(f"timed out: {what}")


def publish_fleet(client):
    log(f"publishing {SCREENS} players' retained status and reported")
    now = time.time()
    for i in range(SCREENS):
        pid = f"bench-{i:05d}"
        client.publish(f"queued/{pid}/status", json.dumps({"state": "online", "version": "bench", "since": now,
                                                            "groups": [f"g{i % 50}"]}), qos=0, retain=True)
        client.publish(f"queued/{pid}/reported", json.dumps({
            "appliedRev": 3, "pendingRev": None, "error": None, "state": "playing", "queueVersion": 7,
            "current": {"id": 1, "uri": f"http://127.0.0.1:9/media/{i % 97}.mp4", "title": f"clip {i % 97}", "position": 3.2},
            "health": {"rss": 60_000_000, "fds": 30, "threads": 20, "uptime": 86400.0, "framesShown": 100000,
                       "framesDropped": 0},
            "host": {"diskFreePercent": 51.0, "temperature": 48.5}}), qos=0, retain=True)
        if i % 500 == 0:
            client.poll(0)
    # A QoS 1 marker: its PUBACK says the broker has everything before it.
    _, _, marker = client.publish("queued/bench-marker/x", "1", qos=1)
    client.wait_ack(marker, 30)


class Console:
    def __init__(self):
        self.process = None
        self.port = None

    def start(self):
        log_path = os.path.join(WORK, "console.log")
        self.process = subprocess.Popen(
            [BINARY, "--no-config", "--state-dir", os.path.join(WORK, "fleet"), "--broker", f"mqtt://127.0.0.1:{PORT}",
             "--listen", "127.0.0.1:0", "--thumbnails", "0", "--client-id", "bench-console"],
            stdout=subprocess.DEVNULL, stderr=open(log_path, "w"))
        def port():
            for line in open(log_path):
                if line.startswith("queued-fleet: listening on 127.0.0.1:"):
                    return int(line.rsplit(":", 1)[1])
            return None
        self.port = wait("the console listens", port, 30)

    def request(self, method, path, body=None, cookie=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        headers = {"Origin": f"http://127.0.0.1:{self.port}"}
        if body is not None:
            headers["Content-Type"] = "application/json"
        if cookie:
            headers["Cookie"] = cookie
        connection.request(method, path, json.dumps(body) if body is not None else None, headers)
        response = connection.getresponse()
        data = response.read()
        cookie_out = response.getheader("Set-Cookie")
        connection.close()
        return response.status, data, cookie_out


def main():
    subprocess.run([BINARY, "--no-config", "--state-dir", os.path.join(WORK, "fleet"), "--add-user", "bench",
                    "--role", "admin"], input=b"bench-password\n", check=True, stdout=subprocess.DEVNULL)
    publisher = MQTTClient(PORT, "bench-publisher", "", "")
    publish_fleet(publisher)
    console = Console()
    started = time.monotonic()
    console.start()
    status, body, cookie = console.request("POST", "/api/login", {"user": "bench", "password": "bench-password"})
    assert status == 200, body
    cookie = cookie.split(";")[0]
    def all_in():
        status, data, _ = console.request("GET", "/api/screens?limit=1", cookie=cookie)
        return status == 200 and json.loads(data)["total"] >= SCREENS
    wait("the console holds every screen", all_in, 120)
    figures["console_ready_s"] = round(time.monotonic() - started, 2)

    # The first view's request, whole (what the page asks for first), then a live update with nothing new.
    times, size = [], 0
    for _ in range(5):
        t = time.monotonic()
        status, data, _ = console.request("GET", "/api/screens", cookie=cookie)
        times.append(time.monotonic() - t)
        size = len(data)
    change = json.loads(data)["changeNumber"]
    figures["screens_request_ms_median"] = round(sorted(times)[2] * 1000, 1)
    figures["screens_request_bytes"] = size
    times = []
    for _ in range(20):
        t = time.monotonic()
        console.request("GET", f"/api/screens?since={change}", cookie=cookie)
        times.append(time.monotonic() - t)
    figures["live_update_ms_median"] = round(sorted(times)[10] * 1000, 1)
    figures["console_rss_mib"] = tree_rss_mib(console.process.pid)

    # The page in Chromium: from navigation to the wall drawn with its counts.
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,900", "--disable-dev-shm-usage"]:
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        driver.get(f"http://127.0.0.1:{console.port}/")
        wait("the sign-in form", lambda: driver.find_element(By.ID, "signin-user").is_displayed(), 30)
        driver.find_element(By.ID, "signin-user").send_keys("bench")
        driver.find_element(By.ID, "signin-password").send_keys("bench-password")
        # Signed in once; the timed view is a fresh load with the session (an operator opening the page).
        driver.find_element(By.ID, "signin-button").click()
        wait("signed in", lambda: driver.find_element(By.ID, "who").text.startswith("bench"), 30)
        runs = []
        for _ in range(3):
            t = time.monotonic()
            driver.get(f"http://127.0.0.1:{console.port}/")
            wait("the wall drawn", lambda: f"of {SCREENS} screens" in driver.find_element(By.ID, "counts").text
                 and len(driver.find_elements(By.CSS_SELECTOR, "#wall .screen")) >= min(SCREENS, 500), 60)
            runs.append(time.monotonic() - t)
        figures["first_view_s_median"] = round(sorted(runs)[1], 2)
        # The browser's cost while the page follows the fleet (live updates every 2 s) for 10 s.
        time.sleep(10)  # a measuring window, not a synchronisation
        figures["browser_rss_mib"], figures["browser_pss_mib"] = browser_memory_mib()
        figures["browser_js_heap_mib"] = round(driver.execute_script("return performance.memory ? performance.memory.usedJSHeapSize : 0") / 1048576, 1)
    finally:
        driver.quit()

    # Proof-of-play ingest: RECORDS records at QoS 1 from 100 players, plus 10% sent twice.
    log(f"publishing {RECORDS} proof-of-play records")
    players = 100
    t = time.monotonic()
    last = None
    for n in range(RECORDS):
        pid = f"bench-{n % players:05d}"
        seq = n // players + 1
        record = json.dumps({"seq": seq, "player": pid, "uri": f"http://127.0.0.1:9/media/{n % 97}.mp4",
                             "start": "2026-11-28T10:00:00.000Z", "end": "2026-11-28T10:00:10.000Z", "seconds": 10.0,
                             "reason": "eof"})
        _, _, last = publisher.publish(f"queued/{pid}/events", record, qos=1)
        if n % 10 == 0:
            publisher.publish(f"queued/{pid}/events", record, qos=1)
        if n % 200 == 0:
            publisher.poll(0)
    publisher.wait_ack(last, 60)
    def stored():
        status, data, _ = console.request("GET", "/api/plays?to=2026-11-28", cookie=cookie)
        return json.loads(data)["stored"] >= RECORDS
    wait("every record stored", stored, 300)
    elapsed = time.monotonic() - t
    status, data, _ = console.request("GET", "/api/plays", cookie=cookie)
    figures["records_stored"] = json.loads(data)["stored"]
    figures["ingest_records_per_s"] = round(RECORDS / elapsed)
    figures["console_rss_mib_after_ingest"] = tree_rss_mib(console.process.pid)
    t = time.monotonic()
    console.request("GET", "/api/plays?format=csv", cookie=cookie)
    figures["report_csv_ms"] = round((time.monotonic() - t) * 1000, 1)
    console.process.terminate()
    console.process.wait(10)
    publisher.close()
    print(json.dumps(figures))


main()
