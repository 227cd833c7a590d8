"""The worked dispatch scenarios P1–P23 (all but P13, gesture recognizers, which test_gestures.py runs) run
through the real engine: each test builds its world over the protocol (session.create with a tree, then
tree.apply where the scenario changes the tree), sends the event, and asserts the delivery path the scenario
expects from the reply's outcome members. Several also check that the same trace (and any first-responder
change) arrives on the session's event stream. Test names give the scenario and the rule ids (docs/rules.md,
Protocol/README.md 12.1) that it exercises.

Every test uses its own session, so the tests are independent.
"""

from __future__ import annotations

import pytest

from harness import new_session

# ------------------------------------------------------------------------------------------ fixture F

APP, AD, W, RVC, R = "app", "AD", "W", "RVC", "R"
# The chain above R (fixture F): R → RVC → W → App → AD.
ABOVE_R = [R, RVC, W, APP, AD]


def node(id: str, kind: str = "view", frame=None, *children, **fields) -> dict:
    n = {"id": id, "kind": kind, **fields}
    if frame is not None:
        n["frame"] = list(frame)
    if children:
        n["children"] = list(children)
    return n


def view(id: str, frame, *children, **fields) -> dict:
    return node(id, "view", frame, *children, **fields)


def control(id: str, frame, *children, **fields) -> dict:
    fields.setdefault("class", "UIButton")
    return node(id, "control", frame, *children, **fields)


def text_field(id: str, frame, *children, **fields) -> dict:
    return node(id, "textField", frame, *children, **fields)


def fixture_f(*r_children, r: dict | None = None, rvc: dict | None = None, w: dict | None = None,
              ad: dict | None = None) -> dict:
    """Fixture F: App with a responder app delegate AD; key window W (0,0,400,800) whose root view
    controller RVC has root view R filling W; `r_children` are R's subviews, back to front. The keyword
    dicts add fields to R, RVC, W and AD (e.g. `rvc={"handles": {...}}`)."""
    root = view(R, (0, 0, 400, 800), *r_children, **(r or {}))
    controller = node(RVC, "viewController", None, root, **(rvc or {}))
    window = node(W, "window", (0, 0, 400, 800), controller, key=True, **(w or {}))
    delegate = node(AD, "appDelegate", **(ad or {}))
    return node(APP, "application", None, delegate, window)


def tree_t1(**kw) -> dict:
    """Tree T1: R > A(0,0,300,300); A > B(0,0,100,100), C(100,100,200,200); C > D(0,0,50,50), E(100,100,100,100)."""
    return fixture_f(
        view("A", (0, 0, 300, 300),
             view("B", (0, 0, 100, 100)),
             view("C", (100, 100, 200, 200),
                  view("D", (0, 0, 50, 50)),
                  view("E", (100, 100, 100, 100)))),
        **kw)


ALL_TOUCH_PHASES = {m: "handle" for m in ("touchesBegan", "touchesMoved", "touchesEnded", "touchesCancelled")}


# ------------------------------------------------------------------------------------------ helpers

@pytest.fixture
def world(engine, client, request):
    """world(tree) creates a session of its own holding `tree` and returns a World to drive it."""
    made: list[str] = []

    def make(tree: dict, **params) -> "World":
        name = new_session(client, request.node.name.split("_")[1], tree=tree, **params)
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

    def call(self, method: str, **params):
        return self.client.call(method, session=self.session, **params)

    def subscribe(self):
        """A subscriber to `<session>/` (and $sys/welcome, waited for), so what follows reaches it."""
        return self.engine.subscriber(f"{self.session}/")

    # dispatch ---------------------------------------------------------------------------------------
    def hit(self, x, y) -> dict:
        return self.call("hitTest", point=[x, y])

    def touch(self, *touches, **params) -> dict:
        return self.call("event.touch", touches=[{"touch": t, "phase": ph, **({"point": list(p)} if p else {})}
                                                 for t, ph, p in touches], **params)

    def tap(self, x, y) -> dict:
        return self.call("event.tap", point=[x, y])

    def become(self, id: str) -> dict:
        return self.call("responder.become", id=id)

    def resign(self, id: str) -> dict:
        return self.call("responder.resign", id=id)

    def first(self, window: str | None = None):
        return self.call("responder.first", **({"window": window} if window else {}))

    def send(self, action: str, target: str | None = None, sender: str | None = None) -> dict:
        return self.call("action.send", action=action, target=target, sender=sender)

    def apply(self, *ops) -> dict:
        return self.call("tree.apply", ops=list(ops))


def visited_ids(hit: dict) -> list[str]:
    return [v["id"] for v in hit["visited"]]


def visit(hit: dict, id: str) -> dict:
    matches = [v for v in hit["visited"] if v["id"] == id]
    assert len(matches) == 1, f"{id} asked {len(matches)} times: {hit['visited']}"
    return matches[0]


def steps(reply: dict, step: str, **match) -> list[dict]:
    return [s for s in reply["trace"]["steps"]
            if s["step"] == step and all(s.get(k) == v for k, v in match.items())]


def assert_same_trace_on_stream(sub, session: str, reply: dict, focus: int = 0) -> list[dict]:
    """The reply's trace arrives on `<session>/trace` with the reply's seq, then `focus` focus events; returns
    the focus events. Nothing else is published by the request."""
    first, last = reply["seqRange"]
    assert last == first + focus and reply["seq"] == last, f"seqRange {reply['seqRange']}, seq {reply['seq']}"
    topic, event = sub.next()
    assert topic == f"{session}/trace", f"expected the trace first, got {topic}: {event}"
    assert event["seq"] == first and event["session"] == session and event["stream"] == "trace"
    assert event["trace"] == reply["trace"], "the published trace is the one in the reply"
    changes = []
    for i in range(focus):
        topic, event = sub.next()
        assert topic == f"{session}/focus" and event["seq"] == first + 1 + i, (topic, event)
        changes.append(event["change"])
    sub.nothing(0.2)
    return changes


def single_delivery(reply: dict) -> dict:
    d = reply["deliveries"]
    assert len(d) == 1, d
    return d[0]


# ------------------------------------------------------------------------------------------ hit-testing

def test_P1_hit_path_and_discard_H2_N3(world):
    w = world(tree_t1())
    hit = w.hit(250, 250)
    # H2.2: front-most subview first; B (behind C) and D (behind E's answer) are never asked.
    assert visited_ids(hit) == [W, R, "A", "C", "E"]
    assert all(v["result"] == "hit" for v in hit["visited"])
    assert hit["view"] == "E" and hit["window"] == W and hit["localPoint"] == [50, 50]

    sub = w.subscribe()
    reply = w.touch(("t1", "began", (250, 250)))
    d = single_delivery(reply)
    assert d["view"] == "E" and d["message"] == "touchesBegan"
    # T2/N1–N3: no handlers, so touchesBegan travels the whole chain and falls off the end.
    assert d["visited"] == ["E", "C", "A", *ABOVE_R] and d["handledBy"] == []
    discards = steps(reply, "discard", message="touchesBegan")
    assert [(s["reason"], s["rule"]) for s in discards] == [("end-of-chain", "N3")]
    assert [s["id"] for s in steps(reply, "hitTest")] == [W, R, "A", "C", "E"]
    assert_same_trace_on_stream(sub, w.session, reply)


def test_P2_front_most_miss_then_sibling_H2_H3_H4(world):
    w = world(tree_t1())
    hit = w.hit(120, 120)
    assert visited_ids(hit) == [W, R, "A", "C", "E", "D"]
    e = visit(hit, "E")
    assert e["result"] == "miss" and e["reason"] == "outside-bounds" and e["rule"] == "H3"
    assert e["point"] == [-80, -80], "H4: E is asked with the point in its own coordinates"
    assert visit(hit, "D")["result"] == "hit"
    assert hit["view"] == "D" and hit["localPoint"] == [20, 20]
    assert "B" not in visited_ids(hit)


def test_P3_scroll_offset_bounds_origin_H3_H4(world):
    w = world(fixture_f(
        view("S", (0, 100, 400, 200),
             view("Row1", (0, 300, 400, 50)),
             view("Row2", (0, 350, 400, 50)),
             boundsOrigin=[0, 300])))
    row1 = w.hit(10, 120)
    assert row1["view"] == "Row1" and row1["localPoint"] == [10, 20]
    assert visit(row1, "S")["point"] == [10, 320], "H4: q = p − frame.origin + bounds.origin"
    assert visit(row1, "Row2")["result"] == "miss"
    row2 = w.hit(10, 180)
    assert row2["view"] == "Row2" and row2["localPoint"] == [10, 30]
    assert "Row1" not in visited_ids(row2)
    above = w.hit(10, 90)
    assert above["view"] == R
    s = visit(above, "S")
    assert s["result"] == "miss" and s["reason"] == "outside-bounds" and s["point"] == [10, 290]


@pytest.mark.parametrize("clips", [False, True])
def test_P4_outside_superview_never_hit_H5_H3(world, clips):
    w = world(fixture_f(view("P", (100, 100, 100, 100), view("X", (50, 50, 100, 100)), clipsToBounds=clips)))
    inside = w.hit(180, 180)
    assert inside["view"] == "X" and inside["localPoint"] == [30, 30]
    outside = w.hit(220, 220)
    # H5: P's point(inside:) fails first, whatever its clipsToBounds, so X (drawn there) is never asked.
    assert outside["view"] == R
    assert visited_ids(outside) == [W, R, "P"]
    assert visit(outside, "P")["reason"] == "outside-bounds"
    # The same answer after flipping clipsToBounds through the protocol.
    w.apply({"op": "update", "id": "P", "set": {"clipsToBounds": not clips}})
    assert w.hit(220, 220)["view"] == R and w.hit(180, 180)["view"] == "X"


def test_P5_enlarged_hit_area_H6_H3(world):
    w = world(fixture_f(view("P", (100, 100, 200, 200),
                             control("Btn", (0, 0, 20, 20), hitTest={"insets": [-20, -20, -20, -20]}))))
    hit = w.hit(135, 135)
    assert hit["view"] == "Btn" and hit["localPoint"] == [35, 35]
    # H6: the enlarged area only helps where every ancestor also contains the point.
    miss = w.hit(95, 95)
    assert miss["view"] == R
    assert visited_ids(miss) == [W, R, "P"], "P misses, so Btn is never asked"
    assert visit(miss, "P")["reason"] == "outside-bounds"


def test_P6_pass_through_overlay_H6_H2(world):
    w = world(fixture_f(
        view("Under", (0, 0, 400, 400)),
        view("Overlay", (0, 0, 400, 800), view("Chip", (10, 10, 50, 50)), hitTest={"mode": "passThroughSelf"})))
    under = w.hit(200, 200)
    assert under["view"] == "Under"
    assert visited_ids(under) == [W, R, "Overlay", "Chip", "Under"]
    o = visit(under, "Overlay")
    assert o["result"] == "skipped" and o["reason"] == "pass-through" and o["rule"] == "H6"
    chip = w.hit(20, 20)
    assert chip["view"] == "Chip" and "Under" not in visited_ids(chip)
    bottom = w.hit(200, 600)
    assert bottom["view"] == R
    assert visit(bottom, "Overlay")["result"] == "skipped" and visit(bottom, "Under")["result"] == "miss"


def test_P7_redirect_binds_touch_to_target_H6_T1(world):
    w = world(fixture_f(view("Cell", (0, 100, 400, 80), view("Scroll", (100, 0, 200, 80)),
                             hitTest={"redirect": {"to": "Scroll", "when": "self"}})))
    hit = w.hit(20, 140)
    assert hit["view"] == "Scroll" and hit["localPoint"] == [-80, 40]
    cell = visit(hit, "Cell")
    assert cell["result"] == "hit" and cell["reason"] == "redirect" and cell["to"] == "Scroll" and cell["rule"] == "H6"
    assert visit(hit, "Scroll")["result"] == "miss"

    sub = w.subscribe()
    began = w.touch(("t", "began", (20, 140)))
    d = single_delivery(began)
    assert d["view"] == "Scroll" and d["localPoint"] == [-80, 40]
    assert d["visited"] == ["Scroll", "Cell", *ABOVE_R]
    assert_same_trace_on_stream(sub, w.session, began)
    later = w.touch(("t", "moved", (30, 150)), ("t", "ended", (30, 150)))
    assert [x["view"] for x in later["deliveries"]] == ["Scroll", "Scroll"]
    assert [x["visited"][0] for x in later["deliveries"]] == ["Scroll", "Scroll"]
    assert steps(later, "hitTest") == [], "T1: later phases are not hit-tested again"


# ------------------------------------------------------------------------------------------ touch delivery

def test_P8_touch_stays_bound_after_leaving_view_T1_T2(world):
    w = world(fixture_f(view("V", (100, 100, 50, 50), handles=ALL_TOUCH_PHASES)))
    began = single_delivery(w.touch(("t", "began", (110, 110))))
    assert began["view"] == "V" and began["localPoint"] == [10, 10]
    assert began["visited"] == ["V"] and began["handledBy"] == ["V"]
    moved_reply = w.touch(("t", "moved", (300, 300)))
    moved = single_delivery(moved_reply)
    assert moved["view"] == "V" and moved["localPoint"] == [200, 200] and moved["message"] == "touchesMoved"
    assert moved["visited"] == ["V"] and moved["handledBy"] == ["V"]
    assert steps(moved_reply, "hitTest") == [], "T1: no new hit test"
    ended = single_delivery(w.touch(("t", "ended", (300, 300))))
    assert ended["view"] == "V" and ended["message"] == "touchesEnded" and ended["handledBy"] == ["V"]
    assert w.call("session.snapshot")["liveTouches"] == []


def test_P9_only_began_handled_rest_climb_T2_N3(world):
    w = world(fixture_f(view("V", (100, 100, 50, 50), handles={"touchesBegan": "handle"})))
    began = single_delivery(w.touch(("t", "began", (110, 110))))
    assert began["visited"] == ["V"] and began["handledBy"] == ["V"]
    reply = w.touch(("t", "moved", (120, 120)), ("t", "ended", (120, 120)))
    moved, ended = reply["deliveries"]
    for d, message in ((moved, "touchesMoved"), (ended, "touchesEnded")):
        assert d["message"] == message
        assert d["visited"] == ["V", *ABOVE_R] and d["handledBy"] == []
    assert len(steps(reply, "discard", reason="end-of-chain", rule="N3")) == 2


def test_P10_handler_without_super_stops_began_T2(world):
    w = world(fixture_f(view("V", (100, 100, 50, 50)),
                        rvc={"handles": {"touchesBegan": "handle"}}, ad={"handles": {"touchesBegan": "handle"}}))
    sub = w.subscribe()
    reply = w.tap(110, 110)
    began, ended = reply["deliveries"]
    assert began["message"] == "touchesBegan"
    assert began["visited"] == ["V", R, RVC] and began["handledBy"] == [RVC]
    assert AD not in began["visited"], "AD never sees touchesBegan"
    # ...for that phase only: touchesEnded is not handled, so it climbs to the end.
    assert ended["visited"] == ["V", *ABOVE_R] and ended["handledBy"] == []
    assert [s["disposition"] for s in steps(reply, "deliver", message="touchesBegan")] == \
        ["not-handled", "not-handled", "handled"]
    assert_same_trace_on_stream(sub, w.session, reply)


def test_P11_handler_with_super_passes_on_T2(world):
    w = world(fixture_f(view("V", (100, 100, 50, 50)),
                        rvc={"handles": {"touchesBegan": "handle+super"}}, ad={"handles": {"touchesBegan": "handle"}}))
    began, _ = w.tap(110, 110)["deliveries"]
    assert began["visited"] == ["V", *ABOVE_R]
    assert began["handledBy"] == [RVC, AD], "both handle it, RVC first"


def test_P12_button_keeps_its_touches_T3(world):
    w = world(fixture_f(control("Btn", (100, 100, 100, 44)), rvc={"handles": {"touchesBegan": "handle"}}))
    sub = w.subscribe()
    reply = w.tap(120, 120)
    began, ended = reply["deliveries"]
    assert began["view"] == "Btn" and began["controlEvents"] == ["touchDown"]
    assert ended["controlEvents"] == ["touchUpInside", "primaryActionTriggered"]  # K2 (1.6): Btn is a UIButton
    for d in (began, ended):
        assert d["visited"] == ["Btn"] and d["handledBy"] == ["Btn"]
    assert steps(reply, "deliver", to=RVC) == [], "RVC's touchesBegan is never called"
    assert [s["event"] for s in steps(reply, "controlEvent", control="Btn")] == ["touchDown", "touchUpInside", "primaryActionTriggered"]
    assert {s["disposition"] for s in steps(reply, "deliver")} == {"consumed-by-control"}
    assert_same_trace_on_stream(sub, w.session, reply)


# ------------------------------------------------------------------------------------------ nil-target actions

TAP_NIL = [{"event": "touchUpInside", "action": "tap:", "target": None}]
IMPLEMENTS_TAP = {"handles": {"tap:": "handle"}}


def btn_in_p(btn_fields=None, p_fields=None, **kw) -> dict:
    """R > P(50,50,200,200) > Btn(10,10,100,44) whose touchUpInside sends tap: to a nil target."""
    return fixture_f(view("P", (50, 50, 200, 200), control("Btn", (10, 10, 100, 44), targets=TAP_NIL, **(btn_fields or {})),
                          **(p_fields or {})), **kw)


def tap_action(w: World) -> dict:
    """Taps Btn (at (70,70)) and returns the one action its touch-up sent."""
    _, ended = w.tap(70, 70)["deliveries"]
    assert ended["controlEvents"] == ["touchUpInside", "primaryActionTriggered"]  # K2 (1.6)
    assert len(ended["actions"]) == 1, ended["actions"]
    a = ended["actions"][0]
    assert a["action"] == "tap:" and a["event"] == "touchUpInside" and a["target"] is None
    return a


def test_P14_sender_performs_with_no_first_responder_A3_A4(world):
    w = world(fixture_f(control("Btn", (100, 100, 100, 44), targets=TAP_NIL, **IMPLEMENTS_TAP)))
    assert w.first() is None
    _, ended = w.tap(120, 120)["deliveries"]
    assert ended["actions"] == [{"action": "tap:", "event": "touchUpInside", "target": None,
                                 "performed": True, "by": "Btn"}]
    sent = w.send("tap:", None, "Btn")
    assert sent["performed"] is True and sent["by"] == "Btn" and sent["visited"] == ["Btn"]
    assert [(s["to"], s["disposition"], s["rule"]) for s in steps(sent, "deliver")] == [("Btn", "handled", "A4")]


def test_P15_walk_reaches_superview_A3_A4_N1(world):
    w = world(btn_in_p(p_fields=IMPLEMENTS_TAP))
    a = tap_action(w)
    assert a["performed"] is True and a["by"] == "P"
    sent = w.send("tap:", None, "Btn")
    assert sent["performed"] is True and sent["by"] == "P" and sent["visited"] == ["Btn", "P"]


def test_P16_walk_reaches_view_controller_A4_N1(world):
    w = world(btn_in_p(rvc=IMPLEMENTS_TAP))
    a = tap_action(w)
    assert a["performed"] is True and a["by"] == RVC
    sent = w.send("tap:", None, "Btn")
    assert sent["by"] == RVC and sent["visited"] == ["Btn", "P", R, RVC]


def test_P17_nobody_implements_end_of_chain_A4_N3(world):
    w = world(btn_in_p())
    a = tap_action(w)
    assert a["performed"] is False and a["by"] is None
    sub = w.subscribe()
    sent = w.send("tap:", None, "Btn")
    assert sent["performed"] is False and sent["by"] is None
    assert sent["visited"] == ["Btn", "P", *ABOVE_R]
    # The trace says unhandled: the walk ends at the end of the chain.
    assert [(s["reason"], s["rule"]) for s in steps(sent, "discard", message="tap:")] == [("end-of-chain", "A4")]
    (action,) = steps(sent, "action")
    assert action["performed"] is False and action["reason"] == "end-of-chain"
    assert_same_trace_on_stream(sub, w.session, sent)


def test_P18_first_responder_wins_then_sender_A3_F4(world):
    w = world(fixture_f(
        view("P", (0, 0, 400, 100), control("Btn", (10, 10, 100, 44), targets=TAP_NIL), **IMPLEMENTS_TAP),
        view("Q", (0, 200, 400, 100), text_field("TF", (10, 10, 200, 44))),
        rvc=IMPLEMENTS_TAP))
    assert w.become("TF")["result"] is True
    sent = w.send("tap:", None, "Btn")
    # A3: the walk starts at the key window's first responder, not at the sender.
    assert sent["visited"] == ["TF", "Q", R, RVC] and sent["by"] == RVC and sent["performed"] is True
    assert "P" not in sent["visited"]
    _, ended = w.tap(20, 20)["deliveries"]
    assert ended["actions"][0]["by"] == RVC, "the control's own action takes the same walk"
    # With no first responder the walk starts at the sender: P performs it.
    assert w.resign("TF")["result"] is True and w.first() is None
    sent = w.send("tap:", None, "Btn")
    assert sent["visited"] == ["Btn", "P"] and sent["by"] == "P"
    _, ended = w.tap(20, 20)["deliveries"]
    assert ended["actions"][0]["by"] == "P"


def test_P19_child_view_controller_in_chain_N1_N2_A4(world):
    w = world(fixture_f(
        view("Container", (0, 0, 400, 400),
             node("childVC", "viewController", None,
                  view("CV", (0, 0, 400, 400),
                       control("Btn", (10, 10, 100, 44), targets=[{"event": "touchUpInside", "action": "save:", "target": None}])))),
        rvc={"handles": {"save:": "handle"}}))
    expected = ["Btn", "CV", "childVC", "Container", R, RVC]
    assert w.call("responderChain", id="Btn")["chain"] == [*expected, W, APP, AD]
    sent = w.send("save:", None, "Btn")
    assert sent["visited"] == expected and sent["by"] == RVC and sent["performed"] is True
    _, ended = w.tap(20, 20)["deliveries"]
    assert ended["actions"] == [{"action": "save:", "event": "touchUpInside", "target": None, "performed": True, "by": RVC}]


# ------------------------------------------------------------------------------------------ first responder

def test_P20_become_needs_a_window_then_resigns_old_F2(world):
    tree = fixture_f(text_field("TF0", (10, 10, 200, 44)))
    w = world(tree, detached=[text_field("TF", (10, 100, 200, 44))])
    assert w.become("TF0")["result"] is True
    sub = w.subscribe()
    refused = w.become("TF")
    assert refused["result"] is False and refused["reason"] == "not-in-window" and refused["resigned"] is None
    assert [(s["check"], s["value"], s["rule"]) for s in steps(refused, "check", id="TF")] == [("inWindow", False, "F2")]
    assert_same_trace_on_stream(sub, w.session, refused, focus=0)
    assert w.first() == "TF0", "the current first responder is unchanged"

    w.apply({"op": "move", "id": "TF", "parent": R})
    sub.next(f"{w.session}/tree")
    became = w.become("TF")
    assert became["result"] is True and became["reason"] == "became" and became["resigned"] == "TF0"
    (ask,) = steps(became, "check", check="canResignFirstResponder")
    assert ask["id"] == "TF0" and ask["value"] is True, "the old first responder was asked to resign"
    (change,) = assert_same_trace_on_stream(sub, w.session, became, focus=1)
    assert change == {"window": W, "from": "TF0", "to": "TF", "reason": "become"}
    assert w.first() == "TF" and w.first(W) == "TF"


def test_P21_current_cannot_resign_F2(world):
    w = world(fixture_f(text_field("TF1", (10, 10, 200, 44), canResignFirstResponder=False),
                        text_field("TF2", (10, 100, 200, 44))))
    assert w.become("TF1")["result"] is True
    sub = w.subscribe()
    refused = w.become("TF2")
    assert refused["result"] is False and refused["reason"] == "current-cannot-resign" and refused["resigned"] is None
    (ask,) = steps(refused, "check", check="canResignFirstResponder")
    assert ask["id"] == "TF1" and ask["value"] is False
    assert steps(refused, "firstResponder") == []
    assert_same_trace_on_stream(sub, w.session, refused, focus=0)
    assert w.first() == "TF1"
    # F3: it cannot resign by itself either.
    resign = w.resign("TF1")
    assert resign["result"] is False and resign["reason"] == "cannot-resign" and w.first() == "TF1"


def test_P22_removed_ancestor_resigns_first_responder_by_force_F6(world):
    w = world(fixture_f(view("P", (0, 0, 400, 400), text_field("TF", (10, 10, 200, 44), canResignFirstResponder=False))))
    assert w.become("TF")["result"] is True
    sub = w.subscribe()
    applied = w.apply({"op": "remove", "id": "P"})
    # The tree event, then the treeChange trace, then the focus change; seqRange covers all three.
    assert applied["seqRange"] == [applied["seq"] - 2, applied["seq"]]
    topic, tree_event = sub.next()
    assert topic == f"{w.session}/tree" and tree_event["ops"] == [{"op": "remove", "id": "P"}]
    topic, trace_event = sub.next()
    assert topic == f"{w.session}/trace" and trace_event["trace"]["kind"] == "treeChange"
    (fr,) = [s for s in trace_event["trace"]["steps"] if s["step"] == "firstResponder"]
    assert fr == {"step": "firstResponder", "window": W, "from": "TF", "to": None, "reason": "left-window", "rule": "F6"}
    assert trace_event["trace"]["outcome"]["resigned"] == [{"window": W, "from": "TF"}]
    topic, focus_event = sub.next()
    assert topic == f"{w.session}/focus"
    assert focus_event["change"] == {"window": W, "from": "TF", "to": None, "reason": "left-window"}
    # W has no first responder: nothing is promoted in TF's place.
    assert w.first() is None and w.first(W) is None
    assert w.call("session.snapshot")["firstResponders"] == {W: None}


def test_P23_shake_from_first_responder_view_E1_F7(world):
    w = world(fixture_f(view("CV", (0, 0, 200, 200), canBecomeFirstResponder=True),
                        rvc={"handles": {"motionEnded": "handle"}}))
    assert w.become("CV")["result"] is True
    began = w.call("event.motion", subtype="shake", phase="began")
    assert began["visited"] == ["CV", *ABOVE_R] and began["handledBy"] == []
    sub = w.subscribe()
    ended = w.call("event.motion", subtype="shake", phase="ended")
    assert ended["start"] == "CV" and ended["message"] == "motionEnded"
    assert ended["visited"] == ["CV", R, RVC] and ended["handledBy"] == [RVC]
    assert [(s["to"], s["disposition"], s["rule"]) for s in steps(ended, "deliver")] == \
        [("CV", "not-handled", "E1"), (R, "not-handled", "E1"), (RVC, "handled", "E1")]
    assert_same_trace_on_stream(sub, w.session, ended)


# ------------------------------------------------------------------------------------------ tree changes mid-dispatch

def test_T6_touch_whose_view_is_removed_mid_gesture_is_cancelled(world):
    w = world(fixture_f(view("P", (0, 0, 400, 400), view("V", (100, 100, 50, 50), handles=ALL_TOUCH_PHASES)),
                        rvc={"handles": {"touchesCancelled": "handle"}}))
    began = single_delivery(w.touch(("t", "began", (110, 110))))
    assert began["view"] == "V" and began["handledBy"] == ["V"]
    assert [t["touch"] for t in w.call("session.snapshot")["liveTouches"]] == ["t"]

    sub = w.subscribe()
    applied = w.apply({"op": "remove", "id": "P"})
    assert applied["seqRange"] == [applied["seq"] - 1, applied["seq"]], "the tree event, then the trace"
    topic, tree_event = sub.next()
    assert topic == f"{w.session}/tree" and tree_event["seq"] == applied["seqRange"][0]
    topic, trace_event = sub.next()
    assert topic == f"{w.session}/trace" and trace_event["seq"] == applied["seq"]
    trace = trace_event["trace"]
    assert trace["kind"] == "treeChange"
    (entry,) = trace["outcome"]["touches"]
    assert entry["touch"] == "t" and entry["view"] == "V" and entry["phase"] == "cancelled"
    assert entry["message"] == "touchesCancelled" and entry["reason"] == "view-left-window"
    # The removed view still gets touchesCancelled (it handles it, so the chain stops there).
    assert entry["visited"] == ["V"] and entry["handledBy"] == ["V"]
    delivers = [s for s in trace["steps"] if s["step"] == "deliver"]
    assert [(s["to"], s["message"], s["rule"]) for s in delivers] == [("V", "touchesCancelled", "T6")]
    sub.nothing(0.2)
    # The touch is over: it is no longer live, and a later phase for it is refused.
    assert w.call("session.snapshot")["liveTouches"] == []
    err = w.client.error("event.touch", session=w.session, touches=[{"touch": "t", "phase": "ended", "point": [110, 110]}])
    assert err.name == "TOUCH_NOT_FOUND"


def test_F6_first_responder_removed_from_tree_is_resigned_by_force(world):
    w = world(fixture_f(text_field("TF", (10, 10, 200, 44), canResignFirstResponder=False)))
    assert w.become("TF")["result"] is True
    sub = w.subscribe()
    applied = w.apply({"op": "move", "id": "TF", "parent": None})   # detached: it left its window
    assert applied["seqRange"] == [applied["seq"] - 2, applied["seq"]]
    topics = []
    events = {}
    for _ in range(3):
        topic, event = sub.next()
        topics.append(topic)
        events[topic] = event
    assert topics == [f"{w.session}/tree", f"{w.session}/trace", f"{w.session}/focus"]
    focus = events[f"{w.session}/focus"]
    # F6: it cannot refuse (canResignFirstResponder false), and nothing is promoted in its place.
    assert focus["change"] == {"window": W, "from": "TF", "to": None, "reason": "left-window"}
    assert focus["seq"] == applied["seq"] and focus["revision"] == applied["revision"]
    assert w.first() is None
    # Back in the window it is not first responder again until it becomes one.
    w.apply({"op": "move", "id": "TF", "parent": R})
    assert w.first() is None
    assert w.become("TF")["result"] is True
