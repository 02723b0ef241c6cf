#!/usr/bin/env python3
"""queued-web in a real browser: Debian's headless Chromium driven by Selenium, against a real daemon (SDL
offscreen, a private PulseAudio server's null sink) and nginx on loopback. Started by the Swift test
WebPageBrowserTests, which passes what it made in the environment; this script starts the daemon and
queued-web itself (it kills and restarts the daemon), and the ffmpeg CLI as a live UDP stream's sender. Every wait is bounded; any failed check exits 1.

Environment: QUEUED, QUEUED_WEB, QUEUECTL (binaries), PULSE_SERVER_ADDRESS, SITE_URL (nginx serving
SITE_DIR), CLIPS (red,green,blue clip paths, comma separated), BIG_CLIP (a ~20 MB clip to upload),
WORK (a scratch directory), SCREENSHOTS (a directory for the pictures).
"""
import base64, json, os, signal, socket, subprocess, sys, threading, time

from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException, TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

env = os.environ
WORK = env["WORK"]
SOCKET = os.path.join(WORK, "queued.sock")
failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what, flush=True)
    if not condition:
        failures.append(what)
    return condition


def rpc(method, params=None, timeout=10):
    """One JSON-RPC call on the daemon's socket (what queuectl does)."""
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


def wait_for(what, predicate, timeout=15, interval=0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            value = predicate()
            if value:
                return value
        except Exception:  # the page or the daemon between states
            pass
        time.sleep(interval)
    check(False, f"{what} (within {timeout} s)")
    return None


class Daemon:
    def __init__(self):
        self.process = None

    def start(self):
        log = open(os.path.join(WORK, "queued.log"), "a")
        self.process = subprocess.Popen(
            [env["QUEUED"], "--no-config", "--socket", SOCKET, "--state-dir", os.path.join(WORK, "state"),
             "--audio", "pulse", "--pulse-server", env["PULSE_SERVER_ADDRESS"], "--video", "sdl",
             "--video-driver", "offscreen", "--geometry", "320x240", "--log-level", "info"],
            stdout=log, stderr=log)
        wait_for("the daemon answers", lambda: rpc("daemon.info", timeout=2), timeout=30)

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)


def start_web():
    process = subprocess.Popen(
        [env["QUEUED_WEB"], "--no-config", "--listen", "127.0.0.1:0", "--socket", SOCKET,
         "--token-file", os.path.join(WORK, "web-token"), "--media-dir", os.path.join(WORK, "media"),
         "--upload-limit", "64", "--log-level", "warning"],
        stderr=subprocess.PIPE, text=True)
    port = []
    ready = threading.Event()

    def read():
        for line in process.stderr:
            sys.stderr.write("queued-web: " + line)
            if "listening on" in line and not port:
                port.append(int(line.rsplit(":", 1)[1]))
                ready.set()
    threading.Thread(target=read, daemon=True).start()
    if not ready.wait(20):
        raise SystemExit("queued-web did not start")
    with open(os.path.join(WORK, "web-token")) as f:
        return process, port[0], f.read().strip()


def browser(width, height):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", f"--window-size={width},{height}",
                     "--disable-dev-shm-usage"]:
        options.add_argument(argument)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def rows(driver):
    return driver.find_elements(By.CSS_SELECTOR, "#queue li.item")


def row_titles(driver):
    # Read in one script: the list is redrawn whole on every change, so elements found earlier go stale.
    return driver.execute_script(
        "return [...document.querySelectorAll('#queue li.item .title')].map((e) => e.textContent)")


def play_now(driver, item_id):
    """Clicks the item's "Play now" (found again on each try: a redrawn list leaves old elements stale)."""
    def click():
        driver.find_element(By.CSS_SELECTOR, f'#queue li[data-id="{item_id}"]').find_element(
            By.XPATH, ".//button[text()='Play now']").click()
        return True
    return wait_for(f"Play now on item {item_id}", click)


def expected_titles():
    return [item["title"] or os.path.basename(item["uri"]) for item in rpc("queue.list", {"limit": 100})["items"]]


AVERAGE = """
let [source, done] = arguments;
if (source.startsWith('base64:')) {
  // The page's policy allows blob: pictures only (no data: URLs): the daemon's PNG goes through a Blob.
  const bytes = Uint8Array.from(atob(source.slice(7)), (c) => c.charCodeAt(0));
  source = URL.createObjectURL(new Blob([bytes], { type: 'image/png' }));
}
const image = new Image();
image.onload = () => {
  const canvas = document.createElement('canvas');
  canvas.width = image.naturalWidth; canvas.height = image.naturalHeight;
  const g = canvas.getContext('2d');
  g.drawImage(image, 0, 0);
  const data = g.getImageData(0, 0, canvas.width, canvas.height).data;
  const sum = [0, 0, 0];
  for (let i = 0; i < data.length; i += 4) { sum[0] += data[i]; sum[1] += data[i + 1]; sum[2] += data[i + 2]; }
  const n = data.length / 4;
  done(sum.map((v) => Math.round(v / n)));
};
image.onerror = () => done(null);
image.src = source;
"""


def preview_colour(driver):
    """The preview image's mean colour, or None before the page has shown one."""
    source = driver.find_element(By.ID, "preview").get_attribute("src")
    return driver.execute_async_script(AVERAGE, source) if source.startswith("blob:") else None


def free_udp_port():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_sender(url):
    """The ffmpeg CLI sending a yellow picture and a tone as MPEG-TS over UDP on loopback, at its own pace."""
    log = open(os.path.join(WORK, "sender.log"), "a")
    return subprocess.Popen(
        ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-re", "-f", "lavfi", "-i",
         "color=c=yellow:s=320x240:r=25", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
         "-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency", "-g", "25", "-pix_fmt", "yuv420p",
         "-c:a", "aac", "-b:a", "64k", "-f", "mpegts", url + "?pkt_size=1316"],
        stdin=subprocess.DEVNULL, stdout=log, stderr=log)


def main():
    red, green, blue = env["CLIPS"].split(",")
    daemon = Daemon()
    daemon.start()
    rpc("queue.add", {"items": [red, green, blue, {"uri": red, "title": "<img src=x onerror=alert(1)>"}]})
    rpc("queue.setLoops", {"loops": 0})
    rpc("player.play")
    web, port, token = start_web()
    base = f"http://127.0.0.1:{port}"
    driver = browser(1280, 1000)
    try:
        driver.set_script_timeout(15)
        # Sign in.
        driver.get(base + "/")
        wait_for("the sign-in form", lambda: driver.find_element(By.ID, "secret").is_displayed())
        driver.find_element(By.ID, "secret").send_keys(token)
        driver.find_element(By.CSS_SELECTOR, "#signin-form button").click()
        wait_for("the queue after sign-in", lambda: len(row_titles(driver)) == 4)
        check(row_titles(driver) == expected_titles(), f"the queue shown equals queue.list: {row_titles(driver)}")

        version = rpc("daemon.info")["version"]
        check(bool(wait_for("the health section", lambda: version in driver.find_element(By.ID, "health-list").text
                            and "Dropped frames" in driver.find_element(By.ID, "health-list").text)),
              f"health shows the daemon's version {version} and its dropped frames")

        # A title is text, never HTML, and runs nothing.
        check(row_titles(driver)[3] == "<img src=x onerror=alert(1)>", "a title with markup shows as that text")
        check(not driver.find_elements(By.CSS_SELECTOR, "#queue img"), "no element made from a title")
        try:
            driver.switch_to.alert
            check(False, "no script ran from a title")
        except NoAlertPresentException:
            check(True, "no script ran from a title")

        # Drag the third item above the first (pointer events: mouse here, a finger on a phone).
        before = [item["id"] for item in rpc("queue.list")["items"]]
        handle = rows(driver)[2].find_element(By.CSS_SELECTOR, ".handle")
        first = rows(driver)[0]
        ActionChains(driver).click_and_hold(handle).move_by_offset(0, -20).move_to_element_with_offset(
            first, 0, -first.size["height"] // 2 + 3).release().perform()
        after = wait_for("the daemon's order changed by the drag",
                         lambda: (lambda ids: ids if ids != before else None)([i["id"] for i in rpc("queue.list")["items"]]))
        check(after == [before[2], before[0], before[1], before[3]], f"the third item is first: {before} -> {after}")
        wait_for("the page shows the new order", lambda: row_titles(driver) == expected_titles())

        # A change made with queuectl appears on the page.
        started = time.monotonic()
        subprocess.run([env["QUEUECTL"], "--socket", SOCKET, "add", env["SITE_URL"] + "/blue.mp4"], check=True,
                       stdout=subprocess.DEVNULL)
        shown = wait_for("a queuectl change on the page", lambda: len(row_titles(driver)) == 5, timeout=10, interval=0.01)
        if shown:
            print(f"measure: queuectl change to page: {time.monotonic() - started:.3f} s", flush=True)

        # Add a URL with the form; play it now; it plays.
        url = env["SITE_URL"] + "/green.mp4"
        driver.find_element(By.ID, "url").send_keys(url)
        driver.find_element(By.CSS_SELECTOR, "#add-url button").click()
        item = wait_for("the URL queued", lambda: next((i for i in rpc("queue.list")["items"] if i["uri"] == url), None))
        if item:
            play_now(driver, item["id"])
            check(bool(wait_for("the URL plays", lambda: rpc("player.status")["currentId"] == item["id"]
                                and rpc("player.status")["position"] > 0.2)), "an added URL plays")

        # A live stream added with the form (a UDP MPEG-TS sender on loopback, yellow): it plays for its
        # duration, the page says it is live; its sender killed, the page says it is down; back, it resumes.
        stream_url = f"udp://127.0.0.1:{free_udp_port()}"
        sender = start_sender(stream_url)
        try:
            driver.find_element(By.ID, "url").send_keys(stream_url)
            driver.find_element(By.ID, "duration").send_keys("120")
            driver.find_element(By.CSS_SELECTOR, "#add-url button").click()
            stream = wait_for("the stream queued", lambda: next(
                (i for i in rpc("queue.list")["items"] if i["uri"] == stream_url), None))
            if stream:
                check(stream.get("duration") == 120, f"the stream keeps the duration typed: {stream}")
                play_now(driver, stream["id"])
                playing = wait_for("the stream plays", lambda: (lambda s: s if s["currentId"] == stream["id"]
                                   and (s.get("stream") or {}).get("live") and s["position"] > 0.5 else None)(
                                   rpc("player.status")), timeout=20)
                check(bool(playing), f"a stream added on the page plays live: {playing and playing.get('stream')}")
                detail = lambda: driver.find_element(By.ID, "now-detail").text
                check(bool(wait_for("the page says the stream is live", lambda: "live stream" in detail())),
                      f"the page says the stream is live: {detail()!r}")
                check(bool(wait_for("a yellow preview", lambda: (lambda c: c and c[0] > 180 and c[1] > 180
                                    and c[2] < 80)(preview_colour(driver)), timeout=10)),
                      "the preview shows the stream's picture")
                sender.kill()
                sender.wait(timeout=10)
                check(bool(wait_for("the page says the stream is down", lambda: "down: reconnecting" in detail(),
                                    timeout=20)), f"the page says the stream is down: {detail()!r}")
                sender = start_sender(stream_url)
                back = wait_for("the stream back on the page", lambda: "dropped once" in detail()
                                and "down" not in detail(), timeout=30)
                check(bool(back), f"the page says the stream came back: {detail()!r}")
                status = rpc("player.status")
                check(status["currentId"] == stream["id"] and (status.get("stream") or {}).get("stalls") == 1,
                      f"the same play goes on after the drop: {status.get('stream')}")
        finally:
            sender.kill()
            sender.wait(timeout=10)
            # Its sender gone for good: the stream leaves the queue, so the later steps never wait on it.
            gone = [i["id"] for i in rpc("queue.list")["items"] if i["uri"] == stream_url]
            if gone:
                rpc("queue.remove", {"ids": gone})

        # A web page added with the form ("A web page", kept): queued as one, it plays, the page names it and
        # the preview shows its magenta.
        board_url = env["SITE_URL"] + "/board.html"
        driver.find_element(By.ID, "url").send_keys(board_url)
        driver.find_element(By.ID, "duration").send_keys("60")
        driver.find_element(By.ID, "web-page").click()
        driver.find_element(By.ID, "web-keep").click()
        driver.find_element(By.CSS_SELECTOR, "#add-url button").click()
        board = wait_for("the web page queued", lambda: next(
            (i for i in rpc("queue.list")["items"] if i["uri"] == board_url), None))
        if board:
            check(board.get("type") == "web" and (board.get("web") or {}).get("reload") == "keep",
                  f"the form queues a kept web page: {board}")
            play_now(driver, board["id"])
            shown = wait_for("the web page plays", lambda: (lambda s: s if s["currentId"] == board["id"]
                             and (s.get("web") or {}).get("loaded") else None)(rpc("player.status")), timeout=30)
            check(bool(shown) and shown["web"].get("title") == "Magenta board", f"the web page plays: {shown and shown.get('web')}")
            detail = lambda: driver.find_element(By.ID, "now-detail").text
            check(bool(wait_for("the page names the web page", lambda: "web page: Magenta board" in detail())),
                  f"the page names the web page: {detail()!r}")
            check(bool(wait_for("a magenta preview", lambda: (lambda c: c and c[0] > 180 and c[1] < 80
                                and c[2] > 180)(preview_colour(driver)), timeout=15)),
                  "the preview shows the web page")
            rpc("queue.remove", {"ids": [board["id"]]})

        # Upload a 20 MB file: its progress bar fills, it is queued and plays.
        driver.find_element(By.ID, "files").send_keys(env["BIG_CLIP"])
        driver.find_element(By.CSS_SELECTOR, "#upload-form button").click()
        note = wait_for("the upload's note", lambda: "queued as" in driver.find_element(By.ID, "uploads").text
                        and driver.find_element(By.ID, "uploads").text, timeout=60)
        if not note:
            print("  the upload's note says: " + driver.find_element(By.ID, "uploads").text, flush=True)
        bar = driver.find_element(By.CSS_SELECTOR, "#uploads progress")
        size = os.path.getsize(env["BIG_CLIP"])
        check(float(bar.get_attribute("max")) >= size and bar.get_attribute("value") == bar.get_attribute("max"),
              f"the progress bar filled ({bar.get_attribute('value')} of {bar.get_attribute('max')}; {note})")
        uploaded = wait_for("the upload queued", lambda: next(
            (i for i in rpc("queue.list")["items"] if i["uri"].startswith(os.path.join(WORK, "media"))), None))
        if uploaded:
            check(os.path.getsize(uploaded["uri"]) == size, "the uploaded file is whole")
            play_now(driver, uploaded["id"])
            check(bool(wait_for("the upload plays", lambda: rpc("player.status")["currentId"] == uploaded["id"]
                                and rpc("player.status")["position"] > 0.2)), "an uploaded file plays")

        # An alert raised on the page is on the screen (the daemon holds it) until it is cleared on the page; a
        # webhook trigger of the daemon's is a button.
        driver.find_element(By.ID, "alert-text").send_keys("Lobby closes at six")
        driver.find_element(By.CSS_SELECTOR, "#alert-form button").click()
        raised = wait_for("the alert stands", lambda: (lambda a: a if a["active"] else None)(rpc("alert.list")))
        check(bool(raised) and raised["alerts"][0]["text"] == "Lobby closes at six", f"the page raises an alert: {raised}")
        check(bool(wait_for("the page lists it", lambda: "on screen: Lobby closes at six" in driver.find_element(By.ID, "alert-list").text)),
              "the page lists the alert on screen")
        driver.find_element(By.CSS_SELECTOR, "#alert-list button").click()
        check(bool(wait_for("the alert is cleared", lambda: rpc("alert.list")["active"] is None)), "the page clears the alert")
        rpc("triggers.set", {"triggers": ["webhook=hush -> pause"]})
        button = wait_for("the trigger's button", lambda: next((b for b in driver.find_elements(By.CSS_SELECTOR, "#trigger-buttons button")
                                                                  if b.text == "Fire hush"), None), timeout=15)
        check(button is not None, "a webhook trigger is a button")
        if button:
            button.click()
            check(bool(wait_for("the trigger paused", lambda: rpc("player.status")["state"] == "paused")), "the page fires a trigger")
        rpc("player.play")
        # The daemon's output rules are listed (the page cannot set them: WebAttackTests).
        rpc("outputs.set", {"outputs": ["on=end -> mqtt lights up"]})
        check(bool(wait_for("the page lists the output", lambda: "on=end -> mqtt lights up" in driver.find_element(By.ID, "output-rules").text,
                            timeout=15)), "the page lists the output rules")

        # The preview shows what the screen shows: a red clip, red in both.
        red_id = next(i["id"] for i in rpc("queue.list")["items"] if i["uri"] == red and not i["title"])
        rpc("player.play", {"id": red_id})
        if not wait_for("the red clip plays", lambda: rpc("player.status")["currentId"] == red_id
                        and rpc("player.status")["position"] > 0.3):
            print(f"player.status: {rpc('player.status')}", flush=True)

        page = wait_for("a red preview", lambda: (lambda c: c if c and c[0] > 180 and c[1] < 80 and c[2] < 80 else None)(
            preview_colour(driver)), timeout=10)
        shot = rpc("player.screenshot", {"format": "png"})
        daemon_colour = driver.execute_async_script(AVERAGE, "base64:" + shot["png"])
        check(page is not None and daemon_colour is not None
              and all(abs(a - b) <= 16 for a, b in zip(page, daemon_colour)),
              f"the preview's colours match player.screenshot: page {page}, daemon {daemon_colour}")
        driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(os.path.join(env["SCREENSHOTS"], "page-desktop.png"))

        # The daemon killed: the page says so; restarted: the page recovers, with the durable queue.
        daemon.kill()
        check(bool(wait_for("the page says the daemon is away", lambda: "not running" in
                            driver.find_element(By.ID, "link-state").text, timeout=10)), "the page says the daemon is away")
        daemon.start()
        check(bool(wait_for("the page recovers", lambda: driver.find_element(By.ID, "link-state").text == "live"
                            and row_titles(driver) == expected_titles(), timeout=15)), "the page recovers after a restart")
        check(bool(wait_for("no error left shown", lambda: not driver.find_element(By.ID, "banner").is_displayed(), timeout=5)),
              "no error left on the page after the restart")

        # Zones: the layout drawn over the preview; choosing a zone shows its own queue, and what the page adds
        # goes there; main's queue stays as it was.
        rpc("layout.set", {"zones": [
            {"name": "main", "rect": {"x": 0, "y": 0, "w": "75%", "h": "100%"}},
            {"name": "side", "rect": {"x": "75%", "y": 0, "w": "25%", "h": "100%"}, "fit": "fill", "content": "stills"}]})
        main_titles = expected_titles()
        rpc("queue.add", {"zone": "side", "items": [green, blue]})
        rpc("queue.setLoops", {"zone": "side", "loops": 0})
        rpc("player.play", {"zone": "side"})
        boxes = wait_for("the zones drawn over the preview", lambda: (lambda b: b if len(b) == 2 else None)(
            driver.find_elements(By.CSS_SELECTOR, "#zone-map .zone")), timeout=15)
        if boxes:
            geometry = driver.execute_script("""
              const map = document.getElementById('zone-map').getBoundingClientRect();
              return [...document.querySelectorAll('#zone-map .zone')].map((b) => {
                const r = b.getBoundingClientRect();
                return [b.textContent, Math.round(100 * (r.left - map.left) / map.width), Math.round(100 * r.width / map.width)];
              });""")
            check(geometry == [["main", 0, 75], ["side", 75, 25]], f"the zones' rectangles over the preview: {geometry}")
            driver.find_element(By.XPATH, "//div[@id='zone-map']/button[text()='side']").click()
            side_titles = [os.path.basename(green), os.path.basename(blue)]
            check(bool(wait_for("the side zone's queue", lambda: row_titles(driver) == side_titles)),
                  f"choosing the side zone shows its queue: {row_titles(driver)}")
            check("zone side" in driver.find_element(By.ID, "zone-name").text, "the page says which zone it shows")
            driver.find_element(By.ID, "url").send_keys(env["SITE_URL"] + "/red.mp4")
            driver.find_element(By.CSS_SELECTOR, "#add-url button").click()
            added = wait_for("the URL lands in the side zone", lambda: len(rpc("queue.list", {"zone": "side"})["items"]) == 3)
            check(bool(added) and expected_titles() == main_titles, "a URL added on the side zone goes to its queue, main's untouched")
            check(bool(wait_for("the chosen zone marked", lambda: "side" in [
                b.text for b in driver.find_elements(By.CSS_SELECTOR, "#zone-map .zone.chosen")])), "the chosen zone is marked")
            # The side zone's rectangle on the page covers its picture in the preview: green or blue there.
            SIDE = """
              const [done] = arguments;
              const image = document.getElementById('preview'), box = document.querySelector('#zone-map .zone.chosen');
              const r = box.getBoundingClientRect(), i = image.getBoundingClientRect();
              const scale = image.naturalWidth / Math.min(i.width, i.height * image.naturalWidth / image.naturalHeight);
              const left = (i.width - image.naturalWidth / scale) / 2;
              const x = Math.round((r.left + r.width / 2 - i.left - left) * scale);
              const y = Math.round((r.top + r.height * 0.75 - i.top) * scale);
              const canvas = document.createElement('canvas');
              canvas.width = image.naturalWidth; canvas.height = image.naturalHeight;
              const g = canvas.getContext('2d'); g.drawImage(image, 0, 0);
              done([...g.getImageData(x, y, 1, 1).data.slice(0, 3)]);"""
            colour = wait_for("the side zone's picture under its rectangle", lambda: (lambda c: c if c and (
                (c[1] > 100 and c[0] < 80) or (c[2] > 100 and c[0] < 80)) else None)(driver.execute_async_script(SIDE)), timeout=10)
            if colour is None:
                print(f"  under the side rectangle: {driver.execute_async_script(SIDE)}", flush=True)
            check(colour is not None, f"the side zone's rectangle lies over its green or blue picture: {colour}")
            driver.save_screenshot(os.path.join(env["SCREENSHOTS"], "page-zones.png"))
            driver.find_element(By.XPATH, "//div[@id='zone-map']/button[text()='main']").click()
            check(bool(wait_for("main's queue again", lambda: row_titles(driver) == expected_titles())), "back on main, main's queue")
        rpc("layout.set", {"zones": [{"name": "main", "rect": {"x": 0, "y": 0, "w": "100%", "h": "100%"}}]})

        # A 360-px-wide phone: every control there, nothing wider than the screen.
        driver.set_window_size(360, 800)
        wait_for("the narrow layout", lambda: driver.execute_script("return window.innerWidth") <= 360)
        overflow = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
        check(overflow <= 0, f"no horizontal scrolling at 360 px (overflow {overflow} px)")
        hidden = driver.execute_script("""
          return [...document.querySelectorAll('#app button, #app input, #app select')]
            .filter((c) => c.offsetParent !== null && c.getBoundingClientRect().right > window.innerWidth + 1)
            .map((c) => c.id || c.textContent || c.type);""")
        check(not hidden, f"every control within the width: {hidden}")
        for control in ["prev", "toggle", "next", "volume", "position", "url", "files", "signout"]:
            element = driver.find_element(By.ID, control)
            driver.execute_script("arguments[0].scrollIntoView()", element)
            check(element.is_displayed(), f"#{control} shown at 360 px")
        driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(os.path.join(env["SCREENSHOTS"], "page-phone.png"))
    finally:
        driver.quit()
        web.terminate()
        web.wait(timeout=10)
        if daemon.process and daemon.process.poll() is None:
            daemon.process.terminate()
            daemon.process.wait(timeout=10)
    if failures:  # what the daemon said, for a failure seen only in CI
        with open(os.path.join(WORK, "queued.log"), errors="replace") as log:
            print("the daemon's log, last 80 lines:\n" + "".join(log.readlines()[-80:]), flush=True)
    print(f"{len(failures)} failed" if failures else "all browser checks passed", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
