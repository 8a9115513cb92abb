#!/usr/bin/env python3
"""Opens a page in headless Chromium (through chromedriver), waits until the page's title
says PASS or FAIL, prints the page's text, saves a screenshot and exits 0 only on PASS.

    python3 web/screenshot.py http://127.0.0.1:8000/ /tmp/page.png

`chromium --screenshot` captures at the load event, before the page's async WebGPU work
has finished; WebDriver can wait for the result. The Chromium flags are the ones in
web/webdriver.json (WebGPU on SwiftShader where there is no GPU). Standard library only.
"""

import base64
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))


def call(base, method, path, body=None, timeout=60):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=timeout) as r:
        return json.load(r)["value"]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    url, out = sys.argv[1], sys.argv[2]
    wait_s = float(os.environ.get("SCREENSHOT_WAIT_S", "300"))
    with open(os.path.join(HERE, "webdriver.json")) as f:
        caps = json.load(f)
    caps["goog:chromeOptions"]["args"].append("--window-size=1000,700")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    driver = subprocess.Popen(
        [os.environ.get("CHROMEDRIVER", "chromedriver"), f"--port={port}"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                call(base, "GET", "/status", timeout=2)
                break
            except OSError:
                time.sleep(0.1)
        session = call(base, "POST", "/session", {"capabilities": {"alwaysMatch": caps}})
        sid = base + "/session/" + session["sessionId"]
        call(sid, "POST", "/url", {"url": url}, timeout=wait_s)
        deadline = time.time() + wait_s
        title = ""
        while time.time() < deadline:
            title = call(sid, "GET", "/title")
            if title.startswith(("PASS", "FAIL")):
                break
            time.sleep(0.2)
        text = call(sid, "POST", "/execute/sync",
                    {"script": "return document.body.innerText", "args": []})
        png = base64.b64decode(call(sid, "GET", "/screenshot"))
        with open(out, "wb") as f:
            f.write(png)
        call(sid, "DELETE", "")
        print(text)
        print(title or "(no result before the wait ran out)")
        return 0 if title.startswith("PASS") else 1
    finally:
        driver.terminate()
        driver.wait(timeout=10)


if __name__ == "__main__":
    sys.exit(main())
