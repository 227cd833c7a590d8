"""The inspector's why panel, outline and followed overlays in a real headless chromium against a real engine:
selecting a view shows the engine's whyNot answer in exactly the lines `responder why` prints, with the culprit
and the hittable point drawn on the picture; the outline's search filters by class, text and id; system views
start collapsed and open on demand; the outline's handle resizes it; and the overlay of a tap or a hit test is
asked again when the tree changes in Live mode. Screenshots go to Tests/artifacts/."""

from __future__ import annotations

import json
import subprocess

from harness import PATIENCE, new_session
from stdio_harness import responder_path, target_args
from test_scenarios import fixture_f, view
from test_web import Web, browser, pytestmark, q  # noqa: F401  (the fixture and the chromium skip)


def named(id: str, frame, *children, cls: str = "UIView", **notes) -> dict:
    return view(id, frame, *children, **{"class": cls, "annotations": notes} if notes else {"class": cls})


def inspector_world() -> dict:
    """A sign-in button a promotion banner covers; a card with a label of words; a bar background of UIKit's
    private classes."""
    return fixture_f(
        named("barBg", (0, 0, 400, 44),
              named("barShadow", (0, 43, 400, 1), cls="UIImageView"),
              named("barEffect", (0, 0, 400, 44), cls="_UIVisualEffectBackdropView"),
              cls="_UIBarBackground"),
        {"id": "button", "kind": "control", "class": "UIButton", "frame": [20, 100, 200, 60],
         "annotations": {"displayName": 'UIButton "Sign in"'}},
        named("banner", (0, 90, 400, 80), cls="PromoBanner", displayName='PromoBanner "50% off"'),
        named("card", (20, 300, 360, 120), named("cardLabel", (10, 10, 200, 30), cls="UILabel", text="Total due")),
    )


def rows() -> str:
    return "[...document.querySelectorAll('#outline .row')].map(r => r.dataset.nodeId)"


def why_lines_cli(engine, session: str, view_id: str) -> list[str]:
    r = subprocess.run([str(responder_path()), *target_args(engine), "why", view_id, "--session", session],
                       capture_output=True, text=True, timeout=PATIENCE)
    assert r.returncode in (0, 1), r.stderr
    return r.stdout.splitlines()


def test_selecting_a_view_shows_its_why_not_as_responder_why_prints_it_and_draws_the_culprit(engine, browser):
    c = engine.client()
    session = new_session(c, "webwhy", tree=inspector_world())
    web = Web(engine, session)
    try:
        browser.navigate(web.url)
        browser.wait_for(q('#outline .row[data-node-id="button"]'), "the outline")
        browser.click(*browser.center_of('#outline .row[data-node-id="button"]'))
        browser.wait_for(q('#why[data-view="button"][data-ok="false"] .w-cause'), "the why panel of the button")

        answer = c.call("whyNot", session=session, view="button")
        assert answer["cause"]["reason"] == "covered" and answer["cause"]["culprit"] == "banner"
        # The panel's text is what `responder why` prints, line for line (one function, two front doors).
        shown = browser.evaluate("[...document.querySelectorAll('#why .line .text')].map(e => e.textContent)")
        assert shown == why_lines_cli(engine, session, "button")
        assert shown[0].startswith('button (UIButton "Sign in"): not ok (') and "covered" in shown[0]
        assert any(line.startswith("rules:") for line in shown), "the rules' meanings follow"
        # The decisive cause comes first and names its culprit by display name; clicking it selects the culprit.
        cause = browser.evaluate(f"{q('#why .w-cause')}.innerText")
        assert 'banner (PromoBanner "50% off")' in cause
        assert browser.evaluate(f"{q('#why')}.dataset.culprit") == "banner"

        # On the picture: the view, the culprit, and that no point of the view is its own.
        layer = browser.evaluate("[...document.querySelectorAll('#whyLayer [data-node-id]')].map(e => [e.dataset.nodeId, e.getAttribute('class')])")
        assert ["button", "why-view"] in layer and ["banner", "why-culprit"] in layer
        assert answer["hittable"]["point"] is None
        assert browser.evaluate("document.querySelectorAll('#whyLayer .why-point').length") == 0
        assert browser.evaluate(f"{q('#whyLayer .why-tag')}.textContent") == "hittable nowhere"
        # The outlines sit where the world draws the views.
        for node, cls in (("button", "why-view"), ("banner", "why-culprit")):
            same = f"['x', 'y', 'width', 'height'].every(a => document.querySelector('#whyLayer .{cls}').getAttribute(a)" \
                   f" === document.querySelector('#world rect.v[data-node-id=\"{node}\"]').getAttribute(a))"
            assert browser.evaluate(same), node
        shot = browser.screenshot("web-why.png")
        assert shot.stat().st_size > 10_000

        # The culprit's chip selects it; a view that gets its taps says ok.
        browser.click(*browser.center_of("#why .w-cause .culprit"))
        browser.wait_for(q('#why[data-view="banner"][data-ok="true"] .w-ok'), "the banner's why: ok")
        assert browser.evaluate(f"{q('#outline .row.sel')}.dataset.nodeId") == "banner"
        assert browser.evaluate("[...document.querySelectorAll('#why .line .text')].map(e => e.textContent)") == \
            why_lines_cli(engine, session, "banner")

        # The tree changes in Live mode: the selection's answer is asked again (the banner hidden: not ok now).
        c.call("tree.apply", session=session, ops=[{"op": "update", "id": "banner", "set": {"hidden": True}}])
        browser.wait_for(q('#why[data-view="banner"][data-ok="false"] .w-cause'), "the banner's why after the change")
        assert "hidden" in browser.evaluate(f"{q('#why .w-cause')}.innerText")

        # The button is now its own where the banner was: the hittable point drawn is one where hitTest answers it.
        browser.click(*browser.center_of('#outline .row[data-node-id="button"]'))
        browser.wait_for(q('#why[data-view="button"][data-ok="true"] .w-ok'), "the button's why: ok")
        answer = c.call("whyNot", session=session, view="button")
        point = browser.evaluate(f"[{q('#whyLayer .why-point')}.dataset.x, {q('#whyLayer .why-point')}.dataset.y].map(Number)")
        assert point == answer["hittable"]["point"]
        assert c.call("hitTest", session=session, point=point)["view"] == "button", "the point drawn is the button's"
        # The hittable area is drawn: the engine's rectangles, moved with the window's panel, each a place where
        # hitTest answers the button.
        area = c.call("whyNot", session=session, view="button", area=True)["hittable"]["area"]
        drawn = browser.evaluate("[...document.querySelectorAll('#whyLayer rect.why-area')].map(r => "
                                 "['x', 'y', 'width', 'height'].map(a => Number(r.getAttribute(a))))")
        assert area and len(drawn) == len(area)
        assert [[w, h] for _, _, w, h in drawn] == [[w, h] for _, _, w, h in area]
        for x, y, w, h in area:
            assert c.call("hitTest", session=session, point=[x + w / 2, y + h / 2])["view"] == "button"
        share = round(answer["hittable"]["fraction"] * 100)
        assert browser.evaluate(f"{q('#whyLayer .why-tag')}.textContent").startswith(f"hittable {share}% · (")
        assert browser.evaluate("[...document.querySelectorAll('#why .line .text')].map(e => e.textContent)") == \
            why_lines_cli(engine, session, "button")
        browser.screenshot("web-why-ok.png")
    finally:
        web.close()


def test_the_outline_is_searched_collapses_system_views_and_resizes(engine, browser):
    c = engine.client()
    session = new_session(c, "weboutline", tree=inspector_world())
    web = Web(engine, session)
    try:
        browser.navigate(web.url)
        browser.wait_for(q('#outline .row[data-node-id="card"]'), "the outline")
        # UIKit's private classes start collapsed: the bar background shows, what is inside it does not.
        everything = browser.evaluate(rows())
        assert "barBg" in everything and "barShadow" not in everything and "barEffect" not in everything
        assert browser.evaluate(f"{q('#outline .row[data-node-id=barBg]')}.dataset.system") == "collapsed"
        assert "+2" in browser.evaluate(f"{q('#outline .row[data-node-id=barBg]')}.innerText")
        assert "1 system view" in browser.evaluate(f"{q('#outlineNote')}.textContent")
        browser.click(*browser.center_of("#outline .row[data-node-id=barBg] .tw"))
        browser.wait_for(q('#outline .row[data-node-id="barShadow"]'), "the bar background opened")
        assert browser.evaluate(rows()).index("barShadow") == browser.evaluate(rows()).index("barBg") + 1
        browser.click(*browser.center_of("#outline .row[data-node-id=barBg] .tw"))
        browser.wait_for(f"!{q('#outline .row[data-node-id=barShadow]')}", "the bar background closed again")
        browser.click(*browser.center_of("#systemToggle"))
        browser.wait_for(f"{q('#outline .row[data-node-id=barEffect]')} && {q('#outline .row[data-node-id=barBg]')}.dataset.system === 'open'",
                         "every system view opened")
        browser.click(*browser.center_of("#systemToggle"))
        browser.wait_for(f"!{q('#outline .row[data-node-id=barEffect]')}", "every system view collapsed again")

        # Search by text: the match and the way to it.
        browser.click(*browser.center_of("#search"))
        browser.type_text("total")
        browser.wait_for(f"{q('#outline .row.match')} && {q('#outline .row.match')}.dataset.nodeId === 'cardLabel'",
                         "the label found by its text")
        assert browser.evaluate(rows()) == ["app", "W", "RVC", "R", "card", "cardLabel"]
        assert browser.evaluate("[...document.querySelectorAll('#outline .row.match')].map(r => r.dataset.nodeId)") == ["cardLabel"]
        assert browser.evaluate(f"{q('#outlineNote')}.textContent").startswith("1 of ")
        browser.screenshot("web-search.png")
        # By class (case aside), and by id inside a collapsed system view.
        browser.evaluate("(() => { const s = document.querySelector('#search'); s.select(); })()")
        browser.type_text("promobanner")
        browser.wait_for(f"JSON.stringify({rows()}) === JSON.stringify(['app', 'W', 'RVC', 'R', 'banner'])", "the banner by class")
        browser.evaluate("document.querySelector('#search').select()")
        browser.type_text("barEff")
        browser.wait_for(f"JSON.stringify({rows()}) === JSON.stringify(['app', 'W', 'RVC', 'R', 'barBg', 'barEffect'])",
                         "a system view's child by id")
        browser.press_key("Escape", "Escape", 27)
        browser.wait_for(f"{rows()}.length === {len(everything)}", "the whole outline again")

        # The handle between the outline and the picture resizes the outline.
        before = browser.evaluate(f"{q('#outlinePane')}.getBoundingClientRect().width")
        hx, hy = browser.center_of("#outlineHandle")
        browser.drag(hx, hy, hx + 150, hy)
        wider = browser.evaluate(f"{q('#outlinePane')}.getBoundingClientRect().width")
        assert abs(wider - (before + 150)) <= 2, (before, wider)
        stage = browser.evaluate(f"{q('#stage')}.getBoundingClientRect().left")
        assert abs(stage - (browser.evaluate(f"{q('#outlineHandle')}.getBoundingClientRect().right"))) <= 1
        hx, hy = browser.center_of("#outlineHandle")
        browser.drag(hx, hy, hx - 100, hy)
        assert abs(browser.evaluate(f"{q('#outlinePane')}.getBoundingClientRect().width") - (wider - 100)) <= 2
        browser.screenshot("web-outline.png")
    finally:
        web.close()


def test_the_overlay_follows_a_tree_change_in_live_mode(engine, browser):
    c = engine.client()
    c.call("client.hello", name="pytest-tapper")
    session = new_session(c, "webfollow", tree=inspector_world())
    web = Web(engine, session)
    try:
        browser.navigate(web.url)
        browser.wait_for(q('#world rect[data-node-id="button"]'), "the world drawn")
        c.call("tree.apply", session=session, ops=[{"op": "update", "id": "banner", "set": {"hidden": True}}])
        browser.wait_for(q('#world rect.hidden[data-node-id="banner"]'), "the banner hidden")
        # Another client taps the button where it is its own.
        x, y = c.call("whyNot", session=session, view="button")["hittable"]["point"]
        seq = c.call("event.tap", session=session, point=[x, y])["seq"]
        browser.wait_for(q(f'#explain[data-seq="{seq}"] [data-node-id="button"].ln-target'), "the tap's overlay")
        target = "document.querySelector('#overlay rect.h.target')"
        world_button = "document.querySelector('#world rect.v[data-node-id=\"button\"]')"
        y_before = browser.evaluate(f"{world_button}.getAttribute('y')")
        assert browser.evaluate(f"{target}.getAttribute('y')") == y_before

        # The button moves down a little (still under the tapped point): the overlay moves with it.
        c.call("tree.apply", session=session, ops=[{"op": "update", "id": "button", "set": {"frame": [20, 120, 200, 60]}}])
        browser.wait_for(f"{q('#explain')}.dataset.source === 'follow' && {world_button}.getAttribute('y') !== '{y_before}'"
                         f" && {target} && {target}.getAttribute('y') === {world_button}.getAttribute('y')",
                         "the overlay at the button's new place")
        assert browser.evaluate(f"{target}.dataset.nodeId") == "button"
        explain = browser.evaluate(f"{q('#explain')}.innerText")
        assert "asked again: the tree changed" in explain
        assert f"scrub to #{seq}" in explain and "tap" in explain
        assert browser.evaluate("document.querySelector('#overlay').classList.contains('stale')") is False
        browser.screenshot("web-follow.png")

        # The button moves away: the same point now hits the root view, and the overlay says so.
        c.call("tree.apply", session=session, ops=[{"op": "update", "id": "button", "set": {"frame": [20, 500, 200, 60]}}])
        browser.wait_for(f"{target} && {target}.dataset.nodeId === 'R'", "the overlay of the same point on the new tree")
        drawn = [float(v) for v in browser.evaluate(f"{q('#overlay .touch')}.dataset.point").split(",")]
        assert abs(drawn[0] - x) < 0.01 and abs(drawn[1] - y) < 0.01, "the point tapped, to two decimals"
        assert c.call("hitTest", session=session, point=[x, y])["view"] == "R"
        # Nothing was tapped again: the session's only trace is the other client's tap.
        events = browser.evaluate("[...document.querySelectorAll('#events li')].map(li => li.dataset.stream)")
        assert events.count("trace") == 1, events

        # Scrubbing back shows the tap as it happened, on the world before the changes.
        browser.click(*browser.center_of(f'#events li[data-seq="{seq}"]'))
        browser.wait_for(f"!{q('#pastBanner')}.hidden && {target} && {target}.dataset.nodeId === 'button'"
                         f" && {world_button}.getAttribute('y') === '{y_before}'", "the tap as it happened")
        assert browser.evaluate(f"{target}.getAttribute('y')") == y_before

        # Back live, a hit test of the page's own follows too: the card moves, its outline with it.
        browser.click(*browser.center_of("#backLive"))
        browser.wait_for(f"{q('#pastBanner')}.hidden && {q('#explain .hint')}", "the live world, its overlay cleared")
        browser.click(*browser.center_of('#world rect.v[data-node-id="card"]'))
        browser.wait_for(f"{target} && {target}.dataset.nodeId === 'card'", "the hit test of the card")
        world_card = "document.querySelector('#world rect.v[data-node-id=\"card\"]')"
        card_y = browser.evaluate(f"{world_card}.getAttribute('y')")
        c.call("tree.apply", session=session, ops=[{"op": "update", "id": "card", "set": {"frame": [20, 280, 360, 120]}}])
        browser.wait_for(f"{q('#explain')}.dataset.source === 'follow' && {world_card}.getAttribute('y') !== '{card_y}'"
                         f" && {target} && {target}.dataset.nodeId === 'card'"
                         f" && {target}.getAttribute('y') === {world_card}.getAttribute('y')", "the card's hit test followed")
        assert "scrub to" not in browser.evaluate(f"{q('#explain')}.innerText"), "no event to scrub to: the page asked it"
    finally:
        web.close()
