"""Headless Debian chromium driven over the DevTools protocol (--remote-debugging-port), for the inspector's
tests: navigate, evaluate, wait on a condition, click at a point, take a screenshot. websocket-client talks the
protocol; every wait is on a condition with a generous deadline (harness.PATIENCE)."""

from __future__ import annotations

import base64
import itertools
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

from harness import PATIENCE, REPO

ARTIFACTS = REPO / "Tests" / "artifacts"


def chromium_path() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Browser:
    def __init__(self, width: int = 1500, height: int = 1000):
        import websocket  # websocket-client

        binary = chromium_path()
        assert binary, "chromium is not installed (./dev installs it)"
        self.profile = Path(tempfile.mkdtemp(prefix="rsp-chromium-"))
        port = free_port()
        args = [binary, "--headless", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
                f"--remote-debugging-port={port}", "--remote-allow-origins=*", f"--user-data-dir={self.profile}",
                f"--window-size={width},{height}", "--hide-scrollbars", "about:blank"]
        if os.getuid() == 0:
            args.insert(1, "--no-sandbox")  # chromium refuses to run as root with its sandbox
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + PATIENCE
        target = None
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=2) as r:
                    pages = [t for t in json.load(r) if t.get("type") == "page"]
                if pages:
                    target = pages[0]["webSocketDebuggerUrl"]
                    break
            except OSError:
                pass
            time.sleep(0.1)
        assert target, "chromium's DevTools endpoint did not come up"
        self.ws = websocket.create_connection(target, timeout=PATIENCE, suppress_origin=True)
        self.ids = itertools.count(1)
        self.console: list[str] = []
        self.call("Runtime.enable")
        self.call("Page.enable")

    def close(self):
        try:
            self.ws.close()
        finally:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
            shutil.rmtree(self.profile, ignore_errors=True)

    def call(self, method: str, **params):
        n = next(self.ids)
        self.ws.send(json.dumps({"id": n, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get("method") == "Runtime.consoleAPICalled":
                self.console.append(" ".join(str(a.get("value", "")) for a in message["params"]["args"]))
            if message.get("id") == n:
                assert "error" not in message, f"{method}: {message['error']}"
                return message["result"]

    def navigate(self, url: str):
        self.call("Page.navigate", url=url)

    def evaluate(self, expression: str):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        assert "exceptionDetails" not in result, f"{expression}: {result['exceptionDetails']}"
        return result["result"].get("value")

    def wait_for(self, expression: str, what: str, timeout: float = PATIENCE):
        """Polls `expression` until it is truthy in JavaScript's sense; returns its value (an element comes back
        as {})."""
        deadline = time.monotonic() + timeout
        while True:
            # While the page loads, the expression may throw (no body yet): that is "not yet".
            result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
            value = None if "exceptionDetails" in result else result["result"].get("value")
            if value is not None and value is not False and value != 0 and value != "":
                return value
            assert time.monotonic() < deadline, f"timed out waiting for {what} ({expression})"
            time.sleep(0.03)

    def center_of(self, selector: str) -> tuple[float, float]:
        r = self.wait_for(f"(() => {{ const e = document.querySelector({json.dumps(selector)}); if (!e) return null;"
                          f" e.scrollIntoView({{block: 'center', inline: 'center'}});"
                          f" const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()",
                          f"{selector} on the page")
        return r[0], r[1]

    def click(self, x: float, y: float):
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)

    def screenshot(self, name: str) -> Path:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / name
        path.write_bytes(base64.b64decode(self.call("Page.captureScreenshot", format="png")["data"]))
        return path

    def drag(self, x0: float, y0: float, x1: float, y1: float, steps: int = 8):
        """Presses at (x0, y0), moves to (x1, y1) in `steps` moves with the button held, releases there."""
        self.call("Input.dispatchMouseEvent", type="mousePressed", x=x0, y=y0, button="left", clickCount=1)
        for k in range(1, steps + 1):
            self.call("Input.dispatchMouseEvent", type="mouseMoved", x=x0 + (x1 - x0) * k / steps,
                      y=y0 + (y1 - y0) * k / steps, button="left", buttons=1)
        self.call("Input.dispatchMouseEvent", type="mouseReleased", x=x1, y=y1, button="left", clickCount=1)

    def type_text(self, text: str):
        """Types into the focused element as a keyboard would (input events fire)."""
        self.call("Input.insertText", text=text)

    def press_key(self, key: str, code: str, key_code: int):
        for kind in ("keyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", type=kind, key=key, code=code, windowsVirtualKeyCode=key_code)
