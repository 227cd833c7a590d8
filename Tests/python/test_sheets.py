"""Sheets and popovers (rules K17, K18 and the amended K9: docs/rules.md, Protocol/README.md 8.2, 12.1, 12.4)
through the real engine. A presenter's button under a sheet or outside a popover is the subject: before (a
presentation that keeps the presenter hittable) and after (the dimming view takes the touch); the detents that
let it through, the popover's passthrough views, the tap on the dimming view and what `whyNot` says. Replies
are validated against Protocol/schemas like every other. Test names carry the rule ids."""

from __future__ import annotations

import subprocess

import pytest

from guide_console import guide_section, run_console

from stdio_harness import responder_path, target_args

from test_gestures import World, began, ended, moved, steps, tap_rec, target, world  # noqa: F401 (world: the fixture)
from test_scenarios import RVC, W, control, fixture_f, node, view

SAVE = [{"event": "touchUpInside", "action": "save:", "target": None}]


def presented_world(sheet: dict | None = None, window: dict | None = None, root_frame=(0, 100, 400, 700)) -> dict:
    """Fixture F with the presenter's button B (20, 20, 100, 44) and a second view Other (200, 20, 150, 44) on R;
    PVC, presented by RVC, has root view S at `root_frame` holding its own button SB. `sheet` adds PVC fields."""
    tree = fixture_f(control("B", (20, 20, 100, 44), targets=SAVE), view("Other", (200, 20, 150, 44)),
                     rvc={"handles": {"save:": "handle"}}, w=window)
    pvc = node("PVC", "viewController", None,
               view("S", root_frame, control("SB", (0, 0, 100, 44), targets=SAVE)),
               presentedBy=RVC, handles={"save:": "handle"}, **(sheet or {}))
    tree["children"][1]["children"].append(pvc)
    return tree


def performed(reply: dict) -> list[tuple]:
    return [(a["action"], a["by"]) for d in reply["deliveries"] for a in d["actions"] if a["performed"]]


def dismissal_checks(reply: dict) -> list[tuple]:
    return [(s["id"], s["check"], s["value"], s["rule"]) for s in steps(reply, "check")
            if s["check"] in ("isModalInPresentation", "presentationControllerShouldDismiss")]


def dimmed(reply: dict, rule: str = "K17") -> None:
    first = reply["deliveries"][0]
    assert (first["view"], first["reason"], first["rule"], first["hitView"]) == (None, "dimmed", rule, "PVC.dimming")
    assert performed(reply) == []
    assert [(s["reason"], s["rule"], s.get("view")) for s in steps(reply, "discard")][0] == ("dimmed", rule, "PVC.dimming")


# --------------------------------------------------------------------------------------------------- K17, K9

@pytest.mark.parametrize("style", [None, "automatic", "pageSheet", "formSheet"])
def test_K17_K9_a_sheet_dims_the_presenter_so_its_button_is_not_tappable(world, style):
    # Before: an overFullScreen presentation keeps the presenter hittable where it does not cover it (K9).
    before = world(presented_world({"modalPresentationStyle": "overFullScreen"}))
    assert performed(before.tap(40, 40)) == [("save:", "RVC")]
    w = world(presented_world({"modalPresentationStyle": style} if style else {}))
    hit = w.call("hitTest", point=[40, 40])
    assert hit["view"] == "PVC.dimming"
    assert [(v["id"], v["result"], v["rule"]) for v in hit["visited"]][:3] == [
        ("W", "hit", "H2"), ("S", "miss", "H3"), ("PVC.dimming", "hit", "K17")]
    assert "R" not in [v["id"] for v in hit["visited"]], "nothing behind the dimming view is asked"
    dimmed(w.tap(40, 40))
    # The sheet itself is in front of its dimming view and works as ever.
    assert performed(w.tap(40, 120)) == [("save:", "PVC")]


def test_K17_largest_undimmed_detent_lets_touches_through_at_that_detent_and_smaller(world):
    medium = world(presented_world({"sheetDetent": "medium", "largestUndimmedDetent": "medium"}))
    assert medium.call("hitTest", point=[40, 40])["view"] == "B"
    assert performed(medium.tap(40, 40)) == [("save:", "RVC")]
    large = world(presented_world({"sheetDetent": "large", "largestUndimmedDetent": "medium"}))
    dimmed(large.tap(40, 40))
    undimmed_large = world(presented_world({"largestUndimmedDetent": "large"}))
    assert performed(undimmed_large.tap(40, 40)) == [("save:", "RVC")]
    # isModalInPresentation keeps every touch outside the sheet out, at an undimmed detent too; no dismissal.
    modal = world(presented_world({"sheetDetent": "medium", "largestUndimmedDetent": "medium",
                                   "modalInPresentation": True}))
    reply = modal.tap(40, 40)
    dimmed(reply)
    assert dismissal_checks(reply) == []


def test_K17_G1_the_windows_recognizers_still_observe_a_dimmed_touch(world):
    tree = presented_world()
    tree["children"][1]["gestureRecognizers"] = [tap_rec("winTap", targets=[target("RVC", "save:")])]
    w = world(tree)
    reply = w.tap(40, 40)
    dimmed(reply)
    assert [(s["recognizer"], s["observes"]) for s in steps(reply, "observe")] == [("winTap", True)]
    assert [(a["recognizer"], a["performed"]) for a in steps(reply, "gestureAction")] == [("winTap", True)]


@pytest.mark.parametrize("profile, detent, attempt", [
    ({}, "large", False), ({}, "medium", True),
    ({"sheetDimmingTap": "ignore"}, "medium", False), ({"sheetDimmingTap": "dismiss"}, "large", True)])
def test_K17_a_tap_on_the_dimming_view_attempts_a_dismissal_by_profile_and_detent(world, profile, detent, attempt):
    w = world(presented_world({"sheetDetent": detent}), profile=profile)
    reply = w.tap(40, 40)
    dimmed(reply)
    expected = [("PVC", "isModalInPresentation", False, "K17"),
                ("PVC", "presentationControllerShouldDismiss", True, "K17")]
    assert dismissal_checks(reply) == (expected if attempt else [])
    assert w.call("session.snapshot")["profile"]["sheetDimmingTap"] == profile.get("sheetDimmingTap", "byDetent")
    assert [d["id"] for d in w.snapshot()["detached"]] == (["PVC"] if attempt else [])


def test_K17_F6_a_dismissal_takes_the_sheet_out_of_its_window_in_the_taps_own_batch(world):
    """UIKit dismisses the sheet itself: the tap's request ends the presentation and detaches the controller (one
    revision, one `dispatch` tree event), and a first responder inside it is resigned by force (F6)."""
    w = world(presented_world({"sheetDetent": "medium"}))
    w.apply({"op": "insert", "parent": "S", "node": {"id": "TF", "kind": "textField", "frame": [0, 60, 200, 44]}})
    w.call("responder.become", id="TF")
    assert w.call("responder.first", window="W") == "TF"
    before = w.snapshot()["revision"]
    sub = w.subscribe()
    reply = w.tap(40, 40)
    dimmed(reply)
    assert [(s["from"], s["to"], s["reason"], s["rule"]) for s in steps(reply, "firstResponder")] == [
        ("TF", None, "left-window", "F6")]
    _, tree_event = sub.next(f"{w.session}/tree")
    assert tree_event["change"] == "dispatch" and tree_event["revision"] == before + 1
    assert tree_event["ops"] == [{"op": "update", "id": "PVC", "set": {"presentedBy": None}},
                                 {"op": "move", "id": "PVC", "parent": None}]
    assert w.snapshot()["revision"] == before + 1
    sub.close()
    detached = w.snapshot()["detached"]
    assert [d["id"] for d in detached] == ["PVC"] and detached[0].get("presentedBy") is None
    assert w.call("responder.first", window="W") is None
    assert performed(w.tap(40, 40)) == [("save:", "RVC")], "the presenter's button works again"


def test_K17_the_dismissal_is_refused_by_modal_in_presentation_or_the_delegate(world):
    refused = world(presented_world({"sheetDetent": "medium", "shouldDismiss": False}))
    assert dismissal_checks(refused.tap(40, 40)) == [
        ("PVC", "isModalInPresentation", False, "K17"), ("PVC", "presentationControllerShouldDismiss", False, "K17")]
    modal = world(presented_world({"sheetDetent": "medium", "modalInPresentation": True}))
    assert dismissal_checks(modal.tap(40, 40)) == [("PVC", "isModalInPresentation", True, "K17")]
    for refusing in (refused, modal):
        assert refusing.snapshot()["detached"] == [], "a refused dismissal leaves the sheet where it is"
    # A drag on the dimming view is not its tap: no dismissal attempt.
    drag = world(presented_world({"sheetDetent": "medium"}))
    reply = drag.call("event.touch", touches=[began("d", [40, 40]), moved("d", [40, 80]), ended("d")])
    assert reply["deliveries"][0]["reason"] == "dimmed" and dismissal_checks(reply) == []


# --------------------------------------------------------------------------------------------------- K18

POPOVER = {"modalPresentationStyle": "popover", "passthroughViews": ["B"]}
REGULAR = {"horizontalSizeClass": "regular"}


def test_K18_a_popover_lets_its_passthrough_views_through_and_dims_the_rest(world):
    w = world(presented_world(POPOVER, window=REGULAR, root_frame=(100, 300, 200, 200)))
    hit = w.call("hitTest", point=[40, 40])
    assert hit["view"] == "B"
    (d,) = [v for v in hit["visited"] if v["id"] == "PVC.dimming"]
    assert (d["result"], d["reason"], d["rule"]) == ("skipped", "passthrough-view", "K18")
    reply = w.tap(40, 40)
    assert performed(reply) == [("save:", "RVC")] and dismissal_checks(reply) == []
    # Outside both the popover and its passthrough views: dimmed, and the tap attempts a dismissal at any detent.
    other = w.tap(250, 40)
    dimmed(other, "K18")
    assert dismissal_checks(other) == [("PVC", "isModalInPresentation", False, "K18"),
                                       ("PVC", "presentationControllerShouldDismiss", True, "K18")]
    # Without passthroughViews the button is dimmed as well.
    plain = world(presented_world({"modalPresentationStyle": "popover"}, window=REGULAR,
                                  root_frame=(100, 300, 200, 200)))
    dimmed(plain.tap(40, 40), "K18")


def test_K18_K17_a_popover_in_a_compact_window_is_a_form_sheet(world):
    w = world(presented_world(POPOVER, root_frame=(100, 300, 200, 200)))
    assert w.call("tree.get", id=W)["tree"].get("horizontalSizeClass") is None, "compact is the unwritten default"
    reply = w.tap(40, 40)
    dimmed(reply, "K17")
    assert dismissal_checks(reply) == [], "a form sheet at the large detent: the tap does nothing (byDetent)"


# --------------------------------------------------------------------------------------------------- whyNot

def test_K17_K18_whyNot_names_the_dimming_view(world):
    sheet = world(presented_world())
    r = sheet.call("whyNot", view="B")
    assert r["ok"] is False and (r["cause"]["rule"], r["cause"]["reason"], r["cause"]["culprit"]) == (
        "K17", "dimmed", "PVC.dimming")
    assert "sheet" in r["cause"]["detail"] and r["hittable"] == {"fraction": 0, "point": None}
    at = sheet.call("whyNot", view="B", point=[40, 40])
    assert (at["cause"]["rule"], at["cause"]["reason"]) == ("K17", "dimmed")
    popover = world(presented_world({"modalPresentationStyle": "popover"}, window=REGULAR,
                                    root_frame=(100, 300, 200, 200)))
    r = popover.call("whyNot", view="B")
    assert (r["cause"]["rule"], r["cause"]["reason"], r["cause"]["culprit"]) == ("K18", "dimmed", "PVC.dimming")
    assert "popover" in r["cause"]["detail"]
    through = world(presented_world(POPOVER, window=REGULAR, root_frame=(100, 300, 200, 200)))
    assert through.call("whyNot", view="B")["ok"] is True


# --------------------------------------------------------------------------------------------------- fields

def test_K17_K18_fields_are_written_as_set_and_checked(world):
    fields = {"modalPresentationStyle": "popover", "sheetDetent": "medium", "largestUndimmedDetent": "medium",
              "modalInPresentation": True, "shouldDismiss": False, "passthroughViews": ["B", "Other"]}
    w = world(presented_world(fields, window=REGULAR))
    written = w.call("tree.get", id="PVC")["tree"]
    assert {k: written[k] for k in fields} == fields
    assert w.call("tree.get", id=W)["tree"]["horizontalSizeClass"] == "regular"
    plain = world(presented_world()).call("tree.get", id="PVC")["tree"]
    assert not set(fields) & set(plain), "nothing new is written for a controller that sets none of them"
    for op, field in [({"id": "PVC", "set": {"sheetDetent": "small"}}, "ops[0].set.sheetDetent"),
                      ({"id": "PVC", "set": {"passthroughViews": "B"}}, "ops[0].set.passthroughViews"),
                      ({"id": "R", "set": {"modalInPresentation": True}}, "ops[0].set.modalInPresentation"),
                      ({"id": "PVC", "set": {"horizontalSizeClass": "regular"}}, "ops[0].set.horizontalSizeClass")]:
        e = w.error("tree.apply", ops=[{"op": "update", **op}])
        assert e.name == "INVALID_NODE" and e.data["field"] == field
    # Setting a field to null restores its default: the sheet dims again.
    w.apply({"op": "update", "id": "PVC", "set": {"passthroughViews": None}})
    assert "passthroughViews" not in w.call("tree.get", id="PVC")["tree"]
    assert w.call("hitTest", point=[40, 40])["view"] == "PVC.dimming"


# --------------------------------------------------------------------------------------------------- the guide

def test_K17_the_guides_sheet_example_runs_as_written(engine, tmp_path):
    """docs/gestures-and-uikit-classes.md, "Sheets and popovers": its world file and every `$ responder …` line,
    run through the real CLI in order, print what the guide shows."""
    assert run_console(engine, tmp_path, guide_section("## Sheets and popovers"), "sheet.json") == 8


def test_K17_K18_pictures_draw_the_dimming_view_over_its_window(world, engine, tmp_path):
    w = world(presented_world())
    out = tmp_path / "hit.svg"
    done = subprocess.run([str(responder_path()), *target_args(engine), "draw", "--hit", "40", "40", "--session",
                           w.session, "--out", str(out)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    svg = out.read_text()
    rect = svg.split('data-node-id="PVC.dimming"')[1].split(">")[0]
    assert 'data-rule="K17"' in rect and 'width="400" height="800"' in rect, "the window's box"


def sheet_traces(engine, client) -> list[dict]:
    """Traces in which every 1.13 step, rule and reason of K17 and K18 occurs: test_dispatch's coverage check adds
    them."""
    from harness import new_session
    traces: list[dict] = []
    made: list[str] = []

    def make(tree: dict, **params) -> World:
        name = new_session(client, "sheetcov", tree=tree, **params)
        made.append(name)
        return World(engine, client, name)

    sheet = make(presented_world({"sheetDetent": "medium", "shouldDismiss": False}))
    traces.append(sheet.call("hitTest", point=[40, 40])["trace"])
    traces.append(sheet.tap(40, 40)["trace"])
    popover = make(presented_world(POPOVER, window=REGULAR, root_frame=(100, 300, 200, 200)))
    traces.append(popover.call("hitTest", point=[40, 40])["trace"])
    traces.append(popover.tap(250, 40)["trace"])
    for name in made:
        client.rpc("session.delete", {"session": name}, validate=False)
    return traces
