"""Makes the README's pictures from the demo world: docs/draw-hit.png (`responder draw --hit 60 300`, shot by
headless chromium) and docs/web.png (the inspector after a click and another client's tap).

    python3 docs/pictures.py      # after `swift build`; needs chromium and websocket-client (./dev test installs them)
"""

from __future__ import annotations

import base64
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "Tests" / "python"))

from browser import Browser  # noqa: E402

BIN = REPO / ".build" / "debug"
DOCS = REPO / "docs"


def main():
    runtime = Path(tempfile.mkdtemp(prefix="rsp-docs-", dir="/tmp"))
    env = dict(os.environ, XDG_RUNTIME_DIR=str(runtime))
    engine = subprocess.Popen([str(BIN / "responderd"), "--name", "docs", "--world", str(REPO / "Protocol/examples/demo-world.json")], env=env)
    cli = [str(BIN / "responder"), "--name", "docs"]
    web = None
    browser = Browser(width=1440, height=980)
    try:
        for _ in range(100):
            if subprocess.run(cli + ["info"], env=env, capture_output=True).returncode == 0:
                break
            time.sleep(0.1)
        svg = runtime / "hit.svg"
        subprocess.run(cli + ["draw", "--hit", "60", "300", "--out", str(svg)], env=env, check=True)
        browser.call("Emulation.setDeviceMetricsOverride", width=900, height=964, deviceScaleFactor=1.5, mobile=False)
        browser.navigate(f"file://{svg}")
        browser.wait_for("document.querySelector('.legend') !== null", "the picture")
        (DOCS / "draw-hit.png").write_bytes(base64.b64decode(browser.call("Page.captureScreenshot", format="png")["data"]))

        web = subprocess.Popen(cli + ["web", "--port", "0"], env=env, stdout=subprocess.PIPE, text=True)
        url = web.stdout.readline().split()[2]
        browser.call("Emulation.setDeviceMetricsOverride", width=1440, height=900, deviceScaleFactor=1, mobile=False)
        browser.navigate(url)
        browser.wait_for("document.querySelector('#world rect[data-node-id=\"card\"]') !== null", "the world")
        subprocess.run(cli + ["tap", "60", "210"], env=env, check=True, capture_output=True)
        subprocess.run(cli + ["tap", "60", "150"], env=env, check=True, capture_output=True)
        browser.wait_for("document.querySelectorAll('#events li').length >= 3", "the taps")
        x, y = browser.center_of('#world rect[data-node-id="textField"]')
        browser.click(x, y + 40)  # below the text field, inside the card: the button and text field passed over
        browser.wait_for("document.querySelector('#explain .ln-target') !== null", "the explanation")
        browser.wait_for("document.querySelectorAll('#chain .chip').length > 0", "the chain")
        time.sleep(1.5)  # let the fresh-event highlight fade
        (DOCS / "web.png").write_bytes(base64.b64decode(browser.call("Page.captureScreenshot", format="png")["data"]))
    finally:
        browser.close()
        if web:
            web.terminate()
        engine.terminate()
        engine.wait(10)


if __name__ == "__main__":
    main()
