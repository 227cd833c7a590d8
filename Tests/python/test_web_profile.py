"""`responder web` and profiles, in a real browser (Debian's chromium, headless): the page shows the followed
session's dispatch model, opens the same tree under the other model as a new session and follows it; under
android a click draws Android's search for the DOWN's consumer, and the why panel says why-not is UIKit's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from browser import chromium_path
from harness import new_session, strip_revisions
from test_web import Web, browser, q  # noqa: F401 (browser is the fixture)

pytestmark = pytest.mark.skipif(chromium_path() is None, reason="chromium is not installed (./dev installs it)")

ALPHA_ZERO = Path(__file__).resolve().parents[2] / "docs" / "examples" / "compare-alpha-zero.json"


def test_the_badge_shows_the_profile_and_the_other_profile_opens_the_same_tree(engine, browser):  # noqa: F811
    c = engine.client()
    session = new_session(c, "webprof", tree=json.loads(ALPHA_ZERO.read_text()))
    web = Web(engine, session)
    copies: list[str] = []
    try:
        browser.navigate(web.url)
        browser.wait_for(q('#world rect[data-node-id="Btn"]'), "the world drawn")
        browser.wait_for(f"{q('#profile')}.dataset.profile === 'uikit'", "the uikit badge")
        assert browser.evaluate(f"{q('#profile')}.textContent") == "uikit"
        assert browser.evaluate(f"{q('#otherProfile')}.textContent") == "open under android"

        browser.click(*browser.center_of("#otherProfile"))
        browser.wait_for(f"{q('#profile')}.dataset.profile === 'android'", "the android badge", )
        copy = browser.evaluate(f"{q('#session')}.textContent")
        copies.append(copy)
        assert copy == f"{session}-android"
        snapshot = c.call("session.snapshot", session=copy)
        assert snapshot["profile"]["name"] == "android"
        assert strip_revisions(snapshot["tree"]) == strip_revisions(c.call("tree.get", session=session)["tree"])
        assert c.call("session.snapshot", session=session)["profile"]["name"] == "uikit", "the source is unchanged"
        assert browser.evaluate(f"{q('#otherProfile')}.textContent") == "open under uikit"

        # Under android a click on the picture draws Android's search: the transparent Veil consumes the DOWN.
        browser.wait_for(q('#world rect[data-node-id="Btn"]'), "the copy's world drawn")
        browser.click(*browser.center_of('#world rect[data-node-id="Btn"]'))
        browser.wait_for(q('#overlay rect[data-node-id="Veil"][data-hit="hit"]'), "android's consumer on the picture")
        explain = browser.evaluate(f"{q('#explain')}.innerText")
        assert "Veil consumed the DOWN in W" in explain and "AX1" in explain, explain
        assert c.call("session.snapshot", session=copy)["seq"] == snapshot["seq"], "a search is a dry run"
        # The why panel: the engine refuses whyNot under android; the page says so as a note.
        browser.wait_for(f"{q('#why')}.dataset.ok === 'note'", "the why panel's note")
        note = browser.evaluate(f"{q('#why .note')}.textContent")
        assert note == "why-not answers UIKit's rules; this session runs android"
        browser.screenshot("web-android.png")
        # Another client's tap on the copy: its trace is drawn as Android's search too.
        seq = c.call("event.tap", session=copy, point=[150, 50])["seq"]
        browser.wait_for(q(f'#explain[data-seq="{seq}"] [data-node-id="Veil"][data-hit="hit"]'), "the tap's search")

        # And back: a second copy under uikit (its name taken from the copy's, unique).
        browser.click(*browser.center_of("#otherProfile"))
        browser.wait_for(f"{q('#profile')}.dataset.profile === 'uikit'", "the uikit badge again")
        back = browser.evaluate(f"{q('#session')}.textContent")
        copies.append(back)
        assert back == f"{copy}-uikit"
        assert c.call("session.snapshot", session=back)["profile"]["name"] == "uikit"
    finally:
        web.close()
        for s in copies:
            c.rpc("session.delete", {"session": s}, validate=False)


def test_a_taken_name_gets_a_number(engine, browser):  # noqa: F811
    c = engine.client()
    session = new_session(c, "webtaken")
    c.call("session.create", session=f"{session}-android", profile={"name": "android"})
    web = Web(engine, session)
    try:
        browser.navigate(web.url)
        browser.wait_for(f"{q('#profile')}.dataset.profile === 'uikit'", "the uikit badge")
        browser.click(*browser.center_of("#otherProfile"))
        browser.wait_for(f"{q('#profile')}.dataset.profile === 'android'", "the android badge")
        assert browser.evaluate(f"{q('#session')}.textContent") == f"{session}-android-2"
        browser.wait_for(q('#world rect[data-node-id="button"]'), "the copy's world drawn")
    finally:
        web.close()
        for s in (f"{session}-android", f"{session}-android-2"):
            c.rpc("session.delete", {"session": s}, validate=False)
