"""Gesture recognizers through the real engine: the worked scenarios P13–P13e on fixture F, one test per rule
G1–G11 (docs/rules.md, Protocol/README.md 12.1) where it shows end to end, the validation of recognizers, touch
times and clock.advance, and a seeded randomized test that checks invariants on every trace (and that the same
inputs give byte-identical traces).

Test names give the scenario and the rule ids they exercise, as in test_scenarios.py. Every test uses sessions of
its own. Time is the session's clock only (G11): tests move it with touch `time`s and clock.advance, never sleep.

The randomized test runs RESPONDER_GESTURE_FUZZ sequences (default 150) from seed RESPONDER_GESTURE_SEED
(default 20261123); for a long run: RESPONDER_GESTURE_FUZZ=5000 python3 -m pytest Tests/python/test_gestures.py -k fuzz

Replies and events are checked against Protocol/schemas like every other reply.
"""

from __future__ import annotations

import copy
import itertools
import json
import math
import os
import random
import re
from collections import defaultdict

import pytest
import zmq

from harness import PATIENCE, SCHEMAS, RPCError, check_response, event_schema_for, new_session, unique_name
from test_scenarios import AD, ALL_TOUCH_PHASES, R, RVC, W, control, fixture_f, view


TOUCH_MESSAGES = ("touchesBegan", "touchesMoved", "touchesEnded", "touchesCancelled")
GESTURE_STEPS = {"observe", "gesture", "gestureAction", "gestureWait", "held", "release"}
ACTIVE = {"began", "changed", "recognized", "ended"}


# ------------------------------------------------------------------------------------------ world

def tap_rec(id: str, **fields) -> dict:
    return {"id": id, "kind": "tap", **fields}


def rec(id: str, kind: str, **fields) -> dict:
    return {"id": id, "kind": kind, **fields}


def target(t: str, action: str) -> dict:
    return {"target": t, "action": action}


def entry(touch, phase: str, point=None, time: float | None = None) -> dict:
    e = {"touch": touch, "phase": phase}
    if point is not None:
        e["point"] = list(point)
    if time is not None:
        e["time"] = time
    return e


def began(t, p, time=None): return entry(t, "began", p, time)
def moved(t, p, time=None): return entry(t, "moved", p, time)
def ended(t, p=None, time=None): return entry(t, "ended", p, time)
def cancelled(t, p=None, time=None): return entry(t, "cancelled", p, time)


@pytest.fixture
def world(engine, client, request):
    """world(tree, **session.create params) creates a session of its own and returns a World to drive it."""
    made: list[str] = []

    def make(tree: dict, **params) -> "World":
        name = new_session(client, request.node.name.split("_")[1][:12], tree=tree, **params)
        made.append(name)
        return World(engine, client, name)

    yield make
    for name in made:
        client.rpc("session.delete", {"session": name}, validate=False)


class World:
    def __init__(self, engine, client, session: str):
        self.engine = engine
        self.client = client
        self.session = session

    def rpc(self, method: str, **params) -> dict:
        resp = self.client.rpc(method, {"session": self.session, **params}, validate=False)
        check_response(method, resp)
        return resp

    def call(self, method: str, **params):
        resp = self.rpc(method, **params)
        if "error" in resp:
            raise RPCError(method, resp)
        return resp["result"]

    def error(self, method: str, **params) -> RPCError:
        resp = self.rpc(method, **params)
        assert "error" in resp, f"{method} should have failed, got {json.dumps(resp.get('result'))[:800]}"
        return RPCError(method, resp)

    def subscribe(self):
        return self.engine.subscriber(f"{self.session}/")

    def touch(self, *entries: dict) -> dict:
        return self.call("event.touch", touches=list(entries))

    def tap(self, x, y, time: float | None = None) -> dict:
        return self.call("event.tap", point=[x, y], **({"time": time} if time is not None else {}))

    def advance(self, **to_or_by) -> dict:
        return self.call("clock.advance", **to_or_by)

    def apply(self, *ops) -> dict:
        return self.call("tree.apply", ops=list(ops))

    def snapshot(self) -> dict:
        return self.call("session.snapshot")

    def recognizer(self, id: str) -> dict:
        (r,) = [r for r in self.snapshot()["recognizers"] if r["recognizer"] == id]
        return r


def published(sub, session: str, reply: dict) -> list[tuple[str, dict]]:
    """The events a request published (its seqRange), in order; its trace is the reply's, when it has one."""
    first, last = reply["seqRange"]
    events = []
    for seq in range(first, last + 1):
        topic, event = sub.next()
        assert event["seq"] == seq and event["session"] == session, (topic, event)
        events.append((topic, event))
    if "trace" in reply:
        traces = [e for t, e in events if t == f"{session}/trace"]
        assert traces and traces[-1]["trace"] == reply["trace"], "the published trace is the one in the reply"
    return events


# ------------------------------------------------------------------------------------------ reading traces

def trace_of(x: dict) -> dict:
    return x["trace"] if "trace" in x and "steps" not in x else x


def steps(x: dict, step: str, **match) -> list[dict]:
    return [s for s in trace_of(x)["steps"] if s["step"] == step and all(s.get(k) == v for k, v in match.items())]


def index_of(x: dict, step: str, **match) -> int:
    for i, s in enumerate(trace_of(x)["steps"]):
        if s["step"] == step and all(s.get(k) == v for k, v in match.items()):
            return i
    raise AssertionError(f"no {step} step matching {match} in {json.dumps(trace_of(x)['steps'])[:2000]}")


def moves(x: dict, recognizer: str | None = None) -> list[tuple]:
    """The recognizers' transitions in a trace: (recognizer, from, to, rule, reason[, by])."""
    out = []
    for s in steps(x, "gesture"):
        if recognizer is None or s["recognizer"] == recognizer:
            t = (s["recognizer"], s["from"], s["to"], s["rule"], s.get("reason"))
            out.append(t + ((s["by"],) if "by" in s else ()))
    return out


def got(x: dict, touch, view_id: str) -> list[str]:
    """What `view_id` got of `touch` in a trace: its deliver steps of touch phases, in order."""
    return [s["message"] for s in steps(x, "deliver", to=view_id) if s.get("touch") == touch and s["message"] in TOUCH_MESSAGES]


def actions_sent(x: dict) -> list[tuple]:
    return [(s["recognizer"], s["target"], s["action"], s["performed"], s.get("reason")) for s in steps(x, "gestureAction")]


def outcome_gestures(reply: dict) -> list[dict]:
    if "deliveries" in reply:
        return [g for d in reply["deliveries"] for g in d.get("gestures", [])]
    return reply.get("gestures") or []


def outcome_actions(reply: dict) -> list[dict]:
    if "deliveries" in reply:
        return [a for d in reply["deliveries"] for a in d.get("gestureActions", [])]
    return reply.get("gestureActions") or []


def reset(r: str, frm: str) -> tuple:
    return (r, frm, "possible", "G2", "reset")


def assert_outcome_matches_trace(reply: dict) -> None:
    """An outcome's `gestures`/`gestureActions` are the trace's gesture/gestureAction steps, in order."""
    assert outcome_gestures(reply) == [{k: v for k, v in s.items() if k != "step"} for s in steps(reply, "gesture")]
    assert outcome_actions(reply) == [{k: v for k, v in s.items() if k not in ("step", "rule")}
                                      for s in steps(reply, "gestureAction")]


# ------------------------------------------------------------------------------------------ P13–P13e

TAPPED = target(RVC, "tapped:")


def test_P13_tap_recognizer_on_superview_cancels_the_view_G1_G2_G3_G7_G9(world):
    w = world(fixture_f(view("V", (100, 100, 50, 50), handles=ALL_TOUCH_PHASES), rvc={"handles": {"tapped:": "handle"}}))
    sub = w.subscribe()
    applied = w.apply({"op": "update", "id": R, "set": {"gestureRecognizers": [tap_rec("tapR", targets=[TAPPED])]}})
    published(sub, w.session, applied)
    assert w.recognizer("tapR") == {"recognizer": "tapR", "view": R, "kind": "tap", "state": "possible",
                                    "touches": [], "waitingFor": []}

    down = w.touch(began("t", (110, 110)))
    published(sub, w.session, down)
    # G1: the recognizer on R observes the touch, and sees began before V does.
    assert steps(down, "observe") == [{"step": "observe", "recognizer": "tapR", "view": R, "touch": "t",
                                       "observes": True, "rule": "G1"}]
    assert index_of(down, "observe") < index_of(down, "deliver", to="V")
    (d,) = down["deliveries"]
    assert d["view"] == "V" and d["message"] == "touchesBegan" and d["handledBy"] == ["V"]
    assert "gestures" not in d and "heldBy" not in d, "nothing decided yet, nothing held (delaysTouchesBegan false)"
    assert got(down, "t", "V") == ["touchesBegan"]
    assert w.recognizer("tapR")["touches"] == ["t"]

    up = w.touch(ended("t", (110, 110)))
    published(sub, w.session, up)
    # G2: recognized at ended, then reset once its touches are over.
    assert moves(up) == [("tapR", "possible", "recognized", "G2", "taps-completed"), reset("tapR", "recognized")]
    # G7/G9: V gets touchesCancelled, not touchesEnded; G3: the action goes straight to RVC.
    assert got(up, "t", "V") == ["touchesCancelled"]
    (cancel,) = steps(up, "deliver", to="V")
    assert cancel["rule"] == "G7" and cancel["disposition"] == "handled"
    assert [(s["message"], s["reason"], s["rule"]) for s in steps(up, "discard")] == \
        [("touchesEnded", "cancelled-by-gesture", "G7")]
    assert actions_sent(up) == [("tapR", RVC, "tapped:", True, None)]
    assert steps(up, "gestureAction")[0]["rule"] == "G3"
    assert index_of(up, "gesture", to="recognized") < index_of(up, "deliver", to="V")
    (d,) = up["deliveries"]
    assert d["message"] == "touchesEnded" and d["reason"] == "cancelled-by-gesture" and d["rule"] == "G7"
    assert d["visited"] == [] and d["handledBy"] == []
    assert d["gestureActions"] == [{"recognizer": "tapR", "target": RVC, "action": "tapped:", "performed": True}]
    (gd,) = d["gestureDeliveries"]
    assert (gd["touch"], gd["view"], gd["phase"], gd["message"], gd["handledBy"], gd["reason"], gd["rule"]) == \
        ("t", "V", "cancelled", "touchesCancelled", ["V"], "cancelled-by-gesture", "G7")
    assert_outcome_matches_trace(up)
    snap = w.snapshot()
    assert snap["liveTouches"] == [] and [r["state"] for r in snap["recognizers"]] == ["possible"]


def test_P13b_delays_touches_began_view_gets_nothing_G8(world):
    w = world(fixture_f(view("V", (100, 100, 50, 50), handles=ALL_TOUCH_PHASES), rvc={"handles": {"tapped:": "handle"}}))
    sub = w.subscribe()
    tree = w.call("tree.get")["tree"]
    # tree.load: the whole tree again, now with the recognizer on R.
    r_node = fixture_f(view("V", (100, 100, 50, 50), handles=ALL_TOUCH_PHASES), rvc={"handles": {"tapped:": "handle"}},
                       r={"gestureRecognizers": [tap_rec("tapR", delaysTouchesBegan=True, targets=[TAPPED])]})
    loaded = w.call("tree.load", tree=r_node)
    published(sub, w.session, loaded)
    assert loaded["revision"] > tree["revision"]

    down = w.touch(began("t", (110, 110)))
    published(sub, w.session, down)
    (d,) = down["deliveries"]
    assert d["view"] == "V" and d["reason"] == "held" and d["rule"] == "G8" and d["heldBy"] == ["tapR"]
    assert d["visited"] == [] and d["handledBy"] == []
    assert steps(down, "held") == [{"step": "held", "touch": "t", "message": "touchesBegan", "by": ["tapR"], "rule": "G8"}]
    assert steps(down, "deliver") == []
    (live,) = w.snapshot()["liveTouches"]
    assert live["touch"] == "t" and live["heldBy"] == ["tapR"]

    up = w.touch(ended("t", (110, 110)))
    published(sub, w.session, up)
    assert moves(up) == [("tapR", "possible", "recognized", "G2", "taps-completed"), reset("tapR", "recognized")]
    assert steps(up, "deliver") == [], "V gets nothing at all: not even touchesCancelled"
    assert [(s["message"], s["reason"], s["rule"]) for s in steps(up, "discard")] == \
        [("touchesBegan", "taken-by-gesture", "G8"), ("touchesEnded", "taken-by-gesture", "G8")]
    assert actions_sent(up) == [("tapR", RVC, "tapped:", True, None)]
    (d,) = up["deliveries"]
    assert d["reason"] == "taken-by-gesture" and d["rule"] == "G8" and "gestureDeliveries" not in d
    assert_outcome_matches_trace(up)
    assert w.snapshot()["liveTouches"] == []


def test_P13c_pan_over_button_cancels_button_no_action_G1_G2_G3_G7_G10(world):
    btn = control("Btn", (50, 50, 200, 100), targets=[{"event": "touchUpInside", "action": "tap:", "target": RVC}])
    w = world(fixture_f(view("P", (0, 0, 400, 400), btn), rvc={"handles": {"panned:": "handle", "tap:": "handle"}}))
    w.apply({"op": "update", "id": "P", "set": {"gestureRecognizers": [rec("pan", "pan", targets=[target(RVC, "panned:")])]}})
    sub = w.subscribe()

    down = w.touch(began("t", (60, 60)))
    assert [(s["recognizer"], s["view"], s["observes"]) for s in steps(down, "observe")] == [("pan", "P", True)]
    (d,) = down["deliveries"]
    assert d["view"] == "Btn" and d["controlEvents"] == ["touchDown"]

    replies = []
    for dx in range(4, 41, 4):                  # 40 points to the right, 4 at a time
        replies.append(w.touch(moved("t", (60 + dx, 60))))
    last = w.touch(ended("t", (100, 60)))
    published(sub, w.session, down)
    for r in replies + [last]:
        published(sub, w.session, r)

    # G2: it begins once the touch has moved 10 points (at 12 here), then changes with each move, ends at touch-up.
    began_at = [i for i, r in enumerate(replies) if ("pan", "possible", "began", "G2", "threshold") in moves(r)]
    assert began_at == [2], [moves(r) for r in replies]
    for r in replies[:2]:
        assert moves(r) == [] and r["deliveries"][0]["controlEvents"] == ["touchDragInside"]
    # G7 (and G10: a pan is not the button's own gesture): the button gets touchCancel and sends no action.
    at_begin = replies[2]
    (d,) = at_begin["deliveries"]
    (gd,) = d["gestureDeliveries"]
    assert gd["view"] == "Btn" and gd["message"] == "touchesCancelled" and gd["controlEvents"] == ["touchCancel"]
    assert gd["actions"] == [] and gd["reason"] == "cancelled-by-gesture" and gd["rule"] == "G7"
    assert [s["event"] for s in steps(at_begin, "controlEvent", control="Btn")] == ["touchCancel"]
    assert d["reason"] == "cancelled-by-gesture" and d["controlEvents"] == []
    for r in replies[3:]:
        assert moves(r) == [("pan", "changed" if r is not replies[3] else "began", "changed", "G2", "moved")]
        assert steps(r, "deliver") == [] and steps(r, "controlEvent") == []
    assert moves(last) == [("pan", "changed", "ended", "G2", "touches-ended"), reset("pan", "ended")]
    assert steps(last, "deliver") == [] and steps(last, "action") == [], "no touchUpInside, no tap:"
    # G3: the action at began, at each changed and at ended.
    counts = [len(actions_sent(r)) for r in replies + [last]]
    assert counts == [0, 0] + [1] * (len(replies) - 2) + [1]
    assert all(a == ("pan", RVC, "panned:", True, None) for r in replies + [last] for a in actions_sent(r))
    for r in [down, *replies, last]:
        assert_outcome_matches_trace(r)
    assert w.snapshot()["liveTouches"] == []


def long_press_world(world, **lp):
    w = world(fixture_f(view("V", (100, 100, 50, 50), handles=ALL_TOUCH_PHASES), rvc={"handles": {"pressed:": "handle"}}))
    w.apply({"op": "update", "id": "V", "set": {"gestureRecognizers": [rec("lp", "longPress", targets=[target(RVC, "pressed:")], **lp)]}})
    return w


def test_P13d_long_press_held_still_begins_after_half_a_second_G11_G7(world):
    w = long_press_world(world)
    assert w.snapshot()["clock"] == 0
    down = w.touch(began("t", (110, 110)))
    assert got(down, "t", "V") == ["touchesBegan"]
    sub = w.subscribe()

    early = w.advance(by=0.3)
    (topic, event), = published(sub, w.session, early)
    assert event["trace"]["kind"] == "clock"
    assert (early["from"], early["time"]) == (0, 0.3)
    assert early["gestures"] == [] and early["gestureActions"] == [] and early["gestureDeliveries"] == []
    assert early["trace"]["steps"] == [], "nothing is recognized before 0.5 s"
    assert w.recognizer("lp")["state"] == "possible"

    due = w.advance(to=0.5)                       # exactly minimumPressDuration after began: the deadline is met
    published(sub, w.session, due)
    assert (due["from"], due["time"]) == (0.3, 0.5)
    assert moves(due) == [("lp", "possible", "began", "G11", "duration-elapsed")]
    assert got(due, "t", "V") == ["touchesCancelled"]
    assert steps(due, "deliver", to="V")[0]["rule"] == "G7"
    (gd,) = due["gestureDeliveries"]
    assert gd["message"] == "touchesCancelled" and gd["view"] == "V" and gd["reason"] == "cancelled-by-gesture"
    assert actions_sent(due) == [("lp", RVC, "pressed:", True, None)]
    assert_outcome_matches_trace(due)
    assert w.recognizer("lp")["state"] == "began" and w.snapshot()["clock"] == 0.5

    up = w.touch(ended("t", (110, 110)))
    published(sub, w.session, up)
    assert moves(up) == [("lp", "began", "ended", "G2", "touches-ended"), reset("lp", "ended")]
    assert got(up, "t", "V") == [], "nothing after touchesCancelled"
    assert actions_sent(up) == [("lp", RVC, "pressed:", True, None)]


def test_P13d_long_press_released_at_0_3_fails_view_gets_ended_G2_G9_G11(world):
    w = long_press_world(world)
    down = w.touch(began("t", (110, 110)))
    assert got(down, "t", "V") == ["touchesBegan"]
    up = w.touch(ended("t", (110, 110), time=0.3))
    assert moves(up) == [("lp", "possible", "failed", "G2", "released-early"), reset("lp", "failed")]
    assert got(up, "t", "V") == ["touchesEnded"]
    (d,) = up["deliveries"]
    assert d["message"] == "touchesEnded" and d["handledBy"] == ["V"] and "reason" not in d
    assert actions_sent(up) == []
    assert w.snapshot()["clock"] == 0.3
    later = w.advance(by=1)
    assert later["gestures"] == [] and later["trace"]["steps"] == [], "no late recognition"


def double_tap_world(world, multiple_touch: bool):
    w = world(fixture_f(view("V", (100, 100, 50, 50), handles=ALL_TOUCH_PHASES, multipleTouchEnabled=multiple_touch),
                        rvc={"handles": {"single:": "handle", "double:": "handle"}}))
    w.apply({"op": "update", "id": "V", "set": {"gestureRecognizers": [
        tap_rec("single", requireToFail=["double"], targets=[target(RVC, "single:")]),
        tap_rec("double", numberOfTapsRequired=2, targets=[target(RVC, "double:")])]}})
    return w


def test_P13e_single_tap_waits_for_double_tap_to_fail_G5_G9_G11(world):
    w = double_tap_world(world, multiple_touch=False)
    first = w.touch(began("t1", (110, 110)), ended("t1", (110, 110), time=0.1))
    assert [(s["recognizer"], s["observes"]) for s in steps(first, "observe")] == [("single", True), ("double", True)]
    # G5: the single tap has what it needs but waits for the double tap; G9: touchesEnded is held meanwhile.
    assert steps(first, "gestureWait") == [{"step": "gestureWait", "recognizer": "single", "waitingFor": ["double"], "rule": "G5"}]
    assert moves(first) == []
    assert got(first, "t1", "V") == ["touchesBegan"]
    held = first["deliveries"][1]
    assert held["reason"] == "held" and held["rule"] == "G9" and set(held["heldBy"]) == {"single", "double"}
    snap = w.snapshot()
    by_id = {r["recognizer"]: r for r in snap["recognizers"]}
    assert by_id["single"]["waitingFor"] == ["double"] and by_id["single"]["state"] == "possible"
    (live,) = snap["liveTouches"]
    assert live["touch"] == "t1" and live["phase"] == "ended" and set(live["heldBy"]) == {"single", "double"}

    deadline = 0.1 + 0.35                       # tapInterval after the touch ended, as the engine adds it
    sub = w.subscribe()
    not_yet = w.advance(to=0.3)
    published(sub, w.session, not_yet)
    assert not_yet["gestures"] == [] and not_yet["gestureActions"] == []
    gave_up = w.advance(to=deadline)
    published(sub, w.session, gave_up)
    assert moves(gave_up) == [("double", "possible", "failed", "G11", "timed-out"),
                              ("single", "possible", "recognized", "G5", "required-failed"),
                              reset("single", "recognized"), reset("double", "failed")]
    assert actions_sent(gave_up) == [("single", RVC, "single:", True, None)]
    # G9: recognized with cancelsTouchesInView → the held touchesEnded becomes touchesCancelled.
    assert got(gave_up, "t1", "V") == ["touchesCancelled"]
    assert [(s["message"], s["reason"]) for s in steps(gave_up, "discard")] == [("touchesEnded", "cancelled-by-gesture")]
    assert [g["message"] for g in gave_up["gestureDeliveries"]] == ["touchesCancelled"]
    assert_outcome_matches_trace(gave_up)
    assert w.snapshot()["liveTouches"] == []


@pytest.mark.parametrize("multiple_touch", [False, True])
def test_P13e_two_quick_taps_fire_only_the_double_tap_G5_G2_G7(world, multiple_touch):
    w = double_tap_world(world, multiple_touch)
    replies = [w.touch(began("t1", (110, 110)), ended("t1", (110, 110), time=0.1)),
               w.touch(began("t2", (111, 110), time=0.2)),
               w.touch(ended("t2", (111, 110), time=0.3))]
    replies.append(w.advance(by=1))
    all_moves = [m for r in replies for m in moves(r)]
    assert all_moves == [("double", "possible", "recognized", "G2", "taps-completed"),
                         ("single", "possible", "failed", "G5", "required-recognized", "double"),
                         reset("single", "failed"), reset("double", "recognized")]
    assert [a for r in replies for a in actions_sent(r)] == [("double", RVC, "double:", True, None)]
    t1 = [m for r in replies for m in got(r, "t1", "V")]
    t2 = [m for r in replies for m in got(r, "t2", "V")]
    assert t1 == ["touchesBegan", "touchesCancelled"], "the first tap's touchesEnded was held, then cancelled (G9, G7)"
    # A touch the client has ended no longer blocks T4, even while its touchesEnded is held (G9): the second
    # tap reaches V with or without multipleTouchEnabled.
    assert t2 == ["touchesBegan", "touchesCancelled"]
    assert w.snapshot()["liveTouches"] == []


# ------------------------------------------------------------------------------------------ G1–G11

def test_G1_who_observes_deepest_first_disabled_and_refusing_do_not(world):
    v = view("V", (50, 50, 50, 50), handles=ALL_TOUCH_PHASES, gestureRecognizers=[
        tap_rec("off", enabled=False), tap_rec("refuses", shouldReceiveTouch=False), rec("vpan", "pan")])
    w = world(fixture_f(view("Q", (50, 50, 300, 300), v, gestureRecognizers=[rec("qlp", "longPress")]),
                        r={"gestureRecognizers": [rec("rpan", "pan")]}, w={"gestureRecognizers": [rec("wswipe", "swipe")]}))
    down = w.touch(began("t", (110, 110)))
    assert [(s["recognizer"], s["view"], s["observes"], s.get("reason"), s["rule"]) for s in steps(down, "observe")] == [
        ("off", "V", False, "disabled", "G1"),
        ("refuses", "V", False, "should-receive-touch-false", "G1"),
        ("vpan", "V", True, None, "G1"),
        ("qlp", "Q", True, None, "G1"),
        ("rpan", R, True, None, "G1"),
        ("wswipe", W, True, None, "G1"),            # up to and including the window
    ]
    # All observers get began before the view does.
    assert max(i for i, s in enumerate(down["trace"]["steps"]) if s["step"] == "observe") < index_of(down, "deliver", to="V")
    touches = {r["recognizer"]: r["touches"] for r in w.snapshot()["recognizers"]}
    assert touches == {"off": [], "refuses": [], "vpan": ["t"], "qlp": ["t"], "rpan": ["t"], "wswipe": ["t"]}
    up = w.touch(ended("t", (110, 110)))
    assert {m[0] for m in moves(up)} == {"vpan", "qlp", "rpan", "wswipe"}, "the two that did not observe never change"
    assert got(down, "t", "V") + got(up, "t", "V") == ["touchesBegan", "touchesEnded"]
    # A touch that hits nothing is observed by no one.
    nothing = w.touch(began("far", (500, 900)), ended("far", (500, 900)))
    assert steps(nothing, "observe") == [] and moves(nothing) == []


def test_G2_tap_fails_when_moved_too_far_view_gets_every_phase(world):
    w = world(fixture_f(view("V", (100, 100, 100, 100), handles=ALL_TOUCH_PHASES, gestureRecognizers=[tap_rec("tap")])))
    replies = [w.touch(began("t", (110, 110))), w.touch(moved("t", (115, 110))), w.touch(moved("t", (125, 110))),
               w.touch(ended("t", (125, 110)))]
    assert [moves(r) for r in replies] == [[], [], [("tap", "possible", "failed", "G2", "moved-too-far")], [reset("tap", "failed")]]
    assert [m for r in replies for m in got(r, "t", "V")] == ["touchesBegan", "touchesMoved", "touchesMoved", "touchesEnded"]


def test_G2_cancelled_touch_cancels_a_begun_pan_then_reset(world):
    w = world(fixture_f(view("V", (100, 100, 100, 100), handles=ALL_TOUCH_PHASES,
                             gestureRecognizers=[rec("pan", "pan", cancelsTouchesInView=False)])))
    w.touch(began("t", (110, 110)))
    assert moves(w.touch(moved("t", (130, 110)))) == [("pan", "possible", "began", "G2", "threshold")]
    gone = w.touch(cancelled("t", (130, 110)))
    assert moves(gone) == [("pan", "began", "cancelled", "G2", "touch-cancelled"), reset("pan", "cancelled")]
    assert got(gone, "t", "V") == ["touchesCancelled"]
    assert w.recognizer("pan")["state"] == "possible"


def test_G3_actions_go_straight_to_each_target_in_order(world):
    # Profile `ignore`: V lacks the action and fails quietly, so the actions after it are sent too (with the
    # default a target lacking the action crashes the app: test_amended_rules.py).
    w = world(fixture_f(view("V", (100, 100, 50, 50), handles={"touchesBegan": "handle"}, gestureRecognizers=[
        tap_rec("tap", targets=[target(RVC, "tapped:"), target("V", "tapped:"), target("ghost", "tapped:"), target(AD, "other:")])]),
        rvc={"handles": {"tapped:": "handle"}}, ad={"handles": {"other:": "handle"}}),
        profile={"unrecognizedSelector": "ignore"})
    reply = w.tap(110, 110)
    assert actions_sent(reply) == [("tap", RVC, "tapped:", True, None), ("tap", "V", "tapped:", False, "not-implemented"),
                                   ("tap", "ghost", "tapped:", False, "target-missing"), ("tap", AD, "other:", True, None)]
    assert all(s["rule"] == "G3" for s in steps(reply, "gestureAction"))
    # Straight to the target: no chain walk (no deliver step of the action, no action step).
    assert [s for s in steps(reply, "deliver") if s["message"] in ("tapped:", "other:")] == [] and steps(reply, "action") == []
    assert_outcome_matches_trace(reply)


@pytest.mark.parametrize("simultaneous", [None, "on-deeper", "on-outer"])
def test_G4_two_pans_on_one_touch_exclude_unless_simultaneous(world, simultaneous):
    inner = rec("inner", "pan", **({"simultaneousWith": ["outer"]} if simultaneous == "on-deeper" else {}))
    outer = rec("outer", "pan", **({"simultaneousWith": ["inner"]} if simultaneous == "on-outer" else {}))
    w = world(fixture_f(view("V", (100, 100, 100, 100), handles=ALL_TOUCH_PHASES, gestureRecognizers=[inner]),
                        r={"gestureRecognizers": [outer]}))
    w.touch(began("t", (110, 110)))
    drag = w.touch(moved("t", (130, 110)))
    if simultaneous is None:
        # The one on the deepest view goes first; the other fails, excluded by it.
        assert moves(drag) == [("inner", "possible", "began", "G2", "threshold"),
                               ("outer", "possible", "failed", "G4", "excluded", "inner")]
    else:
        assert moves(drag) == [("inner", "possible", "began", "G2", "threshold"),
                               ("outer", "possible", "began", "G2", "threshold")]
    assert got(drag, "t", "V") == ["touchesCancelled"], "cancelled once, however many recognizers began"
    end = w.touch(ended("t", (130, 110)))
    assert got(end, "t", "V") == []


def test_G4_active_recognizer_keeps_a_later_one_on_a_shared_touch_from_recognizing(world):
    w = world(fixture_f(view("P", (0, 0, 400, 400), view("V", (200, 200, 100, 100), handles=ALL_TOUCH_PHASES,
                                                         gestureRecognizers=[tap_rec("tap", targets=[TAPPED])]),
                             multipleTouchEnabled=True, gestureRecognizers=[rec("lp", "longPress")]),
                        rvc={"handles": {"tapped:": "handle"}}))
    w.touch(began("a", (50, 50)))
    assert moves(w.advance(by=0.6)) == [("lp", "possible", "began", "G11", "duration-elapsed")]
    b = w.touch(began("b", (250, 250)))
    assert [(s["recognizer"], s["observes"]) for s in steps(b, "observe")] == [("tap", True), ("lp", True)]
    up = w.touch(ended("b", (250, 250)))
    assert [m[:3] for m in moves(up) if m[0] == "tap"][:1] == [("tap", "possible", "failed")], moves(up)
    assert actions_sent(up) == []


def test_G5_tap_requiring_long_press_recognizes_when_it_fails(world):
    w = world(fixture_f(view("V", (100, 100, 50, 50), handles=ALL_TOUCH_PHASES, gestureRecognizers=[
        tap_rec("tap", requireToFail=["lp"], targets=[TAPPED]), rec("lp", "longPress")]), rvc={"handles": {"tapped:": "handle"}}))
    reply = w.touch(began("t", (110, 110)), ended("t", (110, 110), time=0.2))
    ms = moves(reply)
    # The tap, first to see ended, has to wait; the long press then fails (released early), which releases it.
    assert steps(reply, "gestureWait") == [{"step": "gestureWait", "recognizer": "tap", "waitingFor": ["lp"], "rule": "G5"}]
    assert ms[:2] == [("lp", "possible", "failed", "G2", "released-early"),
                      ("tap", "possible", "recognized", "G5", "required-failed")]
    assert actions_sent(reply) == [("tap", RVC, "tapped:", True, None)]
    assert got(reply, "t", "V") == ["touchesBegan", "touchesCancelled"]
    # The other way: the long press begins, so the tap fails.
    w.touch(began("u", (110, 110), time=1))
    held = w.advance(to=1.5)
    assert moves(held)[:2] == [("lp", "possible", "began", "G11", "duration-elapsed"),
                               ("tap", "possible", "failed", "G5", "required-recognized", "lp")]


@pytest.mark.parametrize("order", ["swipe-first", "pan-first"])
def test_G5_G2_cancelled_touch_never_completes_a_waiting_recognizer(world, order):
    swipe = rec("sw", "swipe", requireToFail=["pan2"], targets=[target(RVC, "swiped:")])
    pan2 = rec("pan2", "pan", minimumNumberOfTouches=2)
    w = world(fixture_f(view("V", (0, 0, 400, 400), handles=ALL_TOUCH_PHASES,
                             gestureRecognizers=[swipe, pan2] if order == "swipe-first" else [pan2, swipe]),
                        rvc={"handles": {"swiped:": "handle"}}))
    w.touch(began("t", (100, 100)))
    swiped = w.touch(moved("t", (180, 100), time=0.1))
    assert steps(swiped, "gestureWait") == [{"step": "gestureWait", "recognizer": "sw", "waitingFor": ["pan2"], "rule": "G5"}]
    gone = w.touch(cancelled("t", (180, 100), time=0.15))
    assert sorted(m for m in moves(gone) if m[2] != "possible") == [
        ("pan2", "possible", "failed", "G2", "touch-cancelled"), ("sw", "possible", "failed", "G2", "touch-cancelled")]
    assert actions_sent(gone) == []
    assert got(gone, "t", "V") == ["touchesCancelled"]


def test_G6_should_begin_false_fails_instead_of_recognizing(world):
    w = world(fixture_f(view("V", (100, 100, 50, 50), handles=ALL_TOUCH_PHASES,
                             gestureRecognizers=[tap_rec("tap", shouldBegin=False, targets=[TAPPED])]),
                        rvc={"handles": {"tapped:": "handle"}}))
    reply = w.tap(110, 110)
    assert moves(reply) == [("tap", "possible", "failed", "G6", "should-begin-false"), reset("tap", "failed")]
    assert actions_sent(reply) == []
    assert got(reply, "tap-1", "V") == ["touchesBegan", "touchesEnded"]


def test_G7_cancels_touches_in_view_false_view_keeps_its_touch(world):
    w = world(fixture_f(view("V", (100, 100, 100, 100), handles=ALL_TOUCH_PHASES,
                             gestureRecognizers=[rec("pan", "pan", cancelsTouchesInView=False, targets=[target(RVC, "panned:")])]),
                        rvc={"handles": {"panned:": "handle"}}))
    replies = [w.touch(began("t", (110, 110))), w.touch(moved("t", (130, 110))), w.touch(moved("t", (150, 110))),
               w.touch(ended("t", (150, 110)))]
    assert [m[2] for r in replies for m in moves(r)] == ["began", "changed", "ended", "possible"]
    assert [m for r in replies for m in got(r, "t", "V")] == ["touchesBegan", "touchesMoved", "touchesMoved", "touchesEnded"]
    assert sum(len(actions_sent(r)) for r in replies) == 3


def test_G8_delays_touches_began_failure_releases_held_phases_in_order(world):
    w = world(fixture_f(view("V", (100, 100, 100, 100), handles=ALL_TOUCH_PHASES,
                             gestureRecognizers=[rec("lp", "longPress", delaysTouchesBegan=True)])))
    b = w.touch(began("t", (110, 110)))
    m1 = w.touch(moved("t", (112, 110), time=0.1))
    for r, message in ((b, "touchesBegan"), (m1, "touchesMoved")):
        assert got(r, "t", "V") == []
        assert steps(r, "held") == [{"step": "held", "touch": "t", "message": message, "by": ["lp"], "rule": "G8"}]
        assert r["deliveries"][0]["reason"] == "held" and r["deliveries"][0]["heldBy"] == ["lp"]
    far = w.touch(moved("t", (140, 110), time=0.2))
    assert moves(far) == [("lp", "possible", "failed", "G2", "moved-too-far")]
    # Released at the failure, in order, before the phase that caused it.
    assert [(s["message"], s["by"], s["rule"]) for s in steps(far, "release")] == \
        [("touchesBegan", "lp", "G8"), ("touchesMoved", "lp", "G8")]
    assert got(far, "t", "V") == ["touchesBegan", "touchesMoved", "touchesMoved"]
    (d,) = far["deliveries"]
    assert [(g["message"], g["reason"], g["rule"], g["localPoint"]) for g in d["gestureDeliveries"]] == \
        [("touchesBegan", "released", "G8", [10, 10]), ("touchesMoved", "released", "G8", [12, 10])]
    assert d["message"] == "touchesMoved" and d["handledBy"] == ["V"] and d["localPoint"] == [40, 10]
    end = w.touch(ended("t", (140, 110)))
    assert got(end, "t", "V") == ["touchesEnded"]


@pytest.mark.parametrize("delays_ended", [True, False])
def test_G9_delays_touches_ended_holds_ended_until_the_double_tap_fails(world, delays_ended):
    w = world(fixture_f(view("V", (100, 100, 50, 50), handles=ALL_TOUCH_PHASES, gestureRecognizers=[
        tap_rec("double", numberOfTapsRequired=2, delaysTouchesEnded=delays_ended)])))
    first = w.touch(began("t", (110, 110)), ended("t", (110, 110), time=0.1))
    later = w.advance(by=1)
    assert moves(later) == [("double", "possible", "failed", "G11", "timed-out"), reset("double", "failed")]
    if delays_ended:
        assert got(first, "t", "V") == ["touchesBegan"]
        assert steps(first, "held") == [{"step": "held", "touch": "t", "message": "touchesEnded", "by": ["double"], "rule": "G9"}]
        assert [(s["message"], s["by"], s["rule"]) for s in steps(later, "release")] == [("touchesEnded", "double", "G9")]
        assert got(later, "t", "V") == ["touchesEnded"]
        (gd,) = later["gestureDeliveries"]
        assert gd["reason"] == "released" and gd["rule"] == "G9" and gd["message"] == "touchesEnded"
    else:
        assert got(first, "t", "V") == ["touchesBegan", "touchesEnded"]
        assert steps(first, "held") == [] and got(later, "t", "V") == []
    assert w.snapshot()["liveTouches"] == []


BTN = dict(targets=[{"event": "touchUpInside", "action": "tap:", "target": RVC}])


def test_G10_tap_on_button_superview_leaves_the_button_its_tap(world):
    w = world(fixture_f(view("P", (0, 0, 400, 400), control("Btn", (50, 50, 100, 44), **BTN),
                             gestureRecognizers=[tap_rec("tap", targets=[TAPPED])]),
                        rvc={"handles": {"tap:": "handle", "tapped:": "handle"}}))
    reply = w.tap(60, 60)
    assert moves(reply) == [("tap", "possible", "failed", "G10", "control-default-action", "Btn"), reset("tap", "failed")]
    _, end = reply["deliveries"]
    assert end["controlEvents"] == ["touchUpInside", "primaryActionTriggered"]  # K2 (1.6): a UIButton
    assert [(a["action"], a["performed"]) for a in end["actions"]] == [("tap:", True)]
    assert actions_sent(reply) == []


def test_G10_tap_recognizer_on_the_button_itself_wins(world):
    w = world(fixture_f(view("P", (0, 0, 400, 400), control("Btn", (50, 50, 100, 44), **BTN,
                                                             gestureRecognizers=[tap_rec("tap", targets=[TAPPED])])),
                        rvc={"handles": {"tap:": "handle", "tapped:": "handle"}}))
    reply = w.tap(60, 60)
    assert moves(reply) == [("tap", "possible", "recognized", "G2", "taps-completed"), reset("tap", "recognized")]
    down, end = reply["deliveries"]
    assert down["controlEvents"] == ["touchDown"]
    assert end["reason"] == "cancelled-by-gesture" and end["controlEvents"] == [] and end["actions"] == []
    (gd,) = end["gestureDeliveries"]
    assert gd["controlEvents"] == ["touchCancel"] and gd["actions"] == []
    assert steps(reply, "action") == [] and actions_sent(reply) == [("tap", RVC, "tapped:", True, None)]


def test_G10_pan_on_switch_superview_leaves_the_switch_its_drag(world):
    sw = control("Sw", (50, 50, 60, 30), **{"class": "UISwitch"}, **BTN)
    w = world(fixture_f(view("P", (0, 0, 400, 400), sw, gestureRecognizers=[rec("pan", "pan", targets=[target(RVC, "panned:")])]),
                        rvc={"handles": {"tap:": "handle", "panned:": "handle"}}))
    replies = [w.touch(began("t", (60, 60))), w.touch(moved("t", (80, 60))), w.touch(ended("t", (80, 60)))]
    assert [m for r in replies for m in moves(r)] == [("pan", "possible", "failed", "G10", "control-default-action", "Sw"),
                                                      reset("pan", "failed")]
    assert [e for r in replies for d in r["deliveries"] for e in d["controlEvents"]] == \
        ["touchDown", "touchDragInside", "touchUpInside", "valueChanged", "primaryActionTriggered"]  # K3 (1.6): it toggles
    assert [(a["action"], a["performed"]) for a in replies[2]["deliveries"][0]["actions"]] == [("tap:", True)]
    assert sum(len(actions_sent(r)) for r in replies) == 0


def test_G11_time_decides_timers_before_a_later_input_and_profile_interval(world):
    v = view("V", (100, 100, 100, 100), handles=ALL_TOUCH_PHASES,
             gestureRecognizers=[rec("lp", "longPress", minimumPressDuration=0.25)])
    w = world(fixture_f(v))
    w.touch(began("t", (110, 110), time=1.0))
    # A moved at 1.5: the deadline (1.25) passed before it, so the long press began first, then the move changes it.
    late = w.touch(moved("t", (112, 110), time=1.5))
    assert moves(late) == [("lp", "possible", "began", "G11", "duration-elapsed"), ("lp", "began", "changed", "G2", "moved")]
    assert got(late, "t", "V") == ["touchesCancelled"]
    assert w.snapshot()["clock"] == 1.5
    w.touch(ended("t", (112, 110), time=1.6))
    # The tap interval is a profile value: with 0.1 s a second tap 0.2 s later starts over.
    w2 = world(fixture_f(view("V", (100, 100, 50, 50), gestureRecognizers=[tap_rec("double", numberOfTapsRequired=2)])),
               profile={"tapInterval": 0.1})
    assert w2.snapshot()["profile"]["tapInterval"] == 0.1
    w2.tap(110, 110, time=0.5)
    second = w2.tap(110, 110, time=0.7)
    assert moves(second)[0] == ("double", "possible", "failed", "G11", "timed-out")
    assert ("double", "possible", "recognized", "G2", "taps-completed") not in moves(second)
    # ...and a second tap exactly at the deadline (first end + tapInterval, as the engine adds them) is in time.
    w3 = world(fixture_f(view("V", (100, 100, 50, 50), gestureRecognizers=[tap_rec("double", numberOfTapsRequired=2)])))
    w3.tap(110, 110, time=0.25)
    in_time = w3.tap(110, 110, time=0.25 + 0.35)
    assert moves(in_time)[0] == ("double", "possible", "recognized", "G2", "taps-completed")
    # A swipe done exactly swipeDuration after it began is in time (a limit); a long press held exactly
    # minimumPressDuration has met its minimum: its timer fires before the input at that time.
    w4 = world(fixture_f(view("V", (0, 0, 400, 400), handles=ALL_TOUCH_PHASES, gestureRecognizers=[rec("sw", "swipe")])))
    w4.touch(began("t", (100, 100), time=1))
    assert moves(w4.touch(moved("t", (160, 100), time=1.5)))[0] == ("sw", "possible", "recognized", "G2", "swiped")
    began_lp = ("lp", "possible", "began", "G11", "duration-elapsed")
    for last, expected in ((ended, [began_lp, ("lp", "began", "ended", "G2", "touches-ended"), reset("lp", "ended")]),
                           (moved, [began_lp, ("lp", "began", "changed", "G2", "moved")])):
        w5 = world(fixture_f(view("V", (0, 0, 400, 400), handles=ALL_TOUCH_PHASES, gestureRecognizers=[rec("lp", "longPress")])))
        w5.touch(began("t", (100, 100), time=1))
        reply = w5.touch(last("t", (101, 100), time=1.5))
        assert moves(reply) == expected
        assert got(reply, "t", "V") == ["touchesCancelled"], "the timer first: the view is cancelled, the input withheld"


def test_G2_T6_view_removed_mid_gesture_cancels_the_recognizer_in_the_tree_change_trace(world):
    w = world(fixture_f(view("P", (0, 0, 400, 400), view("V", (100, 100, 100, 100), handles=ALL_TOUCH_PHASES),
                             gestureRecognizers=[rec("pan", "pan", cancelsTouchesInView=False)], handles=ALL_TOUCH_PHASES)))
    w.touch(began("t", (110, 110)))
    assert moves(w.touch(moved("t", (140, 110))))[0] == ("pan", "possible", "began", "G2", "threshold")
    sub = w.subscribe()
    applied = w.apply({"op": "remove", "id": "P"})
    events = published(sub, w.session, applied)
    assert [t for t, _ in events] == [f"{w.session}/tree", f"{w.session}/trace"]
    trace = events[1][1]["trace"]
    assert trace["kind"] == "treeChange"
    assert got(trace, "t", "V") == ["touchesCancelled"] and steps(trace, "deliver", to="V")[0]["rule"] == "T6"
    assert moves(trace) == [("pan", "began", "cancelled", "G2", "removed"), reset("pan", "cancelled")]
    assert trace["outcome"]["gestures"] == [{k: v for k, v in s.items() if k != "step"} for s in steps(trace, "gesture")]
    (entry_,) = trace["outcome"]["touches"]
    assert entry_["touch"] == "t" and entry_["reason"] == "view-left-window"
    snap = w.snapshot()
    assert snap["liveTouches"] == [] and snap["recognizers"] == []


def taken_then_gone(world, how: str) -> dict:
    """A pan on P took V's touch (V had touchesCancelled, G7); then P leaves the window. The treeChange trace."""
    w = world(fixture_f(view("P", (0, 0, 400, 400), view("V", (100, 100, 100, 100), handles=ALL_TOUCH_PHASES),
                             gestureRecognizers=[rec("pan", "pan")])))
    w.touch(began("t", (110, 110)))
    drag = w.touch(moved("t", (140, 110)))
    assert got(drag, "t", "V") == ["touchesCancelled"]
    sub = w.subscribe()
    op = {"op": "remove", "id": "P"} if how == "remove" else {"op": "move", "id": "P", "parent": None}
    trace = published(sub, w.session, w.apply(op))[-1][1]["trace"]
    assert trace["kind"] == "treeChange"
    assert w.snapshot()["liveTouches"] == []
    return trace


@pytest.mark.parametrize("how", ["remove", "move-out"])
def test_G2_G7_T6_taken_touch_is_not_cancelled_twice_when_its_view_leaves(world, how):
    trace = taken_then_gone(world, how)
    assert got(trace, "t", "V") == [], "V already had touchesCancelled (G7)"
    assert [m[:4] for m in moves(trace)] == [("pan", "began", "cancelled", "G2"), reset("pan", "cancelled")[:4]]


@pytest.mark.parametrize("how", ["remove", "move-out"])
def test_G2_recognizer_whose_view_leaves_the_window_is_cancelled_with_reason_removed(world, how):
    trace = taken_then_gone(world, how)
    assert moves(trace) == [("pan", "began", "cancelled", "G2", "removed"), reset("pan", "cancelled")]


def test_G2_G8_recognizer_disabled_mid_gesture_fails_and_releases_held_began(world):
    lp = rec("lp", "longPress", delaysTouchesBegan=True)
    w = world(fixture_f(view("V", (100, 100, 100, 100), handles=ALL_TOUCH_PHASES, gestureRecognizers=[lp])))
    assert got(w.touch(began("t", (110, 110))), "t", "V") == []
    sub = w.subscribe()
    applied = w.apply({"op": "update", "id": "V", "set": {"gestureRecognizers": [dict(lp, enabled=False)]}})
    trace = published(sub, w.session, applied)[-1][1]["trace"]
    assert trace["kind"] == "treeChange"
    assert moves(trace) == [("lp", "possible", "failed", "G2", "disabled"), reset("lp", "failed")]
    assert [(s["message"], s["by"]) for s in steps(trace, "release")] == [("touchesBegan", "lp")]
    assert got(trace, "t", "V") == ["touchesBegan"]
    assert [(g["message"], g["reason"]) for g in trace["outcome"]["gestureDeliveries"]] == [("touchesBegan", "released")]
    # A disabled recognizer no longer observes: the rest of the touch goes straight to V.
    assert got(w.touch(ended("t", (110, 110), time=2)), "t", "V") == ["touchesEnded"]


def test_recognizers_written_back_with_every_member(world):
    w = world(fixture_f(view("V", (0, 0, 100, 100), gestureRecognizers=[
        rec("sw", "swipe", direction="left"), rec("pan", "pan", maximumNumberOfTouches=2), rec("pinch", "pinch")])))
    written = w.call("tree.get", id="V")["tree"]["gestureRecognizers"]
    common = {"enabled": True, "cancelsTouchesInView": True, "delaysTouchesBegan": False, "delaysTouchesEnded": True,
              "targets": [], "requireToFail": [], "simultaneousWith": [], "shouldBegin": True, "shouldReceiveTouch": True}
    assert written == [
        {"id": "sw", "kind": "swipe", **common, "direction": ["left"], "numberOfTouchesRequired": 1},
        {"id": "pan", "kind": "pan", **common, "minimumNumberOfTouches": 1, "maximumNumberOfTouches": 2},
        {"id": "pinch", "kind": "pinch", **common},
    ]


# ------------------------------------------------------------------------------------------ validation

def plain_world(world):
    return world(fixture_f(view("V", (100, 100, 50, 50)),
                           view("U", (0, 0, 50, 50), gestureRecognizers=[tap_rec("u1")])))


def assert_unchanged(w: World, before: dict, sub) -> None:
    after = w.call("tree.get")
    assert after["revision"] == before["revision"], "a failed tree.apply changes nothing"
    assert after["tree"] == before["tree"]
    sub.nothing(0.2)


G = "ops[0].set.gestureRecognizers"


@pytest.mark.parametrize("recognizers, name, field, recognizer", [
    ([tap_rec("a"), rec("b", "flick")], "INVALID_NODE", f"{G}[1].kind", None),              # unknown kind
    ([tap_rec("a", bogus=1)], "INVALID_NODE", f"{G}[0].bogus", None),                        # unknown member
    ([tap_rec("a", minimumPressDuration=1)], "INVALID_NODE", f"{G}[0].minimumPressDuration", None),  # another kind's
    ([rec("a", "longPress", direction="left")], "INVALID_NODE", f"{G}[0].direction", None),
    ([rec("a", "swipe", direction="sideways")], "INVALID_NODE", f"{G}[0].direction", None),
    ([rec("a", "pan", minimumNumberOfTouches=0)], "INVALID_NODE", f"{G}[0].minimumNumberOfTouches", None),
    ([tap_rec("a", targets=[{"target": "RVC"}])], "INVALID_NODE", f"{G}[0].targets[0].action", None),
    ([tap_rec("a", requireToFail=["nope"])], "INVALID_NODE", f"{G}[0].requireToFail[0]", "nope"),
    ([tap_rec("a", simultaneousWith=["u1", "q"])], "INVALID_NODE", f"{G}[0].simultaneousWith[1]", "q"),
    ([tap_rec("a", requireToFail=["a"])], "INVALID_NODE", f"{G}[0].requireToFail[0]", None),  # itself
    ([tap_rec("u1")], "DUPLICATE_ID", f"{G}[0].id", "u1"),                                    # on U already
    ([tap_rec("a"), rec("a", "pan")], "DUPLICATE_ID", f"{G}[1].id", "a"),
])
def test_invalid_recognizer_changes_nothing(world, recognizers, name, field, recognizer):
    w = plain_world(world)
    before = w.call("tree.get")
    sub = w.subscribe()
    err = w.error("tree.apply", ops=[{"op": "update", "id": "V", "set": {"gestureRecognizers": recognizers}}])
    assert err.name == name and err.data["field"] == field, err
    assert err.data.get("recognizer") == recognizer and err.data.get("opIndex") == 0, err
    assert_unchanged(w, before, sub)
    assert [r["recognizer"] for r in w.snapshot()["recognizers"]] == ["u1"]


def test_reference_to_a_recognizer_added_later_in_the_batch_is_fine(world):
    w = plain_world(world)
    applied = w.apply({"op": "update", "id": "V", "set": {"gestureRecognizers": [tap_rec("a", requireToFail=["z"], simultaneousWith=["u1"])]}},
                      {"op": "insert", "parent": R, "node": view("Z", (200, 200, 50, 50), gestureRecognizers=[rec("z", "swipe")])})
    assert applied["revision"] == w.call("tree.get")["revision"]
    assert [r["recognizer"] for r in w.snapshot()["recognizers"]] == ["a", "u1", "z"]
    # ...but not when the batch never adds it: and then the earlier ops of the batch are undone too.
    before = w.call("tree.get")
    sub = w.subscribe()
    err = w.error("tree.apply", ops=[{"op": "insert", "parent": R, "node": view("Y", (0, 300, 10, 10))},
                                     {"op": "update", "id": "V", "set": {"gestureRecognizers": [tap_rec("a", requireToFail=["y"])]}}])
    assert err.name == "INVALID_NODE" and err.data["field"] == "ops[1].set.gestureRecognizers[0].requireToFail[0]"
    assert err.data["recognizer"] == "y" and err.data["opIndex"] == 1
    assert_unchanged(w, before, sub)


def test_invalid_recognizer_in_tree_load_and_session_create_names_the_full_path(world, client):
    w = plain_world(world)
    bad = fixture_f(view("V", (100, 100, 50, 50), gestureRecognizers=[tap_rec("a"), rec("b", "flick")]))
    err = w.error("tree.load", tree=bad)
    assert err.name == "INVALID_NODE"
    assert err.data["field"] == "tree.children[1].children[0].children[0].children[0].gestureRecognizers[1].kind"
    name = unique_name("gbad")
    resp = client.rpc("session.create", {"session": name, "tree": bad})
    assert resp["error"]["data"]["name"] == "INVALID_NODE"
    assert resp["error"]["data"]["field"].endswith("gestureRecognizers[1].kind")
    assert name not in [s["session"] for s in client.call("session.list")["sessions"]]


def test_touch_time_going_backwards_is_refused_and_changes_nothing_G11(world):
    w = world(fixture_f(view("V", (100, 100, 50, 50), handles=ALL_TOUCH_PHASES, gestureRecognizers=[tap_rec("tap")])))
    w.advance(to=1)
    err = w.error("event.touch", touches=[entry("t", "began", (110, 110), 0.5)])
    assert err.name == "INVALID_PARAMS" and err.data["field"] == "touches[0].time" and err.data["clock"] == 1
    # A later entry going back: the whole request is refused, the earlier entry's time and touch included.
    err = w.error("event.touch", touches=[entry("t", "began", (110, 110), 2), entry("t", "ended", (110, 110), 1.5)])
    assert err.name == "INVALID_PARAMS" and err.data["field"] == "touches[1].time" and err.data["clock"] == 2
    snap = w.snapshot()
    assert snap["clock"] == 1 and snap["liveTouches"] == []
    err = w.error("event.touch", touches=[entry("t", "began", (110, 110), -1)])
    assert err.name == "INVALID_PARAMS" and err.data["field"] == "touches[0].time"
    err = w.error("event.tap", point=[110, 110], time=0.5)
    assert err.name == "INVALID_PARAMS" and err.data["field"] == "time"
    ok = w.touch(entry("t", "began", (110, 110), 1))     # the clock itself is fine: time never goes back, it may stand
    assert ok["deliveries"][0]["view"] == "V"


@pytest.mark.parametrize("params, field", [
    ({}, None), ({"to": 3, "by": 1}, None), ({"to": 0.5}, "to"), ({"by": -1}, "by"), ({"by": "x"}, "by"),
    ({"to": None, "by": None}, None),
])
def test_clock_advance_needs_exactly_one_of_to_and_by_G11(world, params, field):
    w = world(fixture_f(view("V", (100, 100, 50, 50))))
    w.advance(to=1)
    err = w.error("clock.advance", **params)
    assert err.name == "INVALID_PARAMS", err
    if field:
        assert err.data["field"] == field
    assert w.snapshot()["clock"] == 1


# ------------------------------------------------------------------------------------------ randomized

FUZZ_SEQUENCES = int(os.environ.get("RESPONDER_GESTURE_FUZZ", "150"))
FUZZ_SEED = int(os.environ.get("RESPONDER_GESTURE_SEED", "20261123"))
SEQUENCES_PER_WORLD = 10
KINDS = ["tap", "longPress", "pan", "swipe", "pinch", "rotation"]
FUZZ_TARGETS = [target(RVC, "act:"), target("V", "act:"), target("ghost", "act:")]
# Screen rectangles (x0, y0, x1, y1) of the fuzz world's views (see fuzz_tree).
REGIONS = {"V": (80, 80, 280, 280), "Btn": (60, 300, 200, 344), "Q": (40, 40, 360, 440), "P": (0, 0, 400, 500),
           "S": (0, 520, 400, 720), "R": (0, 720, 400, 800)}
RECOGNIZER_VIEWS = ["V", "Q", "P", "Btn", "S", W]
# Invariants the randomized test skips (none: each one it checks holds).
KNOWN_ENGINE_GAPS: set = set()


def fuzz_recognizer(rng: random.Random, rid: str, earlier: list[str]) -> dict:
    kind = rng.choice(KINDS)
    r = {"id": rid, "kind": kind}
    for key, default, p in (("enabled", True, 0.1), ("cancelsTouchesInView", True, 0.3), ("delaysTouchesBegan", False, 0.25),
                            ("delaysTouchesEnded", True, 0.25), ("shouldBegin", True, 0.1), ("shouldReceiveTouch", True, 0.1)):
        if rng.random() < p:
            r[key] = not default
    if rng.random() < 0.7:
        r["targets"] = rng.sample(FUZZ_TARGETS, rng.choice([1, 1, 2, 3]))
    if kind == "tap":
        r["numberOfTapsRequired"] = rng.choice([1, 1, 2, 2, 3])
        r["numberOfTouchesRequired"] = rng.choice([1, 1, 1, 2])
    elif kind == "longPress":
        r["minimumPressDuration"] = rng.choice([0.1, 0.3, 0.5, 0.8])
        r["allowableMovement"] = rng.choice([5, 10, 30])
        r["numberOfTouchesRequired"] = rng.choice([1, 1, 2])
    elif kind == "pan":
        r["minimumNumberOfTouches"] = rng.choice([1, 1, 2])
        r["maximumNumberOfTouches"] = rng.choice([None, None, r["minimumNumberOfTouches"], 2])
    elif kind == "swipe":
        r["direction"] = rng.sample(["right", "left", "up", "down"], rng.choice([1, 1, 2, 4]))
        r["numberOfTouchesRequired"] = rng.choice([1, 1, 2])
    if earlier and rng.random() < 0.3:
        r["requireToFail"] = rng.sample(earlier, min(len(earlier), rng.choice([1, 1, 2])))  # acyclic: earlier ids only
    return r


def fuzz_recognizers(rng: random.Random) -> dict[str, list[dict]]:
    by_view: dict[str, list[dict]] = {v: [] for v in RECOGNIZER_VIEWS}
    made: list[dict] = []
    for i in range(rng.randint(2, 7)):
        r = fuzz_recognizer(rng, f"g{i}", [m["id"] for m in made])
        made.append(r)
        by_view[rng.choice(RECOGNIZER_VIEWS)].append(r)
    for r in made:
        others = [m["id"] for m in made if m is not r]
        if others and rng.random() < 0.25:
            r["simultaneousWith"] = rng.sample(others, 1)
    return by_view


def fuzz_tree(rng: random.Random, by_view: dict[str, list[dict]] | None, empty_lists: bool = False) -> dict:
    """R > P(0,0,400,500) > Q(40,40,320,400) > V(40,40,200,200), Btn(20,260,140,44); R > S(0,520,400,200)."""
    def g(v):
        if by_view is None:
            return {"gestureRecognizers": []} if empty_lists else {}
        return {"gestureRecognizers": copy.deepcopy(by_view[v])} if by_view[v] or rng.random() < 0.3 else {}
    vv = view("V", (40, 40, 200, 200), handles=ALL_TOUCH_PHASES, multipleTouchEnabled=rng.random() < 0.5, **g("V"))
    btn = control("Btn", (20, 260, 140, 44), targets=[{"event": "touchUpInside", "action": "act:", "target": RVC}],
                  **{"class": rng.choice(["UIButton", "UIButton", "UISwitch"])}, **g("Btn"))
    q = view("Q", (40, 40, 320, 400), vv, btn, handles={"touchesBegan": "handle+super"}, **g("Q"))
    p = view("P", (0, 0, 400, 500), q, multipleTouchEnabled=rng.random() < 0.7, **g("P"))
    s = view("S", (0, 520, 400, 200), handles=rng.choice([{}, ALL_TOUCH_PHASES]), **g("S"))
    return fixture_f(p, s, rvc={"handles": {"act:": "handle"}}, w=g(W),
                     r={"gestureRecognizers": []} if empty_lists else None)


class Script:
    """Builds one sequence of requests. Times are whole milliseconds, strictly increasing when given, so they
    never go back whatever the engine's clock is (the clock only moves to a time the script gave)."""

    def __init__(self, rng: random.Random, clock_ms: int, prefix: str):
        self.rng = rng
        self.clock = clock_ms
        self.prefix = prefix
        self.requests: list[tuple[str, dict]] = []
        self.live: dict[str, tuple] = {}          # touch → its last point
        self.n = 0

    def new_touch(self) -> str:
        self.n += 1
        return f"{self.prefix}t{self.n}"

    def time(self, lo=1, hi=250, p=0.75) -> float | None:
        if self.rng.random() < p:
            self.clock += self.rng.randint(lo, hi)
            return self.clock / 1000
        return None

    def point(self, region: str | None = None) -> tuple:
        if region is None:
            region = self.rng.choices(list(REGIONS) + ["off"], [5, 2, 2, 1, 1, 1, 0.2])[0]
        if region == "off":
            return (self.rng.randint(410, 500), self.rng.randint(0, 800))
        x0, y0, x1, y1 = REGIONS[region]
        return (self.rng.randint(x0, x1 - 1), self.rng.randint(y0, y1 - 1))

    def touch(self, *entries: dict) -> None:
        for e in entries:
            if e["phase"] in ("ended", "cancelled"):
                self.live.pop(e["touch"], None)
            else:
                self.live[e["touch"]] = tuple(e["point"])
        self.requests.append(("event.touch", {"touches": list(entries)}))

    def e(self, touch: str, phase: str, point, **kw) -> dict:
        return entry(touch, phase, point, self.time(**kw))

    def advance(self, ms: int) -> None:
        if self.rng.random() < 0.5:
            self.clock += ms
            self.requests.append(("clock.advance", {"to": self.clock / 1000}))
        else:
            self.clock += ms + 1                      # "by" may land an ulp past the sum: stay a millisecond ahead
            self.requests.append(("clock.advance", {"by": ms / 1000}))

    # the kinds of sequence --------------------------------------------------------------------------
    def tap(self, p=None, taps=1):
        p = p or self.point()
        for _ in range(taps):
            if self.rng.random() < 0.3:
                t = self.time(lo=20, hi=200)
                self.requests.append(("event.tap", {"point": list(p), **({"time": t} if t is not None else {})}))
                continue
            t = self.new_touch()
            q = (p[0] + self.rng.randint(-12, 12), p[1] + self.rng.randint(-12, 12)) if self.rng.random() < 0.3 else p
            es = [self.e(t, "began", p, lo=20, hi=200)]
            if q != p:
                es.append(self.e(t, "moved", q, hi=80))
            es.append(self.e(t, "ended", q, hi=120))
            if self.rng.random() < 0.5:
                self.touch(*es)
            else:
                for x in es:
                    self.touch(x)

    def drag(self):
        t, p = self.new_touch(), self.point()
        self.touch(self.e(t, "began", p))
        angle, step = self.rng.uniform(0, 2 * math.pi), self.rng.uniform(2, 30)
        for _ in range(self.rng.randint(2, 8)):
            p = (round(p[0] + step * math.cos(angle)), round(p[1] + step * math.sin(angle)))
            self.touch(self.e(t, "moved", p, hi=150))
        self.touch(self.e(t, "cancelled" if self.rng.random() < 0.15 else "ended", p))

    def swipe(self):
        t, p = self.new_touch(), self.point()
        dx, dy = self.rng.choice([(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1)])
        self.touch(self.e(t, "began", p))
        for _ in range(self.rng.randint(2, 4)):
            d = self.rng.randint(15, 40)
            p = (p[0] + dx * d, p[1] + dy * d)
            self.touch(self.e(t, "moved", p, lo=10, hi=120))
        self.touch(self.e(t, "ended", p, hi=60))

    def hold(self):
        t, p = self.new_touch(), self.point()
        self.touch(self.e(t, "began", p))
        for _ in range(self.rng.randint(1, 3)):
            self.advance(self.rng.randint(50, 600))
            if self.rng.random() < 0.4:
                r = self.rng.choice([2, 4, 20])
                p = (p[0] + self.rng.randint(-r, r), p[1] + self.rng.randint(-r, r))
                self.touch(self.e(t, "moved", p, hi=50))
        self.touch(self.e(t, "ended", p, p=0.5))

    def two_fingers(self):
        a, b = self.new_touch(), self.new_touch()
        c = self.point(self.rng.choice(["V", "V", "Q", "P"]))
        off = self.rng.randint(20, 90)
        pa, pb = (c[0] - off, c[1]), (c[0] + off, c[1])
        if self.rng.random() < 0.5:
            self.touch(self.e(a, "began", pa), self.e(b, "began", pb))
        else:
            self.touch(self.e(a, "began", pa))
            self.touch(self.e(b, "began", pb))
        mode = self.rng.choice(["pinch", "rotate", "pan"])
        for i in range(1, self.rng.randint(2, 6)):
            if mode == "pinch":
                k = 1 + self.rng.choice([-1, 1]) * 0.08 * i
                pa, pb = (round(c[0] - off * k), c[1]), (round(c[0] + off * k), c[1])
            elif mode == "rotate":
                th = 0.07 * i
                pa = (round(c[0] - off * math.cos(th)), round(c[1] - off * math.sin(th)))
                pb = (round(c[0] + off * math.cos(th)), round(c[1] + off * math.sin(th)))
            else:
                pa, pb = (pa[0] + 6, pa[1] + 3), (pb[0] + 6, pb[1] + 3)
            self.touch(*[x for x in (self.e(a, "moved", pa, hi=80), self.e(b, "moved", pb, hi=80))
                         if self.rng.random() < 0.85] or [self.e(a, "moved", pa)])
        last = "cancelled" if self.rng.random() < 0.15 else "ended"
        if self.rng.random() < 0.5:
            self.touch(self.e(a, "ended", pa), self.e(b, last, pb))
        else:
            self.touch(self.e(b, last, pb))
            if self.rng.random() < 0.5:
                self.advance(self.rng.randint(10, 400))
            self.touch(self.e(a, "ended", pa))

    def interleaved(self):
        """One touch held (long enough for a long press, or dragged far enough for a pan), another tapping."""
        a, pa = self.new_touch(), self.point()
        self.touch(self.e(a, "began", pa))
        if self.rng.random() < 0.4:
            self.advance(self.rng.randint(100, 900))
        elif self.rng.random() < 0.5:
            pa = (pa[0] + self.rng.choice([-25, 25]), pa[1])
            self.touch(self.e(a, "moved", pa))
        self.tap(self.point(self.rng.choice(["V", "Btn", "Q", None])))
        pa = (pa[0] + self.rng.randint(-30, 30), pa[1] + self.rng.randint(-30, 30))
        self.touch(self.e(a, "moved", pa))
        self.touch(self.e(a, "ended", pa))


def fuzz_sequence(rng: random.Random, clock_ms: int, prefix: str, by_view: dict | None) -> Script:
    s = Script(rng, clock_ms, prefix)
    kinds = [s.tap, lambda: s.tap(taps=rng.choice([2, 3])), s.drag, s.swipe, s.hold, s.two_fingers, s.interleaved]
    kinds[rng.randrange(len(kinds))]()
    # A tree change in the middle, now and then: a recognizer disabled, or V leaving the window (T6, G2).
    if len(s.requests) > 1 and rng.random() < 0.2:
        at = rng.randrange(1, len(s.requests))
        owners = [(v, i) for v, rs in (by_view or {}).items() for i in range(len(rs))]
        if owners and rng.random() < 0.6:
            v, i = rng.choice(owners)
            toggled = copy.deepcopy(by_view[v])
            toggled[i]["enabled"] = not toggled[i].get("enabled", True)
            s.requests.insert(at, ("tree.apply", {"ops": [{"op": "update", "id": v, "set": {"gestureRecognizers": toggled}}]}))
            restore = {"op": "update", "id": v, "set": {"gestureRecognizers": copy.deepcopy(by_view[v])}}
        else:
            s.requests.insert(at, ("tree.apply", {"ops": [{"op": "move", "id": "V", "parent": None}]}))
            restore = {"op": "move", "id": "V", "parent": "Q", "index": 0}
        s.restore = restore
    else:
        s.restore = None
    return s


class Run:
    """Sends requests with fixed ids on one socket and keeps every reply and published event, raw. Replaying the
    same requests in a session of the same name, on the same socket, must give the very same bytes."""

    def __init__(self, engine, client, sub, session: str):
        self.client, self.sub, self.session = client, sub, session
        self.ids = itertools.count(1)
        self.log: list[bytes] = []
        self.traces: list[tuple[str, dict]] = []     # every published trace, in order, with where it came from

    def send(self, method: str, params: dict, log: bool = True) -> dict:
        req = {"jsonrpc": "2.0", "id": f"q{next(self.ids)}", "method": method, "params": {"session": self.session, **params}}
        self.client.send_json_text(json.dumps(req))
        frames = self.client.recv_frames()
        assert frames is not None, f"no reply to {method}"
        if log:
            self.log.append(frames[-1])
        resp = json.loads(frames[-1])
        check_response(method, resp)
        if "error" in resp:
            raise AssertionError(f"{method} {json.dumps(params)[:600]} failed: {resp['error']}")
        result = resp["result"]
        if "seqRange" in result:
            first, last = result["seqRange"]
            for seq in range(first, last + 1):
                assert self.sub.socket.poll(int(PATIENCE * 1000), zmq.POLLIN), f"no event {seq} after {method}"
                topic, body = self.sub.socket.recv_multipart()
                if log:
                    self.log.append(topic + b" " + body)
                event = json.loads(body)
                SCHEMAS.validate(event_schema_for(topic.decode()), event, f"event on {topic.decode()}")
                assert event["seq"] == seq, (seq, event)
                if event["stream"] == "trace":
                    self.traces.append((f"{method} {json.dumps(params)[:300]}", event["trace"]))
        return result


class Invariants:
    """Checks every trace of a session as it comes, in order (see the test's docstring)."""

    def __init__(self, by_view: dict[str, list[dict]]):
        self.specs = {r["id"]: r for rs in by_view.values() for r in rs}
        self.state: dict[str, str] = {}
        self.observing: dict[str, set] = defaultdict(set)
        self.bound: dict = {}
        self.got: dict = defaultdict(list)
        self.history: list[str] = []

    def simultaneous(self, a: str, b: str) -> bool:
        return b in self.specs[a].get("simultaneousWith", []) or a in self.specs[b].get("simultaneousWith", [])

    def fail(self, what: str, where: str, trace: dict):
        raise AssertionError(f"{what}\n  in the trace of {where}\n  {json.dumps(trace)[:4000]}\n  earlier: "
                             + "\n  ".join(self.history[-12:]))

    def check(self, where: str, trace: dict) -> None:
        self.history.append(where)
        outcome = trace["outcome"]
        if trace["kind"] == "touch":
            for d in outcome["deliveries"]:
                if d["phase"] == "began" and d["touch"] not in self.bound:
                    self.bound[d["touch"]] = d["view"]
        activated: list[tuple[str, int, set]] = []
        failed_after: dict[str, int] = {}
        actions: dict[str, int] = defaultdict(int)
        expected_actions: dict[str, int] = defaultdict(int)
        for i, s in enumerate(trace["steps"]):
            kind = s["step"]
            if kind == "observe" and s["observes"]:
                self.observing[s["recognizer"]].add(s["touch"])
            elif kind == "deliver" and "touch" in s and s["message"] in TOUCH_MESSAGES:
                t = s["touch"]
                if self.bound.get(t) is None:
                    self.fail(f"{s['message']} of touch {t} delivered, but its began reached no view", where, trace)
                if s["to"] == self.bound[t]:
                    self.got[t].append(s["message"])
            elif kind == "gesture":
                r, frm, to = s["recognizer"], s["from"], s["to"]
                prev = self.state.get(r, "possible")
                if frm != prev:
                    self.fail(f"{r}: step from {frm}, but its last state was {prev}", where, trace)
                discrete = self.specs[r]["kind"] in ("tap", "swipe")
                allowed = {"possible": {"recognized", "failed"} if discrete else {"began", "failed"},
                           "began": {"changed", "ended", "cancelled"}, "changed": {"changed", "ended", "cancelled"}}
                if to not in allowed.get(frm, {"possible"}) or (to == "possible") != (s.get("reason") == "reset"):
                    self.fail(f"{r} ({self.specs[r]['kind']}): {frm} → {to} ({s.get('reason')}) is not a G2 transition", where, trace)
                if to in ("recognized", "began"):
                    mine = self.observing[r]
                    for other, st in self.state.items():
                        if other == r or not (self.observing[other] & mine) or self.simultaneous(r, other):
                            continue
                        if st in ACTIVE and "G4-active" not in KNOWN_ENGINE_GAPS:
                            self.fail(f"G4: {r} reached {to} while {other} ({st}) shares touches "
                                      f"{sorted(map(str, self.observing[other] & mine))} with it", where, trace)
                        if st == "possible":
                            activated.append((other, i, r))
                    for req in self.specs[r].get("requireToFail", []):
                        st = self.state.get(req, "possible")
                        if st in ACTIVE or (st == "possible" and self.observing[req]):
                            self.fail(f"G5: {r} reached {to} while {req}, which it requires to fail, is {st}", where, trace)
                if to in ("recognized", "began", "changed", "ended"):
                    expected_actions[r] += len(self.specs[r].get("targets", []))
                if to == "failed":
                    failed_after[r] = i
                if to == "possible":
                    self.observing[r] = set()
                self.state[r] = to
            elif kind == "gestureAction":
                actions[s["recognizer"]] += 1
        for other, i, by in activated:
            if failed_after.get(other, -1) < i:
                self.fail(f"G4/G5: {by} recognized or began while {other} was possible on a shared touch, "
                          f"and {other} did not fail", where, trace)
        if dict(actions) != {k: v for k, v in expected_actions.items() if v}:
            self.fail(f"G3: actions sent {dict(actions)}, expected {dict(expected_actions)}", where, trace)
        # The outcome lists the same transitions and actions as the steps.
        if trace["kind"] == "touch":
            g = [x for d in outcome["deliveries"] for x in d.get("gestures", [])]
            a = [x for d in outcome["deliveries"] for x in d.get("gestureActions", [])]
        else:
            g, a = outcome.get("gestures") or [], outcome.get("gestureActions") or []
        if g != [{k: v for k, v in s.items() if k != "step"} for s in trace["steps"] if s["step"] == "gesture"]:
            self.fail("the outcome's gestures are not the trace's gesture steps", where, trace)
        # (A treeChange outcome has no gestureActions member: gesture-notes.md gives it gestures and gestureDeliveries.)
        if trace["kind"] != "treeChange" and a != [{k: v for k, v in s.items() if k not in ("step", "rule")}
                                                   for s in trace["steps"] if s["step"] == "gestureAction"]:
            self.fail("the outcome's gestureActions are not the trace's gestureAction steps", where, trace)
        # Per touch, what its view got so far: began → moved* → (ended|cancelled), nothing after the end.
        for t, msgs in self.got.items():
            if not re.fullmatch(r"(B(M)*(E|C)?)?", "".join(m[7] for m in msgs)):
                self.fail(f"touch {t}: its view got {msgs}", where, trace)

    def end_of_sequence(self, snapshot: dict) -> None:
        for t, msgs in self.got.items():
            if not re.fullmatch(r"(BM*[EC])?", "".join(m[7] for m in msgs)):
                raise AssertionError(f"touch {t}: at the end of its sequence its view got {msgs}\n  "
                                     + "\n  ".join(self.history[-12:]))
        assert snapshot["liveTouches"] == [], f"touches left after every touch ended and 2 s passed: {snapshot['liveTouches']}"
        busy = [r for r in snapshot["recognizers"] if (r["state"], r["touches"], r["waitingFor"]) != ("possible", [], [])]
        assert busy == [], f"G2: recognizers not reset after every touch ended and 2 s passed: {busy}"
        assert all(st == "possible" for st in self.state.values()), self.state
        self.observing.clear()
        self.bound.clear()
        self.got.clear()


def drive(run: Run, requests: list[tuple[str, dict]], check=None, adapt: bool = True) -> list[tuple[str, dict]]:
    """Sends the requests. With adapt, entries of touches the engine has already cancelled (their view left the
    window) are left out, as a client would; returns what was actually sent, to replay it verbatim. (After a tree
    change the client asks session.snapshot which touches are still live: the treeChange outcome lists only the
    touches whose view got touchesCancelled, not those a recognizer held or took.)"""
    sent, dead, seen = [], set(), set()
    for method, params in requests:
        if adapt and method == "event.touch":
            entries = [e for e in params["touches"] if e["touch"] not in dead]
            if not entries:
                continue
            params = {**params, "touches": entries}
        n = len(run.traces)
        try:
            run.send(method, params)
        except AssertionError as e:
            raise AssertionError(f"{e}\n  the last traces:\n  " + "\n  ".join(
                f"{where}: {json.dumps(trace)[:3000]}" for where, trace in run.traces[-4:])) from None
        sent.append((method, params))
        if method == "event.touch":
            seen |= {e["touch"] for e in params["touches"]}
        for where, trace in run.traces[n:]:
            if check:
                check(where, trace)
        if adapt and method == "tree.apply":
            live = {t["touch"] for t in run.send("session.snapshot", {})["liveTouches"]}
            sent.append(("session.snapshot", {}))
            dead |= seen - live
    return sent


def fuzz_plan(seed: int, sequences: int, with_recognizers: bool = True):
    """Worlds and their sequences, from the seed alone."""
    rng = random.Random(seed)
    worlds = []
    for w in range(math.ceil(sequences / SEQUENCES_PER_WORLD)):
        by_view = fuzz_recognizers(rng) if with_recognizers else None
        tree_seed = rng.randrange(2 ** 32)
        worlds.append((w, by_view, tree_seed, [rng.randrange(2 ** 32) for _ in range(min(SEQUENCES_PER_WORLD, sequences - w * SEQUENCES_PER_WORLD))]))
    return worlds


def run_world(engine, client, sub, name, tree, by_view, seq_seeds, check: bool, recorded=None):
    """Creates the session, runs every sequence (or replays `recorded`), deletes it; returns (sent, raw log, traces)."""
    run = Run(engine, client, sub, name)
    # Profile `ignore`: random targets often lack their actions, and a crash would end the dispatch the
    # invariants are checked on (crashes have their own tests: test_amended_rules.py).
    run.send("session.create", {"tree": tree, "profile": {"unrecognizedSelector": "ignore"}},
             log=False)  # its tree event holds the tree as sent
    try:
        if recorded is not None:
            for method, params in recorded:
                run.send(method, params)
            return recorded, run.log, run.traces
        inv = Invariants(by_view) if check else None
        sent: list[tuple[str, dict]] = []
        clock = 0
        for k, seed in enumerate(seq_seeds):
            script = fuzz_sequence(random.Random(seed), clock, f"s{k}", by_view)
            sent += drive(run, script.requests, inv.check if inv else None)
            # Finish: end what is still down, undo the tree change, let time pass, and look.
            closing = []
            if script.live:
                script.clock += 5
                closing.append(("event.touch", {"touches": [entry(t, "ended", p, script.clock / 1000) for t, p in script.live.items()]}))
            if script.restore:
                closing.append(("tree.apply", {"ops": [script.restore]}))
            script.clock += 2000
            closing.append(("clock.advance", {"to": script.clock / 1000}))
            sent += drive(run, closing, inv.check if inv else None)
            clock = script.clock
            snap = run.send("session.snapshot", {})
            sent.append(("session.snapshot", {}))
            if inv:
                inv.end_of_sequence(snap)
        return sent, run.log, run.traces
    finally:
        client.rpc("session.delete", {"session": name}, validate=False)


def test_fuzz_gesture_invariants_and_byte_identical_replay_G1_G2_G3_G4_G5_G7_G8_G9_G11(engine):
    """Seeded worlds with recognizers of every kind and option on nested views, a control and the window; touch
    sequences of taps, multi-taps, drags, swipes, holds with clock.advance, two fingers, cancels, and tree changes
    in the middle. On every trace: a touch's view gets began → moved* → (ended|cancelled), each end at most once,
    nothing after it (and, once the sequence is over, always a complete sequence or nothing); every `gesture`
    step starts where the recognizer's last one ended and is a G2 transition of its kind; when a recognizer
    recognizes or begins, no non-simultaneous recognizer sharing a touch is active, and those still possible fail
    (G4, G5); each transition that sends actions sends one per target (G3); the outcome lists exactly the
    trace's transitions and actions. After each sequence every recognizer is back to possible with no touches.
    Then the same requests in a fresh session of the same name give the same bytes: replies and events."""
    client = engine.client(routing_id=b"gesture-fuzz")
    name = unique_name("gfz")
    sub = engine.subscriber(f"{name}/")
    try:
        for w, by_view, tree_seed, seq_seeds in fuzz_plan(FUZZ_SEED, FUZZ_SEQUENCES):
            tree = fuzz_tree(random.Random(tree_seed), by_view)
            where = f"world {w} (seed {FUZZ_SEED}): recognizers {json.dumps(by_view)}"
            try:
                sent, log, _ = run_world(engine, client, sub, name, tree, by_view, seq_seeds, check=True)
            except AssertionError as e:
                raise AssertionError(f"{where}\n{e}") from None
            _, again, _ = run_world(engine, client, sub, name, tree, by_view, seq_seeds, check=False, recorded=sent)
            assert len(again) == len(log), where
            for i, (a, b) in enumerate(zip(log, again)):
                assert a == b, f"{where}\nreplay differs at message {i}:\n  {a[:1500]!r}\n  {b[:1500]!r}"
    finally:
        sub.close()
        client.close()


def no_gesture_members(x, path="") -> list[str]:
    """Where a reply or trace mentions recognizers: their steps, outcome members, reasons."""
    found = []
    if isinstance(x, dict):
        if x.get("step") in GESTURE_STEPS:
            found.append(f"{path}: step {x['step']}")
        if x.get("reason") in ("cancelled-by-gesture", "taken-by-gesture", "held", "released"):
            found.append(f"{path}: reason {x['reason']}")
        for k, v in x.items():
            if k in ("heldBy", "gestures", "gestureActions", "gestureDeliveries"):
                found.append(f"{path}.{k}")
            found += no_gesture_members(v, f"{path}.{k}")
    elif isinstance(x, list):
        for i, v in enumerate(x):
            found += no_gesture_members(v, f"{path}[{i}]")
    return found


def test_no_recognizers_no_gesture_members_and_same_traces_as_empty_lists(engine):
    """A world without recognizers: no trace or reply mentions them (but a clock trace's own outcome), and every
    byte is the same as in the same world where every view says `gestureRecognizers: []`."""
    client = engine.client(routing_id=b"gesture-none")
    name = unique_name("gnone")
    sub = engine.subscriber(f"{name}/")
    try:
        for w, _, tree_seed, seq_seeds in fuzz_plan(FUZZ_SEED + 1, 40, with_recognizers=False):
            plain = fuzz_tree(random.Random(tree_seed), None)
            empty = fuzz_tree(random.Random(tree_seed), None, empty_lists=True)
            assert "gestureRecognizers" not in json.dumps(plain) and "gestureRecognizers" in json.dumps(empty)
            sent, log, traces = run_world(engine, client, sub, name, plain, None, seq_seeds, check=False)
            assert any(t["kind"] == "touch" for _, t in traces)
            for where, trace in traces:
                if trace["kind"] == "clock":
                    assert trace["steps"] == [] and trace["outcome"]["gestures"] == [], (where, trace)
                    continue
                assert no_gesture_members(trace) == [], (where, trace)
            _, again, _ = run_world(engine, client, sub, name, empty, None, seq_seeds, check=False, recorded=sent)
            assert again == log, f"world {w}: traces differ with gestureRecognizers: [] on every view"
    finally:
        sub.close()
        client.close()
