"""Dispatch methods (Protocol/README.md section 12) against the real engine. Every reply is validated against
methods/<method>.result.json and every event against events/<stream>.json (the harness does both), so the
closed schemas (trace steps, reasons, rules, dispositions, outcome shapes) are checked on real output. The
assertions are the UIKit rules of docs/rules.md that the replies expose; test_every_trace_shape_occurs
drives every step, reason and outcome variant the protocol documents and checks that each one occurs."""

import json
import math
import re

import pytest

from harness import PROTOCOL, SCHEMAS, event_schema_for, new_session
from test_android_rules import android_traces
from test_cells import cell_traces
from test_text_editing import editing_traces
from test_scroll_directions import scroll_traces
from test_sheets import sheet_traces
from test_uikit_classes import uikit_traces

# The demo world: button at window (32, 136, 326, 44), textField at (32, 196, 326, 44).
BUTTON = [100, 150]
TEXT_FIELD = [100, 210]
NOWHERE = [1000, 1000]


@pytest.fixture
def demo(engine, client):
    s = new_session(client, "disp")
    return s, engine.subscriber(f"{s}/")


def test_hit_test(client, demo):
    s, _ = demo
    r = client.call("hitTest", session=s, point=BUTTON)
    assert (r["window"], r["view"], r["localPoint"]) == ("window", "button", [68, 14])
    order = [v["id"] for v in r["visited"]]
    assert order == ["window", "root", "card", "textField", "button"], "front-most subviews first (H2)"
    assert [v["result"] for v in r["visited"]] == ["hit", "hit", "hit", "miss", "hit"]
    assert "header" not in order, "views behind the winner are never asked"
    r = client.call("hitTest", session=s, point=NOWHERE)
    assert r["window"] is None and r["view"] is None and r["localPoint"] is None


def test_responder_chain(client, demo):
    s, _ = demo
    assert client.call("responderChain", session=s, id="button")["chain"] == \
        ["button", "card", "root", "rootVC", "window", "app", "delegate"]
    e = client.error("responderChain", session=s, id="ghost")
    assert e.name == "NODE_NOT_FOUND" and e.data.get("id") == "ghost"


def test_tap_publishes_its_trace(client, demo):
    s, sub = demo
    r = client.call("event.tap", session=s, point=BUTTON)
    assert r["seqRange"] is not None and r["seqRange"][1] == r["seq"]
    _, event = sub.next(f"{s}/trace")
    assert event["seq"] == r["seqRange"][0] and event["trace"] == r["trace"]


def test_nil_target_action_walks_to_the_view_controller(client, demo):
    s, sub = demo
    r = client.call("action.send", session=s, action="buttonTapped:", target=None, sender="button")
    assert r["performed"] is True and r["by"] == "rootVC"
    assert r["visited"] == ["button", "card", "root", "rootVC"]
    _, event = sub.next(f"{s}/trace")
    assert event["trace"] == r["trace"]
    r = client.call("action.send", session=s, action="buttonTapped:", target="card", sender="button")
    assert r["performed"] is False, "an explicit target that does not implement the action fails (A2)"
    r = client.call("action.send", session=s, action="nobodyHasThis:", target=None, sender="button")
    assert r["performed"] is False and r["by"] is None


def test_first_responder(client, demo):
    s, sub = demo
    assert client.call("responder.first", session=s) is None
    r = client.call("responder.become", session=s, id="textField")
    assert r["result"] is True
    assert client.call("responder.first", session=s) == "textField"
    assert client.call("responder.first", session=s, window="window") == "textField"
    assert client.call("session.snapshot", session=s)["firstResponders"] == {"window": "textField"}
    _, focus = sub.next(f"{s}/focus")
    assert focus["seq"] <= r["seq"]
    r = client.call("responder.become", session=s, id="button")
    assert r["result"] is False, "canBecomeFirstResponder is false for a button (F1)"
    assert client.call("responder.first", session=s) == "textField", "and the first responder is untouched (F2)"
    r = client.call("responder.resign", session=s, id="textField")
    assert r["result"] is True and client.call("responder.first", session=s) is None


def test_tapping_a_text_field_focuses_it(client, demo):
    s, _ = demo
    client.call("event.tap", session=s, point=TEXT_FIELD)
    assert client.call("responder.first", session=s) == "textField"
    client.call("event.tap", session=s, point=BUTTON)
    assert client.call("responder.first", session=s) == "textField", "tapping a button does not move focus (F5)"


def test_removing_the_first_responder_resigns_it(client, demo):
    s, sub = demo
    client.call("responder.become", session=s, id="textField")
    r = client.call("tree.apply", session=s, ops=[{"op": "remove", "id": "card"}])
    first, last = r["seqRange"]
    assert last > first, "the tree event is followed by the forced resignation (F6)"
    assert client.call("responder.first", session=s) is None
    streams = set()
    while True:
        _, e = sub.next()
        if e["seq"] >= first:
            streams.add(e["stream"])
        if e["seq"] == last:
            break
    assert {"tree", "focus"} <= streams


def test_motion_remote_press(client, demo):
    s, sub = demo
    for method, params in [("event.motion", {"subtype": "shake", "phase": "began"}),
                           ("event.motion", {"subtype": "shake", "phase": "ended"}),
                           ("event.remoteControl", {"subtype": "play"}),
                           ("event.press", {"press": "p1", "key": "a", "phase": "began"}),
                           ("event.press", {"press": "p1", "key": "a", "phase": "ended"})]:
        r = client.call(method, session=s, **params)
        _, event = sub.next(f"{s}/trace")
        assert event["trace"] == r["trace"] and event["seq"] == r["seq"]


def test_touch_phases_and_errors(client, demo):
    s, _ = demo
    client.call("event.touch", session=s, touches=[{"touch": "t1", "phase": "began", "point": BUTTON}])
    live = client.call("session.snapshot", session=s)["liveTouches"]
    assert len(live) == 1
    e = client.error("event.touch", session=s, touches=[{"touch": "t1", "phase": "began", "point": BUTTON}])
    assert e.name == "TOUCH_IN_USE"
    e = client.error("event.touch", session=s, touches=[{"touch": "t9", "phase": "moved", "point": BUTTON}])
    assert e.name == "TOUCH_NOT_FOUND"
    client.call("event.touch", session=s, touches=[{"touch": "t1", "phase": "moved", "point": NOWHERE}])
    client.call("event.touch", session=s, touches=[{"touch": "t1", "phase": "ended", "point": NOWHERE}])
    assert client.call("session.snapshot", session=s)["liveTouches"] == []


def test_press_errors(client, demo):
    s, _ = demo
    client.call("event.press", session=s, press="k", key="a", phase="began")
    assert client.error("event.press", session=s, press="k", key="a", phase="began").name == "PRESS_IN_USE"
    assert client.error("event.press", session=s, press="z", key="a", phase="ended").name == "PRESS_NOT_FOUND"


def test_make_key(client, demo):
    s, sub = demo
    r = client.call("window.makeKey", session=s, id="window")
    assert (r["key"], r["previous"]) == ("window", "window")
    assert r["trace"] == {"kind": "makeKey", "steps": [{"step": "keyWindow", "from": "window", "to": "window", "rule": "F4"}],
                          "outcome": {"key": "window", "previous": "window"}}
    assert r["seqRange"] == [r["seq"], r["seq"]], "one tree event of update ops, even when the window was key"
    _, event = sub.next(f"{s}/tree")
    assert event["change"] == "apply" and event["ops"] == [{"op": "update", "id": "window", "set": {"key": True}}]
    assert event["seq"] == r["seq"] and event["revision"] == r["revision"]
    sub.nothing(0.2)
    e = client.error("window.makeKey", session=s, id="title")
    assert e.name == "WRONG_KIND" and e.data.get("id") == "title"


@pytest.mark.parametrize("method,params", [
    ("hitTest", {"point": BUTTON}),
    ("responderChain", {"id": "button"}),
    ("event.touch", {"touches": [{"touch": "t", "phase": "began", "point": BUTTON}]}),
    ("event.tap", {"point": BUTTON}),
    ("event.motion", {"subtype": "shake", "phase": "began"}),
    ("event.remoteControl", {"subtype": "play"}),
    ("event.press", {"press": "p", "key": "a", "phase": "began"}),
    ("responder.become", {"id": "textField"}),
    ("responder.resign", {"id": "textField"}),
    ("responder.first", {}),
    ("window.makeKey", {"id": "window"}),
    ("action.send", {"action": "buttonTapped:", "target": None, "sender": "button"}),
    ("action.canPerform", {"action": "copy:"}),
    ("clock.advance", {"by": 0.25}),
])
def test_dispatch_result_schema(client, demo, method, params):
    s, _ = demo
    client.call(method, session=s, **params)  # validated against methods/<method>.result.json


@pytest.mark.parametrize("method,params,kind", [
    ("hitTest", {"point": BUTTON}, "hitTest"),
    ("responderChain", {"id": "button"}, "responderChain"),
    ("action.canPerform", {"action": "copy:"}, "canPerform"),
    ("responder.first", {}, None),
])
def test_queries_publish_nothing(client, demo, method, params, kind):
    s, sub = demo
    before = client.call("session.snapshot", session=s)["seq"]
    r = client.call(method, session=s, **params)
    if kind is None:
        assert r is None, "responder.first answers the bare id (or null), without a trace"
    else:
        assert r["trace"]["kind"] == kind and "seq" not in r and "seqRange" not in r
        assert r["trace"]["outcome"] == {k: v for k, v in r.items() if k != "trace"}
    sub.nothing(0.2)
    assert client.call("session.snapshot", session=s)["seq"] == before


# ------------------------------------------------------------------------------------------ every shape

def _v(id, frame, *children, kind="view", **fields):
    n = {"id": id, "kind": kind, "frame": list(frame), **fields}
    if children:
        n["children"] = list(children)
    return n


def _vc(id, root, **fields):
    return {"id": id, "kind": "viewController", "children": [root], **fields}


def coverage_world() -> dict:
    """One view of each hit-test kind in a row, an exclusive view, a button with actions for every target case,
    text fields, a view that handles with super, a presented-controller cycle (B ⇄ C) and a second window."""
    row = [
        _v("hid", (0, 0, 10, 10), hidden=True),
        _v("al", (10, 0, 10, 10), alpha=0.005),
        _v("ui", (20, 0, 10, 10), userInteractionEnabled=False),
        _v("dis", (30, 0, 10, 10), kind="control", enabled=False),
        _v("sing", (40, 0, 10, 10), transform=[0, 0, 0, 0, 0, 0]),
        _v("nev", (50, 0, 10, 10), hitTest={"mode": "never"}),
        _v("ins", (60, 0, 20, 20), hitTest={"insets": [5, 5, 5, 5]}),
        _v("pass", (0, 20, 100, 20), hitTest={"mode": "passThroughSelf"}),
        _v("redir", (100, 20, 50, 20), hitTest={"redirect": {"to": "tgt", "when": "self"}}),
        _v("tgt", (200, 20, 20, 20)),
        _v("ex", (0, 100, 50, 50), exclusiveTouch=True),
        _v("other", (100, 100, 50, 50)),
        _v("btn", (0, 200, 100, 44), kind="control", targets=[
            {"event": "touchUpInside", "action": "tap:", "target": None},
            {"event": "touchUpInside", "action": "tap:", "target": "RVC"},
            {"event": "touchDown", "action": "down:", "target": "ghost"},
            {"event": "touchCancel", "action": "cancelled:", "target": "RVC"}]),
        _v("tf", (0, 300, 200, 44), kind="textField"),
        _v("tf2", (0, 350, 200, 44), kind="textField", canResignFirstResponder=False),
        _v("sup", (0, 400, 100, 100), canBecomeFirstResponder=True, vetoes=["copy:"],
           handles={"touchesBegan": "handle+super", "copy:": "handle", "motionBegan": "handle"}),
    ]
    window = {"id": "W", "kind": "window", "frame": [0, 0, 400, 800], "key": True, "children": [
        _vc("RVC", _v("R", (0, 0, 400, 800), *row), handles={"tap:": "handle", "touchesCancelled": "handle"}),
        _vc("B", _v("rb", (300, 700, 10, 10)), presentedBy="C"),
        _vc("C", _v("rc", (320, 700, 10, 10)), presentedBy="B")]}
    window2 = {"id": "W2", "kind": "window", "frame": [0, 0, 400, 800], "windowLevel": -1, "children": [
        _vc("RVC2", _v("R2", (0, 0, 400, 800)))]}
    return {"id": "app", "kind": "application", "receivesRemoteControlEvents": True,
            "children": [{"id": "AD", "kind": "appDelegate"}, window, window2]}


class Recorder:
    """Calls one session's methods and keeps every trace it sees. The params are checked against
    methods/<method>.params.json (the engine accepts them, so the schema must too); the harness checks replies."""

    def __init__(self, client, session):
        self.client, self.session, self.traces = client, session, []

    def __call__(self, method, **params):
        SCHEMAS.validate(f"methods/{method}.params.json", {"session": self.session, **params}, f"params of {method}")
        r = self.client.call(method, session=self.session, **params)
        if isinstance(r, dict) and "trace" in r:
            self.traces.append(r["trace"])
        return r

    def touch(self, *entries, **params):
        return self(  # (id, phase, point-or-None)
            "event.touch", touches=[{"touch": t, "phase": ph, **({"point": list(p)} if p else {})} for t, ph, p in entries],
            **params)


def drain(sub, session, until):
    """Every event of `session` up to seq `until` (validated against events/<stream>.json by the harness)."""
    events = []
    while not events or events[-1][1]["seq"] < until:
        topic, e = sub.next()
        if topic.startswith(f"{session}/"):
            events.append((topic, e))
    assert [e["seq"] for _, e in events] == list(range(events[0][1]["seq"], until + 1)), "no gap, no repeat"
    return events


DOUBLE = [{"id": "double", "kind": "tap", "numberOfTapsRequired": 2, "targets": [{"target": "tv", "action": "nope:"}]}]


def gesture_world():
    H = {m: "handle" for m in ("touchesBegan", "touchesMoved", "touchesEnded", "touchesCancelled")}
    lv_recognizers = [
        {"id": "lp", "kind": "longPress", "delaysTouchesBegan": True, "targets": [{"target": "GVC", "action": "pressed:"}]},
        {"id": "nb", "kind": "pan", "shouldBegin": False},
        {"id": "off", "kind": "tap", "enabled": False},
        {"id": "deaf", "kind": "tap", "shouldReceiveTouch": False}]
    root = _v("G", (0, 0, 400, 800),
        _v("tv", (0, 0, 100, 100),
           _v("tvi", (0, 0, 100, 100), handles=H, gestureRecognizers=[
               {"id": "single", "kind": "tap", "requireToFail": ["double"],
                "targets": [{"target": "GVC", "action": "tapped:"}, {"target": "ghost", "action": "x:"}]}]),
           gestureRecognizers=DOUBLE),
        _v("lv", (100, 0, 100, 100), handles=H, gestureRecognizers=lv_recognizers),
        _v("dv", (200, 0, 100, 100), handles=H, gestureRecognizers=[{"id": "dbl", "kind": "tap", "numberOfTapsRequired": 2}]),
        _v("pv", (0, 200, 400, 200),
           _v("btn", (10, 10, 100, 44), kind="control", **{"class": "UIButton"}, targets=[
               {"event": "touchUpInside", "action": "go:", "target": "GVC"},
               {"event": "touchCancel", "action": "cancel:", "target": None}]),
           gestureRecognizers=[{"id": "ptap", "kind": "tap"},
                               {"id": "pan", "kind": "pan", "targets": [{"target": "GVC", "action": "panned:"}]}]),
        _v("mv", (0, 400, 400, 400), handles=H, multipleTouchEnabled=True, gestureRecognizers=[
            {"id": "two", "kind": "tap", "numberOfTouchesRequired": 2},
            {"id": "sw", "kind": "swipe", "direction": "left"},
            {"id": "pinch", "kind": "pinch", "simultaneousWith": ["rot"]},
            {"id": "rot", "kind": "rotation"}]))
    window = {"id": "GW", "kind": "window", "frame": [0, 0, 400, 800], "key": True, "children": [
        {"id": "GVC", "kind": "viewController", "children": [root],
         "handles": {"tapped:": "handle", "pressed:": "handle", "panned:": "handle", "go:": "handle"}}]}
    return {"id": "app", "kind": "application", "children": [window]}, lv_recognizers


def gesture_traces(engine, client):
    """Drives a world of recognizers through every gesture step, reason, hold and release the protocol
    documents (G1–G11, scenarios P13–P13e), checking the decisions on the way; returns every trace it saw
    (replies and published events) and the published events."""
    tree, lv_recognizers = gesture_world()
    s = new_session(client, "gest", tree=tree)
    sub = engine.subscriber(f"{s}/")
    r = Recorder(client, s)

    def touch(*entries):
        return r("event.touch", touches=[{"touch": e[0], "phase": e[1], **({"point": list(e[2])} if len(e) > 2 and e[2] else {}),
                                          **({"time": e[3]} if len(e) > 3 else {})} for e in entries])

    def transitions(result):
        out = list(result.get("gestures", []))
        for d in result.get("deliveries", []):
            out += d.get("gestures", [])
        return [(g["recognizer"], g["to"], g["rule"], g["reason"]) + ((g["by"],) if "by" in g else ()) for g in out]

    def snapshot():
        return client.call("session.snapshot", session=s)

    # P13e (G5, G9, G11): a single tap that requires a double tap to fail waits; its touchesEnded is held.
    a = r("event.tap", point=[50, 50], time=0)
    assert {"step": "gestureWait", "recognizer": "single", "waitingFor": ["double"], "rule": "G5"} in a["trace"]["steps"]
    ended = a["deliveries"][1]
    assert (ended["reason"], ended["rule"], ended["heldBy"], ended["visited"]) == ("held", "G9", ["single", "double"], [])
    snap = snapshot()
    assert snap["clock"] == 0
    assert [(t["touch"], t["phase"], t["heldBy"]) for t in snap["liveTouches"]] == [("tap-1", "ended", ["single", "double"])]
    by_id = {x["recognizer"]: x for x in snap["recognizers"]}
    assert [x["recognizer"] for x in snap["recognizers"]] == sorted(by_id), "sorted by id"
    assert (by_id["single"]["state"], by_id["single"]["waitingFor"], by_id["single"]["view"]) == ("possible", ["double"], "tvi")
    assert by_id["lp"] == {"recognizer": "lp", "view": "lv", "kind": "longPress", "state": "possible", "touches": [], "waitingFor": []}
    c = r("clock.advance", by=0.35)
    assert (c["from"], c["time"]) == (0, 0.35)
    assert transitions(c)[:2] == [("double", "failed", "G11", "timed-out"), ("single", "recognized", "G5", "required-failed")]
    assert [(x["target"], x["performed"], x.get("reason")) for x in c["gestureActions"]] == \
        [("GVC", True, None), ("ghost", False, "target-missing")]
    assert [(d["touch"], d["message"], d["reason"], d["rule"]) for d in c["gestureDeliveries"]] == \
        [("tap-1", "touchesCancelled", "cancelled-by-gesture", "G7")]
    assert snapshot()["liveTouches"] == [] and snapshot()["clock"] == 0.35

    # Two quick taps fire only the double tap (G5: the single tap fails); the double tap's target lacks its action:
    # the app crashes (G3, A2), and the rest of that dispatch (tvi's touchesEnded) does not happen.
    r("event.tap", point=[50, 50], time=1)
    b = r("event.tap", point=[50, 50], time=1.1)
    assert ("double", "recognized", "G2", "taps-completed") in transitions(b)
    assert ("single", "failed", "G5", "required-recognized", "double") in transitions(b)
    assert ("single", "recognized") not in [t[:2] for t in transitions(b)]
    assert [(x["recognizer"], x["reason"]) for d in b["deliveries"] for x in d.get("gestureActions", [])] == [("double", "unrecognized-selector")]
    assert b["crashed"] == {"reason": "unrecognized-selector", "target": "tv", "action": "nope:", "recognizer": "double",
                            "rule": "G3"} and b["deliveries"][-1]["reason"] == "crashed"

    # G2 + G5 in a tree change: the double tap a single tap waits on is removed: the single tap is recognized,
    # takes its touch and sends its actions (treeChange gestures, gestureActions, gestureDeliveries).
    r("event.tap", point=[50, 50], time=1.5)
    removed = r("tree.apply", ops=[{"op": "update", "id": "tv", "set": {"gestureRecognizers": []}}])
    assert removed["seqRange"] == [removed["seq"] - 1, removed["seq"]], "tree, then treeChange"
    r("tree.apply", ops=[{"op": "update", "id": "tv", "set": {"gestureRecognizers": DOUBLE}}])

    # G1: a touch the view does not get because of T4 is still observed; a second touch is too many for a tap.
    t4 = touch(("x", "began", (250, 50), 2), ("y", "began", (260, 60)))
    assert [st["touch"] for st in t4["trace"]["steps"] if st["step"] == "observe"] == ["x", "y"]
    assert t4["deliveries"][1]["reason"] == "multiple-touch-disabled"
    assert ("dbl", "failed", "G2", "too-many-touches") in transitions(t4)
    touch(("x", "ended"), ("y", "ended"))

    # G9 + G11: a lone tap on a double-tap view: its ended is held, then released when the double tap times out.
    held = r("event.tap", point=[250, 50], time=3)
    assert held["deliveries"][1]["heldBy"] == ["dbl"]
    c = r("clock.advance", to=3.35)
    assert transitions(c)[0] == ("dbl", "failed", "G11", "timed-out")
    assert {"step": "release", "touch": held["deliveries"][1]["touch"], "message": "touchesEnded", "by": "dbl", "rule": "G9"} in c["trace"]["steps"]
    assert [(d["phase"], d["reason"], d["rule"], d["handledBy"]) for d in c["gestureDeliveries"]] == [("ended", "released", "G9", ["dv"])]

    # G2 + G9: the recognizer holding a touchesEnded is removed: it fails and the phase is released (treeChange).
    held = r("event.tap", point=[250, 50], time=4)
    removal = r("tree.apply", ops=[{"op": "update", "id": "dv", "set": {"gestureRecognizers": []}}])
    assert removal["seqRange"] == [removal["seq"] - 1, removal["seq"]], "tree, then treeChange"

    # G8 + G11 + G4 + G7/G8: a long press that delays touchesBegan holds began and moved, begins when held long
    # enough, excludes the pan and takes the touch before the view had anything of it.
    lp = touch(("L", "began", (150, 50), 5), ("L", "moved", (152, 50)))
    observed = {st["recognizer"]: (st["observes"], st.get("reason")) for st in lp["trace"]["steps"] if st["step"] == "observe"}
    assert observed == {"lp": (True, None), "nb": (True, None), "off": (False, "disabled"),
                        "deaf": (False, "should-receive-touch-false")}
    assert [(d["reason"], d["rule"], d["heldBy"]) for d in lp["deliveries"]] == [("held", "G8", ["lp"])] * 2
    assert [t["heldBy"] for t in snapshot()["liveTouches"]] == [["lp"]]
    c = r("clock.advance", by=0.5)
    assert transitions(c) == [("lp", "began", "G11", "duration-elapsed"), ("nb", "failed", "G4", "excluded", "lp")]
    assert [(st["message"], st["reason"]) for st in c["trace"]["steps"] if st["step"] == "discard"] == \
        [("touchesBegan", "taken-by-gesture"), ("touchesMoved", "taken-by-gesture")]
    assert c["gestureDeliveries"] == [] and [x["performed"] for x in c["gestureActions"]] == [True]
    assert {x["recognizer"]: (x["state"], x["touches"]) for x in snapshot()["recognizers"]}["lp"] == ("began", ["L"])
    moved = touch(("L", "moved", (160, 50)))
    assert (moved["deliveries"][0]["reason"], moved["deliveries"][0]["rule"]) == ("taken-by-gesture", "G8")
    assert transitions(moved) == [("lp", "changed", "G2", "moved")]
    # G2: disabled mid-gesture: cancelled (treeChange); then the touch ends and everything resets.
    disabled = [dict(x, enabled=False) if x["id"] == "lp" else x for x in lv_recognizers]
    r("tree.apply", ops=[{"op": "update", "id": "lv", "set": {"gestureRecognizers": disabled}}])
    touch(("L", "ended"))
    r("tree.apply", ops=[{"op": "update", "id": "lv", "set": {"gestureRecognizers": lv_recognizers}}])
    # A touch a recognizer took whose view leaves its window has nothing to cancel: its entry is a dropped one.
    touch(("K", "began", (150, 50)))
    r("clock.advance", by=0.5)
    r("tree.apply", ops=[{"op": "move", "id": "lv", "parent": None}])
    r("tree.apply", ops=[{"op": "move", "id": "lv", "parent": "G", "index": 1}])
    assert snapshot()["liveTouches"] == []

    # G2 + G6 + G8: moved too far: the long press fails, the pan may not begin, the held began is released.
    far = touch(("M", "began", (150, 50)), ("M", "moved", (175, 50)), ("M", "ended"))
    assert transitions(far)[:2] == [("lp", "failed", "G2", "moved-too-far"), ("nb", "failed", "G6", "should-begin-false")]
    assert [(d["phase"], d["reason"], d["rule"]) for d in far["deliveries"][1]["gestureDeliveries"]] == [("began", "released", "G8")]
    assert far["deliveries"][2]["handledBy"] == ["lv"], "touchesEnded reaches the view once nothing holds it"
    early = touch(("N", "began", (150, 50), 6), ("N", "ended", None, 6.1))
    assert ("lp", "failed", "G2", "released-early") in transitions(early)

    # G10: a tap recognizer on the button's superview leaves the button its tap; a pan does not (G7: touchCancel).
    g10 = r("event.tap", point=[20, 220])
    assert ("ptap", "failed", "G10", "control-default-action", "btn") in transitions(g10)
    assert g10["deliveries"][1]["controlEvents"] == ["touchUpInside", "primaryActionTriggered"] and g10["deliveries"][1]["actions"][0]["by"] == "GVC"
    drag = touch(("P", "began", (20, 220)), ("P", "moved", (35, 220)), ("P", "moved", (60, 220)), ("P", "ended"))
    assert transitions(drag)[:2] == [("ptap", "failed", "G2", "moved-too-far"), ("pan", "began", "G2", "threshold")]
    cancel = drag["deliveries"][1]["gestureDeliveries"][0]
    assert (cancel["controlEvents"], cancel["reason"], cancel["rule"]) == (["touchCancel"], "cancelled-by-gesture", "G7")
    assert [(d["reason"], d["rule"]) for d in drag["deliveries"][1:]] == [("cancelled-by-gesture", "G7")] * 3
    assert [t[:2] for t in transitions(drag)[2:4]] == [("pan", "changed"), ("pan", "ended")]
    assert sum(len(d.get("gestureActions", [])) for d in drag["deliveries"]) == 3, "began, changed, ended (G3)"

    # Swipes, taps with two touches, pinch and rotation on a multi-touch view.
    swipe = touch(("S", "began", (300, 500), 7), ("S", "moved", (240, 500), 7.1), ("S", "ended"))
    assert ("sw", "recognized", "G2", "swiped") in transitions(swipe)
    assert ("pinch", "failed", "G4", "excluded", "sw") in transitions(swipe) and ("rot", "failed", "G4", "excluded", "sw") in transitions(swipe)
    wrong = touch(("S", "began", (100, 500), 8), ("S", "moved", (160, 500), 8.1), ("S", "ended"))
    assert ("sw", "failed", "G2", "wrong-direction") in transitions(wrong)
    touch(("S", "began", (100, 500), 9))
    slow = r("clock.advance", by=1)
    assert transitions(slow) == [("sw", "failed", "G11", "too-slow")]
    gone = touch(("S", "cancelled"))
    assert {t[0] for t in transitions(gone) if t[3] == "touch-cancelled"} == {"two", "pinch", "rot"}
    few = r("event.tap", point=[100, 500])
    assert ("two", "failed", "G2", "too-few-touches") in transitions(few)
    assert ("sw", "failed", "G2", "ended-before-threshold") in transitions(few)
    pinch = touch(("p", "began", (100, 500), 11), ("q", "began", (200, 500)), ("q", "moved", (230, 500)),
                  ("q", "moved", (240, 500)), ("q", "ended"), ("p", "ended"))
    assert ("sw", "failed", "G2", "too-many-touches") in transitions(pinch)
    assert [t[:4] for t in transitions(pinch) if t[0] == "pinch"][:3] == [
        ("pinch", "began", "G2", "threshold"), ("pinch", "changed", "G2", "moved"), ("pinch", "ended", "G2", "touches-ended")]
    angle = 0.3
    rot = touch(("p", "began", (100, 500), 12), ("q", "began", (200, 500)),
                ("q", "moved", (100 + 100 * math.cos(angle), 500 + 100 * math.sin(angle))), ("p", "cancelled"), ("q", "ended"))
    assert [t[:4] for t in transitions(rot) if t[0] == "rot"][:2] == [
        ("rot", "began", "G2", "threshold"), ("rot", "cancelled", "G2", "touch-cancelled")]
    assert all(t[0] != "pinch" or t[1] != "began" for t in transitions(rot))

    # Same inputs, same trace, byte for byte (G11: no wall clock).
    s2 = new_session(client, "gest2", tree=gesture_world()[0])
    again = client.call("event.tap", session=s2, point=[50, 50], time=0)
    assert again["trace"] == a["trace"]

    events = drain(sub, s, snapshot()["seq"])
    traces = r.traces + [e["trace"] for t, e in events if e["stream"] == "trace"]
    return traces, events


def test_every_trace_shape_occurs(engine, client):
    s = new_session(client, "cov", tree=coverage_world(),
                    detached=[{"id": "det", "kind": "textField", "frame": [0, 0, 10, 10]}])
    sub = engine.subscriber(f"{s}/")
    r = Recorder(client, s)

    # hitTest: every visit variant, a redirect, a miss everywhere
    row = r("hitTest", point=[5, 5])
    assert row["view"] == "R"
    assert {v["id"]: (v["result"], v.get("reason"), v["rule"]) for v in row["visited"]
            if v["id"] in ("hid", "al", "ui", "dis", "sing", "nev", "ins")} == {
        "hid": ("miss", "hidden", "H2"), "al": ("miss", "alpha", "H2"), "ui": ("miss", "interaction-disabled", "H2"),
        "dis": ("miss", "disabled-control", "H7"), "sing": ("miss", "singular-transform", "H4"),
        "nev": ("skipped", "never", "H6"), "ins": ("miss", "outside-bounds", "H6")}
    assert r("hitTest", point=[10, 30])["view"] == "R"
    redirected = r("hitTest", point=[110, 30])
    assert redirected["view"] == "tgt" and redirected["localPoint"] == [-90, 10]
    assert r("hitTest", point=[1000, 1000])["view"] is None
    assert r("responderChain", id="rb")["chain"] == ["rb", "B", "C"]
    assert r("responderChain", id="btn")["chain"][-3:] == ["W", "app", "AD"]

    # touches: T5, T4, no hit, a control through every control event, stationary, a cycle, F5
    r.touch(("e1", "began", (10, 110)), ("o1", "began", (110, 110)), ("e2", "began", (20, 120)))
    live = client.call("session.snapshot", session=s)["liveTouches"]
    assert [(t["touch"], t["view"], t["window"], t["phase"]) for t in live] == \
        [("e1", "ex", "W", "began"), ("o1", None, "W", "began"), ("e2", None, "W", "began")]
    r.touch(("e1", "ended", None), ("o1", "ended", None), ("e2", "ended", None), ("n", "began", (1000, 1000)))
    r.touch(("n", "ended", None))
    b = r.touch(("b", "began", (10, 210)), ("b", "moved", (10, 360)), ("b", "moved", (10, 400)),
                ("b", "moved", (10, 215)), ("b", "moved", (12, 216)), ("b", "moved", (10, 400)),
                ("b", "ended", (10, 400)), tapCount=2)
    assert [d["controlEvents"] for d in b["deliveries"]] == [
        ["touchDown", "touchDownRepeat"], ["touchDragExit", "touchDragOutside"], ["touchDragOutside"],
        ["touchDragEnter", "touchDragInside"], ["touchDragInside"], ["touchDragExit", "touchDragOutside"],
        ["touchUpOutside"]]
    assert b["deliveries"][0]["actions"] == [
        {"action": "down:", "event": "touchDown", "target": "ghost", "performed": False, "by": None}]
    tap = r("event.tap", point=[10, 210])
    assert [(a["target"], a["performed"], a["by"]) for a in tap["deliveries"][1]["actions"]] == \
        [(None, True, "RVC"), ("RVC", True, "RVC")]
    r.touch(("c", "began", (10, 210)))
    r.touch(("c", "cancelled", None))
    st = r.touch(("s", "began", (10, 410)), ("s", "stationary", None), ("s", "ended", None))
    assert st["deliveries"][1]["reason"] == "stationary" and st["deliveries"][1]["message"] is None
    assert st["deliveries"][0]["handledBy"] == ["sup"] and st["deliveries"][0]["visited"][-1] == "AD", "handle+super"
    cyc = r("event.tap", point=[305, 705])
    assert cyc["deliveries"][0]["visited"] == ["rb", "B", "C"]
    r("event.tap", point=[10, 310])
    assert r("responder.first") == "tf"

    # first responder: every become / resign outcome
    assert r("responder.become", id="tf")["reason"] == "already-first-responder"
    assert r("responder.become", id="det")["reason"] == "not-in-window"
    assert r("responder.become", id="btn")["reason"] == "cannot-become"
    assert r("responder.become", id="tf2")["resigned"] == "tf"
    assert r("responder.become", id="tf")["reason"] == "current-cannot-resign"
    assert r("responder.resign", id="tf2")["reason"] == "cannot-resign"
    assert r("responder.resign", id="tf")["reason"] == "not-first-responder"
    r("tree.apply", ops=[{"op": "update", "id": "tf2", "set": {"canResignFirstResponder": True}}])
    assert r("responder.resign", id="tf2")["reason"] == "resigned"

    # first-responder events, actions
    assert r("responder.become", id="sup")["result"] is True
    assert r("event.motion", phase="began")["handledBy"] == ["sup"]
    assert r("event.remoteControl", subtype="play")["start"] == "sup"
    r("event.press", press="p1", key="a", phase="began")
    r("event.press", press="p1", phase="changed")
    live = client.call("session.snapshot", session=s)["livePresses"]
    assert [(p["press"], p["key"], p["responder"], p["window"], p["phase"]) for p in live] == \
        [("p1", "a", "sup", "W", "changed")]
    # E5: key commands matched, skipped, performed and not performed
    r("tree.apply", ops=[
        {"op": "update", "id": "W", "set": {"keyCommands": [
            {"input": "k", "modifierFlags": ["command"], "action": "tap:"},
            {"input": "j", "modifierFlags": ["command"], "action": "nobody:"}]}},
        {"op": "update", "id": "app", "set": {"keyCommands": [
            {"input": "k", "modifierFlags": ["command"], "action": "other:"}]}}])
    commanded = r("event.press", press="kc", key="k", modifiers=["command"], phase="began")
    assert commanded["keyCommand"]["by"] == "RVC"
    assert r("event.press", press="kj", key="j", modifiers=["command"], phase="began")["keyCommand"]["performed"] is False
    r("event.press", press="kc", phase="ended")
    r("event.press", press="kj", phase="ended")
    vetoed = r("action.send", action="copy:")
    assert vetoed["trace"]["steps"][0]["reason"] == "vetoed" and vetoed["performed"] is False
    assert r("action.send", action="tap:", target="RVC")["by"] == "RVC"
    # A2 (amended): an explicit target lacking the action crashes the app.
    crashed = r("action.send", action="nope:", target="btn")
    assert crashed["reason"] == "unrecognized-selector" and crashed["crashed"]["target"] == "btn"
    assert r("action.canPerform", action="copy:")["editingCommand"] is True

    # tree changes: T6 (plain view and control), E2, F6
    r.touch(("t6", "began", (10, 410)), ("tc", "began", (10, 210)))
    change = r("tree.apply", ops=[{"op": "remove", "id": "sup"}, {"op": "move", "id": "btn", "parent": None}])
    assert change["seqRange"] == [change["seq"] - 2, change["seq"]], "tree, trace, focus"

    # key windows
    make_key = r("window.makeKey", id="W2")
    assert (make_key["key"], make_key["previous"]) == ("W2", "W")
    assert r("event.motion", phase="ended")["start"] == "W2", "E3: no first responder: the key window"
    r("tree.apply", ops=[{"op": "update", "id": "W2", "set": {"key": False}}])
    assert r("event.motion", phase="cancelled")["start"] is None
    r("event.press", press="p2", key="b", phase="began")
    r("event.press", press="p2", phase="ended")

    last = client.call("session.snapshot", session=s)["seq"]
    events = drain(sub, s, last)
    (key_event,) = [e for _, e in events if e["seq"] == make_key["seq"]]
    assert key_event["stream"] == "tree" and key_event["ops"] == [
        {"op": "update", "id": "W", "set": {"key": False}}, {"op": "update", "id": "W2", "set": {"key": True}}]

    # the profile switches: drop, resignFirst, no remote control events
    s2 = new_session(client, "cov2", profile={"touchOnRemoval": "drop", "noFirstResponder": "drop",
                                              "becomeOrder": "resignFirst"})
    sub2 = engine.subscriber(f"{s2}/")
    r2 = Recorder(client, s2)
    assert r2("event.remoteControl", subtype="pause")["start"] is None
    assert r2("event.motion", phase="began")["start"] is None
    r2("responder.become", id="textField")
    refused = r2("responder.become", id="button")
    assert (refused["result"], refused["reason"], refused["resigned"]) == (False, "cannot-become", "textField")
    r2.touch(("d", "began", BUTTON))
    r2("tree.apply", ops=[{"op": "remove", "id": "card"}])
    events += drain(sub2, s2, client.call("session.snapshot", session=s2)["seq"])

    # replayed events are the published ones, and match their stream's schema too
    replay = client.call("trace.replay", session=s, after=0)
    assert replay["complete"] is True and len(replay["events"]) == last
    for entry in replay["events"]:
        SCHEMAS.validate(event_schema_for(entry["topic"]), entry["event"], f"replayed {entry['topic']}")
    published = {e["seq"]: e for t, e in events if e["session"] == s}
    assert all(published[x["event"]["seq"]] == x["event"] for x in replay["events"] if x["event"]["seq"] in published)

    traces = r.traces + r2.traces + [e["trace"] for t, e in events if e["stream"] == "trace"]
    gesture_traces_seen, _ = gesture_traces(engine, client)
    traces += gesture_traces_seen
    traces += uikit_traces(engine, client)  # 1.6: UIKit's own classes (K1–K10)
    traces += cell_traces(engine, client)  # 1.13: table and collection view cells (K14–K16)
    traces += editing_traces(engine, client)  # 1.13: text-field editing (K11–K13, E4, F8, F9)
    traces += sheet_traces(engine, client)  # 1.13: sheets and popovers (K17, K18)
    traces += scroll_traces(engine, client)  # 1.13: scroll directions (G12, K8, K19–K21)
    focus = [e["change"] for t, e in events if e["stream"] == "focus"]
    steps = [st for tr in traces for st in tr["steps"]]

    def seen(step, *keys):
        return {tuple(x.get(k) for k in keys) for x in steps if x["step"] == step}

    trace_doc = SCHEMAS.documents["trace.json"]
    defs = trace_doc["$defs"]
    assert {t["kind"] for t in traces} == set(trace_doc["properties"]["kind"]["enum"])
    # 1.15: the android profile's steps, kept apart: the checks below are of UIKit's reasons and rules.
    android_steps = [st for tr in android_traces(engine, client) for st in tr["steps"]]
    assert {x["step"] for x in steps + android_steps} == set(defs["step"]["properties"]["step"]["enum"])
    assert seen("hitTest", "result", "reason", "rule") == {
        ("hit", None, "H2"), ("hit", "redirect", "H6"), ("miss", "hidden", "H2"), ("miss", "alpha", "H2"),
        ("miss", "interaction-disabled", "H2"), ("miss", "disabled-control", "H7"), ("miss", "outside-bounds", "H3"),
        ("miss", "outside-bounds", "H6"), ("miss", "singular-transform", "H4"), ("skipped", "never", "H6"),
        ("skipped", "pass-through", "H6"),
        ("miss", "interaction-disabled", "K1"), ("miss", "animating", "K10"), ("miss", "presented-over", "K9"),
        ("hit", None, "K17"), ("hit", None, "K18"), ("skipped", "passthrough-view", "K18")}
    assert {x for (x,) in seen("hitTest", "reason")} - {None} == set(defs["hitTestStep"]["properties"]["reason"]["enum"])
    assert seen("deliver", "disposition") == {(d,) for d in defs["deliverStep"]["properties"]["disposition"]["enum"]}
    assert seen("deliver", "rule") == {(x,) for x in defs["deliverStep"]["properties"]["rule"]["enum"]}
    assert ("vetoed",) in seen("deliver", "reason")
    assert seen("controlEvent", "event") == {(x,) for x in defs["controlEventStep"]["properties"]["event"]["enum"]}
    assert seen("action", "rule", "performed", "reason") == {
        ("A2", True, None), ("A2", False, "unrecognized-selector"), ("A2", False, "target-missing"),
        ("A4", True, None), ("A4", False, "end-of-chain")}
    assert seen("check", "check") == {(x,) for x in defs["checkStep"]["properties"]["check"]["enum"]}
    assert seen("check", "rule") == {(x,) for x in defs["checkStep"]["properties"]["rule"]["enum"]}
    assert seen("firstResponder", "reason", "rule") == {
        ("become", "F2"), ("tap", "F5"), ("resign", "F3"), ("resign", "F2"), ("left-window", "F6"), ("become", "K7"),
        ("end-editing", "F8"), ("hidden", "F9"), ("return-key", "K13")}
    assert seen("next", "rule") == {("N1",), ("N2",), ("N3",)}
    assert seen("discard", "reason", "rule") == {
        ("end-of-chain", "N3"), ("end-of-chain", "A4"), ("cycle", "N4"), ("no-hit", "H1"),
        ("multiple-touch-disabled", "T4"), ("exclusive-touch", "T5"), ("no-key-window", "E3"),
        ("no-first-responder", "E3"), ("no-responder", "E2"), ("not-receiving-remote-control-events", "E1"),
        ("view-left-window", "T6"), ("cancelled-by-gesture", "G7"), ("taken-by-gesture", "G8"), ("dimmed", "K17"),
        ("dimmed", "K18")}
    # `no-view` (T1) is the engine's defensive fallback for a touch with no view and no recorded cause: no
    # request sequence reaches it, but the schema keeps it.
    assert {x for (x,) in seen("discard", "reason")} == set(defs["discardStep"]["properties"]["reason"]["enum"]) - {"no-view"}
    assert {x for (x,) in seen("keyWindow", "rule")} == {"F4"}
    android_changes = {st["rule"] for st in android_steps if st["step"] == "change"}
    assert {x for (x,) in seen("change", "rule")} | android_changes == set(defs["changeStep"]["properties"]["rule"]["enum"])
    assert seen("controlEvent", "rule") == {(x,) for x in defs["controlEventStep"]["properties"]["rule"]["enum"]}
    assert {f["reason"] for f in focus} == {"become", "tap", "resign", "left-window"}
    assert {x for (x,) in seen("firstResponder", "reason")} == set(
        defs["firstResponderStep"]["properties"]["reason"]["enum"])

    deliveries = [d for tr in traces if tr["kind"] in ("touch", "treeChange")
                  for d in tr["outcome"].get("deliveries", tr["outcome"].get("touches", []))]
    assert {(d.get("reason"), d.get("rule"), d.get("dropped", False)) for d in deliveries} == {
        (None, None, False), ("stationary", None, False), ("view-left-window", None, False),
        ("no-hit", "H1", False), ("multiple-touch-disabled", "T4", False), ("exclusive-touch", "T5", False),
        ("view-left-window", None, True), ("held", "G8", False), ("held", "G9", False),
        ("cancelled-by-gesture", "G7", False), ("taken-by-gesture", "G8", False), ("dimmed", "K17", False),
        ("dimmed", "K18", False), ("crashed", "G3", False)}
    tree_changes = [tr["outcome"] for tr in traces if tr["kind"] == "treeChange"]
    assert any(o["presses"] for o in tree_changes) and any(o["resigned"] for o in tree_changes)
    assert any(o.get("gestures") for o in tree_changes) and any(o.get("gestureDeliveries") for o in tree_changes)
    assert any(o.get("gestureActions") for o in tree_changes)
    assert ("K", "dropped") in {(d["touch"], "dropped" if d.get("dropped") else "") for o in tree_changes for d in o["touches"]}, \
        "a taken touch whose view left is listed as dropped, whatever the profile"

    # recognizers (12.4, 12.5): every rule/reason pair the schema allows, every observe, action, hold and release
    pairs = {(p["properties"]["rule"]["const"], reason)
             for p in defs["gestureTransitionRules"]["allOf"][0]["oneOf"] for reason in p["properties"]["reason"]["enum"]}
    assert seen("gesture", "rule", "reason") == pairs
    assert {x for (x,) in seen("gesture", "reason")} == set(defs["gestureStep"]["properties"]["reason"]["enum"])
    assert seen("observe", "observes", "reason") == {(True, None), (False, "disabled"), (False, "should-receive-touch-false")}
    assert seen("gestureAction", "performed", "reason") == {
        (True, None), (False, "unrecognized-selector"), (False, "target-missing")}
    assert seen("held", "message", "rule") == {("touchesBegan", "G8"), ("touchesMoved", "G8"), ("touchesEnded", "G9")}
    assert seen("release", "message", "rule") >= {("touchesBegan", "G8"), ("touchesEnded", "G9")}
    assert {n for (n,) in seen("gestureWait", "rule")} == {"G5"}
    outcomes = [tr["outcome"] for tr in traces if tr["kind"] in ("touch", "treeChange", "clock")]
    gesture_deliveries = [g for o in outcomes for d in o.get("deliveries", []) for g in d.get("gestureDeliveries", [])] + \
        [g for o in outcomes for g in o.get("gestureDeliveries", [])]
    assert {(g["reason"], g["rule"]) for g in gesture_deliveries} == {
        ("released", "G8"), ("released", "G9"), ("cancelled-by-gesture", "G7"), ("released", "K8")}
    outcome_reasons = {(tr["kind"], tr["outcome"].get("reason")) for tr in traces
                       if tr["kind"] in ("become", "resign", "action")}
    assert outcome_reasons == {("become", x) for x in defs["becomeOutcome"]["properties"]["reason"]["enum"]} | \
        {("resign", x) for x in defs["resignOutcome"]["properties"]["reason"]["enum"]} | \
        {("action", None), ("action", "unrecognized-selector"), ("action", "end-of-chain")}


@pytest.mark.parametrize("instance", [
    {"kind": "touch", "steps": [], "outcome": {"deliveries": []}},                       # minItems 1
    {"kind": "hitTest", "steps": [{"step": "next", "from": "a", "to": None, "rule": "N1"}],
     "outcome": {"window": None, "view": None, "localPoint": None, "visited": []}},      # step not of this kind
    {"kind": "responderChain", "steps": [], "outcome": {"chain": ["a"], "extra": 1}},    # closed outcome
    {"kind": "action", "steps": [{"step": "discard", "message": "a:", "reason": "end-of-chain", "rule": "N4"}],
     "outcome": {"performed": False, "by": None, "visited": []}},                        # reason/rule pairing
    {"kind": "action", "steps": [{"step": "action", "action": "a:", "target": None, "sender": None,
                                  "performed": True, "by": None, "rule": "A4"}],
     "outcome": {"performed": True, "by": None, "visited": []}},                          # performed needs by
    {"kind": "become", "steps": [], "outcome": {"result": True, "reason": "ok", "resigned": None}},
    {"kind": "makeKey", "steps": [{"step": "keyWindow", "from": None, "to": "w", "rule": "F4", "x": 1}],
     "outcome": {"key": "w", "previous": None}},                                          # closed step
])
def test_trace_schema_is_closed(instance):
    assert SCHEMAS.errors("trace.json", instance), json.dumps(instance)


def readme_examples(title: str):
    """The worked examples of README section `#### <title>`: per json block, the requests (one per line) and the
    documented result of the last one."""
    text = (PROTOCOL / "README.md").read_text().split(f"#### {title}")[1]
    text = re.split(r"^#{2,4} ", text, flags=re.M)[0]
    for block in re.findall(r"```json\n(.*?)```", text, re.S):
        head, _, reply = block.partition("\n→ ")
        yield [json.loads(line) for line in head.splitlines()], json.loads(reply)


def test_readme_demo_tap_example_is_the_engines_reply(client):
    """12.3 `event.tap`: the demo world's tap on the button, recognizers included, is the engine's real reply."""
    s = new_session(client, "demotap")
    [(requests, documented)] = readme_examples("`event.tap`")
    [request] = requests
    result = client.call(request["method"], **{**request["params"], "session": s})
    assert result["trace"].pop("outcome") == {"deliveries": result["deliveries"]}
    documented["trace"].pop("outcome")
    assert result == documented


def test_readme_gesture_example_is_the_engines_reply(client):
    """12.3's worked example (P13, P13d) shows real replies: the same requests on its world give them again,
    byte for byte but for seq (which depends on the session's history) and the outcome the example abbreviates."""
    world = json.loads((PROTOCOL / "examples" / "p13-world.json").read_text())
    s = new_session(client, "p13", tree=world["tree"])
    examples = list(readme_examples("Worked example: a tap recognizer on a superview (P13)"))
    assert [r[-1]["method"] for r, _ in examples] == ["event.tap", "clock.advance"]
    for requests, documented in examples:
        for request in requests:
            result = client.call(request["method"], **{**request["params"], "session": s})
        assert result["trace"]["outcome"] == {k: v for k, v in result.items() if k not in ("trace", "seq", "seqRange")}
        documented["trace"].pop("outcome")  # abbreviated: "…the deliveries above…"
        result["trace"].pop("outcome")
        for k in ("seq", "seqRange"):
            result.pop(k), documented.pop(k)
        assert result == documented
