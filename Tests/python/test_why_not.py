"""`whyNot` (Protocol/README.md 12.3) against the real engine: one small world per cause, each isolating it,
checking `ok`, the decisive cause's rule, reason and culprit, and that `hittable.point` is a point where
`hitTest` answers the view. Then an action question, a become question, that the query changes and publishes
nothing, its errors, and its speed on a world of 10,000 views. Test names carry the rule ids they exercise."""

from __future__ import annotations


import pytest

from harness import new_session
from test_scenarios import RVC, W, World, control, fixture_f, node, text_field, view, world  # noqa: F401


def why(w: World, view_id: str, **params) -> dict:
    r = w.call("whyNot", view=view_id, **params)
    assert (r["cause"] is None) == r["ok"] == (r["causes"] == [])
    if r["cause"] is not None:
        assert r["causes"][0] == r["cause"], "the decisive cause comes first"
    point = r["hittable"]["point"]
    if point is not None:
        assert w.call("hitTest", point=point, trace="none")["view"] == view_id, "hittable.point hits the view"
        assert r["hittable"]["fraction"] > 0
    else:
        assert r["hittable"]["fraction"] == 0
    return r


def decisive(r: dict) -> tuple:
    c = r["cause"]
    return (c["rule"], c["reason"], c["culprit"])


# ------------------------------------------------------------------------------------------ touches

def test_a_plain_view_is_hittable_everywhere_H2(world):
    w = world(fixture_f(view("V", (10, 10, 100, 50))))
    r = why(w, "V")
    assert r["ok"] is True and r["hittable"]["fraction"] == 1
    x, y = r["hittable"]["point"]
    assert 55 <= x <= 65 and 30 <= y <= 40, "the point nearest the view's centre"
    assert why(w, "V", point=[20, 20])["ok"] is True


@pytest.mark.parametrize("fields,reason,rule", [
    ({"hidden": True}, "hidden", "H2"),
    ({"alpha": 0.0}, "alpha", "H2"),
    ({"userInteractionEnabled": False}, "interaction-disabled", "H2"),
    ({"class": "UIImageView"}, "interaction-disabled", "K1"),
    ({"animating": {"allowUserInteraction": False}}, "animating", "K10"),
    ({"hitTest": {"mode": "never"}}, "never", "H6"),
])
def test_an_ancestor_excludes_its_subtree_H2_K1_K10_H6(world, fields, reason, rule):
    w = world(fixture_f(view("P", (0, 0, 200, 200), view("V", (10, 10, 50, 50)), **fields)))
    r = why(w, "V")
    assert r["ok"] is False and decisive(r) == (rule, reason, "P")
    assert r["hittable"] == {"fraction": 0, "point": None}
    at = why(w, "V", point=[20, 20])
    assert decisive(at) == (rule, reason, "P")


def test_every_excluding_view_is_a_cause_the_outermost_first_H2(world):
    w = world(fixture_f(view("P", (0, 0, 200, 200), view("V", (10, 10, 50, 50), hidden=True), alpha=0.0)))
    r = why(w, "V")
    assert [(c["reason"], c["culprit"]) for c in r["causes"]] == [("alpha", "P"), ("hidden", "V")]


def test_a_disabled_control_H7(world):
    w = world(fixture_f(control("B", (0, 0, 100, 44), enabled=False)))
    r = why(w, "B")
    assert decisive(r) == ("H7", "disabled-control", "B")
    assert w.call("hitTest", point=[10, 10])["view"] == "R"


def test_outside_its_superview_H5_H3(world):
    w = world(fixture_f(view("P", (0, 0, 100, 100), view("V", (150, 150, 50, 50)), clipsToBounds=False)))
    r = why(w, "V")
    assert r["ok"] is False and decisive(r) == ("H5", "outside-ancestor", "P")
    assert "everywhere" in r["cause"]["detail"]
    # Half in, half out: hittable where it is inside, and the rest explained when the point is outside.
    w = world(fixture_f(view("P", (0, 0, 100, 100), view("V", (50, 0, 100, 100)))))
    r = why(w, "V")
    assert r["ok"] is True and r["hittable"]["fraction"] == 0.5
    at = why(w, "V", point=[120, 20])
    assert decisive(at) == ("H5", "outside-ancestor", "P")
    assert decisive(why(w, "V", point=[20, 20])) == ("H3", "outside-bounds", "V"), "the point is not in the view"


def test_covered_by_a_view_in_front_and_how_much_H2(world):
    w = world(fixture_f(view("V", (0, 0, 100, 100)), view("Front", (0, 0, 100, 100))))
    r = why(w, "V")
    assert r["ok"] is False and decisive(r) == ("H2", "covered", "Front")
    assert "everywhere" in r["cause"]["detail"]
    w = world(fixture_f(view("V", (0, 0, 100, 100)), view("Front", (0, 0, 100, 50))))
    r = why(w, "V")
    assert r["ok"] is True and r["hittable"]["fraction"] == 0.5
    assert r["hittable"]["point"][1] >= 50
    at = why(w, "V", point=[10, 10])
    assert decisive(at) == ("H2", "covered", "Front")
    # Covered over three quarters by one view and the rest by another: the larger is decisive.
    w = world(fixture_f(view("V", (0, 0, 100, 100)), view("Big", (0, 0, 100, 75)), view("Small", (0, 75, 100, 25))))
    r = why(w, "V")
    assert [(c["reason"], c["culprit"]) for c in r["causes"]] == [("covered", "Big"), ("covered", "Small")]
    assert "75%" in r["causes"][0]["detail"] and "25%" in r["causes"][1]["detail"]


def test_a_window_in_front_H1(world):
    tree = fixture_f(view("V", (0, 0, 100, 100)))
    tree["children"].append(node("Alert", "window", (0, 0, 400, 800), view("Dim", (0, 0, 400, 800)), windowLevel=2000))
    w = world(tree)
    r = why(w, "V")
    assert decisive(r) == ("H1", "covered", "Dim")
    assert "window in front" in r["cause"]["detail"]


def test_a_full_screen_presentation_takes_the_presenter_out_K9(world):
    tree = fixture_f(view("V", (0, 0, 100, 100)))
    presented = node("PVC", "viewController", None, view("P", (0, 0, 400, 800)), presentedBy=RVC,
                     modalPresentationStyle="fullScreen")
    tree["children"][1]["children"].append(presented)
    w = world(tree)
    r = why(w, "V")
    assert r["ok"] is False and decisive(r) == ("K9", "presented-over", "R")
    assert ("H2", "covered", "P") in [(c["rule"], c["reason"], c["culprit"]) for c in r["causes"]]


def test_a_subview_takes_the_touch_H2(world):
    w = world(fixture_f(view("V", (0, 0, 100, 100), view("Inner", (0, 0, 100, 100)))))
    r = why(w, "V")
    assert decisive(r) == ("H2", "taken-by-subview", "Inner")
    # A label inside a button passes its touches to the button (K1).
    w = world(fixture_f(control("B", (0, 0, 100, 44), view("L", (0, 0, 100, 44), **{"class": "UILabel"}))))
    assert why(w, "B")["ok"] is True


def test_overrides_redirect_and_pass_through_H6(world):
    w = world(fixture_f(view("Other", (200, 0, 50, 50)),
                        view("V", (0, 0, 100, 100), hitTest={"redirect": {"to": "Other", "when": "self"}})))
    assert decisive(why(w, "V")) == ("H6", "redirect", "V")
    w = world(fixture_f(view("V", (0, 0, 100, 100), hitTest={"mode": "passThroughSelf"})))
    assert decisive(why(w, "V")) == ("H6", "pass-through", "V")


def test_empty_detached_and_not_a_view_H3_H1_H2(world):
    w = world(fixture_f(view("V", (0, 0, 0, 40))))
    assert decisive(why(w, "V")) == ("H3", "zero-size", "V")
    assert decisive(why(w, RVC)) == ("H2", "not-a-view", RVC)
    w.apply({"op": "insert", "parent": None, "node": view("Loose", (0, 0, 10, 10), view("Leaf", (0, 0, 5, 5)))})
    assert decisive(why(w, "Leaf")) == ("H1", "not-in-window", "Loose")


def test_transforms_and_scroll_offsets_H4(world):
    # Moved by a scroll offset and scaled up: the samples follow the view to where it is on the screen.
    def scaled(frame):
        return world(fixture_f(view("S", (0, 0, 400, 400), view("V", frame, transform=[2, 0, 0, 2, 0, 0]),
                                    boundsOrigin=[0, 80])))
    r = why(scaled((50, 120, 50, 50)), "V")  # on the screen (25, 15)–(125, 115)
    assert r["ok"] is True and r["hittable"]["fraction"] == 1
    r = why(scaled((0, 100, 50, 50)), "V")  # on the screen (−25, −5)–(75, 95): a quarter left of S, a little above
    assert r["ok"] is True and 0.69 < r["hittable"]["fraction"] < 0.73
    assert [(c["reason"], c["culprit"]) for c in r["causes"]] == [], "ok: no causes"
    assert decisive(why(scaled((0, 100, 50, 50)), "V", point=[-10, 50])) == ("H5", "outside-ancestor", "W")
    w = world(fixture_f(view("V", (0, 0, 50, 50), transform=[0, 0, 0, 0, 0, 0])))
    assert decisive(why(w, "V")) == ("H4", "singular-transform", "V")


# ------------------------------------------------------------------------------------------ after the hit test

def tap_rec(id: str, **fields) -> dict:
    return {"id": id, "kind": "tap", **fields}


def gesture(r: dict) -> tuple:
    c = r["cause"]
    return (c["rule"], c["reason"], c["culprit"], c.get("recognizer"))


def real_tap_fate(w: World, point) -> list[tuple]:
    """What a real tap there (a dry run) delivers to its view: each phase and why not, in order."""
    out = w.call("event.tap", point=point, dryRun=True)
    phases = []
    for d in out["deliveries"]:
        phases.append((d["phase"], d.get("reason")))
        phases += [(g["phase"], g.get("reason")) for g in d.get("gestureDeliveries", [])]
    return phases


def test_a_recognizer_above_cancels_the_views_touches_G7(world):
    w = world(fixture_f(view("P", (0, 0, 200, 200), view("V", (10, 10, 50, 50)), gestureRecognizers=[tap_rec("tapP")])))
    r = why(w, "V")
    assert r["ok"] is False and gesture(r) == ("G7", "cancelled-by-gesture", "P", "tapP")
    assert "cancelsTouchesInView" in r["cause"]["detail"]
    assert r["hittable"]["fraction"] == 1, "the hit test still answers V everywhere"
    assert gesture(why(w, "V", point=[20, 20])) == ("G7", "cancelled-by-gesture", "P", "tapP")
    # The engine's own tap agrees: V gets touchesBegan, then touchesCancelled (G7).
    assert ("cancelled", "cancelled-by-gesture") in real_tap_fate(w, r["hittable"]["point"])
    # cancelsTouchesInView false: the recognizer fires and V still gets the whole tap (G9 releases its ended).
    w = world(fixture_f(view("P", (0, 0, 200, 200), view("V", (10, 10, 50, 50)),
                        gestureRecognizers=[tap_rec("tapP", cancelsTouchesInView=False)])))
    assert why(w, "V")["ok"] is True


def test_a_recognizer_that_delays_began_takes_the_whole_touch_G8(world):
    w = world(fixture_f(view("V", (10, 10, 50, 50), gestureRecognizers=[tap_rec("tapV", delaysTouchesBegan=True)])))
    r = why(w, "V")
    assert r["ok"] is False and gesture(r) == ("G8", "taken-by-gesture", "V", "tapV")
    assert "delaysTouchesBegan" in r["cause"]["detail"]
    assert ("began", "held") in real_tap_fate(w, r["hittable"]["point"])


@pytest.mark.parametrize("recognizer", [
    {"id": "lp", "kind": "longPress", "delaysTouchesBegan": True},  # fails when the tap ends: held phases go (G8)
    {"id": "dbl", "kind": "tap", "numberOfTapsRequired": 2},  # fails when the interval passes (G9, G11)
    {"id": "pan", "kind": "pan"},  # a tap does not move
])
def test_a_recognizer_that_only_delays_or_fails_leaves_the_tap_to_the_view_G8_G9_G11(world, recognizer):
    w = world(fixture_f(view("P", (0, 0, 200, 200), view("V", (10, 10, 50, 50)), gestureRecognizers=[recognizer])))
    assert why(w, "V")["ok"] is True
    snap = w.call("session.snapshot")
    assert [r["state"] for r in snap["recognizers"]] == ["possible"] and snap["liveTouches"] == [], "nothing kept"


def test_a_controls_own_tap_is_kept_from_a_recognizer_above_G10(world):
    w = world(fixture_f(view("P", (0, 0, 200, 200), control("B", (10, 10, 100, 44)), gestureRecognizers=[tap_rec("tapP")])))
    assert why(w, "B")["ok"] is True
    assert gesture(why(w, "P", point=[150, 150])) == ("G7", "cancelled-by-gesture", "P", "tapP")


def test_a_scroll_view_delays_but_never_takes_a_tap_K8(world):
    content = control("B", (0, 300, 400, 100))
    w = world(fixture_f(view("S", (0, 0, 400, 400), content, contentSize=[400, 1000], delaysContentTouches=True,
                             **{"class": "UIScrollView"})))
    r = why(w, "B")
    assert r["ok"] is True
    assert ("began", "held") in real_tap_fate(w, r["hittable"]["point"]), "delaysContentTouches held it back"
    # A tap recognizer on the scroll view itself takes it as any recognizer does, named by its own id.
    w = world(fixture_f(view("S", (0, 0, 400, 400), view("C", (0, 0, 400, 100)), contentSize=[400, 1000],
                             gestureRecognizers=[tap_rec("tapS")], **{"class": "UIScrollView"})))
    assert gesture(why(w, "C")) == ("G7", "cancelled-by-gesture", "S", "tapS")


def test_another_live_touch_exclusive_or_single_touch_T5_T4(world):
    w = world(fixture_f(view("A", (0, 0, 100, 100), exclusiveTouch=True), view("B", (0, 200, 100, 100))))
    assert why(w, "B")["ok"] is True
    w.touch(("t1", "began", (10, 10)))
    r = why(w, "B")
    assert r["ok"] is False and decisive(r) == ("T5", "exclusive-touch", "A") and "recognizer" not in r["cause"]
    w = world(fixture_f(view("V", (0, 0, 100, 100), multipleTouchEnabled=False)))
    w.touch(("t1", "began", (10, 10)))
    assert decisive(why(w, "V", point=[50, 50])) == ("T4", "multiple-touch-disabled", "V")


def test_anywhere_the_recognizer_comes_first_then_the_covered_part_G7_H2(world):
    w = world(fixture_f(view("P", (0, 0, 200, 200), view("V", (0, 0, 100, 100)), view("Front", (0, 0, 100, 50)),
                             gestureRecognizers=[tap_rec("tapP")])))
    r = why(w, "V")
    assert [(c["reason"], c["culprit"]) for c in r["causes"]] == [("cancelled-by-gesture", "P"), ("covered", "Front")]
    assert r["hittable"]["fraction"] == 0.5


def test_the_area_where_a_tap_is_the_views_own(world):
    w = world(fixture_f(view("V", (0, 0, 100, 100)), view("Front", (0, 0, 100, 50))))
    r = why(w, "V", area=True)
    area = r["hittable"]["area"]
    assert area, "rectangles"
    assert sum(a[2] * a[3] for a in area) == pytest.approx(5000), "the lower half"
    assert all(0 <= x and 50 <= y and x + wd <= 100 and y + h <= 100 for x, y, wd, h in area)
    assert "area" not in why(w, "V")["hittable"], "only when asked"
    assert why(w, "Front", area=True)["hittable"]["area"] == [[0, 0, 100, 50]], "a whole view: one rectangle"
    w = world(fixture_f(view("P", (0, 0, 100, 100), view("V", (0, 0, 50, 50)), hidden=True)))
    assert why(w, "V", area=True)["hittable"] == {"fraction": 0, "point": None, "area": []}


# ------------------------------------------------------------------------------------------ actions, focus

def chain_world() -> dict:
    # R > Mid > V; Side beside Mid. RVC handles doIt: and other:.
    return fixture_f(
        view("Mid", (0, 0, 200, 200), view("V", (0, 0, 50, 50), handles={"doIt:": "handle"}),
             handles={"doIt:": "handle", "vetoed:": "handle"}, vetoes=["vetoed:"]),
        view("Side", (200, 0, 100, 100), handles={"doIt:": "handle"}),
        rvc={"handles": {"doIt:": "handle", "other:": "handle", "vetoed:": "handle"}})


def test_action_questions_A3_A4(world):
    w = world(chain_world())
    assert why(w, "V", action="doIt:", sender="V")["ok"] is True
    r = why(w, "Mid", action="doIt:", sender="V")
    assert decisive(r) == ("A4", "taken-earlier", "V")
    r = why(w, "R", action="other:", sender="V")
    assert decisive(r) == ("A4", "not-implemented", "R") and "RVC performs it" in r["cause"]["detail"]
    r = why(w, "Mid", action="vetoed:", sender="V")
    assert decisive(r) == ("A4", "vetoed", "Mid")
    r = why(w, "Side", action="doIt:", sender="V")
    assert decisive(r) == ("A3", "not-in-chain", "V")
    # Without a sender the walk starts at the first responder (A3).
    w.call("tree.apply", ops=[{"op": "update", "id": "Side", "set": {"canBecomeFirstResponder": True}}])
    w.become("Side")
    assert why(w, "Side", action="doIt:")["ok"] is True
    assert decisive(why(w, "V", action="doIt:")) == ("A3", "not-in-chain", "Side")
    assert w.send("doIt:", sender="V")["by"] == "Side", "the walk whyNot described"


def test_become_questions_F2(world):
    w = world(fixture_f(text_field("TF", (0, 0, 100, 40), canResignFirstResponder=False),
                        text_field("TF2", (0, 50, 100, 40)), view("V", (0, 100, 100, 40))))
    assert why(w, "TF", become=True)["ok"] is True
    assert decisive(why(w, "V", become=True)) == ("F2", "cannot-become", "V")
    w.become("TF")
    r = why(w, "TF2", become=True)
    assert decisive(r) == ("F2", "current-cannot-resign", "TF")
    assert w.first() == "TF", "asking changed nothing"
    assert why(w, "TF", become=True)["ok"] is True, "already first responder"


# ------------------------------------------------------------------------------------------ a query

def test_read_only_no_seq_no_event(world):
    w = world(chain_world())
    sub = w.subscribe()
    before = w.call("session.snapshot")
    for params in [{}, {"point": [10, 10]}, {"action": "doIt:", "sender": "V"}, {"become": True}]:
        w.call("whyNot", view="V", **params)
    sub.nothing(0.3)
    after = w.call("session.snapshot")
    assert (after["seq"], after["revision"]) == (before["seq"], before["revision"])
    assert after["firstResponders"] == before["firstResponders"]


def test_the_tap_on_a_copy_leaves_nothing_behind_G7(world):
    w = world(fixture_f(view("P", (0, 0, 200, 200), view("V", (10, 10, 50, 50)), gestureRecognizers=[tap_rec("tapP")])))
    sub = w.subscribe()
    before = w.call("session.snapshot")
    assert why(w, "V")["ok"] is False
    sub.nothing(0.3)
    after = w.call("session.snapshot")
    assert (after["seq"], after["revision"], after["clock"]) == (before["seq"], before["revision"], before["clock"])
    assert after["recognizers"] == before["recognizers"] and after["liveTouches"] == []
    assert w.tap(20, 20)["deliveries"][0]["touch"] == "tap-1", "the copy's tap used no id"


@pytest.mark.parametrize("params,name,field", [
    ({"view": "ghost"}, "NODE_NOT_FOUND", "view"),
    ({"view": "V", "action": "doIt:", "sender": "ghost"}, "NODE_NOT_FOUND", "sender"),
    ({}, "INVALID_PARAMS", "view"),
    ({"view": "V", "action": ""}, "INVALID_PARAMS", "action"),
    ({"view": "V", "action": "doIt:", "point": [1, 2]}, "INVALID_PARAMS", "point"),
    ({"view": "V", "become": True, "point": [1, 2]}, "INVALID_PARAMS", "point"),
    ({"view": "V", "become": True, "action": "doIt:"}, "INVALID_PARAMS", "become"),
    ({"view": "V", "sender": "V"}, "INVALID_PARAMS", "sender"),
    ({"view": "V", "point": [1]}, "INVALID_PARAMS", "point"),
    ({"view": "V", "extra": 1}, "INVALID_PARAMS", "extra"),
])
def test_errors(world, params, name, field):
    w = world(chain_world())
    e = w.client.error("whyNot", session=w.session, **params)
    assert e.name == name and e.data.get("field") == field


# ------------------------------------------------------------------------------------------ speed

def test_ten_thousand_views_answered_on_a_coarser_grid(engine, client):
    # How fast is the bench's figure (`./dev bench --only why`); here, what the answer is on a large world.
    # 100 × 100 views of 4 × 8 points; the asked view is the back-most, half covered by an overlay in front.
    cells = [view(f"c{i}", ((i % 100) * 4, (i // 100) * 8, 4, 8)) for i in range(10_000)]
    cells.append(view("Overlay", (0, 0, 2, 8)))
    s = new_session(client, "why", tree=fixture_f(*cells))
    r = client.call("whyNot", session=s, view="c0")
    assert r["ok"] is True and 0.4 < r["hittable"]["fraction"] < 0.6, "a coarser grid on a large world"
    assert client.call("hitTest", session=s, point=r["hittable"]["point"], trace="none")["view"] == "c0"
    r = client.call("whyNot", session=s, view="c0", point=[1, 1])
    assert decisive(r) == ("H2", "covered", "Overlay")
    client.rpc("session.delete", {"session": s}, validate=False)
