"""`responder web` in a real browser: Debian's chromium, headless, loads the inspector against a real
engine, clicks a view through the DevTools protocol and reads the explanation, sees a tap made by another client
appear within a second, scrubs back to the world as it was, taps in Tap mode, and keeps screenshots under
Tests/artifacts/."""

from __future__ import annotations

import json
import queue
import subprocess
import threading
import time

import pytest

from browser import Browser, chromium_path
from harness import PATIENCE, new_session
from stdio_harness import responder_path, target_args
from worlds import count, grid_world

pytestmark = pytest.mark.skipif(chromium_path() is None, reason="chromium is not installed (./dev installs it)")


class Web:
    """`responder web --port 0` on a session; `url` is what it printed."""

    def __init__(self, engine, session: str):
        self.proc = subprocess.Popen([str(responder_path()), *target_args(engine), "web", "--port", "0", "--session", session],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        lines: queue.Queue = queue.Queue()
        threading.Thread(target=lambda: [lines.put(l) for l in self.proc.stdout], daemon=True).start()
        try:
            first = lines.get(timeout=PATIENCE)
        except queue.Empty:
            self.proc.kill()
            raise AssertionError(f"responder web printed nothing: {self.proc.stderr.read()}")
        assert first.startswith("responder web: http://127.0.0.1:"), first
        self.url = first.split()[2]

    def close(self):
        self.proc.terminate()
        self.proc.wait(PATIENCE)


@pytest.fixture
def browser():
    b = Browser()
    yield b
    b.close()


def q(selector: str) -> str:
    return f"document.querySelector({json.dumps(selector)})"


def test_the_inspector_explains_a_click_follows_other_clients_scrubs_back_and_taps(engine, browser):
    c = engine.client()
    c.call("client.hello", name="pytest-tapper")
    session = new_session(c, "web")
    web = Web(engine, session)
    try:
        browser.navigate(web.url)
        browser.wait_for(q('#world rect[data-node-id="button"]'), "the world drawn")
        # Every node is in the outline; the key window's title and the outline mark what they should.
        ids = browser.evaluate("[...document.querySelectorAll('#outline .row')].map(r => r.dataset.nodeId)")
        assert ids[:4] == ["app", "delegate", "window", "rootVC"] and "textField" in ids

        # Hit-test mode: a click on the button explains, on the picture and beside it.
        browser.click(*browser.center_of('#world rect[data-node-id="button"]'))
        browser.wait_for(q('#explain [data-node-id="button"][data-hit="hit"].ln-target'), "the explanation of the click")
        explain = browser.evaluate("document.querySelector('#explain').innerText")
        assert "Hit button in window" in explain
        assert "textField — miss: outside-bounds (H3)" in explain  # the view passed over, and why
        assert "Responder chain of button" in explain
        overlay = browser.evaluate("[...document.querySelectorAll('#overlay [data-hit]')].map(e => [e.dataset.nodeId, e.dataset.hit, e.dataset.reason || ''])")
        assert ["button", "hit", ""] in overlay and ["textField", "miss", "outside-bounds"] in overlay
        assert ["window", "hit", ""] in overlay
        # The hit view is selected: its fields and its chain.
        chain = browser.wait_for("(() => { const c = [...document.querySelectorAll('#chain .chip')].map(e => e.textContent);"
                                 " return c.length ? c : null; })()", "the selected node's chain")
        assert chain == c.call("responderChain", session=session, id="button")["chain"]
        assert browser.evaluate("[...document.querySelectorAll('#fields td')].map(t => t.textContent).includes('UIButton')")
        # A hit test changes nothing: no event.
        assert browser.evaluate("document.querySelectorAll('#events li').length") == 0
        browser.screenshot("web-hit.png")

        # Another client taps: the page shows it within a second.
        sent_ms = time.time() * 1000
        seq = c.call("event.tap", session=session, point=[60, 150])["seq"]
        li = f'#events li[data-seq="{seq}"]'
        browser.wait_for(q(li), "the other client's tap in the event list")
        received_ms = float(browser.evaluate(f"{q(li)}.dataset.receivedAt"))
        delay = received_ms - sent_ms
        print(f"\ntap by another client shown {delay:.0f} ms after it was sent")
        assert delay < 1000, f"the tap took {delay:.0f} ms to appear"
        assert browser.evaluate(f"{q(li)}.dataset.client") == "pytest-tapper"
        assert "touchUpInside" in browser.evaluate(f"{q(li)}.innerText")
        browser.wait_for(q(f'#explain[data-seq="{seq}"] [data-node-id="button"][data-hit="hit"]'), "the tap's hit path")

        # A tree change, then back through history: the world as it was after the tap.
        c.call("tree.apply", session=session, ops=[{"op": "update", "id": "button", "set": {"hidden": True}}])
        browser.wait_for(q('#world rect.hidden[data-node-id="button"]'), "the button hidden")
        browser.click(*browser.center_of(li))
        hidden_button, button = q('#world rect.hidden[data-node-id="button"]'), q('#world rect[data-node-id="button"]')
        browser.wait_for(f"!{q('#pastBanner')}.hidden && !{hidden_button} && {button}", "the world before the change")
        assert browser.evaluate(f"{q('#scrubLabel')}.textContent").startswith(f"after #{seq}")
        browser.screenshot("web-scrubbed.png")
        browser.click(*browser.center_of("#backLive"))
        browser.wait_for(q('#world rect.hidden[data-node-id="button"]'), "the live world again")

        # Tap mode: a click taps for real; the text field becomes first responder (F5), marked everywhere.
        browser.click(*browser.center_of("#modeTap"))
        browser.click(*browser.center_of('#world rect[data-node-id="textField"]'))
        browser.wait_for(q('#world rect.fr[data-node-id="textField"]'), "the text field marked first responder")
        browser.wait_for(q('#outline [data-node-id="textField"][data-first-responder="true"]'), "the star in the outline")
        snapshot = c.call("session.snapshot", session=session)
        assert snapshot["firstResponders"]["window"] == "textField"
        browser.wait_for(q('#events li[data-client="responder web"]'), "the page's own tap in the event list")
        shot = browser.screenshot("web-inspector.png")
        assert shot.stat().st_size > 10_000
    finally:
        web.close()


def test_a_10000_node_world_redraws_and_answers_clicks(engine, browser):
    c = engine.client()
    tree = grid_world(100, 99)
    assert count(tree) >= 10_000
    session = new_session(c, "big", tree=tree)
    web = Web(engine, session)
    try:
        started = time.monotonic()
        browser.navigate(web.url)
        browser.wait_for("Number(document.body.dataset.redrawViews) > 9000", "the large world drawn", timeout=PATIENCE * 2)
        loaded = time.monotonic() - started
        redraw = float(browser.evaluate("document.body.dataset.redrawMs"))
        drawn = browser.evaluate("document.querySelectorAll('#world rect.v').length")
        assert drawn > 9_000
        # Responsive: a click is answered while the outline fills in.
        clicked = time.monotonic()
        browser.click(*browser.center_of('#world rect[data-node-id="c55-40"]'))
        browser.wait_for(q('#explain [data-node-id="c55-40"].ln-target'), "the explanation on the large world")
        answered = time.monotonic() - clicked
        page_answer = float(browser.evaluate("document.body.dataset.answerMs"))
        overlay_ms = float(browser.evaluate("document.body.dataset.overlayMs"))
        rows = browser.wait_for("document.querySelectorAll('#outline .row').length >= 10000 && document.querySelectorAll('#outline .row').length",
                                "the whole outline")
        print(f"\n10,000-node world: page shown in {loaded:.2f} s, redraw {redraw:.0f} ms ({drawn} views), "
              f"click answered in {answered * 1000:.0f} ms (in the page: {page_answer:.0f} ms, of which drawing the "
              f"explanation {overlay_ms:.0f} ms), {rows} outline rows")
        browser.screenshot("web-10k.png")
    finally:
        web.close()


def test_the_inspector_socket_takes_only_its_own_page_with_the_printed_token(engine):
    """The socket reads the session and taps in it: without the printed token, or opened by a page of another
    site (cross-site WebSocket hijacking), it is refused; the printed address's own page gets in."""
    import websocket  # websocket-client, the browser tests' DevTools client

    session = new_session(engine.client(), "webauth")
    web = Web(engine, session)
    try:
        base, token = web.url.split("?token=")
        socket_url = base.replace("http://", "ws://") + "socket"
        origin = base.rstrip("/")
        # A wrong token differs from the printed one in its first character (whatever that one is).
        wrong = ("1" if token[0] == "0" else "0") + token[1:]
        for url, sent_origin in ((socket_url, origin), (f"{socket_url}?token={wrong}", origin),
                                 (f"{socket_url}?token={token}", "http://evil.example")):
            with pytest.raises(websocket.WebSocketBadStatusException) as refused:
                websocket.create_connection(url, origin=sent_origin, timeout=PATIENCE)
            assert refused.value.status_code == 403, url
        ok = websocket.create_connection(f"{socket_url}?token={token}", origin=origin, timeout=PATIENCE)
        try:
            assert json.loads(ok.recv())["type"] == "hello"
        finally:
            ok.close()
    finally:
        web.close()
