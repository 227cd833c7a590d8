"""Scroll directions (G12, K19–K21, K8's touchesShouldCancel; docs/rules.md) through the real engine and the real
CLI: which scroll view a drag moves, the scroll view's pan among the other recognizers, the touches a scroll view
keeps, and paging. Replies are validated against Protocol/schemas like every other.
"""

from __future__ import annotations

from guide_console import guide_section, run_console
from test_gestures import World, began, ended, moved, rec, steps, world  # noqa: F401 (world: the fixture)
from test_scenarios import RVC, control, fixture_f, view

HANDLES_ALL = {"handles": {m: "handle" for m in ("touchesBegan", "touchesMoved", "touchesEnded", "touchesCancelled")}}


def feed_world(feed: dict | None = None, carousel: dict | None = None, card: dict | None = None) -> dict:
    """A vertical feed (content 400×3000) holding a horizontal carousel (content 1200×200) whose card fills it."""
    card_view = view("K", (0, 0, 1200, 200), **{**HANDLES_ALL, **(card or {})})
    inner = view("Carousel", (0, 100, 400, 200), card_view, **{"class": "UIScrollView", "contentSize": [1200, 200],
                                                                **(carousel or {})})
    outer = view("Feed", (0, 0, 400, 800), inner, **{"class": "UIScrollView", "contentSize": [400, 3000], **(feed or {})})
    return fixture_f(outer, rvc={"handles": {"pan:": "handle", "swipe:": "handle", "tapped:": "handle"}})


def gestures(reply: dict) -> list[tuple]:
    return [(g["recognizer"], g["to"], g["rule"], g.get("reason"), g.get("by")) for g in steps(reply, "gesture")]


def changes(reply: dict) -> list[tuple]:
    return [(s["id"], s["to"], s["rule"]) for s in steps(reply, "change")]


def test_K19_vertical_drag_in_a_carousel_scrolls_the_feed_horizontal_scrolls_the_carousel(world):
    w = world(feed_world())
    down = w.touch(began("t", (200, 200), 0), moved("t", (200, 150), 0.05), ended("t", None, 0.1))
    assert changes(down) == [("Feed", [0, 50], "K8")]
    assert gestures(down)[:2] == [("Feed.pan", "began", "G2", "threshold", None),
                                  ("Carousel.pan", "failed", "G4", "excluded", "Feed.pan")]
    across = world(feed_world()).touch(began("t", (300, 200), 0), moved("t", (250, 200), 0.05))
    assert changes(across) == [("Carousel", [50, 0], "K8")]
    assert gestures(across) == [("Carousel.pan", "began", "G2", "threshold", None),
                                ("Feed.pan", "failed", "G4", "excluded", "Carousel.pan")]
    both = world(feed_world()).touch(began("t", (300, 200), 0), moved("t", (280, 180), 0.05))
    assert changes(both) == [("Carousel", [20, 0], "K8")], "both axes at once: the inner one, which can scroll"


def test_K19_a_pan_held_on_an_axis_it_cannot_scroll_stays_possible_and_fails_at_the_end(world):
    carousel = view("Carousel", (0, 100, 400, 200), view("K", (0, 0, 1200, 200), **HANDLES_ALL),
                    **{"class": "UIScrollView", "contentSize": [1200, 200]})
    w = world(fixture_f(carousel))
    down = w.touch(began("t", (300, 200), 0), moved("t", (300, 240), 0.05))
    assert gestures(down) == [] and changes(down) == []
    assert steps(down, "scrollAxis") == [{"step": "scrollAxis", "recognizer": "Carousel.pan", "view": "Carousel",
                                          "axes": ["vertical"], "rule": "K19"}]
    assert w.recognizer("Carousel.pan")["state"] == "possible"
    up = w.touch(ended("t", None, 0.1))
    assert gestures(up)[0] == ("Carousel.pan", "failed", "K19", "cannot-scroll", None)
    assert [s["message"] for s in steps(up, "deliver") if s["to"] == "K"] == \
        ["touchesBegan", "touchesMoved", "touchesEnded"], "the content gets the whole drag"
    later = world(fixture_f(carousel))
    later.touch(began("t", (300, 200), 0), moved("t", (300, 240), 0.05))
    across = later.touch(moved("t", (260, 240), 0.1))
    assert gestures(across) == [("Carousel.pan", "began", "G2", "threshold", None)]
    assert changes(across) == [("Carousel", [40, 0], "K8")]


def test_K19_always_bounce_vertical_scrolls_content_that_fits_while_bounces(world):
    def drag(**fields) -> list[tuple]:
        s = view("S", (0, 0, 400, 400), view("C", (0, 0, 400, 400), **HANDLES_ALL),
                 **{"class": "UIScrollView", "contentSize": [400, 400], **fields})
        return gestures(world(fixture_f(s)).touch(began("t", (200, 300), 0), moved("t", (200, 280), 0.05)))
    assert drag() == []
    assert drag(alwaysBounceVertical=True) == [("S.pan", "began", "G2", "threshold", None)]
    assert drag(alwaysBounceVertical=True, bounces=False) == []
    assert drag(alwaysBounceHorizontal=True) == []


def test_K19_the_pan_threshold_is_per_axis(world):
    # Amended: 8,8 is 11.3 in a straight line, but neither axis reaches 10.
    def drag(dx, dy) -> list[tuple]:
        w = world(fixture_f(view("P", (100, 100, 200, 200), gestureRecognizers=[rec("pan", "pan")]),
                            rvc={"handles": {"pan:": "handle"}}))
        return [(g["recognizer"], g["to"]) for g in steps(w.touch(began("t", (150, 150), 0),
                                                                  moved("t", (150 + dx, 150 + dy), 0.05)), "gesture")]
    assert drag(8, 8) == []
    assert drag(0, 10) == [("pan", "began")]
    assert drag(-10, 3) == [("pan", "began")]


def test_G12_other_recognizers_name_the_scroll_pan_in_require_to_fail_and_simultaneous_with(world):
    waits = world(feed_world(card={"gestureRecognizers": [rec("tap1", "tap", requireToFail=["Feed.pan"])]}))
    tap = waits.touch(began("a", (200, 200), 0), ended("a", None, 0.05))
    assert [(s["recognizer"], s["waitingFor"]) for s in steps(tap, "gestureWait")] == [("tap1", ["Feed.pan"])]
    assert ("tap1", "recognized", "G5", "required-failed", None) in gestures(tap)
    both = world(feed_world(card={"gestureRecognizers": [rec("pan", "pan", simultaneousWith=["Feed.pan"])]}))
    drag = both.touch(began("a", (200, 200), 0), moved("a", (200, 150), 0.05))
    assert {("pan", "began"), ("Feed.pan", "began")} <= {(g[0], g[1]) for g in gestures(drag)}
    assert changes(drag) == [("Feed", [0, 50], "K8")]
    alone = world(feed_world(card={"gestureRecognizers": [rec("pan", "pan")]}))
    assert ("Feed.pan", "failed", "G4", "excluded", "pan") in gestures(
        alone.touch(began("a", (200, 200), 0), moved("a", (200, 150), 0.05)))


def test_G12_the_scroll_views_own_pan_delegate_answers_and_pan_require_to_fail(world):
    refuses = world(feed_world(feed={"panDelegate": {"shouldBegin": False}}))
    r = refuses.touch(began("a", (200, 400), 0), moved("a", (200, 350), 0.05))
    assert gestures(r) == [("Feed.pan", "failed", "G6", "should-begin-false", None)]
    deaf = world(feed_world(feed={"panDelegate": {"shouldReceiveTouch": False}}))
    observe = steps(deaf.touch(began("a", (200, 400), 0)), "observe", recognizer="Feed.pan")
    assert [(o["observes"], o["reason"]) for o in observe] == [(False, "should-receive-touch-false")]
    both = world(feed_world(feed={"panDelegate": {"simultaneousWith": ["pan"]}},
                            card={"gestureRecognizers": [rec("pan", "pan")]}))
    assert changes(both.touch(began("a", (200, 200), 0), moved("a", (200, 150), 0.05))) == [("Feed", [0, 50], "K8")]
    swipe = {"gestureRecognizers": [rec("swipe", "swipe", direction=["right"])]}
    w = world(feed_world(feed={"panRequireToFail": ["swipe"]}, card=swipe))
    first = w.touch(began("a", (200, 250), 0), moved("a", (200, 230), 0.05))
    assert [(s["recognizer"], s["waitingFor"]) for s in steps(first, "gestureWait")] == [("Feed.pan", ["swipe"])]
    assert w.recognizer("Feed.pan")["waitingFor"] == ["swipe"]
    second = w.touch(moved("a", (200, 180), 0.1))
    assert gestures(second)[:3] == [("swipe", "failed", "G2", "wrong-direction", None),
                                    ("Feed.pan", "began", "G5", "required-failed", None),
                                    ("Carousel.pan", "failed", "G4", "excluded", "Feed.pan")]
    tree = w.call("tree.get", id="Feed")["tree"]
    assert tree["panRequireToFail"] == ["swipe"] and "pagingEnabled" not in tree, "written only when set"


def test_G12_scroll_view_fields_are_refused_off_scroll_views_and_checked(world):
    w = world(feed_world())
    err = w.error("tree.apply", ops=[{"op": "update", "id": "K", "set": {"pagingEnabled": True}}])
    assert err.name == "INVALID_NODE" and err.data["field"] == "ops[0].set.pagingEnabled"
    err = w.error("tree.apply", ops=[{"op": "update", "id": "Feed", "set": {"panDelegate": {"shouldbegin": False}}}])
    assert err.name == "INVALID_NODE" and err.data["field"] == "ops[0].set.panDelegate.shouldbegin"
    err = w.error("tree.apply", ops=[{"op": "update", "id": "Feed", "set": {"touchesShouldCancel": "sometimes"}}])
    assert err.name == "INVALID_NODE" and err.data["field"] == "ops[0].set.touchesShouldCancel"


def test_K8_touches_should_cancel_always_lets_a_drag_on_a_button_scroll(world):
    def press(answer: str) -> dict:
        s = view("S", (0, 0, 400, 400), control("B", (0, 200, 400, 200)),
                 **{"class": "UIScrollView", "contentSize": [400, 1000], "touchesShouldCancel": answer})
        w = world(fixture_f(s))
        w.touch(began("a", (100, 300), 0))
        w.advance(to=0.2)
        return w.touch(moved("a", (100, 200), 0.3))
    always = press("always")
    assert changes(always) == [("S", [0, 100], "K8")]
    assert [(c["control"], c["event"]) for c in steps(always, "controlEvent")] == [("B", "touchCancel")]
    assert gestures(press("default"))[0] == ("S.pan", "failed", "K8", "control-keeps-touch", "B")
    assert gestures(press("never"))[0] == ("S.pan", "failed", "K8", "touches-should-cancel-false", "B")


def test_K20_a_scroll_view_keeps_the_touches_on_its_own_area(world):
    def tap(**fields) -> list[tuple]:
        s = view("S", (0, 0, 400, 400), **{"class": "UIScrollView", "contentSize": [400, 1000], **fields})
        w = world(fixture_f(s, rvc={"handles": {"touchesBegan": "handle"}}))
        reply = w.touch(began("a", (100, 300), 0), ended("a", None, 0.05))
        return [(s["to"], s["disposition"], s["rule"]) for s in steps(reply, "deliver") if s["message"] == "touchesBegan"]
    assert tap() == [("S", "handled", "K20")], "not passed to its controller"
    assert tap(scrollEnabled=False) == [("S", "not-handled", "T2"), ("R", "not-handled", "T2"), (RVC, "handled", "T2")]
    assert tap(handles={"touchesBegan": "handle+super"}) == [("S", "handled+super", "K20")]


def test_K21_paging_settles_on_the_nearest_page_after_touch_up(world):
    def swipe(to_x: float) -> dict:
        s = view("S", (0, 0, 400, 400), view("C", (0, 0, 1200, 400), **HANDLES_ALL),
                 **{"class": "UIScrollView", "contentSize": [1200, 400], "pagingEnabled": True})
        w = world(fixture_f(s))
        w.touch(began("a", (350, 200), 0), moved("a", (to_x, 200), 0.05))
        return w.touch(ended("a", None, 0.1))
    far = swipe(110)  # the finger left the offset at 240: page 1 is nearer
    assert changes(far) == [("S", [400, 0], "K21")]
    (change,) = steps(far, "change")
    assert "touch" not in change and "phase" not in change, "a change after touch-up, no touch phase of its own"
    assert changes(swipe(200)) == [("S", [0, 0], "K21")]  # offset 150: back to page 0


def scroll_traces(engine, client) -> list[dict]:
    """Traces in which every 1.13 rule and reason of G12, K8's touchesShouldCancel and K19–K21 occurs:
    test_dispatch's coverage check adds them."""
    from harness import new_session
    traces: list[dict] = []
    made: list[str] = []

    def make(tree: dict) -> World:
        name = new_session(client, "scrollcov", tree=tree)
        made.append(name)
        return World(engine, client, name)

    carousel = view("Carousel", (0, 100, 400, 200), view("K", (0, 0, 1200, 200), **HANDLES_ALL),
                    **{"class": "UIScrollView", "contentSize": [1200, 200], "pagingEnabled": True})
    w = make(fixture_f(carousel))
    traces.append(w.touch(began("t", (300, 200), 0), moved("t", (300, 240), 0.05), ended("t", None, 0.1))["trace"])
    traces.append(w.touch(began("u", (300, 200), 1), moved("u", (100, 200), 1.05), ended("u", None, 1.1))["trace"])
    s = make(fixture_f(view("S", (0, 0, 400, 400), control("B", (0, 200, 400, 200)),
                            **{"class": "UIScrollView", "contentSize": [400, 1000], "touchesShouldCancel": "never"})))
    s.touch(began("a", (100, 300), 0))
    traces.append(s.advance(to=0.2)["trace"])
    traces.append(s.touch(moved("a", (100, 200), 0.3), ended("a", None, 0.4))["trace"])
    traces.append(s.touch(began("b", (100, 100), 1), ended("b", None, 1.05))["trace"])
    for name in made:
        client.rpc("session.delete", {"session": name}, validate=False)
    return traces


def test_guide_nested_scroll_views_runs_as_written(engine, tmp_path):
    """docs/gestures-and-uikit-classes.md, "Nested scroll views: a carousel inside a feed": its world file and every
    `$ responder …` line, run through the real CLI in order, print what the guide shows."""
    assert run_console(engine, tmp_path, guide_section("## Nested scroll views: a carousel inside a feed"), "feed.json") == 2
