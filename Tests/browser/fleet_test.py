#!/usr/bin/env python3
"""queued-fleet in a real browser: Debian's headless Chromium driven by Selenium, against the console the Swift
test FleetConsoleBrowserTests started (a real Mosquitto, three real screens — p1 may name local files, p2 may
not, p3's bridge was killed — and 500 simulated players, all on loopback). Every wait is bounded; any failed
check exits 1.

Environment: FLEET_URL, LOCAL_FILE (a tone only p1 may take), NETWORK_URL (a tone on nginx), PASSWORDS (JSON
user → password), SCREENSHOTS (a directory for the pictures).
"""
import json, os, sys, time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

env = os.environ
URL = env["FLEET_URL"]
PASSWORDS = json.loads(env["PASSWORDS"])
failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what, flush=True)
    if not condition:
        failures.append(what)
    return condition


def wait_for(what, predicate, timeout=20, interval=0.1):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            value = predicate()
            if value:
                return value
        except Exception:  # the page between states
            pass
        time.sleep(interval)
    check(False, f"{what} (within {timeout} s)")
    return None


def browser(width, height):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", f"--window-size={width},{height}",
                     "--disable-dev-shm-usage"]:
        options.add_argument(argument)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def sign_in(driver, user):
    driver.get(URL + "/")
    wait_for("the sign-in form shows", lambda: driver.find_element(By.ID, "signin-user").is_displayed())
    driver.find_element(By.ID, "signin-user").send_keys(user)
    driver.find_element(By.ID, "signin-password").send_keys(PASSWORDS[user])
    driver.find_element(By.ID, "signin-button").click()
    wait_for(f"{user} is signed in", lambda: driver.find_element(By.ID, "who").text.startswith(user))


def sign_out(driver):
    driver.find_element(By.ID, "signout").click()
    wait_for("signed out", lambda: driver.find_element(By.ID, "signin").is_displayed())


def tiles(driver):
    return driver.execute_script(
        "return [...document.querySelectorAll('#wall .screen')].map((e) => [e.dataset.id, e.className, e.textContent])")


def tab(driver, name):
    driver.find_element(By.CSS_SELECTOR, f'#tabs button[data-tab="{name}"]').click()


def set_value(driver, element_id, text):
    element = driver.find_element(By.ID, element_id)
    driver.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'))", element, text)


def progress(driver):
    return dict(driver.execute_script(
        "return [...document.querySelectorAll('#progress tbody tr')].map((r) => [r.cells[0].textContent, r.cells[1].textContent])"))


def main():
    driver = browser(1280, 900)
    try:
        # A viewer sees the wall: every screen, p3 dark, the markup id as text; no push button.
        sign_in(driver, "viewer")
        wait_for("the wall counts 504 screens", lambda: "of 504 screens" in driver.find_element(By.ID, "counts").text)
        shown = {id: (cls, text) for id, cls, text in tiles(driver)}
        check(len(shown) == 500, f"the wall draws its first 500 tiles ({len(shown)})")
        set_value(driver, "search", "lobby")
        wait_for("a search for the group narrows the wall to its screens", lambda: sorted(t[0] for t in tiles(driver)) == ["p1", "p2", "p3"])
        shown = {id: (cls, text) for id, cls, text in tiles(driver)}
        check("offline" in shown.get("p3", ("", ""))[0], "p3, whose bridge was killed, is shown offline")
        check("online" in shown.get("p1", ("", ""))[0].split(), "p1 is shown online")
        check("lobby" in shown.get("p1", ("", ""))[1], "p1's tile names its group")
        set_value(driver, "search", "")
        driver.find_element(By.CSS_SELECTOR, '#state-filter option[value="offline"]').click()
        wait_for("the offline filter shows p3 alone", lambda: [t[0] for t in tiles(driver)] == ["p3"])
        driver.find_element(By.CSS_SELECTOR, '#state-filter option[value=""]').click()
        set_value(driver, "search", "onerror")
        wait_for("a player id made of markup shows as its text",
                 lambda: any(t[0] == "<img src=x onerror=alert(1)>" for t in tiles(driver)))
        check(driver.execute_script("return document.querySelectorAll('#wall img').length") == 0,
              "no element was made from the id")
        set_value(driver, "search", "")
        tab(driver, "content")
        check(not driver.find_element(By.ID, "push").is_displayed(), "a viewer has no Push button")
        tab(driver, "screens")
        driver.save_screenshot(os.path.join(env["SCREENSHOTS"], "fleet-wall.png"))
        sign_out(driver)

        # An operator pushes to the group: p1 applies, p2 refuses with its reason, p3 waits offline.
        sign_in(driver, "oper")
        tab(driver, "content")
        set_value(driver, "target", "group/lobby")
        set_value(driver, "document", json.dumps({"queue": [env["LOCAL_FILE"]], "loops": 0}))
        driver.find_element(By.ID, "push").click()
        wait_for("the push is said", lambda: driver.find_element(By.ID, "message").text.startswith("pushed rev"))
        states = wait_for("p1 applied, p2 refused, p3 offline", lambda: (lambda p: p if p.get("p1") == "applied"
                          and p.get("p2", "").startswith("refused") and p.get("p3") == "offline" else None)(progress(driver)),
                          timeout=40)
        check(states is not None and "only network URLs" in states.get("p2", ""), f"p2's reason is shown: {states}")
        driver.save_screenshot(os.path.join(env["SCREENSHOTS"], "fleet-push.png"))
        # A network item lands on both online screens, written with the form this time: the JSON filled the
        # item's row; its URI, a crossfade and a schedule are typed in the row, and an overlay is added.
        item_inputs = lambda: driver.find_elements(By.CSS_SELECTOR, "#form-items tbody tr")[0].find_elements(By.CSS_SELECTOR, "input, select")
        check(len(driver.find_elements(By.CSS_SELECTOR, "#form-items tbody tr")) == 1 and item_inputs()[0].get_attribute("value") == env["LOCAL_FILE"],
              "the JSON fills the form's item rows")
        uri, _seconds, _plays, transition, transition_seconds, days, start, until = item_inputs()
        for element, text in [(uri, env["NETWORK_URL"]), (transition_seconds, "1"), (days, "mon tue wed thu fri sat sun"),
                              (start, "00:00"), (until, "23:59")]:
            driver.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'))", element, text)
        Select(transition).select_by_value("crossfade")
        driver.find_element(By.ID, "form-add-overlay").click()
        overlay = driver.find_elements(By.CSS_SELECTOR, "#form-overlays tbody tr")[0].find_elements(By.CSS_SELECTOR, "input, select")
        driver.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'))", overlay[1], "Lobby")
        Select(overlay[2]).select_by_value("bottom")
        written = json.loads(driver.find_element(By.ID, "document").get_attribute("value"))
        expected_item = {"uri": env["NETWORK_URL"], "transition": {"type": "crossfade", "duration": 1},
                         "schedule": {"days": ["mon", "tue", "wed", "thu", "fri", "sat", "sun"], "from": "00:00", "until": "23:59"}}
        check(written.get("queue") == [expected_item] and written.get("loops") == 0, f"the form writes the items: {written}")
        check(written.get("overlays") == [{"type": "text", "text": "Lobby", "anchor": "bottom"}], f"the form writes the overlays: {written}")
        # Zones written with the form make a layout the check accepts (then taken out again: not pushed here).
        def type_in(element, text):
            driver.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'))", element, text)
        for name, y, h, items in [("main", "0", "80%", ""), ("band", "80%", "20%", env["NETWORK_URL"])]:
            driver.find_element(By.ID, "form-add-zone").click()
            cells = driver.find_elements(By.CSS_SELECTOR, "#form-zones tbody tr")[-1].find_elements(By.CSS_SELECTOR, "input")
            for element, text in zip([cells[0], cells[2], cells[4], cells[6]], [name, y, h, items]):
                type_in(element, text)
        zoned = json.loads(driver.find_element(By.ID, "document").get_attribute("value"))
        check(zoned.get("layout") == {"zones": [{"name": "main", "rect": {"x": 0, "y": 0, "w": "100%", "h": "80%"}},
                                                {"name": "band", "rect": {"x": 0, "y": "80%", "w": "100%", "h": "20%"}}]}
              and zoned.get("zones") == {"band": {"queue": [env["NETWORK_URL"]], "loops": 0}}, f"the form writes the layout: {zoned}")
        driver.find_element(By.ID, "check").click()
        wait_for("the zoned document passes the check", lambda: driver.find_element(By.ID, "message").text == "the document is good")
        for row in driver.find_elements(By.CSS_SELECTOR, "#form-zones tbody tr"):
            row.find_element(By.CSS_SELECTOR, "button").click()
        unzoned = json.loads(driver.find_element(By.ID, "document").get_attribute("value"))
        check("layout" not in unzoned and "zones" not in unzoned and unzoned.get("overlays"), f"removing the zones takes the layout out: {unzoned}")
        driver.execute_script("document.getElementById('message').textContent = ''")
        driver.find_element(By.ID, "check").click()
        wait_for("the form's document passes the check", lambda: driver.find_element(By.ID, "message").text == "the document is good")
        driver.find_element(By.ID, "push").click()
        wait_for("the network push lands on p1 and p2", lambda: (lambda p: p.get("p1") == "applied" and p.get("p2") == "applied")(progress(driver)), timeout=40)
        # Roll back to the first push: the history's oldest row.
        wait_for("the history lists both revs", lambda: len(driver.find_elements(By.CSS_SELECTOR, "#history tbody tr")) == 2)
        driver.find_elements(By.CSS_SELECTOR, "#history tbody tr")[-1].find_element(By.CSS_SELECTOR, "button.rollback").click()
        wait_for("the rollback is said", lambda: "rolled back" in driver.find_element(By.ID, "message").text)
        wait_for("after the rollback p1 applies the local queue again", lambda: progress(driver).get("p1") == "applied", timeout=40)
        check(len(driver.find_elements(By.CSS_SELECTOR, "#history tbody tr")) == 3, "the rollback is a third rev in the history")

        # Proof of play: the report's total equals the API's, and the CSV link gives the same lines.
        tab(driver, "reports")
        wait_for("p1's plays reach the store", lambda: driver.execute_script(
            "return fetch('/api/plays?player=p1').then((r) => r.json()).then((j) => j.plays)") >= 2, timeout=40)
        # p1 goes on playing while the page reads: the page's total lies between the store's before and after.
        before = driver.execute_script("return fetch('/api/plays').then((r) => r.json()).then((j) => j.plays)")
        driver.find_element(By.ID, "report-show").click()
        total = wait_for("the report shows a total", lambda: driver.find_element(By.ID, "report-total").text)
        after = driver.execute_script("return fetch('/api/plays').then((r) => r.json()).then((j) => j.plays)")
        shown = int(total.split()[0]) if total else -1
        check(before <= shown <= after and shown >= 2, f"the report's total is the store's ({before} <= {shown} <= {after})")
        csv = driver.execute_script("return fetch(document.getElementById('report-csv').href).then((r) => r.text())")
        lines = [line for line in csv.split("\r\n")[1:] if line]
        settled = driver.execute_script("return fetch('/api/plays').then((r) => r.json()).then((j) => j.plays)")
        check(shown <= sum(int(line.split(",")[3]) for line in lines) <= settled, "the CSV's plays add up to the store's")
        check(all(line.split(",")[0] == time.strftime("%Y-%m-%d", time.gmtime()) for line in lines if ",p1," in line),
              "p1's plays are counted on today (UTC)")

        # At a phone's width: nothing wider than the screen.
        tab(driver, "screens")
        driver.set_window_size(360, 800)
        wait_for("the window is 360 px wide", lambda: driver.execute_script("return window.innerWidth") <= 360)
        check(driver.execute_script("return document.documentElement.scrollWidth") <= 360, "no sideways scrolling at 360 px")
        driver.save_screenshot(os.path.join(env["SCREENSHOTS"], "fleet-phone.png"))
    finally:
        driver.quit()
    if failures:
        print(f"{len(failures)} browser checks failed")
        sys.exit(1)
    print("all browser checks passed")


main()
