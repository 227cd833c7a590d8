"""The worked scenarios Q1… of the Android rules (the same tree under UIKit's and Android's dispatch) as golden
tests of both models: each scenario builds one tree, written under UIKit's fields with an `android` object only
where Android needs something the derivation of Protocol/README.md 8.7 does not give, and runs the same input on
a `uikit` session and on an `android` session. Each test is parametrized by the column (`[uikit]`, `[android]`)
and asserts what the scenario says for that column: under `uikit` through the reply and trace of 12.1 (hit view,
chain, control events, actions, discards), under `android` through the android reply and its trace steps
(intercept, candidate, offer, target, cancel, disallow, press, click, longClick, focus, activity, discard,
mapping), each with its rule id.

Tests assert the deciding facts (who clicked, who got CANCEL, which child was skipped and why, the rule on the
deciding step), not whole traces. Test names give the scenario id and the rule ids of both columns: UIKit's of
docs/rules.md, and Android's two-letter ids (AR, AD, AI, AM, AV, AC, AS, AL, AK, AX: Android's rule families,
from the AOSP sources). Every scenario and variant of android-scenarios.md runs here, under both profiles.

Fixture: fixture F of test_scenarios.py. Under `android` the window W is the DecorView and the root view
controller RVC the Activity; every click listener here targets RVC, which implements every action, so a click
is also an action UIKit performs on RVC (A2). Time is the session clock: timed inputs carry `time`.
"""

from __future__ import annotations

import json

import pytest

from harness import RPCError, check_response, new_session
from test_scenarios import ABOVE_R, ALL_TOUCH_PHASES, R, RVC, W, control, fixture_f, node, text_field, view

UIKIT, ANDROID = "uikit", "android"
BOTH = pytest.mark.parametrize("column", [UIKIT, ANDROID])
ANDROID_ONLY = pytest.mark.parametrize("column", [ANDROID])

# Every action a scenario's listeners call; RVC (the Activity) implements all of them.
ACTIONS = ("save", "left", "right", "back", "dismiss", "open", "underTapped", "behindTapped", "close", "badge", "a", "b", "menu",
           "nameTapped", "go", "changed")



# ------------------------------------------------------------------------------------------ trees

def fa(*r_children, **kw) -> dict:
    """Fixture F (FA under android): R's children back to front; RVC implements every action."""
    kw.setdefault("rvc", {"handles": {a: "handle" for a in ACTIONS}})
    return fixture_f(*r_children, **kw)


def clicker(id: str, frame, action: str, *children, **fields) -> dict:
    """A UIButton whose touchUpInside sends `action` to RVC; under android a Button whose OnClickListener is
    RVC.action (derived)."""
    return control(id, frame, *children, targets=[{"event": "touchUpInside", "action": action, "target": RVC}],
                   **fields)


def scroll_tree(content_child: dict) -> dict:
    """Tree S: R > SV(0,0,400,800)[UIScrollView, content (400,2000); ScrollView] > Content(0,0,400,2000)
    [LinearLayout] > `content_child`."""
    content = view("Content", (0, 0, 400, 2000), content_child, android={"class": "LinearLayout"})
    return fa(view("SV", (0, 0, 400, 800), content, **{"class": "UIScrollView", "contentSize": [400, 2000]}))


def tree_t1() -> dict:
    return fa(view("A", (0, 0, 300, 300),
                   view("B", (0, 0, 100, 100)),
                   view("C", (100, 100, 200, 200), view("D", (0, 0, 50, 50)), view("E", (100, 100, 100, 100)))))


# ------------------------------------------------------------------------------------------ driving

def touch(t, phase: str, point=None, time: float | None = None) -> dict:
    e = {"touch": t, "phase": phase}
    if point is not None:
        e["point"] = list(point)
    if time is not None:
        e["time"] = time
    return e


class World:
    """One session of one column."""

    def __init__(self, engine, client, session: str, column: str):
        self.engine, self.client, self.session, self.column = engine, client, session, column

    @property
    def uikit(self) -> bool:
        return self.column == UIKIT

    def rpc(self, method: str, **params) -> dict:
        resp = self.client.rpc(method, {"session": self.session, **params}, validate=False)
        check_response(method, resp)
        return resp

    def call(self, method: str, **params):
        resp = self.rpc(method, **params)
        if "error" in resp:
            raise RPCError(method, resp)
        return resp["result"]

    def tap(self, x, y, time: float | None = None) -> dict:
        return self.call("event.tap", point=[x, y], **({"time": time} if time is not None else {}))

    def touch(self, *entries: dict) -> dict:
        return self.call("event.touch", touches=list(entries))

    def advance(self, to: float) -> dict:
        return self.call("clock.advance", to=to)

    def apply(self, *ops) -> dict:
        return self.call("tree.apply", ops=list(ops))

    def first(self):
        return self.call("responder.first")

    def bounds_origin(self, id: str):
        return self.call("tree.get", id=id)["tree"].get("boundsOrigin", [0, 0])

    def subscribe(self):
        return self.engine.subscriber(f"{self.session}/")


@pytest.fixture
def world(engine, client, request, column):
    """world(tree) creates a session of the test's column holding `tree` and returns a World."""
    made: list[str] = []

    def make(tree: dict) -> World:
        name = new_session(client, request.node.name.split("_")[1][:10], tree=tree, profile={"name": column})
        made.append(name)
        return World(engine, client, name, column)

    yield make
    for name in made:
        client.rpc("session.delete", {"session": name}, validate=False)


# ------------------------------------------------------------------------------------------ reading replies

def action_of(value) -> str | None:
    """An android action as the handles name it (down, move, up, cancel), whether a step writes `down` or the
    MotionEvent constant `ACTION_DOWN`."""
    if value is None:
        return None
    value = str(value).lower()
    return value[len("action_"):] if value.startswith("action_") else value


def all_steps(*replies: dict) -> list[dict]:
    return [s for r in replies for s in (r.get("trace") or {}).get("steps", [])]


def steps(replies, step: str, **match) -> list[dict]:
    """The steps named `step` of one reply (or a list of replies) whose members equal `match`; `action` is
    compared as action_of gives it."""
    replies = replies if isinstance(replies, list) else [replies]
    out = []
    for s in all_steps(*replies):
        if s["step"] != step:
            continue
        if all((action_of(s.get(k)) == v) if k == "action" else (s.get(k) == v) for k, v in match.items()):
            out.append(s)
    return out


def offers(replies, action: str | None = None) -> list[tuple]:
    """(to, result) of the offer steps, for one action or all."""
    return [(s["to"], s["result"]) for s in steps(replies, "offer", **({"action": action} if action else {}))]


def intercepts(replies, action: str | None = None) -> list[tuple]:
    """(group, result) of the intercept steps, for one action or all."""
    return [(s["group"], s["result"]) for s in steps(replies, "intercept", **({"action": action} if action else {}))]


def candidates(replies) -> list[tuple]:
    return [(s["group"], s["child"], s["result"], s.get("reason")) for s in steps(replies, "candidate")]


def candidate(replies, child: str) -> dict:
    found = steps(replies, "candidate", child=child)
    assert len(found) == 1, f"{child}: {len(found)} candidate steps: {candidates(replies)}"
    return found[0]


def clicked(replies) -> list[tuple]:
    """(view, action, target) of the clicks that called a listener."""
    return [(s["view"], s.get("action"), s.get("target")) for s in steps(replies, "click") if s["performed"]]


def activity_touch_events(replies) -> list[str]:
    """The actions Activity#onTouchEvent was called with (AR4)."""
    return [action_of(s["action"]) for s in steps(replies, "activity", method="onTouchEvent")]


def performed(*replies: dict) -> list[str]:
    """The names of the actions a reply's deliveries performed (clicks under android), wherever a delivery
    lists them (held and released deliveries included); the trace is not read."""
    found: list[str] = []

    def walk(x):
        if isinstance(x, dict):
            for k, v in x.items():
                if k == "trace":
                    continue
                if k == "actions" and isinstance(v, list):
                    found.extend(a["action"] for a in v if isinstance(a, dict) and a.get("performed"))
                else:
                    walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    for r in replies:
        walk(r)
    return found


def action_entries(*replies: dict) -> list[dict]:
    return [a for r in replies for d in r["deliveries"] for a in d["actions"]]


def control_events(reply: dict) -> list[str]:
    return [e for d in reply["deliveries"] for e in d["controlEvents"]]


def ui_delivered_to(reply: dict, id: str) -> list[str]:
    """The touch messages UIKit delivered to `id`."""
    return [s["message"] for s in steps(reply, "deliver", to=id)]


def dump(replies) -> str:
    replies = replies if isinstance(replies, list) else [replies]
    return json.dumps([all_steps(r) for r in replies])[:6000]


def assert_click(replies, view: str, action: str, rules=("AC7", "AC10", "AX1")):
    """`view` clicked and called RVC.action (a click step with its rule, and the reply's action entry)."""
    replies = replies if isinstance(replies, list) else [replies]
    found = [s for s in steps(replies, "click", view=view) if s["performed"]]
    assert found, f"{view} did not click: {dump(replies)}"
    (click,) = found
    assert (click["listener"], click.get("action"), click.get("target")) == ("click", action, RVC), click
    assert click["rule"] in rules, click
    entries = [a for r in replies for a in action_entries(r)]
    assert {"action": action, "target": RVC} in [{"action": a["action"], "target": a["target"]} for a in entries], \
        f"the click's listener call is listed in the reply's actions: {entries}"


def assert_no_click(replies):
    replies = replies if isinstance(replies, list) else [replies]
    assert clicked(replies) == [], f"nothing clicks: {clicked(replies)}"
    assert performed(*replies) == [], f"no listener is called: {performed(*replies)}"


def assert_unhandled(replies, action: str):
    """Nothing consumed the event: Activity#onTouchEvent got it (AR4) and answered false (AR5), and it was
    discarded (AR7)."""
    replies = replies if isinstance(replies, list) else [replies]
    assert action in activity_touch_events(replies), f"Activity#onTouchEvent never got the {action}: {dump(replies)}"
    (a,) = [s for s in steps(replies, "activity", method="onTouchEvent", action=action)]
    assert a["result"] is False and a["rule"] in ("AR4", "AR5"), a
    assert [(s["reason"], s["rule"]) for s in steps(replies, "discard", action=action)] == [("unhandled", "AR7")]


def assert_cancelled(reply: dict, view: str, cause: str, via: tuple = ()):
    """`view` got CANCEL for `cause` (AI4 for an intercept, AL1 for a removal): named by a cancel step, or by one
    on a group between the intercepting group and `view` (`via`) followed by the CANCEL's offer to `view`."""
    rule = {"intercept": "AI4", "removal": "AL1", "new-down": "AD2"}[cause]
    cancels = steps(reply, "cancel")
    assert cancels, f"no cancel step: {dump(reply)}"
    assert all((c["cause"], c["rule"]) == (cause, rule) for c in cancels), cancels
    assert {c["to"] for c in cancels} <= {view, *via}, cancels
    assert view in {c["to"] for c in cancels} or steps(reply, "offer", to=view, action="cancel"), \
        f"{view} never gets CANCEL: {dump(reply)}"


# ------------------------------------------------------------------------------------------ finding the target

@BOTH
def test_Q1_nobody_handles_backtracks_to_activity_AD4_AD8_AD10_AR4_H2_T2_N3(world, column):
    w = world(tree_t1())
    reply = w.tap(250, 250)
    down, up = reply["deliveries"]
    if w.uikit:
        assert [s["id"] for s in steps(reply, "hitTest", touch=down["touch"])] == [W, R, "A", "C", "E"]
        assert down["view"] == "E"
        for d in (down, up):
            assert d["visited"] == ["E", "C", "A", *ABOVE_R] and d["handledBy"] == []
        assert [(s["message"], s["reason"], s["rule"]) for s in steps(reply, "discard")] == \
            [("touchesBegan", "end-of-chain", "N3"), ("touchesEnded", "end-of-chain", "N3")]
        return
    # DOWN: every group on the way is asked onInterceptTouchEvent and answers false (AI1, AI2).
    assert intercepts(reply, "down") == [(W, False), (R, False), ("A", False), ("C", False)]
    assert {s["rule"] for s in steps(reply, "intercept")} <= {"AI1", "AI2"}
    e = candidate(reply, "E")
    assert (e["group"], e["result"], e.get("point")) == ("C", "offered", [50, 50])
    d = candidate(reply, "D")
    assert (d["result"], d["reason"], d["rule"], d.get("point")) == ("skipped", "outside-bounds", "AD5", [150, 150])
    b = candidate(reply, "B")
    assert (b["group"], b["result"], b["reason"], b["rule"]) == ("A", "skipped", "outside-bounds", "AD5")
    # Depth first, then back up: E refuses, C's own onTouchEvent, A, R, the DecorView (AD6–AD8).
    assert offers(reply, "down") == [("E", False), ("C", False), ("A", False), (R, False), (W, False)]
    assert down["view"] is None and down["handledBy"] == [] and down["message"] == "ACTION_DOWN"
    assert (down["reason"], down["rule"]) == ("unhandled", "AR7")
    assert "B" not in down["visited"] and "D" not in down["visited"]
    assert down["visited"].index("E") < down["visited"].index("C")
    assert_unhandled(reply, "down")
    # The Activity's dispatchTouchEvent sees each event (AR6, AR4).
    dispatched = steps(reply, "activity", method="dispatchTouchEvent")
    assert [action_of(s["action"]) for s in dispatched] == ["down", "up"]
    assert all(s["rule"] in ("AR6", "AR4") and s["id"] == RVC for s in dispatched), dispatched
    # UP: the DecorView has no target, so it takes the UP itself without asking onInterceptTouchEvent (AD10).
    assert intercepts(reply, "up") == []
    assert offers(reply, "up") == [(W, False)]
    assert_unhandled(reply, "up")
    assert up["view"] is None and (up["reason"], up["rule"]) == ("unhandled", "AR7")


def tree_q2() -> dict:
    return fa(clicker("Back", (0, 0, 200, 200), "back"), view("Front", (0, 0, 200, 200)))


@BOTH
def test_Q2_refusing_front_view_passes_down_to_sibling_behind_AD6_AC4_AC7_H2_T2(world, column):
    w = world(tree_q2())
    reply = w.tap(50, 50)
    down, up = reply["deliveries"]
    if w.uikit:
        assert down["view"] == "Front"
        assert down["visited"] == ["Front", *ABOVE_R] and up["visited"] == ["Front", *ABOVE_R]
        assert performed(reply) == [] and ui_delivered_to(reply, "Back") == []
        return
    assert [c[:3] for c in candidates(reply) if c[0] == R] == [(R, "Front", "offered"), (R, "Back", "offered")]
    assert offers(reply, "down")[:2] == [("Front", False), ("Back", True)]
    (target,) = steps(reply, "target", group=R, change="added")
    assert (target["child"], target["rule"]) == ("Back", "AD6")
    assert down["view"] == "Back" and down["handledBy"] == ["Back"]
    assert up["view"] == "Back" and offers(reply, "up") == [("Back", True)], "the UP goes to the target only"
    assert_click(reply, "Back", "back")
    assert activity_touch_events(reply) == []


def tree_q2_clickable_front() -> dict:
    return fa(clicker("Back", (0, 0, 200, 200), "back"), view("Front", (0, 0, 200, 200), android={"clickable": True}))


@ANDROID_ONLY
def test_Q2_a_clickable_front_view_takes_the_tap_AC4_AD6(world, column):
    reply = world(tree_q2_clickable_front()).tap(50, 50)
    assert reply["deliveries"][0]["view"] == "Front" and offers(reply, "down")[0] == ("Front", True)
    assert "Back" not in [to for to, _ in offers(reply)] and performed(reply) == []
    (click,) = steps(reply, "click", view="Front")
    assert (click["listener"], click["performed"]) == ("none", False), "clickable without a listener: AX1"


def tree_q3(veil_clicks: bool = True) -> dict:
    veil = clicker("Veil", (0, 0, 400, 800), "dismiss", alpha=0) if veil_clicks else \
        view("Veil", (0, 0, 400, 800), alpha=0)
    return fa(clicker("Btn", (0, 0, 200, 100), "save"), veil)


@BOTH
def test_Q3_alpha_zero_veil_takes_tap_AD5_AC7_H2_T3(world, column):
    w = world(tree_q3())
    reply = w.tap(50, 50)
    down, _ = reply["deliveries"]
    if w.uikit:
        (veil,) = steps(reply, "hitTest", id="Veil")
        assert veil["result"] != "hit" and veil["rule"] == "H2"
        assert down["view"] == "Btn" and control_events(reply)[:2] == ["touchDown", "touchUpInside"]
        assert performed(reply) == ["save"]
        return
    veil = candidate(reply, "Veil")
    assert (veil["result"], veil["rule"]) == ("offered", "AD5"), "alpha is not tested"
    assert down["view"] == "Veil"
    assert_click(reply, "Veil", "dismiss")
    assert performed(reply) == ["dismiss"]
    assert steps(reply, "candidate", child="Btn") == [] and offers(reply).count(("Btn", True)) == 0, "Btn sees nothing"
    assert [s for s in steps(reply, "mapping") if s.get("field") == "alpha"] == [], "alpha is no mapping note"


@BOTH
def test_Q3b_veil_without_click_refuses_and_button_behind_clicks_AD6_AC4_H2_T3(world, column):
    w = world(tree_q3(veil_clicks=False))
    reply = w.tap(50, 50)
    if w.uikit:
        assert reply["deliveries"][0]["view"] == "Btn" and performed(reply) == ["save"]
        return
    assert offers(reply, "down")[:2] == [("Veil", False), ("Btn", True)]
    (target,) = steps(reply, "target", group=R, change="added")
    assert (target["child"], target["rule"]) == ("Btn", "AD6")
    assert_click(reply, "Btn", "save")


def tree_q4(p_android: dict) -> dict:
    return fa(view("P", (0, 0, 300, 300), clicker("Btn", (10, 10, 100, 50), "save"),
                   userInteractionEnabled=False, android=p_android))


@BOTH
def test_Q4_parent_off_blocks_only_in_uikit_AD5_AC2_H2(world, column):
    w = world(tree_q4({"enabled": False, "clickable": False}))
    reply = w.tap(20, 20)
    down, up = reply["deliveries"]
    if w.uikit:
        (p,) = steps(reply, "hitTest", id="P")
        assert p["result"] != "hit" and p["rule"] == "H2"
        assert down["view"] == R and down["visited"] == ABOVE_R and up["visited"] == ABOVE_R
        assert performed(reply) == []
        return
    assert ("P", False) in intercepts(reply, "down")
    assert candidate(reply, "Btn")["result"] == "offered"
    assert down["view"] == "Btn"
    assert_click(reply, "Btn", "save")
    notes = [s["field"] for s in steps(reply, "mapping") if s["id"] == "P"]
    assert notes and set(notes) == {"userInteractionEnabled"}, "ignored with a note, never silently"


@BOTH
def test_Q4b_disabled_clickable_parent_swallows_the_gesture_AC2_H2(world, column):
    w = world(tree_q4({"enabled": False, "clickable": True}))
    reply = w.tap(200, 200)
    down, up = reply["deliveries"]
    if w.uikit:
        assert down["view"] == R and down["visited"] == ABOVE_R and performed(reply) == []
        return
    btn = candidate(reply, "Btn")
    assert (btn["result"], btn["reason"]) == ("skipped", "outside-bounds"), "no child of P under the point"
    (p_down,) = steps(reply, "offer", to="P", action="down")
    assert (p_down["result"], p_down["rule"]) == (True, "AC2")
    assert down["view"] == "P" and up["view"] == "P" and ("P", True) in offers(reply, "up")
    assert_no_click(reply)
    assert activity_touch_events(reply) == [], "Activity#onTouchEvent sees nothing"


@BOTH
def test_Q4c_parent_intercepting_every_down_hides_its_children_AI3_AD6_AR4_H2(world, column):
    w = world(tree_q4({"handles": {"onInterceptTouchEvent": "down"}}))
    reply = w.tap(20, 20)
    down, _ = reply["deliveries"]
    if w.uikit:
        assert down["view"] == R and performed(reply) == []
        return
    (p,) = steps(reply, "intercept", group="P", action="down")
    assert p["result"] is True and p["rule"] in ("AI3", "AI1")
    assert steps(reply, "candidate", child="Btn") == [] and "Btn" not in [to for to, _ in offers(reply)]
    assert offers(reply, "down") == [("P", False), (R, False), (W, False)]
    assert_unhandled(reply, "down")
    assert_no_click(reply)


def tree_q5(title: dict | None = None) -> dict:
    title_fields = {"class": "UILabel", **(title or {})}
    card = clicker("Card", (20, 20, 360, 80), "open",
                   view("Title", (10, 10, 200, 30), **title_fields),
                   view("Icon", (300, 20, 40, 40), **{"class": "UIImageView"}),
                   **{"class": "UIControl"}, android={"class": "LinearLayout"})
    return fa(card)


@BOTH
def test_Q5_group_clicks_after_its_children_refuse_AI1_AD6_AD7_AC4_AC7_K1_H2_T3(world, column):
    w = world(tree_q5())
    reply = w.tap(40, 40)
    down, _ = reply["deliveries"]
    if w.uikit:
        title = steps(reply, "hitTest", id="Title")
        assert title and title[0]["result"] != "hit" and title[0]["rule"] == "K1"
        assert down["view"] == "Card" and control_events(reply)[:2] == ["touchDown", "touchUpInside"]
        assert performed(reply) == ["open"]
        return
    assert ("Card", False) in intercepts(reply, "down")
    icon = candidate(reply, "Icon")
    assert (icon["result"], icon["reason"], icon["rule"]) == ("skipped", "outside-bounds", "AD5")
    assert "Title" not in [s["group"] for s in steps(reply, "intercept")], "a leaf View has no onInterceptTouchEvent"
    assert offers(reply, "down")[:2] == [("Title", False), ("Card", True)]
    assert down["view"] == "Card"
    assert_click(reply, "Card", "open")


@BOTH
def test_Q5b_clickable_title_takes_the_click_from_card_AD6_AC4_T2_T3(world, column):
    w = world(tree_q5({"userInteractionEnabled": True, "android": {"clickable": True}}))
    reply = w.tap(40, 40)
    down, _ = reply["deliveries"]
    if w.uikit:
        assert down["view"] == "Title" and down["visited"] == ["Title", "Card"] and down["handledBy"] == ["Card"]
        assert performed(reply) == ["open"], "the control on the chain takes the touch over"
        return
    assert offers(reply, "down")[0] == ("Title", True)
    assert down["view"] == "Title" and "Card" not in [to for to, _ in offers(reply)]
    assert "open" not in performed(reply)
    (click,) = steps(reply, "click", view="Title")
    assert (click["listener"], click["performed"]) == ("none", False)


def tree_q6(btn_android: dict | None = None) -> dict:
    extra = {"android": btn_android} if btn_android else {}
    return fa(clicker("Under", (0, 0, 400, 400), "underTapped"),
              clicker("Btn", (50, 50, 100, 50), "save", enabled=False, **extra))


@BOTH
def test_Q6_disabled_button_swallows_the_tap_AD5_AC2_H7(world, column):
    w = world(tree_q6())
    reply = w.tap(60, 60)
    down, up = reply["deliveries"]
    if w.uikit:
        btn = steps(reply, "hitTest", id="Btn")
        assert btn and btn[0]["result"] != "hit" and btn[0]["rule"] == "H7"
        assert down["view"] == "Under" and performed(reply) == ["underTapped"]
        return
    assert candidate(reply, "Btn")["result"] == "offered", "enabled is not tested (AD5)"
    for action, d in (("down", down), ("up", up)):
        (o,) = steps(reply, "offer", to="Btn", action=action)
        assert (o["result"], o["rule"]) == (True, "AC2")
        assert d["view"] == "Btn"
    assert_no_click(reply)
    assert "Under" not in [to for to, _ in offers(reply)]
    assert activity_touch_events(reply) == []


@BOTH
def test_Q6b_allow_click_when_disabled_clicks_although_disabled_AC2_H7(world, column):
    w = world(tree_q6({"allowClickWhenDisabled": True}))
    reply = w.tap(60, 60)
    down, up = reply["deliveries"]
    if w.uikit:
        # The android object is ignored: the disabled control is not hit (H7), Under is.
        assert down["view"] == "Under" and performed(reply) == ["underTapped"]
        return
    # AC2 (API 31+): disabled, Btn still takes the clickable path: pressed at the DOWN, clicked at the UP.
    for action, d in (("down", down), ("up", up)):
        (o,) = steps(reply, "offer", to="Btn", action=action)
        assert (o["result"], o["rule"]) == (True, "AC2")
        assert d["view"] == "Btn"
    assert ("Btn", "pressed") in [(s["view"], s["state"]) for s in steps(reply, "press")]
    assert_click(reply, "Btn", "save")
    assert "Under" not in [to for to, _ in offers(reply)]


@BOTH
def test_Q6c_disabled_view_that_is_not_clickable_lets_the_tap_through_AC2_AD6_H7(world, column):
    w = world(tree_q6({"class": "TextView", "clickable": False}))
    reply = w.tap(60, 60)
    if w.uikit:
        assert reply["deliveries"][0]["view"] == "Under" and performed(reply) == ["underTapped"]
        return
    (o,) = steps(reply, "offer", to="Btn", action="down")
    assert o["result"] is False
    assert offers(reply, "down")[:2] == [("Btn", False), ("Under", True)]
    assert_click(reply, "Under", "underTapped")


# ------------------------------------------------------------------------------------------ Q11: intercepting parent

def tree_q11(shield_consumes: bool) -> dict:
    handles = {"onInterceptTouchEvent": "always", **({"onTouchEvent": "consume"} if shield_consumes else {})}
    return fa(clicker("Behind", (0, 0, 400, 800), "behindTapped"),
              view("Shield", (0, 0, 400, 800), clicker("Btn", (100, 100, 200, 100), "save"),
                   userInteractionEnabled=False, android={"handles": handles}))


@ANDROID_ONLY
def test_Q11_shield_intercepting_and_consuming_keeps_the_gesture_AI3_AD10(world, column):
    reply = world(tree_q11(shield_consumes=True)).tap(150, 150)
    down, up = reply["deliveries"]
    (i,) = steps(reply, "intercept", group="Shield", action="down")
    assert i["result"] is True and i["rule"] in ("AI3", "AI1")
    assert down["view"] == "Shield" and up["view"] == "Shield"
    assert offers(reply, "down") == [("Shield", True)]
    assert intercepts(reply, "up") == [(W, False), (R, False)], "AD10: Shield is not asked for its own gesture"
    assert offers(reply, "up") == [("Shield", True)]
    assert "Btn" not in [to for to, _ in offers(reply)] and "Behind" not in [to for to, _ in offers(reply)]
    assert_no_click(reply)


@BOTH
def test_Q11b_shield_intercepting_and_refusing_lets_behind_click_AI3_AD6_H2(world, column):
    w = world(tree_q11(shield_consumes=False))
    reply = w.tap(150, 150)
    down, _ = reply["deliveries"]
    if w.uikit:
        (shield,) = steps(reply, "hitTest", id="Shield")
        assert shield["result"] != "hit" and shield["rule"] == "H2"
        assert down["view"] == "Behind" and performed(reply) == ["behindTapped"]
        return
    assert steps(reply, "intercept", group="Shield", action="down")[0]["result"] is True
    assert offers(reply, "down")[:2] == [("Shield", False), ("Behind", True)]
    assert steps(reply, "candidate", child="Btn") == []
    assert_click(reply, "Behind", "behindTapped")


# ------------------------------------------------------------------------------------------ Q12, Q13: later events

def q12(w: World, to) -> list[dict]:
    if to is None:
        inputs = [touch("t", "began", (150, 150), 0), touch("t", "moved", (150, 290), 0.1),
                  touch("t", "moved", (150, 150), 0.2), touch("t", "ended", (150, 150), 0.3)]
    else:
        inputs = [touch("t", "began", (150, 150), 0), touch("t", "moved", to, 0.1), touch("t", "ended", to, 0.2)]
    return [w.touch(i) for i in inputs]


@BOTH
def test_Q12_leaving_the_button_loses_the_click_for_good_AD9_AC5_AC6_AC7_T1_T3(world, column):
    w = world(fa(clicker("Btn", (100, 100, 200, 100), "save")))
    replies = q12(w, None)
    if w.uikit:
        assert [control_events(r) for r in replies] == [
            ["touchDown"], ["touchDragExit", "touchDragOutside"], ["touchDragEnter", "touchDragInside"],
            ["touchUpInside", "primaryActionTriggered"]]
        assert all(r["deliveries"][0]["view"] == "Btn" for r in replies)
        assert performed(*replies) == ["save"]
        return
    down, out, back, up = replies
    assert [s["state"] for s in steps(down, "press", view="Btn")] == ["pressed"], "no scrolling container: AC5"
    assert steps(down, "press", view="Btn")[0]["rule"] == "AC5"
    assert [(s["state"], s["rule"]) for s in steps(out, "press", view="Btn")] == [("unpressed", "AC6")]
    assert steps(back, "press") == [], "coming back does not press it again"
    for r, action in ((out, "move"), (back, "move"), (up, "up")):
        assert offers(r, action) == [("Btn", True)], f"the target gets every event (AD9): {dump(r)}"
    assert_no_click(replies)


@BOTH
@pytest.mark.parametrize("to,android_clicks", [((150, 205), True), ((150, 240), False)], ids=["Q12b", "Q12c"])
def test_Q12bc_within_the_slop_clicks_beyond_it_only_uikit_clicks_AC6_AC7_T3(world, column, to, android_clicks):
    w = world(fa(clicker("Btn", (100, 100, 200, 100), "save")))
    replies = q12(w, to)
    if w.uikit:
        assert performed(*replies) == ["save"], "both are within controlSlop 70"
        return
    if android_clicks:
        assert steps(replies, "press", state="unpressed", rule="AC6") == []
        assert_click(replies, "Btn", "save")
    else:
        assert [s["rule"] for s in steps(replies[1], "press", view="Btn", state="unpressed")] == ["AC6"]
        assert_no_click(replies)


@BOTH
def test_Q13_target_declining_later_events_sends_them_to_the_activity_AD9_AD11_AR4_T2_N3(world, column):
    w = world(fa(view("V", (100, 100, 100, 100), handles={"touchesBegan": "handle"})))
    down = w.touch(touch("t", "began", (150, 150)))
    later = [w.touch(touch("t", "moved", (160, 160))), w.touch(touch("t", "ended", (160, 160)))]
    if w.uikit:
        assert down["deliveries"][0]["visited"] == ["V"] and down["deliveries"][0]["handledBy"] == ["V"]
        for r in later:
            d = r["deliveries"][0]
            assert d["visited"] == ["V", *ABOVE_R] and d["handledBy"] == []
        return
    assert offers(down, "down")[0] == ("V", True), "handles.onTouchEvent derived from touchesBegan"
    for r, action in zip(later, ("move", "up")):
        assert offers(r, action) == [("V", False)], "R and the DecorView have a target: no own onTouchEvent (AD11)"
        assert_unhandled(r, action)
        assert r["deliveries"][0]["handledBy"] == []


# ------------------------------------------------------------------------------------------ Q7–Q10: scroll views

def q7_inputs():
    return [touch("t", "began", (200, 150), 0), touch("t", "moved", (200, 146), 0.016),
            touch("t", "moved", (200, 130), 0.032), touch("t", "moved", (200, 100), 0.048),
            touch("t", "ended", (200, 100), 0.064)]


@BOTH
def test_Q7_quick_drag_on_a_button_scroll_view_steals_it_AS1_AI4_AI5_AC5_AC8_AD10_K8_G8(world, column):
    w = world(scroll_tree(clicker("Btn", (0, 100, 400, 100), "save")))
    replies = [w.touch(i) for i in q7_inputs()]
    down, small, cross, scroll, up = replies
    if w.uikit:
        assert (down["deliveries"][0]["reason"], down["deliveries"][0]["heldBy"]) == ("held", ["SV.pan"])
        assert ("SV.pan", "began") in [(g["recognizer"], g["to"]) for g in steps(cross, "gesture")]
        assert [(s["message"], s["reason"]) for s in steps(cross, "discard")][0] == ("touchesBegan", "taken-by-gesture")
        assert ui_delivered_to(cross, "Btn") == [] and all(ui_delivered_to(r, "Btn") == [] for r in replies)
        assert [(s["to"], s["rule"]) for s in steps(cross, "change", id="SV")] == [([0, 20], "K8")]
        assert [s["to"] for s in steps(scroll, "change", id="SV")] == [[0, 50]]
        assert performed(*replies) == []
        return
    assert intercepts(down, "down")[:3] == [(W, False), (R, False), ("SV", False)]
    assert down["deliveries"][0]["view"] == "Btn"
    assert [(s["state"], s["rule"]) for s in steps(down, "press", view="Btn")] == [("prepressed", "AC5")]
    (i,) = steps(small, "intercept", group="SV", action="move")
    assert i["result"] is False, "dy 4 ≤ slop 8"
    assert ("Btn", True) in offers(small, "move")
    (i,) = steps(cross, "intercept", group="SV", action="move")
    assert (i["result"], i["rule"]) == (True, "AS1")
    (d,) = steps(cross, "disallow", **{"from": "SV"})
    assert d["groups"] == [R, W] and d["rule"] in ("AS1", "AI5")
    assert_cancelled(cross, "Btn", "intercept", via=("Content",))
    assert "SV" not in [to for to, _ in offers(cross)], "the group's onTouchEvent does not get the intercepted event"
    assert ("SV", "Content") in [(s["group"], s["child"]) for s in steps(cross, "target", change="removed")]
    # From the next event on the scroll view handles the gesture itself, without onInterceptTouchEvent (AD10).
    assert "SV" not in [g for g, _ in intercepts(scroll)] and offers(scroll, "move") == [("SV", True)]
    assert offers(up, "up") == [("SV", True)]
    assert steps(replies, "press", view="Btn", state="pressed") == [], "Btn never showed pressed"
    assert_no_click(replies)
    assert activity_touch_events(replies) == [], "the Activity sees nothing"
    assert [s for s in steps(replies, "mapping") if s["id"] == "SV"] == [], "a scroll view's own pan is no mapping note"


@ANDROID_ONLY
@pytest.mark.parametrize("scenario", ["Q7", "Q10"])
def test_Q7_Q10_the_activity_sees_every_event_the_intercepted_one_too_AR6_AI4(world, column, scenario):
    tree, inputs = (scroll_tree(clicker("Btn", (0, 100, 400, 100), "save")), q7_inputs()) if scenario == "Q7" else \
        (tree_q10(), q10_inputs())
    w = world(tree)
    for entry in inputs:
        reply = w.touch(entry)
        action = {"began": "down", "moved": "move", "ended": "up"}[entry["phase"]]
        dispatched = steps(reply, "activity", method="dispatchTouchEvent")
        assert [(action_of(s["action"]), s["id"]) for s in dispatched] == [(action, RVC)], \
            f"Activity#dispatchTouchEvent at {entry}: {dump(reply)}"
        assert dispatched[0]["rule"] in ("AR6", "AR4")


@ANDROID_ONLY
def test_Q7_scroll_view_scrolls_only_past_the_crossing_AS2(world, column):
    w = world(scroll_tree(clicker("Btn", (0, 100, 400, 100), "save")))
    inputs = q7_inputs()
    for i in inputs[:3]:
        w.touch(i)
    assert w.bounds_origin("SV") == [0, 0], "the 20 points up to the crossing are not scrolled"
    w.touch(inputs[3])
    assert w.bounds_origin("SV") == [0, 30]


@BOTH
def test_Q8_press_hold_then_drag_uikit_control_keeps_android_scroll_steals_AS1_AI4_AC5_AC8_AC9_K8(world, column):
    w = world(scroll_tree(clicker("Btn", (0, 100, 400, 100), "save")))
    down = w.touch(touch("t", "began", (200, 150), 0))
    hold = w.touch(touch("t", "moved", (200, 148), 0.2))
    drag = w.touch(touch("t", "moved", (200, 130), 0.3))
    up = w.touch(touch("t", "ended", (200, 130), 0.35))
    replies = [down, hold, drag, up]
    if w.uikit:
        (released,) = hold["deliveries"][0]["gestureDeliveries"]
        assert (released["reason"], released["rule"], released["controlEvents"]) == ("released", "K8", ["touchDown"])
        (g,) = [g for g in steps(drag, "gesture") if g["recognizer"] == "SV.pan"]
        assert (g["to"], g["reason"], g["rule"], g["by"]) == ("failed", "control-keeps-touch", "K8", "Btn")
        assert "touchDragInside" in control_events(drag)
        assert control_events(up)[0] == "touchUpInside" and performed(up) == ["save"]
        return
    assert [s["state"] for s in steps(down, "press", view="Btn")] == ["prepressed"]
    # The tap check at @0.1 fires before the MOVE @0.2 is carried out.
    hold_steps = all_steps(hold)
    pressed = [k for k, s in enumerate(hold_steps) if s["step"] == "press" and s["state"] == "pressed"]
    first_offer = min(k for k, s in enumerate(hold_steps) if s["step"] == "offer")
    assert pressed and pressed[0] < first_offer and hold_steps[pressed[0]]["rule"] == "AC5", dump(hold)
    assert steps(replies, "longClick") == [], "Btn is not long-clickable (AC9)"
    assert ("Btn", True) in offers(hold, "move")
    (i,) = steps(drag, "intercept", group="SV", action="move")
    assert (i["result"], i["rule"]) == (True, "AS1"), "the intercept does not look at the child"
    assert_cancelled(drag, "Btn", "intercept", via=("Content",))
    assert [(s["state"], s["rule"]) for s in steps(drag, "press", view="Btn")] == [("unpressed", "AC8")]
    assert offers(up, "up") == [("SV", True)]
    assert_no_click(replies)


def tree_q9() -> dict:
    seek = control("Seek", (20, 100, 360, 40), targets=[{"event": "valueChanged", "action": "changed", "target": RVC}],
                   **{"class": "UISlider", "value": 0.5})
    return scroll_tree(seek)


def ui_values(*replies) -> list:
    return [s["to"] for s in steps(list(replies), "change", id="Seek", field="value")]


@BOTH
def test_Q9A_slider_claims_a_horizontal_drag_by_disallowing_interception_AS7_AI5_AI6_K8_K4_K19(world, column):
    w = world(tree_q9())
    down = w.touch(touch("t", "began", (200, 120), 0))
    claim = w.touch(touch("t", "moved", (212, 121), 0.2))
    later = w.touch(touch("t", "moved", (260, 150), 0.3))
    up = w.touch(touch("t", "ended", (260, 150), 0.4))
    if w.uikit:
        assert down["deliveries"][0]["reason"] == "held"
        assert ("SV.pan", "began") not in [(g["recognizer"], g["to"]) for g in steps([claim, later], "gesture")]
        assert control_events(claim)[-1] == "valueChanged" and control_events(later)[-1] == "valueChanged"
        assert len(ui_values(claim, later)) == 2 and all(s["rule"] == "K4" for s in steps([claim, later], "change"))
        return
    assert down["deliveries"][0]["view"] == "Seek" and ("Seek", True) in offers(down, "down")
    assert steps(down, "disallow") == [], "inside a scrolling container SeekBar waits for the slop (AS7)"
    (i,) = steps(claim, "intercept", group="SV", action="move")
    assert i["result"] is False, "dy 1"
    (d,) = steps(claim, "disallow", **{"from": "Seek"})
    assert d["groups"] == ["Content", "SV", R, W] and d["rule"] in ("AS7", "AI5")
    (i,) = steps(later, "intercept", group="SV", action="move")
    assert (i["result"], i.get("reason"), i["rule"]) == (False, "disallowed", "AI5"), "dy 30, but not called"
    assert ("Seek", True) in offers(later, "move") and steps(later, "cancel") == []
    assert ("Seek", True) in offers(up, "up")
    assert steps([claim, later, up], "cancel") == []
    # AI6: the flag lasts for the gesture only; the next gesture's vertical drag is intercepted again.
    w.touch(touch("u", "began", (200, 120), 1))
    again = w.touch(touch("u", "moved", (200, 140), 1.05))
    (i,) = steps(again, "intercept", group="SV", action="move")
    assert i["result"] is True and i.get("reason") is None


@BOTH
def test_Q9B_vertical_first_the_scroll_view_takes_it_AS1_AI4_AI7_G10(world, column):
    w = world(tree_q9())
    w.touch(touch("t", "began", (200, 120), 0))
    move = w.touch(touch("t", "moved", (201, 140), 0.05))
    if w.uikit:
        # The scenario's UIKit column has the pan begin; uikit-semantics.md G10 keeps a slider's thumb drag from
        # an ancestor's recognizer, so the pan fails and the slider tracks (the engine's amended rule).
        (g,) = [g for g in steps(move, "gesture") if g["recognizer"] == "SV.pan"]
        assert (g["to"], g["rule"], g["reason"]) == ("failed", "G10", "control-default-action")
        return
    (i,) = steps(move, "intercept", group="SV", action="move")
    assert (i["result"], i["rule"]) == (True, "AS1")
    assert_cancelled(move, "Seek", "intercept", via=("Content",))
    assert steps(move, "disallow", **{"from": "Seek"}) == [], "the intercept ran before Seek saw the MOVE (AI7)"


@BOTH
def test_Q9C_quick_horizontal_drag_slider_claims_only_on_android_AS7_AI7_K19(world, column):
    w = world(tree_q9())
    w.touch(touch("t", "began", (200, 120), 0))
    move = w.touch(touch("t", "moved", (215, 121), 0.03))
    if w.uikit:
        # The scenario's UIKit column has the pan begin; K19 (amended) begins a scroll view's pan only along an
        # axis it can scroll, so a horizontal move leaves it possible and the slider's touch still held.
        assert [(s["axes"], s["rule"]) for s in steps(move, "scrollAxis")] == [(["horizontal"], "K19")]
        assert ("SV.pan", "began") not in [(g["recognizer"], g["to"]) for g in steps(move, "gesture")]
        assert move["deliveries"][0]["reason"] == "held" and ui_delivered_to(move, "Seek") == []
        return
    (i,) = steps(move, "intercept", group="SV", action="move")
    assert i["result"] is False
    (d,) = steps(move, "disallow", **{"from": "Seek"})
    assert d["groups"] == ["Content", "SV", R, W]
    assert ("Seek", True) in offers(move, "move") and steps(move, "cancel") == []


@BOTH
def test_Q9D_tap_away_from_the_thumb_AS7_K4(world, column):
    w = world(tree_q9())
    reply = w.tap(40, 120, time=0)
    if w.uikit:
        assert ui_values(reply) == [] and "valueChanged" not in control_events(reply)
        return
    assert offers(reply, "down")[0] == ("Seek", True), "a DOWN anywhere on the bar"
    assert ("Seek", True) in offers(reply, "up")
    assert activity_touch_events(reply) == []


@ANDROID_ONLY
def test_Q9_the_seekbar_value_follows_the_touch_AS7(world, column):
    # D: an UP without a drag seeks to the tapped position, 20 of the bar's 360 points.
    tapped = world(tree_q9())
    tapped.tap(40, 120, time=0)
    assert tapped.call("tree.get", id="Seek")["tree"]["value"] == pytest.approx(20 / 360, abs=0.01)
    # A: once dragging, the value follows the finger's x: 240 of 360 at the last MOVE.
    dragged = world(tree_q9())
    for entry in (touch("t", "began", (200, 120), 0), touch("t", "moved", (212, 121), 0.2),
                  touch("t", "moved", (260, 150), 0.3), touch("t", "ended", (260, 150), 0.4)):
        dragged.touch(entry)
    assert dragged.call("tree.get", id="Seek")["tree"]["value"] == pytest.approx(240 / 360, abs=0.01)


def tree_q10(nested: bool = False) -> dict:
    sc = {"class": "UIScrollView"}
    inner = view("Inner", (0, 100, 400, 300), view("IC", (0, 0, 400, 1000), view("Text", (0, 0, 400, 1000))),
                 contentSize=[400, 1000], **sc, **({"android": {"nestedScrollingEnabled": True}} if nested else {}))
    return fa(view("Outer", (0, 0, 400, 800), view("OC", (0, 0, 400, 2000), inner), contentSize=[400, 2000], **sc))


def q10_inputs():
    return [touch("t", "began", (200, 300), 0), touch("t", "moved", (200, 288), 0.016),
            touch("t", "moved", (200, 270), 0.032), touch("t", "ended", (200, 270), 0.05)]


@BOTH
def test_Q10_nested_scroll_views_outer_takes_the_drag_AS2_AS6_AI4_AI7_G1_G4_K8(world, column):
    w = world(tree_q10())
    down, first, second, up = [w.touch(i) for i in q10_inputs()]
    if w.uikit:
        assert down["deliveries"][0]["heldBy"] == ["Inner.pan", "Outer.pan"]
        moves = [(g["recognizer"], g["to"], g["rule"]) for g in steps(first, "gesture")]
        assert moves[:2] == [("Inner.pan", "began", "G2"), ("Outer.pan", "failed", "G4")]
        assert [s["to"] for s in steps([first, second], "change", id="Inner")] == [[0, 12], [0, 30]]
        assert steps([first, second], "change", id="Outer") == []
        return
    assert offers(down, "down")[:3] == [("Text", False), ("IC", False), ("Inner", True)]
    (o,) = steps(down, "offer", to="Inner", action="down")
    assert o["rule"] in ("AS2", "AD7", "AV1"), "a ScrollView with a child consumes the DOWN"
    (i,) = steps(first, "intercept", group="Outer", action="move")
    assert i["result"] is True and i["rule"] in ("AS6", "AS1")
    assert "Inner" not in [g for g, _ in intercepts(first)], "Inner handles the gesture itself (AD10)"
    assert_cancelled(first, "Inner", "intercept", via=("OC",))
    assert offers(second, "move") == [("Outer", True)] and "Outer" not in [g for g, _ in intercepts(second)]
    assert offers(up, "up") == [("Outer", True)]
    assert steps([first, second, up], "offer", to="Inner", action="move") == [], "the inner cannot be dragged"


@ANDROID_ONLY
def test_Q10_the_outer_scrolls_and_the_inner_does_not_AS2_AS6(world, column):
    w = world(tree_q10())
    for i in q10_inputs():
        w.touch(i)
    assert w.bounds_origin("Inner") == [0, 0]
    assert w.bounds_origin("Outer") == [0, 18], "the 12 points up to the crossing are not scrolled (AS2)"


@BOTH
def test_Q10_nested_scrolling_enabled_the_inner_scrolls_AS5_AS1_AS2_AI5_G1_G4(world, column):
    w = world(tree_q10(nested=True))
    down, first, second, up = [w.touch(i) for i in q10_inputs()]
    if w.uikit:
        # The android object is ignored: the inner pan, on the deeper view, begins first (G1, G4), as in Q10.
        assert [s["to"] for s in steps([first, second], "change", id="Inner")] == [[0, 12], [0, 30]]
        assert steps([first, second], "change", id="Outer") == []
        return
    # AS5: Inner, which consumed the DOWN (AS2), starts a nested scroll: OC, a plain group, refuses; Outer, a
    # ScrollView, accepts the vertical axis.
    assert offers(down, "down")[:3] == [("Text", False), ("IC", False), ("Inner", True)]
    assert [(s["child"], s["parent"], s["axes"], s["accepted"], s["rule"]) for s in steps(down, "nestedScroll")] == [
        ("Inner", "OC", "vertical", False, "AS5"), ("Inner", "Outer", "vertical", True, "AS5")]
    # AS1: past the slop Outer does not intercept, because it accepted the nested scroll; nothing is cancelled.
    (i,) = steps(first, "intercept", group="Outer", action="move")
    assert (i["result"], i.get("reason"), i["rule"]) == (False, "nested-scroll", "AS5")
    assert steps([first, second, up], "cancel") == []
    # Inner handles the gesture itself: it starts dragging past the slop and asks its parents not to intercept
    # (AS2, AI5), so Outer's onInterceptTouchEvent is not called again.
    (d,) = steps(first, "disallow", **{"from": "Inner"})
    assert d["groups"][:2] == ["OC", "Outer"]
    assert [(g, r) for g, r in intercepts(second) if g == "Outer"] == [("Outer", False)]
    assert steps(second, "intercept", group="Outer")[0]["reason"] == "disallowed"
    assert offers(second, "move") == [("Inner", True)] and offers(up, "up") == [("Inner", True)]
    # The inner scrolls (the 12 points up to the crossing are not scrolled, AS2); the outer does not move.
    assert [s["to"] for s in steps([first, second], "change", id="Inner")] == [[0, 18]]
    assert steps([first, second], "change", id="Outer") == []
    assert w.bounds_origin("Inner") == [0, 18] and w.bounds_origin("Outer") == [0, 0]


# ------------------------------------------------------------------------------------------ Q15, Q16

def tree_q15(badge: str | None = None) -> dict:
    icon = clicker("Icon", (0, 0, 20, 20), "close", hitTest={"insets": [-20, -20, -20, -20]})
    badge_node = clicker("Badge", (20, 20, 30, 30), "badge")
    children = {None: [icon], "after": [icon, badge_node], "before": [badge_node, icon]}[badge]
    return fa(view("P", (100, 100, 200, 200), *children,
                   android={"touchDelegate": {"bounds": [-20, -20, 60, 60], "delegate": "Icon"}}))


@BOTH
def test_Q15_touch_delegate_sends_the_tap_to_the_icon_at_its_centre_AD7_AC11_H5_H6(world, column):
    w = world(tree_q15())
    reply = w.tap(135, 135)
    down, up = reply["deliveries"]
    if w.uikit:
        assert down["view"] == "Icon" and down["localPoint"] == [35, 35]
        assert performed(reply) == ["close"]
    else:
        icon = candidate(reply, "Icon")
        assert (icon["result"], icon["reason"], icon["rule"], icon.get("point")) == \
            ("skipped", "outside-bounds", "AD5", [35, 35])
        # No child took the DOWN: P's onTouchEvent asks its TouchDelegate, which hands the DOWN and the UP to Icon.
        for action in ("down", "up"):
            (delegated,) = steps(reply, "offer", to="P", action=action, via="delegate")
            assert (delegated["result"], delegated["rule"]) == (True, "AC11")
            assert ("Icon", True) in offers(reply, action)
        assert down["view"] == "P", "P is R's touch target"
        assert_click(reply, "Icon", "close")
    outside = w.tap(95, 95)
    if w.uikit:
        assert outside["deliveries"][0]["view"] == R and performed(outside) == []
        (p,) = steps(outside, "hitTest", id="P")
        assert p["reason"] == "outside-bounds"
        return
    p = candidate(outside, "P")
    assert (p["result"], p["reason"], p["rule"]) == ("skipped", "outside-bounds", "AD5"), "P is never asked"
    assert "Icon" not in [to for to, _ in offers(outside)]
    assert_unhandled(outside, "down")


@BOTH
@pytest.mark.parametrize("order", ["after", "before"])
def test_Q15b_a_child_takes_the_down_before_the_delegate_AD6_AC11_H2_H6(world, column, order):
    w = world(tree_q15(order))
    reply = w.tap(135, 135)
    if w.uikit:
        # The later subview is asked first: Badge after Icon wins; Icon after Badge wins with its larger area.
        assert performed(reply) == (["badge"] if order == "after" else ["close"])
        return
    # AC11: the delegate is consulted only when no child of P took the DOWN, whatever the child order.
    assert ("Badge", True) in offers(reply, "down")
    assert steps(reply, "offer", via="delegate") == []
    assert_click(reply, "Badge", "badge")


def tree_q16(a_elevation: float) -> dict:
    return fa(clicker("A", (0, 0, 200, 200), "a", android={"elevation": a_elevation}),
              clicker("B", (100, 100, 200, 200), "b", android={"elevation": 0}))


@BOTH
@pytest.mark.parametrize("a_elevation", [8, 0])
def test_Q16_higher_elevation_is_asked_first_AD4_H2(world, column, a_elevation):
    w = world(tree_q16(a_elevation))
    reply = w.tap(150, 150)
    if w.uikit:
        assert reply["deliveries"][0]["view"] == "B" and performed(reply) == ["b"], "elevation is ignored"
        return
    first = [c for c in steps(reply, "candidate", group=R)][0]
    winner = "A" if a_elevation else "B"
    assert first["child"] == winner and first["result"] == "offered" and first["rule"] in ("AD4", "AD5")
    assert reply["deliveries"][0]["view"] == winner
    assert_click(reply, winner, winner.lower())


# ------------------------------------------------------------------------------------------ Q17, Q18: time, focus

def tree_q17(returns: bool = True, in_scroll: bool = False) -> dict:
    # A `listeners` object given replaces the derived one, so the click listener that Btn's touchUpInside target
    # gives is written out beside the long-click listener.
    btn = clicker("Btn", (100, 100, 200, 100), "save",
                  gestureRecognizers=[{"id": "lp", "kind": "longPress",
                                       "targets": [{"target": RVC, "action": "menu"}]}],
                  android={"listeners": {"click": {"target": RVC, "method": "save"},
                                         "longClick": {"target": RVC, "method": "menu", "returns": returns}}})
    return scroll_tree(btn) if in_scroll else fa(btn)


@BOTH
@pytest.mark.parametrize("up_at", [0.45, 0.6], ids=["a", "b"])
def test_Q17_long_press_handled_suppresses_the_click_AC9_AC12_AC13_G3_G7_G9(world, column, up_at):
    w = world(tree_q17())
    down = w.touch(touch("t", "began", (150, 150), 0))
    up = w.touch(touch("t", "ended", (150, 150), up_at))
    if w.uikit:
        lp = [(g["to"], g["reason"]) for g in steps(up, "gesture") if g["recognizer"] == "lp"]
        if up_at < 0.5:
            assert lp[0] == ("failed", "released-early") and performed(up) == ["save"]
        else:
            assert lp[0] == ("began", "duration-elapsed")
            assert [a["action"] for a in up["deliveries"][0]["gestureActions"]][0] == "menu"
            assert (up["deliveries"][0]["reason"], up["deliveries"][0]["rule"]) == ("cancelled-by-gesture", "G7")
            assert "touchCancel" in [e for d in up["deliveries"][0]["gestureDeliveries"] for e in d["controlEvents"]]
            assert performed(up) == []
        return
    assert [s["state"] for s in steps(down, "press", view="Btn")] == ["pressed"]
    (lc,) = steps(up, "longClick", view="Btn")
    assert (lc["listener"], lc.get("action"), lc.get("target"), lc["performed"], lc["rule"]) == \
        ("longClick", "menu", RVC, True, "AC9")
    up_steps = all_steps(up)
    assert up_steps.index(lc) < min(k for k, s in enumerate(up_steps) if s["step"] == "offer"), \
        "the deadline @0.4 fires before the UP is carried out"
    assert clicked(up) == [] and "save" not in performed(up)
    assert "menu" in performed(up)
    notes = [s["field"] for s in steps(down, "mapping") if s["id"] == "Btn"]
    assert notes and set(notes) == {"gestureRecognizers"}, "the long-press recognizer is ignored with a note"


@ANDROID_ONLY
def test_Q17_long_click_listener_returning_false_lets_the_up_click_AC9(world, column):
    w = world(tree_q17(returns=False))
    w.touch(touch("t", "began", (150, 150), 0))
    up = w.touch(touch("t", "ended", (150, 150), 0.45))
    (lc,) = steps(up, "longClick", view="Btn")
    assert (lc["listener"], lc.get("action"), lc["rule"]) == ("longClick", "menu", "AC9")
    assert_click(up, "Btn", "save")
    assert "save" in performed(up)


@ANDROID_ONLY
def test_Q17_long_press_in_a_scrolling_container_still_at_the_timeout_AC5_AC9_AC13(world, column):
    w = world(tree_q17(in_scroll=True))
    down = w.touch(touch("t", "began", (150, 150), 0))
    assert [s["state"] for s in steps(down, "press", view="Btn")] == ["prepressed"]
    tick = w.advance(0.1)
    assert [(s["state"], s["rule"]) for s in steps(tick, "press", view="Btn")] == [("pressed", "AC5")]
    assert steps(w.advance(0.39), "longClick") == []
    fired = w.advance(0.4)
    (lc,) = steps(fired, "longClick", view="Btn")
    assert lc["performed"] is True and lc["rule"] == "AC9"
    up = w.touch(touch("t", "ended", (150, 150), 0.5))
    assert clicked(up) == []


def tree_q18() -> dict:
    name = text_field("Name", (20, 20, 360, 50),
                      targets=[{"event": "touchUpInside", "action": "nameTapped", "target": RVC}])
    return fa(name, clicker("Go", (20, 100, 360, 50), "go"))


@BOTH
def test_Q18_first_tap_on_a_text_input_only_focuses_it_AC7_AK2_AK5_T3_F5(world, column):
    w = world(tree_q18())
    assert w.first() is None
    first = w.tap(40, 40)
    if w.uikit:
        assert performed(first) == ["nameTapped"]
        assert [(s["to"], s["rule"]) for s in steps(first, "firstResponder")] == [("Name", "F5")]
        assert w.first() == "Name"
        go = w.tap(40, 120)
        assert performed(go) == ["go"] and w.first() == "Name"
        return
    (f,) = steps(first, "focus")
    assert (f["from"], f["to"], f["reason"]) == (None, "Name", "touch") and f["rule"] in ("AC7", "AK5", "AK2")
    assert_no_click(first)
    assert w.first() == "Name"
    second = w.tap(40, 40)
    assert steps(second, "focus") == []
    assert_click(second, "Name", "nameTapped")
    go = w.tap(40, 120)
    assert steps(go, "focus") == [], "Go is not focusable in touch mode: focus stays on Name (AK5)"
    assert_click(go, "Go", "go")
    assert w.first() == "Name"


# ------------------------------------------------------------------------------------------ Q22: tree changes

def tree_q22() -> dict:
    return fa(view("P", (0, 0, 400, 400), clicker("Btn", (100, 100, 200, 100), "save"),
                   handles=ALL_TOUCH_PHASES, android={"handles": {"onTouchEvent": "pass"}}))


def published_traces(sub, session: str, reply: dict) -> list[dict]:
    first, last = reply["seqRange"]
    traces = []
    for _ in range(first, last + 1):
        topic, event = sub.next(validate=False)
        if topic == f"{session}/trace":
            traces.append(event["trace"])
    return traces


@BOTH
def test_Q22_button_removed_mid_gesture_is_cancelled_and_parent_gets_the_rest_AL1_AD10_AR4_T6(world, column):
    w = world(tree_q22())
    down = w.touch(touch("t", "began", (150, 150)))
    assert down["deliveries"][0]["view"] == "Btn"
    sub = w.subscribe()
    applied = w.apply({"op": "remove", "id": "Btn"})
    (trace,) = published_traces(sub, w.session, applied)
    if w.uikit:
        (entry,) = trace["outcome"]["touches"]
        assert (entry["view"], entry["message"], entry["reason"]) == ("Btn", "touchesCancelled", "view-left-window")
        assert entry["controlEvents"] == ["touchCancel"]
        assert [s for s in trace["steps"] if s["step"] == "deliver" and s["to"] == "P"] == [], "P gets nothing"
        err = w.client.error("event.touch", session=w.session, touches=[touch("t", "moved", (160, 160))])
        assert err.name == "TOUCH_NOT_FOUND"
        return
    assert_cancelled({"trace": trace}, "Btn", "removal")
    removed = [(s["group"], s["child"], s["rule"]) for s in trace["steps"] if s["step"] == "target"]
    assert ("P", "Btn", "AL1") in removed, removed
    moved = w.touch(touch("t", "moved", (160, 160)))
    up = w.touch(touch("t", "ended", (160, 160)))
    for r, action in ((moved, "move"), (up, "up")):
        assert "P" not in [g for g, _ in intercepts(r)], "P has no target left: it handles the rest itself (AD10)"
        assert offers(r, action) == [("P", False)]
        assert_unhandled(r, action)
    assert_no_click([moved, up])


@BOTH
def test_Q22b_button_made_invisible_keeps_the_gesture_and_clicks_AL3_AD9_AC7_T1(world, column):
    w = world(tree_q22())
    w.touch(touch("t", "began", (150, 150)))
    w.apply({"op": "update", "id": "Btn", "set": {"hidden": True}})
    rest = [w.touch(touch("t", "moved", (160, 160))), w.touch(touch("t", "ended", (160, 160)))]
    if w.uikit:
        assert [r["deliveries"][0]["view"] for r in rest] == ["Btn", "Btn"]
        assert performed(*rest) == ["save"]
        return
    assert steps(rest, "cancel") == []
    assert offers(rest[0], "move") == [("Btn", True)] and offers(rest[1], "up") == [("Btn", True)]
    assert_click(rest, "Btn", "save")


# ------------------------------------------------------------------------------------------ not modelled yet

def tree_q14(right: bool = True, split: bool = True) -> dict:
    children = [clicker("Left", (0, 0, 200, 800), "left")]
    if right:
        children.append(clicker("Right", (200, 0, 200, 800), "right"))
    return fa(*children, **({} if split else {"r": {"android": {"splitMotionEvents": False}}}))


Q14_INPUT = [touch(1, "began", (100, 100), 0), touch(2, "began", (300, 100), 0.05), touch(2, "ended", None, 0.1),
             touch(1, "ended", None, 0.15)]


@BOTH
def test_Q14_two_fingers_on_two_buttons_AM1_AM2_AM4_T1_T4(world, column):
    w = world(tree_q14())
    r = w.touch(*Q14_INPUT)
    assert performed(r) == ["right", "left"]
    if w.uikit:
        return
    # AM2: R searches for the second finger alone; Right takes it as its own DOWN and becomes a second target.
    d = r["deliveries"]
    assert [(x["touch"], x["message"], x["view"]) for x in d] == [
        (1, "ACTION_DOWN", "Left"), (2, "ACTION_DOWN", "Right"), (2, "ACTION_UP", "Right"), (1, "ACTION_UP", "Left")]
    assert [(s["group"], s["child"]) for s in steps(r, "target") if s["touch"] == 2] == [("R", "Right")]


@BOTH
def test_Q14_a_second_finger_where_no_child_is_goes_to_the_oldest_target_AM2_AM4_H1(world, column):
    w = world(tree_q14(right=False))
    r = w.touch(*Q14_INPUT)
    if w.uikit:
        # T1: touch 2 hits R and goes up R's chain, discarded; only left fires.
        assert performed(r) == ["left"] and r["deliveries"][1]["view"] == R
        return
    d = r["deliveries"]
    # AM2: no child of R is under the second finger: it goes to Left, the least recently added target, as a
    # POINTER_DOWN; AM4: Left's click logic ignores pointer actions; the first finger's UP clicks.
    assert [(x["touch"], x["message"], x["view"]) for x in d] == [
        (1, "ACTION_DOWN", "Left"), (2, "ACTION_POINTER_DOWN", "Left"), (2, "ACTION_POINTER_UP", "Left"),
        (1, "ACTION_UP", "Left")]
    assert performed(r) == ["left"]


@BOTH
def test_Q14_without_splitting_only_left_fires_AM3_AM4_T1_T4(world, column):
    w = world(tree_q14(split=False))
    r = w.touch(*Q14_INPUT)
    if w.uikit:
        # The android object is ignored: each touch is hit-tested on its own (T1), both buttons fire.
        assert performed(r) == ["right", "left"]
        return
    # AM3: R does not split, so it searches for no later finger: touch 2 goes to Left, R's target, as a
    # POINTER_DOWN and leaves it as a POINTER_UP; AM4: Left's click logic ignores both; touch 1's UP clicks.
    d = r["deliveries"]
    assert [(x["touch"], x["message"], x["view"]) for x in d] == [
        (1, "ACTION_DOWN", "Left"), (2, "ACTION_POINTER_DOWN", "Left"), (2, "ACTION_POINTER_UP", "Left"),
        (1, "ACTION_UP", "Left")]
    second = [s for s in all_steps(r) if s.get("touch") == 2]
    assert [(s["group"], s["child"]) for s in second if s["step"] == "candidate"] == [(W, R)], \
        "only the DecorView, which splits, searches for touch 2"
    assert [(s["to"], action_of(s["action"]), s["result"]) for s in second if s["step"] == "offer"] == [
        ("Left", "pointerdown", True), ("Left", "pointerup", True)]
    assert "Right" not in json.dumps(second), "Right sees nothing of touch 2"
    assert performed(r) == ["left"]


def press_both(w: World, key: str, id) -> tuple[dict, dict]:
    return (w.call("event.press", press=id, key=key, phase="began"),
            w.call("event.press", press=id, key=key, phase="ended"))


def tree_q19() -> dict:
    form = view("Form", (0, 0, 400, 400), text_field("Name", (20, 20, 360, 50)),
                handles={"pressesBegan": "handle", "pressesEnded": "handle"})
    return fa(form)


@BOTH
def test_Q19_keys_go_down_the_focus_path_not_up_AK7_AK8_AK10_AK11_E1(world, column):
    w = world(tree_q19())
    w.call("responder.become", id="Name")
    down, up = press_both(w, "F12", 1)
    if w.uikit:
        # E1: the press starts at the first responder and climbs: Name does not handle it, Form does.
        assert (down["start"], down["handledBy"]) == ("Name", ["Form"])
        return
    # AK8: down the focus path to Name; its false goes back up without Form's onKeyDown being called.
    assert down["visited"] == [W, R, "Form", "Name"] and down["handledBy"] == []
    assert [(s["to"], s["via"], s["result"]) for s in steps(down, "offer")] == [("Name", "onKeyDown", False)]
    assert [(s["method"], s["result"], s["rule"]) for s in steps(down, "activity")] == [
        ("onKeyDown", False, "AK10"), ("dispatchKeyEvent", False, "AK7")]
    assert [(s["reason"], s["rule"]) for s in steps(down, "discard")] == [("unhandled", "AK11")]
    assert up["handledBy"] == []


def tree_q20() -> dict:
    return fa(clicker("B1", (20, 20, 360, 50), "one"), clicker("B2", (20, 100, 360, 50), "two"))


@BOTH
def test_Q20_no_focus_and_the_key_that_leaves_touch_mode_AK3_AK4_AK6_AK9_AK11_F1_E3(world, column):
    w = world(tree_q20())
    (d1, _), (d2, _), (enter, enter_up) = [press_both(w, k, i) for i, k in
                                           enumerate(["DPAD_DOWN", "DPAD_DOWN", "ENTER"], 1)]
    if w.uikit:
        # F1, E3: buttons cannot be first responder; with none each press starts at the key window and is
        # discarded at the end of the chain.
        for r in (d1, d2, enter, enter_up):
            assert r["handledBy"] == [] and r["start"] in (None, W)
        assert performed(enter, enter_up) == []
        return
    # AK4, AK6: the first DPAD_DOWN leaves touch mode; restoreDefaultFocus gives B1 focus and the key is used up.
    assert [(s["to"], s["reason"], s["rule"]) for s in steps(d1, "focus")] == [("B1", "default", "AK4")]
    assert steps(d1, "offer") == []
    # AK9–AK11: B1 does not handle the second, the Activity neither, focus navigation moves to B2.
    assert [(s["to"], s["result"]) for s in steps(d2, "offer")] == [("B1", False)]
    assert [(s["from"], s["to"], s["reason"], s["rule"]) for s in steps(d2, "focus")] == [
        ("B1", "B2", "navigation", "AK11")]
    # AK9: ENTER presses B2 on the down and clicks it on the up.
    assert [(s["view"], s["state"]) for s in steps(enter, "press")] == [("B2", "pressed")]
    assert [(s["view"], s["action"]) for s in steps(enter_up, "click")] == [("B2", "two")]
    assert w.first() == "B2"


@BOTH
def test_Q21_the_back_key_without_callbacks_finishes_through_the_activity_AK7_AK10_AK12_E1(world, column):
    w = world(fa(view("V", (0, 0, 100, 100))))
    down, up = press_both(w, "BACK", 1)
    if w.uikit:
        assert down["handledBy"] == [] and up["handledBy"] == []  # no back key: a press nobody handles (E1, E3)
        return
    # AK12: nothing is focused, the tree returns false; AK10: onKeyDown(BACK) tracks, onKeyUp calls onBackPressed.
    assert down["visited"] == [] and down["handledBy"] == [RVC]
    assert [(s["method"], s["result"]) for s in steps(down, "activity")] == [
        ("onKeyDown", True), ("dispatchKeyEvent", True)]
    assert [s["method"] for s in steps(up, "activity")] == [
        "onKeyUp", "onBackPressed", "finish", "dispatchKeyEvent"]
    # onBackPressed's default finishes the Activity: its window goes (a published change), and a later tap finds
    # no window to take it.
    assert [(s["id"], s["field"], s["to"]) for s in steps(up, "change")] == [(W, "hidden", True)]
    after = w.tap(50, 50)
    assert [(s["action"], s["reason"], s["rule"]) for s in steps(after, "discard")] == [
        ("down", "no-window", "AR1"), ("up", "no-window", "AR1")], after["trace"]


def fragment(id: str, frame, *children, **android) -> dict:
    """A child view controller (under android a fragment of the Activity) whose root view fills `frame`."""
    return node(id, "viewController", None, view(id + "V", frame, *children), android=android)


def tree_q21(fr1: bool | None, fr2: bool | None, action_mode: bool = False) -> dict:
    """R > Container > Fr1, Fr2 (added in that order), each with a back callback enabled or not (None: none)."""
    frs = [fragment(id, (0, 100 * i, 400, 100), **({"backCallback": {"enabled": on}} if on is not None else {}))
           for i, (id, on) in enumerate([("Fr1", fr1), ("Fr2", fr2)])]
    rvc = {"handles": {a: "handle" for a in ACTIONS}}
    if action_mode:
        rvc["android"] = {"actionMode": True}
    return fa(view("Container", (0, 0, 400, 400), *frs), rvc=rvc)


@BOTH
@pytest.mark.parametrize("fr1, fr2, handler", [(True, True, "Fr2"), (True, False, "Fr1"), (False, False, None),
                                               (None, None, None)],
                         ids=["both-enabled", "fr2-disabled", "both-disabled", "no-callbacks"])
def test_Q21_back_goes_to_the_most_recently_added_enabled_callback_AK10_E1(world, column, fr1, fr2, handler):
    w = world(tree_q21(fr1, fr2))
    down, up = press_both(w, "BACK", 1)
    if w.uikit:
        assert down["handledBy"] == [] and up["handledBy"] == []  # no back key: a press nobody handles (E1, E3)
        return
    # AK10: onKeyUp calls onBackPressed; the OnBackPressedDispatcher calls the most recently added enabled callback;
    # with none enabled, onBackPressed's default finishes the Activity and its window goes.
    finish = [] if handler else ["finish"]
    assert [s["method"] for s in steps(up, "activity")] == ["onKeyUp", "onBackPressed", *finish, "dispatchKeyEvent"]
    called = [(s["id"], s["method"], s["result"], s["rule"]) for s in steps(up, "fragment")]
    assert called == ([(handler, "handleOnBackPressed", True, "AK10")] if handler else []), called
    hidden = [(s["id"], s["field"], s["to"], s["rule"]) for s in steps(up, "change")]
    assert hidden == ([] if handler else [(W, "hidden", True, "AK10")]), hidden
    assert up["handledBy"] == [RVC]
    assert steps(down, "fragment") == [], "the callbacks are asked on the UP only"


@BOTH
def test_Q21_back_with_an_action_mode_finishes_it_first_AX5_AK7(world, column):
    w = world(tree_q21(True, True, action_mode=True))
    sub = w.subscribe()
    down, up = press_both(w, "BACK", 1)
    if w.uikit:
        assert down["handledBy"] == [] and up["handledBy"] == []
        return
    # AK7: DecorView#superDispatchKeyEvent consumes BACK, DOWN and UP, before the tree and the Activity's onKeyDown.
    for r, action in ((down, "down"), (up, "up")):
        assert [(s["to"], s["via"], s["result"], s["rule"]) for s in steps(r, "offer")] == [
            (W, "dispatchKeyEvent", True, "AK7")]
        assert r["handledBy"] == [W]
        assert [s["method"] for s in steps(r, "activity") if s["method"] in ("onKeyDown", "onKeyUp", "onBackPressed")] \
            == []
    # AX5: the UP finishes the action mode; no back callback runs.
    assert [(s["method"], s["rule"]) for s in steps(up, "activity")] == [
        ("onActionModeFinished", "AX5"), ("dispatchKeyEvent", "AK7")]
    assert steps(up, "fragment") == []
    (change,) = steps(up, "change")
    assert (change["id"], change["field"], change["rule"]) == (RVC, "android", "AX5")
    assert change["to"] == {"actionMode": False}
    _, event = sub.next(f"{w.session}/tree")
    assert [op["op"] for op in event["ops"]] == ["update"] and event["ops"][0]["id"] == RVC, event
    assert w.call("tree.get", id=RVC)["tree"]["android"] == {"actionMode": False}
    # The next BACK reaches the callbacks again (AK10).
    _, up2 = press_both(w, "BACK", 2)
    assert [s["id"] for s in steps(up2, "fragment")] == ["Fr2"]


def tree_q23() -> dict:
    """W1 (fixture F) with R > Btn(0,700,400,100); above it the dialog window W2 (50,300,300,200) whose root view
    controller DVC (the Dialog) has DR filling it."""
    tree = fa(clicker("Btn", (0, 700, 400, 100), "save"))
    dialog = node("W2", "window", (50, 300, 300, 200),
                  node("DVC", "viewController", None, view("DR", (0, 0, 300, 200))), windowLevel=1)
    tree["children"].append(dialog)
    return tree


@BOTH
def test_Q23_tap_outside_a_dialog_goes_to_the_touch_modal_dialog_window_AR1_H1_H2(world, column):
    w = world(tree_q23())
    reply = w.tap(200, 750)
    down, _ = reply["deliveries"]
    if w.uikit:
        assert down["window"] == W and down["view"] == "Btn" and performed(reply) == ["save"]
        return
    # AR1: a touch-modal window takes every touch, inside it or not; nothing of W1 is asked.
    assert [d["window"] for d in reply["deliveries"]] == ["W2", "W2"]
    asked = {s.get("group") for s in steps(reply, "intercept")} | {to for to, _ in offers(reply)}
    assert asked and asked <= {"W2", "DR"}, asked
    dr = candidate(reply, "DR")
    assert (dr["result"], dr["reason"], dr["rule"]) == ("skipped", "outside-bounds", "AD5")
    assert [s["id"] for s in steps(reply, "activity")] and {s["id"] for s in steps(reply, "activity")} == {"DVC"}
    assert_no_click(reply)


@BOTH
def test_Q23_the_outside_touch_cancels_the_dialog_AR5_H1_H2(world, column):
    tree = tree_q23()
    tree["children"][-1]["android"] = {"class": "Dialog"}  # cancelable, closes on an outside touch
    w = world(tree)
    sub = w.subscribe()
    reply = w.tap(200, 750)
    if w.uikit:
        down, _ = reply["deliveries"]
        assert down["window"] == W and down["view"] == "Btn" and performed(reply) == ["save"]
        return
    # AR1: the touch-modal dialog window takes the tap; nothing of W1 is asked, Btn does not click.
    assert [d["window"] for d in reply["deliveries"]] == ["W2", "W2"]
    assert_no_click(reply)
    # AR5: Dialog#onTouchEvent sees the UP outside its decor view beyond the window touch slop and cancels.
    ontouch = [(action_of(s["action"]), s["result"], s["rule"]) for s in steps(reply, "activity", method="onTouchEvent")]
    assert ontouch == [("down", False, "AR5"), ("up", True, "AR5")]
    (cancel,) = steps(reply, "activity", method="cancel")
    assert (cancel["id"], action_of(cancel["action"]), cancel["rule"]) == ("DVC", "up", "AR5")
    assert steps(reply, "activity", method="finish") == []
    _, up = reply["deliveries"]
    assert up["handledBy"] == ["DVC"] and "reason" not in up
    assert [(s["action"], s["reason"]) for s in steps(reply, "discard")] == [("down", "unhandled")]
    # The dialog is gone: W2 is hidden, published as a tree change; the next tap reaches Btn.
    (change,) = steps(reply, "change")
    assert (change["id"], change["field"], change["to"], change["rule"]) == ("W2", "hidden", True, "AR5")
    _, event = sub.next(f"{w.session}/tree")
    assert [(op["op"], op["id"]) for op in event["ops"]] == [("update", "W2")], event
    assert w.call("tree.get", id="W2")["tree"]["hidden"] is True
    again = w.tap(200, 750)
    assert [d["window"] for d in again["deliveries"]] == [W, W]
    assert_click(again, "Btn", "save")


@ANDROID_ONLY
def test_Q23_an_up_within_the_window_touch_slop_does_not_close_the_dialog_AR5(world, column):
    tree = tree_q23()
    tree["children"][-1]["android"] = {"class": "Dialog"}
    w = world(tree)
    near = w.tap(200, 510)  # 10 below W2 (300…500): within the window touch slop (16)
    assert steps(near, "activity", method="cancel") == [] and steps(near, "change") == []
    assert [s["result"] for s in steps(near, "activity", method="onTouchEvent")] == [False, False]
    far = w.tap(200, 517)
    assert [s["id"] for s in steps(far, "activity", method="cancel")] == ["DVC"]


# ------------------------------------------------------------------------------------------ Q24: nil-target actions

def tree_q24(activity_implements: bool) -> dict:
    """R > Container > the child controller childVC's root view CV > Btn, whose touchUpInside sends save: to a nil
    target (under android `android:onClick="save:"`, AX2); childVC implements save:, and RVC (the Activity) too
    when `activity_implements`."""
    btn = control("Btn", (10, 10, 100, 44), targets=[{"event": "touchUpInside", "action": "save:", "target": None}])
    child = node("childVC", "viewController", None, view("CV", (0, 0, 400, 400), btn), handles={"save:": "handle"})
    rvc = {"handles": {"save:": "handle"}} if activity_implements else {}
    return fa(view("Container", (0, 0, 400, 400), child), rvc=rvc)


@BOTH
@pytest.mark.parametrize("activity_implements", [False, True], ids=["fragment-only", "activity-too"])
def test_Q24_nil_target_action_from_a_child_controllers_button_AX1_AX2_A3_A4(world, column, activity_implements):
    w = world(tree_q24(activity_implements))
    reply = w.tap(20, 20)
    _, up = reply["deliveries"]
    if w.uikit:
        # No first responder: the walk starts at Btn and reaches the child controller first, whoever else has it.
        (action,) = steps(reply, "action")
        assert (action["by"], action["rule"]) == ("childVC", "A4")
        assert [s["to"] for s in steps(reply, "deliver", message="save:")] == ["Btn", "CV", "childVC"]
        return
    # android:onClick resolves on the Activity only; the fragment (childVC) is never looked at.
    (click,) = steps(reply, "click", view="Btn")
    assert (click["listener"], click.get("action"), click["rule"]) == ("clickXml", "save:", "AX2")
    assert "childVC" not in json.dumps(all_steps(reply)) and "childVC" not in json.dumps(up)
    if activity_implements:
        assert (click["performed"], click.get("target")) == (True, RVC)
        assert [(a["action"], a["target"], a["by"]) for a in up["actions"] if a["performed"]] == [("save:", RVC, RVC)]
    else:
        assert click["performed"] is False, "no save:(View) on the Activity: the click fails (AX2)"
        assert performed(reply) == []


def tree_q25(activity_handles: bool = True, fr1: dict | None = None) -> dict:
    """R > Container > Fr1, Fr2 (added in that order, both with options menus); Fr2's view holds the text field
    TF. UIKit: RVC and Fr2 implement share:; Android: ACT's and Fr2's onOptionsItemSelected handle "share:"."""
    fr1_view = view("Fr1V", (0, 0, 400, 100))
    fr1_node = node("Fr1", "viewController", None, fr1_view, android={"hasOptionsMenu": True, **(fr1 or {})})
    fr2 = node("Fr2", "viewController", None, view("Fr2V", (0, 100, 400, 300), text_field("TF", (10, 10, 300, 40))),
               handles={"share:": "handle"}, android={"hasOptionsMenu": True, "onOptionsItemSelected": ["share:"]})
    rvc = {"handles": {a: "handle" for a in ACTIONS + ("share:",)}}
    if activity_handles:
        rvc["android"] = {"onOptionsItemSelected": ["share:"]}
    return fa(view("Container", (0, 0, 400, 400), fr1_node, fr2), rvc=rvc)


@BOTH
def test_Q25_menu_item_two_controllers_handle_AX3_A3_A4(world, column):
    w = world(tree_q25())
    w.call("responder.become", id="TF")
    reply = w.call("event.menuItem", item="share:")
    if w.uikit:
        # A3, A4: the menu command's nil-target walk starts at the first responder and reaches Fr2 first.
        assert (reply["performed"], reply["by"]) == (True, "Fr2")
        assert reply["visited"][:3] == ["TF", "Fr2V", "Fr2"]
        assert [(s["by"], s["rule"]) for s in steps(reply, "action")] == [("Fr2", "A4")]
        return
    # AX3: the Activity is asked first and handles it; the fragments are not asked.
    assert (reply["performed"], reply["by"], reply["visited"]) == (True, RVC, [RVC])
    assert [(s["id"], s["method"], s["item"], s["result"], s["rule"]) for s in steps(reply, "activity")] == [
        (RVC, "onOptionsItemSelected", "share:", True, "AX3")]
    assert steps(reply, "fragment") == []


@ANDROID_ONLY
@pytest.mark.parametrize("fr1, asked", [({}, ["Fr1", "Fr2"]), ({"hidden": True}, ["Fr2"]),
                                        ({"menuVisible": False}, ["Fr2"]), ({"hasOptionsMenu": False}, ["Fr2"])],
                         ids=["shown", "hidden", "menu-invisible", "no-options-menu"])
def test_Q25_the_fragments_are_asked_in_the_order_added_when_the_activity_declines_AX3(world, column, fr1, asked):
    w = world(tree_q25(activity_handles=False, fr1=fr1))
    reply = w.call("event.menuItem", item="share:", menu="options")
    assert [(s["method"], s["result"]) for s in steps(reply, "activity")] == [("onOptionsItemSelected", False)]
    assert [(s["id"], s["result"], s["rule"]) for s in steps(reply, "fragment")] == [
        (f, f == "Fr2", "AX3") for f in asked]
    assert (reply["performed"], reply["by"], reply["visited"]) == (True, "Fr2", [RVC] + asked)
    nobody = w.call("event.menuItem", item="print")
    assert (nobody["performed"], nobody["by"]) == (False, None)
    assert [(s["action"], s["reason"], s["rule"]) for s in steps(nobody, "discard")] == [("select", "unhandled", "AX3")]
