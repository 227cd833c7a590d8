"""The `android` profile's rules (docs/rules-android.md) through the real engine, one behaviour per test, each
named by the ids it exercises. Worked scenarios that compare both profiles are in test_android_scenarios.py;
here are the parts they do not reach: interception policies, disallow requests, listeners, touch delegates,
removal mid-gesture, focus, deadlines on clock.advance, mapping notes, atomicity and the refusals. Replies and
events are validated against Protocol/schemas by the harness.
"""

from __future__ import annotations

import pytest

from harness import RPCError, new_session
from test_scenarios import control, fixture_f, text_field, view

ANDROID = {"name": "android"}


class Android:
    def __init__(self, engine, client, tree: dict, **profile):
        self.engine = engine
        self.client = client
        self.session = new_session(client, "and", tree=tree, profile={**ANDROID, **profile})

    def call(self, method: str, **params):
        return self.client.call(method, session=self.session, **params)

    def touch(self, *entries, **params) -> dict:
        touches = []
        for t, phase, point, *time in entries:
            e = {"touch": t, "phase": phase}
            if point is not None:
                e["point"] = list(point)
            if time:
                e["time"] = time[0]
            touches.append(e)
        return self.call("event.touch", touches=touches, **params)

    def tap(self, x, y, **params) -> dict:
        return self.call("event.tap", point=[x, y], **params)


@pytest.fixture
def android(engine, client):
    made: list[Android] = []

    def make(tree: dict, **profile) -> Android:
        a = Android(engine, client, tree, **profile)
        made.append(a)
        return a

    yield make
    for a in made:
        client.rpc("session.delete", {"session": a.session}, validate=False)


def steps(reply: dict, step: str, **match) -> list[dict]:
    return [s for s in reply["trace"]["steps"]
            if s["step"] == step and all(s.get(k) == v for k, v in match.items())]


def until(sub, topic: str, pred) -> dict:
    """The first event on `topic` that `pred` accepts."""
    while True:
        _, body = sub.next(topic)
        if pred(body):
            return body


def clicks(reply: dict) -> list[tuple[str, str]]:
    return [(a["action"], a["target"]) for d in reply["deliveries"] for a in d["actions"]]


def button(id: str, frame, action: str, **fields) -> dict:
    return control(id, frame, targets=[{"event": "touchUpInside", "action": action, "target": "RVC"}], **fields)


def with_android(n: dict, **android) -> dict:
    n["android"] = android
    return n


def test_AD5_candidates_are_skipped_for_visibility_and_bounds_not_alpha_or_enabled(android):
    a = android(fixture_f(
        button("Low", (0, 0, 200, 200), "low"),
        with_android(view("Gone", (0, 0, 200, 200)), visibility="gone", clickable=True),
        with_android(view("Inv", (0, 0, 200, 200)), visibility="invisible", clickable=True),
        view("Far", (300, 300, 50, 50)),
        button("Clear", (0, 0, 100, 100), "clear", alpha=0)))
    r = a.tap(150, 150)
    reasons = {s["child"]: (s["result"], s.get("reason"), s["rule"]) for s in steps(r, "candidate", group="R")}
    assert reasons == {"Clear": ("skipped", "outside-bounds", "AD5"), "Far": ("skipped", "outside-bounds", "AD5"),
                       "Inv": ("skipped", "invisible", "AD5"), "Gone": ("skipped", "gone", "AD5"),
                       "Low": ("offered", None, "AD5")}
    assert clicks(r) == [("low", "RVC")]
    # Alpha 0 is no reason to skip: the transparent button takes a tap inside it.
    assert clicks(a.tap(50, 50)) == [("clear", "RVC")]


def test_AD4_elevation_orders_the_search_before_drawing_order(android):
    a = android(fixture_f(with_android(button("A", (0, 0, 200, 200), "a"), elevation=4, translationZ=4),
                          button("B", (100, 100, 200, 200), "b")))
    r = a.tap(150, 150)
    assert [s["child"] for s in steps(r, "candidate", group="R")] == ["A"]
    assert steps(r, "candidate", group="R")[0]["rule"] == "AD4"
    assert clicks(r) == [("a", "RVC")]


def test_AI1_AI3_AD7_a_group_that_intercepts_the_DOWN_handles_it_itself(android):
    shield = with_android(view("Shield", (0, 0, 400, 800), button("Btn", (100, 100, 200, 100), "save")),
                          handles={"onInterceptTouchEvent": "down", "onTouchEvent": "consume"})
    a = android(fixture_f(shield))
    r = a.tap(150, 150)
    assert steps(r, "intercept", group="Shield", action="down") == [
        {"step": "intercept", "group": "Shield", "action": "down", "result": True, "rule": "AI3", "touch": "tap-1"}]
    assert not steps(r, "candidate", group="Shield"), "an intercepted DOWN searches no child"
    assert [d["view"] for d in r["deliveries"]] == ["Shield", "Shield"]
    assert clicks(r) == []


def test_AI4_intercepting_mid_gesture_cancels_the_targets_below(android):
    # atEvent 3: the group takes the gesture at its third event (the DOWN is the first).
    group = with_android(view("G", (0, 0, 400, 400), button("Btn", (0, 0, 200, 200), "save")),
                         handles={"onInterceptTouchEvent": {"atEvent": 3}, "onTouchEvent": "consume"})
    a = android(fixture_f(group))
    r = a.touch(("t", "began", (50, 50)), ("t", "moved", (51, 50)), ("t", "moved", (52, 50)),
                ("t", "moved", (53, 50)), ("t", "ended", (53, 50)))
    assert [s["to"] for s in steps(r, "cancel")] == ["Btn"]
    assert steps(r, "cancel")[0]["cause"] == "intercept" and steps(r, "cancel")[0]["rule"] == "AI4"
    assert steps(r, "target", group="G", child="Btn", change="removed")
    assert [d["message"] for d in r["deliveries"]] == [
        "ACTION_DOWN", "ACTION_MOVE", "ACTION_CANCEL", "ACTION_MOVE", "ACTION_UP"]
    assert [d["view"] for d in r["deliveries"]] == ["Btn", "Btn", "Btn", "G", "G"]
    # AI4: once it holds the gesture, the group is no longer asked to intercept.
    assert [s["action"] for s in steps(r, "intercept", group="G")] == ["down", "move", "move"]
    assert steps(r, "press", view="Btn", state="unpressed", rule="AC8")
    assert clicks(r) == []


def test_AI5_AI6_a_child_claim_stops_its_ancestors_intercepting_for_the_gesture(android):
    scroll = view("SV", (0, 0, 400, 800), view("Content", (0, 0, 400, 2000), with_android(
        view("Knob", (0, 100, 400, 100)), clickable=True,
        handles={"requestDisallowIntercept": {"afterSlop": {"axis": "horizontal"}}})),
        **{"class": "UIScrollView", "contentSize": [400, 2000]})
    a = android(fixture_f(scroll))
    r = a.touch(("t", "began", (100, 150), 0), ("t", "moved", (120, 151), 0.01),
                ("t", "moved", (120, 200), 0.02), ("t", "ended", None, 0.03))
    claim = steps(r, "disallow")
    assert claim == [{"step": "disallow", "from": "Knob", "groups": ["Content", "SV", "R", "W"], "rule": "AI5",
                      "touch": "t"}]
    # After the claim the scroll view is told, not asked: dy 50 does not take the gesture.
    assert steps(r, "intercept", group="SV", action="move")[-1]["reason"] == "disallowed"
    assert not steps(r, "cancel")
    assert r["deliveries"][-1]["view"] == "Knob"
    # AI6: the next gesture starts without the flag: the scroll view takes a vertical drag again.
    r2 = a.touch(("u", "began", (100, 150), 1), ("u", "moved", (100, 180), 1.01), ("u", "ended", None, 1.02))
    assert steps(r2, "intercept", group="SV", action="move", result=True)[0]["rule"] == "AS1"
    assert [s["to"] for s in steps(r2, "cancel")] == ["Content", "Knob"]


def test_AS2_AS7_a_dragging_scroll_view_scrolls_and_a_seek_bar_follows_the_finger(android):
    scroll = view("SV", (0, 0, 400, 800), view("Content", (0, 0, 400, 2000), button("Btn", (0, 100, 400, 100), "save")),
                  **{"class": "UIScrollView"})
    a = android(fixture_f(scroll, control("Seek", (20, 700, 360, 40), **{"class": "UISlider", "value": 0.5})))
    r = a.touch(("t", "began", (200, 150), 0), ("t", "moved", (200, 146), 0.016), ("t", "moved", (200, 130), 0.032),
                ("t", "moved", (200, 100), 0.048), ("t", "ended", None, 0.064))
    # AS2: the 20 points before the crossing are not scrolled; the 30 after are (the content's extent, 2000, bounds it).
    assert [(s["to"], s["rule"]) for s in steps(r, "change", id="SV")] == [([0, 30], "AS2")]
    assert a.call("tree.get")["tree"]["children"][1]["children"][0]["children"][0]["children"][0]["boundsOrigin"] == [0, 30]
    r = a.touch(("s", "began", (40, 720), 1), ("s", "ended", None, 1.05))
    assert [round(s["to"], 3) for s in steps(r, "change", id="Seek")] == [0.056], "a tap seeks to where it was"


def test_AV1_AV2_a_touch_listener_answers_first_unless_the_view_is_disabled(android):
    listened = with_android(button("L", (0, 0, 200, 200), "save"), listeners={
        "touch": {"down": "consume", "*": "pass"}, "click": {"target": "RVC", "method": "save"}})
    a = android(fixture_f(listened))
    r = a.tap(50, 50)
    assert steps(r, "offer", to="L", action="down") == [
        {"step": "offer", "to": "L", "action": "down", "via": "listener", "result": True, "rule": "AV1",
         "touch": "tap-1"}]
    assert not steps(r, "press"), "a DOWN the listener consumed never reaches onTouchEvent"
    disabled = with_android(button("L", (0, 0, 200, 200), "save"), enabled=False, listeners={"touch": "consume"})
    b = android(fixture_f(disabled))
    r = b.tap(50, 50)
    assert steps(r, "offer", to="L", via="listener", rule="AV2", result=False)
    # AC2: disabled and clickable, it consumes every event and clicks nothing.
    assert steps(r, "offer", to="L", via="onTouchEvent", rule="AC2", result=True)
    assert [d["handledBy"] for d in r["deliveries"]] == [["L"], ["L"]] and clicks(r) == []


def test_AV3_AD11_AR4_a_target_that_refuses_later_events_sends_them_to_the_activity(android):
    v = with_android(view("V", (100, 100, 100, 100)), handles={"onTouchEvent": {"down": "consume", "*": "pass"}})
    a = android(fixture_f(v))
    r = a.touch(("t", "began", (150, 150)), ("t", "moved", (160, 160)), ("t", "ended", (160, 160)))
    assert [d["handledBy"] for d in r["deliveries"]] == [["V"], [], []]
    assert [(d.get("reason"), d.get("rule")) for d in r["deliveries"][1:]] == [("unhandled", "AR7")] * 2
    later = [s for s in r["trace"]["steps"] if s.get("action") == "move"]
    assert [s["step"] for s in later if s["step"] == "offer"] == ["offer"], "R and the DecorView never offer to themselves"
    assert steps(r, "activity", method="onTouchEvent", action="move", rule="AR5")


def test_AC6_leaving_the_button_by_more_than_the_slop_loses_the_click(android):
    a = android(fixture_f(button("Btn", (100, 100, 200, 100), "save")), touchSlop=8)
    r = a.touch(("t", "began", (150, 150)), ("t", "moved", (150, 207)), ("t", "ended", (150, 207)))
    assert clicks(r) == [("save", "RVC")], "7 below the bottom edge is inside the slop"
    r = a.touch(("u", "began", (150, 150)), ("u", "moved", (150, 210)), ("u", "moved", (150, 150)),
                ("u", "ended", (150, 150)))
    assert steps(r, "press", view="Btn", state="unpressed", rule="AC6")
    assert clicks(r) == []


def test_AC5_AC13_a_press_in_a_scrolling_container_waits_for_the_tap_timeout(android):
    scroll = view("SV", (0, 0, 400, 800), button("Btn", (0, 100, 400, 100), "save"),
                  **{"class": "UIScrollView", "contentSize": [400, 2000]})
    a = android(fixture_f(scroll), tapTimeout=0.1)
    r = a.touch(("t", "began", (100, 150), 0))
    assert [s["state"] for s in steps(r, "press")] == ["prepressed"]
    early = a.call("clock.advance", to=0.05)
    assert not steps(early, "press")
    due = a.call("clock.advance", to=0.1)
    assert [(s["state"], s["rule"]) for s in steps(due, "press")] == [("pressed", "AC5")]
    r = a.touch(("t", "ended", None, 0.2))
    assert clicks(r) == [("save", "RVC")]


def test_AC9_a_long_click_that_returns_true_takes_the_click_away(android):
    def tree(returns: bool) -> dict:
        return fixture_f(with_android(button("Btn", (0, 0, 200, 200), "save"), listeners={
            "click": {"target": "RVC", "method": "save"},
            "longClick": {"target": "RVC", "method": "menu", "returns": returns}}))
    a = android(tree(True), longPressTimeout=0.4)
    a.touch(("t", "began", (50, 50), 0))
    held = a.call("clock.advance", to=0.4)
    assert steps(held, "longClick") == [{"step": "longClick", "view": "Btn", "listener": "longClick",
                                         "action": "menu", "target": "RVC", "performed": True, "rule": "AC9",
                                         "touch": "t"}]
    assert clicks(a.touch(("t", "ended", None, 0.5))) == []
    b = android(tree(False))
    r = b.touch(("t", "began", (50, 50), 0), ("t", "ended", None, 0.45))
    assert clicks(r) == [("menu", "RVC"), ("save", "RVC")], "not handled: the UP still clicks"


def test_AC11_a_touch_delegate_sends_the_gesture_to_its_delegate(android):
    icon = button("Icon", (0, 0, 20, 20), "close")
    parent = with_android(view("P", (100, 100, 200, 200), icon),
                          touchDelegate={"bounds": [-20, -20, 60, 60], "delegate": "Icon"})
    a = android(fixture_f(parent))
    r = a.tap(135, 135)
    assert steps(r, "candidate", child="Icon", reason="outside-bounds")
    assert [s["result"] for s in steps(r, "offer", to="P", via="delegate")] == [True, True]
    assert clicks(r) == [("close", "RVC")]
    assert r["deliveries"][0]["view"] == "P"


def test_AC7_AK5_a_text_field_takes_focus_on_its_first_tap_and_clicks_on_the_second(engine, android):
    name = text_field("Name", (20, 20, 360, 50),
                      targets=[{"event": "touchUpInside", "action": "nameTapped", "target": "RVC"}])
    a = android(fixture_f(name, button("Go", (20, 100, 360, 50), "go")))
    sub = engine.subscriber(f"{a.session}/focus")
    first = a.tap(50, 40)
    assert steps(first, "focus") == [{"step": "focus", "window": "W", "from": None, "to": "Name", "reason": "touch",
                                      "rule": "AC7", "touch": "tap-1"}]
    assert clicks(first) == []
    assert a.call("responder.first") == "Name"
    assert clicks(a.tap(50, 40)) == [("nameTapped", "RVC")]
    assert clicks(a.tap(50, 120)) == [("go", "RVC")]
    assert a.call("responder.first") == "Name", "a button does not take focus from it"
    event = until(sub, f"{a.session}/focus", lambda e: True)
    assert event["change"]["to"] == "Name" and event["change"]["reason"] == "touch"


def test_AK2_AK3_AK6_focus_requests_and_clearing(android):
    a = android(fixture_f(text_field("Name", (20, 20, 360, 50)), button("Go", (20, 100, 360, 50), "go"),
                          with_android(text_field("Off", (20, 200, 360, 50)), enabled=False)))
    became = a.call("responder.become", id="Name")
    assert (became["result"], became["reason"]) == (True, "became")
    assert steps(became, "focus", reason="request", rule="AK3")
    refused = a.call("responder.become", id="Go")  # a Button is not focusable in touch mode
    assert (refused["result"], refused["reason"]) == (False, "cannot-become")
    assert a.call("responder.become", id="Off")["result"] is False  # AK2: disabled
    resigned = a.call("responder.resign", id="Name")
    assert (resigned["result"], resigned["resigned"]) == (True, "Name")
    assert steps(resigned, "focus", to=None, reason="clear", rule="AK6")
    assert a.call("responder.first") is None


def test_AL1_AL4_removing_the_target_cancels_it_and_its_parent_keeps_the_gesture(android):
    parent = with_android(view("P", (0, 0, 400, 400), button("Btn", (100, 100, 200, 100), "save")),
                          handles={"onTouchEvent": "pass"})
    a = android(fixture_f(parent, text_field("Name", (0, 500, 100, 40))))
    a.call("responder.become", id="Name")
    a.touch(("t", "began", (150, 150)))
    change = a.call("tree.apply", ops=[{"op": "remove", "id": "Btn"}, {"op": "remove", "id": "Name"}])
    assert a.call("responder.first") is None
    r = a.touch(("t", "moved", (160, 160)), ("t", "ended", (160, 160)))
    assert [d["view"] for d in r["deliveries"]] == [None, None]
    assert [s["to"] for s in steps(r, "offer")] == ["P", "P"], "P handles the rest itself, without the DOWN"
    assert clicks(r) == []
    assert change["revision"] >= 1


def test_AL1_the_tree_change_event_carries_the_cancel(engine, android):
    a = android(fixture_f(button("Btn", (100, 100, 200, 100), "save")))
    sub = engine.subscriber(f"{a.session}/trace")
    a.touch(("t", "began", (150, 150)))
    a.call("tree.apply", ops=[{"op": "remove", "id": "Btn"}])
    event = until(sub, f"{a.session}/trace", lambda e: e["trace"]["kind"] == "treeChange")
    assert [(s["step"], s.get("to"), s.get("cause"), s["rule"]) for s in event["trace"]["steps"]][:1] == [
        ("cancel", "Btn", "removal", "AL1")]
    assert event["trace"]["outcome"]["touches"][0]["message"] == "ACTION_CANCEL"


def test_AL3_hiding_the_target_does_not_cancel_it(android):
    a = android(fixture_f(button("Btn", (100, 100, 200, 100), "save")))
    a.touch(("t", "began", (150, 150)))
    a.call("tree.apply", ops=[{"op": "update", "id": "Btn", "set": {"hidden": True}}])
    assert clicks(a.touch(("t", "ended", (150, 150)))) == [("save", "RVC")]


def test_AL2_a_target_made_temporarily_detached_gets_its_next_event_as_cancel(android):
    row = button("Row", (0, 100, 400, 100), "open")
    listing = with_android(view("List", (0, 0, 400, 800), row), handles={"onTouchEvent": "consume"})
    a = android(fixture_f(listing))
    a.touch(("t", "began", (100, 150)))
    # The list recycles the row mid-gesture: onStartTemporaryDetach. Nothing is sent at the change itself.
    change = a.call("tree.apply", ops=[{"op": "update", "id": "Row", "set": {"android": {"temporarilyDetached": True}}}])
    assert change["revision"] >= 1
    moved = a.touch(("t", "moved", (100, 152)))
    (d,) = moved["deliveries"]
    assert (d["message"], d["view"]) == ("ACTION_CANCEL", "Row"), "the next event reaches the row as CANCEL"
    assert [(s["to"], s["cause"], s["rule"]) for s in steps(moved, "cancel")] == [("Row", "detached", "AL2")]
    assert [(s["group"], s["child"], s["change"], s["rule"]) for s in steps(moved, "target")] == [
        ("List", "Row", "removed", "AL2")]
    assert steps(moved, "press", view="Row", state="unpressed", rule="AC8")
    assert [(s["group"], s["result"]) for s in steps(moved, "intercept")] == [("W", False), ("R", False), ("List", False)]
    # The list, left without a target, handles the rest itself (AD10); the CANCEL is sent once.
    up = a.touch(("t", "ended", (100, 152)))
    assert [s["to"] for s in steps(up, "offer")] == ["List"] and steps(up, "cancel") == []
    assert up["deliveries"][0]["view"] == "List" and clicks(up) == []
    # The member stays as given; a gesture that begins on the row while it stays true is not cancelled: only the
    # change marks a target (a new DOWN resets the flag).
    assert a.call("tree.get", id="Row")["tree"]["android"] == {"temporarilyDetached": True}
    again = a.touch(("u", "began", (100, 150)), ("u", "moved", (100, 152)), ("u", "ended", (100, 152)))
    assert steps(again, "cancel") == [] and clicks(again) == [("open", "RVC")]


def test_AL2_a_detached_group_cancels_its_whole_path_and_the_flag_before_the_gesture_does_nothing(android):
    cell = with_android(view("Cell", (0, 100, 400, 100), button("Btn", (0, 0, 400, 100), "open")),
                        temporarilyDetached=False)
    a = android(fixture_f(cell))
    a.touch(("t", "began", (100, 150)))
    a.call("tree.apply", ops=[{"op": "update", "id": "Cell", "set": {"android": {"temporarilyDetached": True}}}])
    up = a.touch(("t", "ended", (100, 150)))
    # R's target Cell was detached: the CANCEL goes down Cell's path, Cell is removed from R's targets.
    assert [(s["to"], s["cause"]) for s in steps(up, "cancel")] == [("Cell", "detached"), ("Btn", "detached")]
    assert [(s["group"], s["child"]) for s in steps(up, "target")] == [("R", "Cell")]
    assert up["deliveries"][0]["message"] == "ACTION_CANCEL" and clicks(up) == []


def test_AC14_a_tooltip_makes_a_view_consume_and_a_long_press_shows_it(android):
    under = button("Under", (0, 0, 400, 400), "underTapped")
    a = android(fixture_f(under, with_android(view("Tip", (0, 0, 200, 200)), tooltip=True)))
    # Not clickable, Tip still takes onTouchEvent's clickable path for its tooltip: it consumes the gesture, is
    # never pressed and clicks nothing; Under behind it sees nothing.
    tap = a.touch(("t", "began", (50, 50), 0), ("t", "ended", (50, 50), 0.1))
    assert [d["view"] for d in tap["deliveries"]] == ["Tip", "Tip"]
    (o,) = steps(tap, "offer", to="Tip", action="down")
    assert (o["result"], o["rule"]) == (True, "AC14")
    assert steps(tap, "press") == [] and steps(tap, "longClick") == [] and clicks(tap) == []
    assert not steps(tap, "offer", to="Under")
    # Held for the long-press timeout: the tooltip is shown, a long press handled by it.
    a.touch(("h", "began", (50, 50), 1))
    held = a.call("clock.advance", to=1.5)
    assert steps(held, "longClick") == [{"step": "longClick", "view": "Tip", "listener": "tooltip", "performed": True,
                                         "rule": "AC14", "touch": "h"}]
    assert clicks(a.touch(("h", "ended", None, 1.6))) == []
    # A finger that leaves Tip by more than the slop ends the check: no tooltip.
    left = a.touch(("m", "began", (50, 50), 2), ("m", "moved", (50, 300), 2.1), ("m", "ended", None, 3))
    assert steps(left, "longClick") == []
    # Disabled and not clickable it refuses (AC2): the tap reaches Under.
    b = android(fixture_f(under, with_android(view("Tip", (0, 0, 200, 200)), tooltip=True, enabled=False)))
    assert clicks(b.tap(50, 50)) == [("underTapped", "RVC")]


def test_AC14_AC9_a_button_with_a_tooltip_shows_it_instead_of_clicking_on_a_long_press(android):
    a = android(fixture_f(with_android(button("Btn", (0, 0, 200, 200), "save"), tooltip=True)))
    a.touch(("t", "began", (50, 50), 0))
    held = a.call("clock.advance", to=0.5)
    assert [(s["listener"], s["performed"], s["rule"]) for s in steps(held, "longClick")] == [("tooltip", True, "AC14")]
    assert clicks(a.touch(("t", "ended", None, 0.6))) == [], "the long press was handled: the UP does not click"
    assert clicks(a.touch(("u", "began", (50, 50), 1), ("u", "ended", None, 1.1))) == [("save", "RVC")]
    # A long-click listener that returns false leaves the long press to the tooltip (AC9 then AC14).
    b = android(fixture_f(with_android(button("Btn", (0, 0, 200, 200), "save"), tooltip=True, listeners={
        "longClick": {"target": "RVC", "method": "menu", "returns": False}})))
    b.touch(("t", "began", (50, 50), 0))
    held = b.call("clock.advance", to=0.5)
    assert [(s["listener"], s["performed"], s["rule"]) for s in steps(held, "longClick")] == [
        ("longClick", False, "AC9"), ("tooltip", True, "AC14")]
    assert clicks(b.touch(("t", "ended", None, 0.6))) == []


def test_AC2_a_disabled_view_allowed_to_click_presses_clicks_and_asks_its_touch_delegate(android):
    icon = button("Icon", (0, 0, 20, 20), "close")
    p = with_android(view("P", (100, 100, 200, 200), icon), enabled=False, allowClickWhenDisabled=True,
                     touchDelegate={"bounds": [-20, -20, 60, 60], "delegate": "Icon"})
    a = android(fixture_f(p))
    assert clicks(a.tap(135, 135)) == [("close", "RVC")], "P, disabled but allowed to click, consults its delegate"
    off = with_android(view("P", (100, 100, 200, 200), icon), enabled=False,
                       touchDelegate={"bounds": [-20, -20, 60, 60], "delegate": "Icon"})
    assert clicks(android(fixture_f(off)).tap(135, 135)) == [], "without it the delegate is not asked (AC2, AC3)"


def nested_tree(inner_android: dict, outer_android: dict | None = None, inner_content: int = 310) -> dict:
    """R > Outer(0,0,400,800)[ScrollView, content 2000] > OC > Inner(0,100,400,300)[ScrollView, content
    `inner_content`] > IC > Btn(0,0,400,100)."""
    sc = {"class": "UIScrollView"}
    inner = with_android(view("Inner", (0, 100, 400, 300), view("IC", (0, 0, 400, inner_content),
                                                                  button("Btn", (0, 0, 400, 100), "save")),
                              contentSize=[400, inner_content], **sc), **inner_android)
    outer = view("Outer", (0, 0, 400, 800), view("OC", (0, 0, 400, 2000), inner), contentSize=[400, 2000], **sc)
    if outer_android:
        outer = with_android(outer, **outer_android)
    return fixture_f(outer)


def test_AS5_what_the_inner_cannot_consume_scrolls_the_outer(android):
    # Inner can scroll 10; the DOWN lands on Btn, so Inner's own intercept takes the drag and the nested scroll
    # started at the DOWN keeps Outer from intercepting.
    a = android(nested_tree({"nestedScrollingEnabled": True}))
    down = a.touch(("t", "began", (200, 150), 0))
    assert [(s["parent"], s["accepted"]) for s in steps(down, "nestedScroll")] == [("OC", False), ("Outer", True)]
    first = a.touch(("t", "moved", (200, 130), 0.02))
    assert steps(first, "intercept", group="Outer", action="move")[0]["reason"] == "nested-scroll"
    (i,) = steps(first, "intercept", group="Inner", action="move")
    assert (i["result"], i["rule"]) == (True, "AS1"), "the inner ScrollView takes the drag from its button"
    assert [s["to"] for s in steps(first, "cancel")] == ["IC", "Btn"]
    # 30 more: Inner scrolls to its end (10), Outer takes the 20 left over (onNestedScroll).
    second = a.touch(("t", "moved", (200, 100), 0.04))
    assert [(s["id"], s["to"], s["rule"]) for s in steps(second, "change")] == [
        ("Inner", [0, 10], "AS2"), ("Outer", [0, 20], "AS5")]
    # Back down by 15: Inner scrolls back first and consumes it all.
    # Back down by 15: Inner scrolls back to its start (10), and Outer by the 5 left over.
    third = a.touch(("t", "moved", (200, 115), 0.06))
    assert [(s["id"], s["to"]) for s in steps(third, "change")] == [("Inner", [0, 0]), ("Outer", [0, 15])]
    up = a.touch(("t", "ended", None, 0.08))
    assert clicks(up) == [] and steps(up, "nestedScroll") == []


def test_AV5_a_cancel_stops_the_nested_scroll_and_the_outer_intercepts_again(android):
    a = android(nested_tree({"nestedScrollingEnabled": True}))
    a.touch(("t", "began", (200, 150), 0))
    a.call("tree.apply", ops=[{"op": "update", "id": "Inner", "set": {
        "android": {"nestedScrollingEnabled": True, "temporarilyDetached": True}}}])
    small = a.touch(("t", "moved", (200, 148), 0.01))
    assert [s["to"] for s in steps(small, "cancel")] == ["Inner", "IC", "Btn"], "OC's target gets CANCEL (AL2)"
    # AV5: the CANCEL stopped Inner's nested scroll, so past the slop Outer intercepts as AS1 says.
    moved = a.touch(("t", "moved", (200, 130), 0.02))
    (i,) = steps(moved, "intercept", group="Outer", action="move")
    assert (i["result"], i.get("reason"), i["rule"]) == (True, None, "AS1")
    # Without the member no nested scroll starts, and Outer takes the drag from the button.
    b = android(nested_tree({}))
    r = b.touch(("t", "began", (200, 150), 0), ("t", "moved", (200, 130), 0.02))
    assert steps(r, "nestedScroll") == []
    assert [(s["result"], s["rule"]) for s in steps(r, "intercept", group="Outer", action="move")] == [(True, "AS1")]


def test_AV5_AS5_each_gesture_starts_it_afresh_and_an_axis_nobody_accepts_changes_nothing(android):
    a = android(nested_tree({"nestedScrollingEnabled": True}))
    a.touch(("t", "began", (200, 150), 0), ("t", "ended", None, 0.05))
    after = a.touch(("u", "began", (200, 150), 1))
    assert [s["parent"] for s in steps(after, "nestedScroll", accepted=True)] == ["Outer"], \
        "the UP stopped it (AV5), the next DOWN starts it again"
    # A HorizontalScrollView starts a horizontal nested scroll: no ancestor accepts that axis, and the vertical
    # Outer intercepts a vertical drag as usual.
    c = android(nested_tree({"nestedScrollingEnabled": True, "class": "HorizontalScrollView"}))
    down = c.touch(("t", "began", (200, 150), 0))
    asked = [(s["parent"], s["axes"], s["accepted"]) for s in steps(down, "nestedScroll")]
    assert asked == [("OC", "horizontal", False), ("Outer", "horizontal", False), ("R", "horizontal", False),
                     ("W", "horizontal", False)]
    moved = c.touch(("t", "moved", (200, 130), 0.02))
    assert steps(moved, "intercept", group="Outer", action="move")[0]["result"] is True


def test_AS5_a_nested_parent_that_nests_in_turn_hands_the_rest_on(android):
    tree = nested_tree({"nestedScrollingEnabled": True}, {"nestedScrollingEnabled": True})
    # Outer inside a third ScrollView Top: Outer, accepting Inner's nested scroll, starts its own, Top accepts.
    top = view("Top", (0, 0, 400, 800), view("TC", (0, 0, 400, 900), tree["children"][1]["children"][0]["children"][0]
                                             ["children"][0]),
               contentSize=[400, 900], **{"class": "UIScrollView"})
    tree["children"][1]["children"][0]["children"][0]["children"] = [top]
    a = android(tree)
    down = a.touch(("t", "began", (200, 150), 0))
    assert [(s["child"], s["parent"], s["accepted"]) for s in steps(down, "nestedScroll")] == [
        ("Outer", "TC", False), ("Outer", "Top", True), ("Inner", "OC", False), ("Inner", "Outer", True)], \
        "outermost first; Outer, already nesting, does not ask again when it accepts Inner's"
    moved = a.touch(("t", "moved", (200, 130), 0.02))
    assert [(s["group"], s["result"], s.get("reason")) for s in steps(moved, "intercept")] == [
        ("W", False, None), ("R", False, None), ("Top", False, "nested-scroll"), ("TC", False, None),
        ("Outer", False, "nested-scroll"), ("OC", False, None), ("Inner", True, None)]


def test_AX2_onclick_xml_looks_only_at_the_activity(android):
    def tree(activity_handles: dict) -> dict:
        child = {"id": "Child", "kind": "viewController", "handles": {"save:": "handle"},
                 "children": [view("CV", (0, 0, 400, 400), with_android(view("Btn", (0, 0, 200, 200)),
                                                                        listeners={"clickXml": "save:"}))]}
        return fixture_f(child, rvc={"handles": activity_handles})
    a = android(tree({}))
    r = a.tap(50, 50)
    assert steps(r, "click", view="Btn") == [{"step": "click", "view": "Btn", "listener": "clickXml",
                                              "action": "save:", "target": None, "performed": False, "rule": "AX2",
                                              "touch": "tap-1"}]
    b = android(tree({"save:": "handle"}))
    assert clicks(b.tap(50, 50)) == [("save:", "RVC")]


def test_AX6_uikit_fields_without_an_android_meaning_are_noted_not_silently_ignored(android):
    off = view("Off", (0, 0, 400, 400), button("Btn", (10, 10, 100, 50), "save"), userInteractionEnabled=False,
               gestureRecognizers=[{"id": "tapper", "kind": "tap", "targets": [{"target": "RVC", "action": "t:"}]}])
    a = android(fixture_f(off))
    r = a.tap(20, 20)
    assert {(s["id"], s["field"], s["rule"]) for s in steps(r, "mapping")} == {
        ("Off", "userInteractionEnabled", "AD5"), ("Off", "gestureRecognizers", "AX6")}
    assert clicks(r) == [("save", "RVC")], "Android has no userInteractionEnabled: the button still clicks"


def test_refusals_name_the_field_and_change_nothing(android, client):
    a = android(fixture_f(button("Btn", (0, 0, 200, 200), "save"), text_field("Name", (0, 300, 100, 40))))
    a.touch(("t", "began", (50, 50)))
    e = client.error("event.touch", session=a.session, touches=[{"touch": "t", "phase": "began", "point": [60, 60]}])
    assert e.name == "TOUCH_IN_USE"
    a.call("event.press", press=1, phase="began", key="a")
    e = client.error("event.press", session=a.session, press=1, phase="changed")
    assert (e.name, e.data["field"], e.data["profile"]) == ("INVALID_PARAMS", "phase", "android")
    assert client.error("event.press", session=a.session, press=1, phase="began", key="a").name == "PRESS_IN_USE"
    assert [t["touch"] for t in client.call("session.snapshot", session=a.session)["liveTouches"]] == ["t"]
    # The live gesture is intact: the UP clicks.
    assert clicks(a.touch(("t", "ended", None))) == [("save", "RVC")]


def test_AD2_a_failed_request_leaves_the_gesture_as_it_was(android, client):
    a = android(fixture_f(button("Btn", (0, 0, 200, 200), "save")))
    e = client.error("event.touch", session=a.session, touches=[
        {"touch": "t", "phase": "began", "point": [50, 50]}, {"touch": "zz", "phase": "ended"}])
    assert e.name == "TOUCH_NOT_FOUND" and e.data.get("index") == 1
    # The began in the failed request never happened: the same touch id begins again.
    assert clicks(a.touch(("t", "began", (50, 50)), ("t", "ended", None))) == [("save", "RVC")]


def test_dry_run_and_trace_none_under_android(android):
    a = android(fixture_f(button("Btn", (0, 0, 200, 200), "save")))
    dry = a.tap(50, 50, dryRun=True)
    assert dry.get("dryRun") is True and clicks(dry) == [("save", "RVC")]
    quiet = a.tap(50, 50, trace="none")
    assert "trace" not in quiet and clicks(quiet) == [("save", "RVC")]
    assert a.call("responder.first") is None


def android_traces(engine, client) -> list[dict]:
    """Traces in which every `android` step kind occurs: test_dispatch's coverage check adds them."""
    traces: list[dict] = []
    made: list[Android] = []

    def make(tree: dict, **profile) -> Android:
        a = Android(engine, client, tree, **profile)
        made.append(a)
        return a

    scroll = view("SV", (0, 0, 400, 800), view("Content", (0, 0, 400, 2000), button("Btn", (0, 100, 400, 100), "save"),
                                               with_android(view("Knob", (0, 300, 400, 100)), clickable=True, handles={
                                                   "requestDisallowIntercept": "down"})),
                  **{"class": "UIScrollView", "contentSize": [400, 2000]}, userInteractionEnabled=True)
    off = view("Off", (0, 600, 400, 100), userInteractionEnabled=False)
    a = make(fixture_f(scroll, off, text_field("Name", (0, 700, 400, 50))))
    traces.append(a.touch(("t", "began", (100, 150), 0), ("t", "moved", (100, 130), 0.2),
                          ("t", "moved", (100, 100), 0.25), ("t", "ended", None, 0.3))["trace"])
    traces.append(a.touch(("k", "began", (100, 350), 1), ("k", "ended", None, 1.05))["trace"])
    traces.append(a.tap(20, 650)["trace"])
    traces.append(a.tap(20, 720)["trace"])
    seek = make(fixture_f(control("Seek", (20, 100, 360, 40), **{"class": "UISlider"})))
    traces.append(seek.tap(200, 120)["trace"])
    long = make(fixture_f(with_android(button("L", (0, 0, 100, 100), "save"), listeners={
        "longClick": {"target": "RVC", "method": "menu", "returns": True}})))
    long.touch(("t", "began", (50, 50), 0))
    traces.append(long.call("clock.advance", to=1)["trace"])
    back = make(fixture_f(view("C", (0, 0, 100, 100), {"id": "Fr", "kind": "viewController", "android": {
        "backCallback": {"enabled": True}}, "children": [view("FrV", (0, 0, 100, 100))]}),
        rvc={"android": {"actionMode": True}}))
    traces += [r["trace"] for r in press(back, "BACK")]  # AX5: the action mode finishes (a change step)
    finished = make(fixture_f(view("V", (0, 0, 100, 100))))
    traces += [r["trace"] for r in press(finished, "BACK")]  # AK10: no back callback: the Activity finishes
    traces.append(make(two_windows({"class": "Dialog"})).tap(200, 750)["trace"])  # AR5: the dialog closes
    traces.append(back.call("event.press", press=2, key="BACK", phase="began")["trace"])
    traces.append(back.call("event.press", press=2, key="BACK", phase="ended")["trace"])
    nest = make(nested_tree({"nestedScrollingEnabled": True}))
    traces.append(nest.touch(("t", "began", (200, 150), 0), ("t", "moved", (200, 130), 0.02),
                             ("t", "moved", (200, 100), 0.04), ("t", "ended", None, 0.06))["trace"])
    for a in made:
        client.rpc("session.delete", {"session": a.session}, validate=False)
    return traces


def press(a: Android, key: str, id=1) -> tuple[dict, dict]:
    down = a.call("event.press", press=id, key=key, phase="began")
    up = a.call("event.press", press=id, key=key, phase="ended")
    return down, up


def test_AK8_AK10_keys_go_down_the_focus_path_and_do_not_bubble(android):
    form = view("Form", (0, 0, 400, 400), text_field("Name", (20, 20, 360, 50)), handles={"pressesBegan": "handle"})
    a = android(fixture_f(form))
    a.call("responder.become", id="Name")
    down, up = press(a, "F12")
    assert down["visited"] == ["W", "R", "Form", "Name"] and down["handledBy"] == []
    assert [s["to"] for s in steps(down, "offer")] == ["Name"], "Form's onKeyDown is never called"
    assert steps(down, "activity", method="onKeyDown", result=False, rule="AK10")
    assert steps(down, "discard", reason="unhandled")[0]["press"] == 1


def test_AK4_AK9_AK11_arrows_leave_touch_mode_move_focus_and_enter_clicks(android):
    a = android(fixture_f(button("B1", (20, 20, 360, 50), "one"), button("B2", (20, 100, 360, 50), "two")))
    first, _ = press(a, "DPAD_DOWN", 1)
    assert steps(first, "focus") == [{"step": "focus", "window": "W", "from": None, "to": "B1", "reason": "default",
                                      "rule": "AK4", "press": 1}]
    assert not steps(first, "offer"), "the key that placed focus goes no further"
    second, _ = press(a, "DPAD_DOWN", 2)
    assert steps(second, "offer", to="B1", result=False)
    assert [(s["to"], s["reason"], s["rule"]) for s in steps(second, "focus")] == [("B2", "navigation", "AK11")]
    down, up = press(a, "ENTER", 3)
    assert steps(down, "press", view="B2", state="pressed", rule="AK9")
    assert steps(up, "click", view="B2", action="two")
    assert a.call("responder.first") == "B2"
    # AK4: a touch enters touch mode again: B2 is not focusable in it and loses focus.
    tap = a.tap(200, 700)
    assert steps(tap, "focus", to=None, reason="touch-mode", rule="AK4")


def test_AK10_back_goes_to_the_activity(android):
    a = android(fixture_f(view("V", (0, 0, 100, 100))))
    down, up = press(a, "BACK")
    assert down["handledBy"] == ["RVC"] and steps(down, "activity", method="onKeyDown", result=True)
    assert [s["method"] for s in steps(up, "activity")] == [
        "onKeyUp", "onBackPressed", "finish", "dispatchKeyEvent"]


def test_AR1_AK10_a_touch_with_no_window_is_discarded_until_it_ends(android):
    a = android(fixture_f(view("V", (0, 0, 100, 100))))
    press(a, "BACK")  # no back callback: the Activity finishes and its window goes (AK10)
    began = a.touch(("t", "began", (50, 50)))
    assert [(s["action"], s["reason"], s["rule"]) for s in steps(began, "discard")] == [("down", "no-window", "AR1")]
    assert [(t["touch"], t["view"], t["window"]) for t in a.call("session.snapshot")["liveTouches"]] == [
        ("t", None, None)]
    with pytest.raises(RPCError) as e:
        a.touch(("t", "began", (50, 50)))
    assert e.value.name == "TOUCH_IN_USE"
    ended = a.touch(("t", "moved", (60, 60)), ("t", "ended", None))
    assert [(d["message"], d["view"], d["reason"], d["rule"]) for d in ended["deliveries"]] == [
        ("ACTION_MOVE", None, "unhandled", "AR1"), ("ACTION_UP", None, "unhandled", "AR1")]
    assert a.call("session.snapshot")["liveTouches"] == []
    with pytest.raises(RPCError) as e:
        a.touch(("t", "ended", None))
    assert e.value.name == "TOUCH_NOT_FOUND"


def test_AM4_two_fingers_on_one_button_click_when_the_last_one_lifts(android):
    a = android(fixture_f(button("Btn", (0, 0, 400, 400), "save")))
    r = a.touch(("t", "began", (50, 50)), ("u", "began", (150, 150)), ("t", "ended", None), ("u", "ended", None))
    assert [(d["touch"], d["message"]) for d in r["deliveries"]] == [
        ("t", "ACTION_DOWN"), ("u", "ACTION_POINTER_DOWN"), ("t", "ACTION_POINTER_UP"), ("u", "ACTION_UP")]
    assert [d["actions"] for d in r["deliveries"]][:3] == [[], [], []]
    assert clicks(r) == [("save", "RVC")]
    assert a.call("session.snapshot")["liveTouches"] == []


def test_AS1_a_scroll_view_with_nothing_to_scroll_never_takes_the_gesture(android):
    short = view("SV", (0, 0, 400, 800), view("Content", (0, 0, 400, 300), button("Btn", (0, 100, 400, 100), "save")),
                 **{"class": "UIScrollView"})
    a = android(fixture_f(short))
    r = a.touch(("t", "began", (100, 150)), ("t", "moved", (100, 220)), ("t", "ended", (100, 220)))
    assert [s["result"] for s in steps(r, "intercept", group="SV", action="move")] == [False]
    assert not steps(r, "cancel")
    assert steps(r, "press", view="Btn", state="unpressed", rule="AC6"), "70 down leaves the button and its slop"


def test_live_android_touches_and_presses_are_listed_in_the_snapshot(android):
    a = android(fixture_f(button("Btn", (0, 0, 200, 200), "save"), text_field("Name", (0, 300, 100, 40))))
    a.touch(("t", "began", (50, 50)))
    a.call("event.press", press="k", key="a", phase="began")
    snap = a.call("session.snapshot")
    assert [(t["touch"], t["view"], t["window"]) for t in snap["liveTouches"]] == [("t", "Btn", "W")]
    assert [(p["press"], p["key"]) for p in snap["livePresses"]] == [("k", "a")]


@pytest.mark.parametrize("method,params", [
    ("hitTest", {"point": [50, 50]}), ("whyNot", {"view": "Btn"}), ("responderChain", {"id": "Btn"}),
    ("action.send", {"action": "save"}), ("action.canPerform", {"action": "save"}),
    ("event.motion", {"phase": "began"}), ("event.remoteControl", {"subtype": "play"}),
    ("responder.endEditing", {"id": "R"})])
def test_uikit_only_requests_are_refused_under_android_naming_what_it_has_instead(android, client, method, params):
    a = android(fixture_f(button("Btn", (0, 0, 200, 200), "save")))
    before = client.call("session.snapshot", session=a.session)
    e = client.error(method, session=a.session, **params)
    assert (e.name, e.data["field"], e.data["profile"]) == ("INVALID_PARAMS", "method", "android")
    assert method in e.error["message"]
    assert client.call("session.snapshot", session=a.session) == before


def test_AR2_AD1_AD13_AI2_the_decorview_gets_every_event_and_every_group_asked_is_explained(android):
    a = android(fixture_f(view("G", (0, 0, 200, 200), view("Leaf", (0, 0, 50, 50)))))
    # AD1: the DecorView tests no bounds: a point outside the window still reaches it (every window is touch-modal).
    r = a.tap(-30, 900)
    assert r["trace"]["steps"][0] == {"step": "intercept", "group": "W", "action": "down", "result": False,
                                      "rule": "AI2", "touch": "tap-1"}
    assert [(s["child"], s["reason"]) for s in steps(r, "candidate")] == [("R", "outside-bounds")]
    # AD13, AI2: each group on the way is asked to intercept (by default it does not), each child is a candidate
    # step, each handler an offer step.
    r = a.tap(20, 20)
    assert [s["group"] for s in steps(r, "intercept", action="down")] == ["W", "R", "G"]
    assert {s["rule"] for s in steps(r, "intercept")} == {"AI2"}
    assert [s["child"] for s in steps(r, "candidate")] == ["R", "G", "Leaf"]
    assert [s["to"] for s in steps(r, "offer", action="down")] == ["Leaf", "G", "R", "W"]


def test_AR3_a_window_without_an_activity_dispatches_from_its_decorview_alone(android):
    tree = {"id": "app", "kind": "application", "children": [
        {"id": "W", "kind": "window", "key": True, "frame": [0, 0, 400, 800],
         "children": [button("Btn", (0, 0, 100, 100), "save")]}]}
    a = android(tree)
    r = a.tap(50, 50)
    assert steps(r, "activity") == [] and r["deliveries"][0]["handledBy"] == ["Btn"]
    r = a.tap(300, 300)
    assert steps(r, "activity") == [] and steps(r, "discard", reason="unhandled", rule="AR7")


def test_AD3_AD12_only_a_DOWN_searches_and_a_new_gesture_starts_afresh(android):
    a = android(fixture_f(button("Btn", (0, 0, 200, 200), "save"), button("Other", (0, 300, 200, 200), "other")))
    r = a.touch(("t", "began", (50, 50)), ("t", "moved", (50, 350)), ("t", "ended", (50, 350)))
    downs = [s for s in r["trace"]["steps"] if s["step"] == "candidate"]
    assert len(downs) == 3, "candidates (R, Other, Btn) are searched for the DOWN only (AD3), not for the MOVE over Other"
    assert [d["view"] for d in r["deliveries"]] == ["Btn", "Btn", "Btn"]
    # AD12: after the UP the targets are gone: the next DOWN searches again and finds Other.
    assert clicks(a.tap(50, 350)) == [("other", "RVC")]


def test_AC1_clickable_comes_from_the_class_or_a_listener(android):
    a = android(fixture_f(
        view("Label", (0, 0, 100, 100), **{"class": "UILabel"}),
        with_android(view("Plain", (0, 100, 100, 100)), listeners={"click": {"target": "RVC", "method": "plain"}}),
        with_android(view("Styled", (0, 200, 100, 100)), **{"class": "ImageButton"})))
    assert a.tap(50, 50)["deliveries"][0]["handledBy"] == [], "a TextView is not clickable"
    assert clicks(a.tap(50, 150)) == [("plain", "RVC")], "a click listener makes a plain View clickable"
    assert a.tap(50, 250)["deliveries"][0]["handledBy"] == ["Styled"], "an ImageButton is clickable by class"


def test_AC3_AC2_a_disabled_view_does_not_consult_its_touch_delegate(android):
    parent = with_android(view("P", (100, 100, 200, 200), button("Icon", (0, 0, 20, 20), "close")),
                          enabled=False, clickable=True,
                          touchDelegate={"bounds": [-20, -20, 60, 60], "delegate": "Icon"})
    a = android(fixture_f(parent))
    r = a.tap(135, 135)
    assert steps(r, "offer", via="delegate") == []
    assert steps(r, "offer", to="P", via="onTouchEvent", rule="AC2", result=True)
    assert clicks(r) == []


def test_AS3_AS4_a_horizontal_scroll_view_takes_a_sideways_drag_and_delays_its_childrens_press(android):
    hsv = with_android(view("H", (0, 0, 400, 200), view("Row", (0, 0, 1200, 200), button("Btn", (0, 0, 200, 200), "save")),
                            **{"class": "UIScrollView", "contentSize": [1200, 200]}), **{"class": "HorizontalScrollView"})
    a = android(fixture_f(hsv))
    r = a.touch(("t", "began", (100, 100), 0), ("t", "moved", (100, 130), 0.01), ("t", "moved", (80, 130), 0.02),
                ("t", "ended", None, 0.03))
    assert [s["state"] for s in steps(r, "press", view="Btn")][:1] == ["prepressed"], "AS4: its child's press waits"
    taken = steps(r, "intercept", group="H", result=True)
    assert [(s["action"], s["rule"]) for s in taken] == [("move", "AS3")], "30 down does not count; 20 across does"
    assert [s["to"] for s in steps(r, "cancel")] == ["Row", "Btn"]


def test_AS8_a_table_view_reads_as_a_scroll_view_on_its_axis(android):
    table = view("T", (0, 0, 400, 800), view("Cell", (0, 0, 400, 2000), button("Btn", (0, 0, 400, 100), "save")),
                 **{"class": "UITableView"})
    a = android(fixture_f(table))
    r = a.touch(("t", "began", (100, 50), 0), ("t", "moved", (100, 80), 0.01), ("t", "ended", None, 0.02))
    assert [(s["result"], s["rule"]) for s in steps(r, "intercept", group="T", action="move")] == [(True, "AS1")]


def test_AK1_a_window_has_one_focused_view(android):
    a = android(fixture_f(text_field("A", (0, 0, 100, 40)), text_field("B", (0, 100, 100, 40))))
    a.call("responder.become", id="A")
    r = a.call("responder.become", id="B")
    assert (r["result"], r["resigned"]) == (True, "A")
    assert [(s["from"], s["to"]) for s in steps(r, "focus")] == [("A", "B")]
    assert a.call("session.snapshot")["firstResponders"] == {"W": "B"}


def test_an_android_session_survives_a_restart_with_its_profile_and_focus(engines, tmp_path):
    from test_durability import durable, restart
    e = durable(engines, tmp_path / "state")
    c = e.client()
    c.call("session.create", session="s", profile={"name": "android", "touchSlop": 12},
           tree=fixture_f(text_field("Name", (0, 0, 100, 40)), button("Btn", (0, 100, 100, 40), "save")))
    c.call("responder.become", session="s", id="Name")
    e = restart(engines, e)
    c = e.client()
    snap = c.call("session.snapshot", session="s")
    assert snap["profile"] == {"name": "android", "tapTimeout": 0.1, "longPressTimeout": 0.4, "touchSlop": 12,
                               "doubleTapTimeout": 0.3}
    assert snap["firstResponders"] == {"W": "Name"}
    tap = c.call("event.tap", session="s", point=[50, 120])
    assert clicks(tap) == [("save", "RVC")] and steps(tap, "offer", to="Btn")


# ------------------------------------------------------------------------------------------ windows (AR1, AR5, AV4)

def two_windows(front: dict, *front_children, under: dict | None = None, front_activity: bool = True) -> dict:
    """Fixture F's window W (R > Btn(0,700,400,100) clicking save, `under` on Btn's android) and in front of it W2
    (50,300,300,200) with the android members `front`; W2 holds DVC > DR filling it, or DR alone without an
    Activity."""
    btn = button("Btn", (0, 700, 400, 100), "save")
    if under:
        btn["android"] = under
    tree = fixture_f(btn)
    dr = view("DR", (0, 0, 300, 200), *front_children)
    content = {"id": "DVC", "kind": "viewController", "children": [dr]} if front_activity else dr
    tree["children"].append({"id": "W2", "kind": "window", "frame": [50, 300, 300, 200], "windowLevel": 1,
                             "android": front, "children": [content]})
    return tree


def test_AR1_a_window_that_is_not_touch_modal_lets_an_outside_touch_go_behind(android):
    a = android(two_windows({"touchModal": False}, button("In", (0, 0, 300, 200), "inside")))
    r = a.tap(200, 750)
    assert [d["window"] for d in r["deliveries"]] == ["W", "W"] and clicks(r) == [("save", "RVC")]
    assert steps(r, "activity", id="DVC") == [], "a window that does not watch outside touches hears nothing"
    # Inside it, it takes the touch as before.
    assert clicks(a.tap(200, 400)) == [("inside", "RVC")]
    # FLAG_NOT_FOCUSABLE implies FLAG_NOT_TOUCH_MODAL.
    b = android(two_windows({"focusable": False}))
    assert [d["window"] for d in b.tap(200, 750)["deliveries"]] == ["W", "W"]


def test_AR1_a_window_that_is_not_touchable_gets_nothing_even_inside_it(android):
    a = android(two_windows({"touchable": False}, button("In", (0, 0, 300, 200), "inside")))
    r = a.tap(200, 400)
    assert [d["window"] for d in r["deliveries"]] == ["W", "W"] and clicks(r) == []
    assert steps(r, "offer", to="In") == []


def test_AR1_AR5_action_outside_goes_to_a_window_that_watches_for_it_and_may_close_it(android):
    a = android(two_windows({"touchModal": False, "watchOutsideTouch": True}))
    r = a.tap(200, 750)
    outside = [(s["method"], s["result"], s["rule"]) for s in steps(r, "activity", id="DVC")]
    assert outside == [("dispatchTouchEvent", False, "AR1"), ("onTouchEvent", False, "AR5")]
    assert all(s["action"] == "outside" for s in steps(r, "activity", id="DVC"))
    assert clicks(r) == [("save", "RVC")], "the gesture itself goes to the window behind"
    b = android(two_windows({"touchModal": False, "watchOutsideTouch": True, "closeOnTouchOutside": True}))
    r = b.tap(200, 750)
    assert [(s["method"], s["result"]) for s in steps(r, "activity", id="DVC")] == [
        ("dispatchTouchEvent", True), ("onTouchEvent", True), ("finish", True)]
    assert [(s["id"], s["field"], s["to"]) for s in steps(r, "change")] == [("W2", "hidden", True)]
    assert clicks(r) == [("save", "RVC")]
    # Without an Activity the DecorView gets ACTION_OUTSIDE and nothing closes.
    c = android(two_windows({"touchModal": False, "watchOutsideTouch": True, "closeOnTouchOutside": True},
                            front_activity=False))
    r = c.tap(200, 750)
    assert [(s["to"], s["action"], s["result"], s["rule"]) for s in steps(r, "offer", to="W2")] == [
        ("W2", "outside", False, "AR1")]
    assert steps(r, "change") == []


def test_AR5_an_activity_window_closing_on_outside_touch_finishes(android):
    a = android(two_windows({"closeOnTouchOutside": True}))
    r = a.tap(200, 750)
    assert [(s["method"], s["action"], s["result"]) for s in steps(r, "activity", id="DVC") if s["rule"] == "AR5"] == [
        ("onTouchEvent", "down", False), ("onTouchEvent", "up", True), ("finish", "up", True)]
    assert a.call("tree.get", id="W2")["tree"]["hidden"] is True
    # By default an Activity's window does not close: the same tap is only unhandled.
    b = android(two_windows({}))
    r = b.tap(200, 750)
    assert steps(r, "change") == [] and [s["result"] for s in steps(r, "activity", method="onTouchEvent")] == [False, False]
    assert b.call("tree.get", id="W2")["tree"]["hidden"] is False


def test_AV4_a_view_filtering_obscured_touches_drops_them_under_a_window_that_did_not_take_them(android):
    # W2 is not touchable and lies over (200, 400): the touch goes to W behind it, obscured there.
    a = android(two_windows({"touchable": False}, under=None))
    tree = two_windows({"touchable": False}, under={"filterTouchesWhenObscured": True})
    tree["children"][-1]["frame"] = [0, 650, 400, 100]  # over Btn's top half
    f = android(tree)
    r = f.tap(200, 700)
    assert [(s["to"], s["via"], s["result"], s["rule"]) for s in steps(r, "offer", to="Btn")] == [
        ("Btn", "dispatchTouchEvent", False, "AV4")]
    assert clicks(r) == [] and r["deliveries"][0]["handledBy"] == []
    # Where no window lies over the point the same view takes the tap.
    assert clicks(f.tap(200, 780)) == [("save", "RVC")]
    # A view that does not filter takes it under the window too.
    tree["children"][1]["children"][0]["children"][0]["children"][0].pop("android")
    assert clicks(android(tree).tap(200, 700)) == [("save", "RVC")]
    assert clicks(a.tap(200, 750)) == [("save", "RVC")]


def test_window_and_fragment_members_are_refused_on_kinds_they_do_not_apply_to(client):
    from harness import unique_name

    def refused(tree: dict) -> dict:
        resp = client.rpc("session.create", {"session": unique_name("bad"), "tree": tree, "profile": ANDROID})
        assert "error" in resp, resp
        assert resp["error"]["data"]["name"] == "INVALID_NODE", resp
        return resp["error"]

    def nodes(tree: dict) -> dict:
        w = tree["children"][1]
        return {"W": w, "RVC": w["children"][0], "R": w["children"][0]["children"][0]}

    for id, member, what in [("R", {"touchModal": False}, "windows"), ("RVC", {"filterTouchesWhenObscured": True}, "views"),
                             ("W", {"backCallback": {"enabled": True}}, "view controllers"),
                             ("R", {"onOptionsItemSelected": ["share"]}, "view controllers")]:
        tree = fixture_f()
        nodes(tree)[id]["android"] = member
        e = refused(tree)
        (name,) = member
        assert e["data"]["field"].endswith(f"android.{name}") and what in e["message"], e
    for member, field in [({"backCallback": {"enabled": "yes"}}, "backCallback.enabled"),
                          ({"backCallback": {"enabled": True, "x": 1}}, "backCallback.x"),
                          ({"contextMenu": ["a", 3]}, "contextMenu[1]")]:
        tree = fixture_f()
        nodes(tree)["RVC" if "back" in field else "R"]["android"] = member
        e = refused(tree)
        assert e["data"]["field"].endswith(f"android.{field}"), e


# ------------------------------------------------------------------------------------------ menus (AX4) and event.menuItem

def context_tree(rvc_items=(), fragment_items=("paste",)) -> dict:
    """R > P [context menu: paste, share] > Fr (a fragment) > FrV > Btn [click → save; context menu: copy]."""
    btn = with_android(button("Btn", (0, 0, 200, 100), "save"), contextMenu=["copy"])
    fr = {"id": "Fr", "kind": "viewController", "android": {"onContextItemSelected": list(fragment_items)},
          "children": [view("FrV", (0, 0, 400, 400), btn)]}
    p = with_android(view("P", (0, 0, 400, 400), fr), contextMenu=["paste", "share"])
    return fixture_f(p, rvc={"android": {"onContextItemSelected": list(rvc_items)}} if rvc_items else None)


def test_AX4_AC9_a_long_press_shows_the_context_menu_built_up_the_parents_and_the_up_does_not_click(android):
    a = android(context_tree())
    a.touch(("t", "began", (50, 50), 0))
    fired = a.call("clock.advance", to=1)
    (menu,) = [s for s in steps(fired, "longClick") if s["listener"] == "contextMenu"]
    assert (menu["view"], menu["items"], menu["performed"], menu["rule"]) == ("Btn", ["copy", "paste", "share"], True,
                                                                            "AX4")
    up = a.touch(("t", "ended", None, 1.1))
    assert clicks(up) == [] and steps(up, "click") == [], "a long press the context menu handled does not click (AC9)"
    # Without a context menu the same long press is not handled and the UP clicks.
    b = android(fixture_f(button("Btn", (0, 0, 200, 100), "save")))
    b.touch(("t", "began", (50, 50), 0))
    assert steps(b.call("clock.advance", to=1), "longClick") == [], "a Button is not long-clickable by itself"


def test_AX4_a_context_item_goes_to_the_activity_then_the_fragments(android):
    a = android(context_tree())
    r = a.call("event.menuItem", item="paste", menu="context", view="Btn")
    assert [(s["method"], s["item"], s["result"], s["rule"]) for s in steps(r, "activity")] == [
        ("onContextItemSelected", "paste", False, "AX4")]
    assert [(s["id"], s["result"], s["rule"]) for s in steps(r, "fragment")] == [("Fr", True, "AX4")]
    assert (r["performed"], r["by"], r["visited"]) == (True, "Fr", ["RVC", "Fr"])
    b = android(context_tree(rvc_items=("paste",)))
    r = b.call("event.menuItem", item="paste", menu="context", view="Btn")
    assert (r["by"], r["visited"], steps(r, "fragment")) == ("RVC", ["RVC"], [])
    # An item the view's menu does not have cannot be chosen; a view's own menu is its parents' too.
    with pytest.raises(RPCError) as e:
        a.call("event.menuItem", item="copy", menu="context", view="P")
    assert (e.value.name, e.value.data["field"]) == ("INVALID_PARAMS", "item") and "paste, share" in str(e.value)


def test_event_menu_item_refuses_bad_params_and_changes_nothing(android, client):
    a = android(context_tree())
    revision = a.call("tree.get")["revision"]
    for params, name, field in [
        ({"item": ""}, "INVALID_PARAMS", "item"),
        ({"item": "paste", "menu": "edit"}, "INVALID_PARAMS", "menu"),
        ({"item": "paste", "view": "Btn"}, "INVALID_PARAMS", "view"),
        ({"item": "paste", "menu": "context"}, "INVALID_PARAMS", "view"),
        ({"item": "paste", "menu": "context", "view": "Nope"}, "NODE_NOT_FOUND", "view"),
        ({}, "INVALID_PARAMS", "item"),
    ]:
        resp = client.rpc("event.menuItem", {"session": a.session, **params}, validate=False)
        assert "error" in resp, (params, resp)
        data = resp["error"]["data"]
        assert (data["name"], data.get("field")) == (name, field), (params, resp)
    assert a.call("tree.get")["revision"] == revision


def test_the_readme_event_menu_item_example_is_the_engines_reply(client):
    """12.3 `event.menuItem`: the example's requests on a fresh session give the documented reply."""
    from harness import unique_name
    from test_dispatch import readme_examples
    [(requests, documented)] = readme_examples("`event.menuItem`")
    session = unique_name("menu")
    for request in requests:
        result = client.call(request["method"], **{**request["params"], "session": session})
    for k in ("seq", "seqRange"):
        result.pop(k), documented.pop(k, None)
    assert result == documented
