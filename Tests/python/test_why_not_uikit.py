"""`whyNot` (Protocol/README.md 12.3) on the UIKit classes, against the real engine: a cell's tap is for its
selection (K14–K16, "my didSelectRowAt is not called"), a text field's for its editing (K11), and a sheet's or
popover's dimming view takes the touches behind it (K17, K18). Each cause is checked against what a real tap does
(a dry run), so the answer cannot disagree with the dispatch. Replies are validated against Protocol/schemas.
"""

from __future__ import annotations

import pytest

from browser import chromium_path
from test_cells import DID_SELECT, cell, changes, screen, table
from test_gestures import steps, world  # noqa: F401 (world: the fixture)
from test_scenarios import RVC, fixture_f, text_field
from test_sheets import presented_world
from test_draw import shapes, svg_of
from test_web import Web, browser, q  # noqa: F401 (browser: the fixture)
from test_why_not import decisive, gesture, why


def selects(w, point, cell_id: str) -> bool:
    """Whether a real tap at `point` (a dry run) selects `cell_id`."""
    reply = w.call("event.tap", point=point, dryRun=True)
    return any(c[:3] == (cell_id, "selected", True) for c in changes(reply))


# ------------------------------------------------------------------------------------------ K14–K16: cells

def test_K14_K15_a_cell_a_tap_selects_is_ok_on_itself_and_through_a_label_inside(world):
    w = world(screen())
    r = why(w, "C0")
    assert r["ok"] is True and selects(w, r["hittable"]["point"], "C0")
    # The label does not handle touches: a tap on it climbs to the cell (K14), which selects.
    on_label = why(w, "C0", point=[100, 20])
    assert on_label["ok"] is True and selects(w, [100, 20], "C0")


def test_K16_a_control_in_the_cell_takes_the_touch(world):
    w = world(screen())
    r = why(w, "C1", point=[340, 66])
    assert decisive(r) == ("K16", "control-in-cell", "B")
    assert DID_SELECT in r["cause"]["detail"]
    assert not selects(w, [340, 66], "C1"), "the engine's tap agrees: the button handles it"
    # Elsewhere on the cell a tap selects it.
    assert why(w, "C1")["ok"] is True


def test_K16_G7_a_background_recognizer_that_cancels_touches(world):
    rec = {"id": "dismissKeyboard", "kind": "tap"}
    w = world(screen(r={"gestureRecognizers": [rec]}))
    r = why(w, "C2")
    assert gesture(r) == ("G7", "cancelled-by-gesture", "R", "dismissKeyboard")
    assert DID_SELECT in r["cause"]["detail"]
    assert not selects(w, r["hittable"]["point"], "C2")
    # cancelsTouchesInView false: the held touchesEnded is delivered and the row is selected (K16 c).
    w = world(screen(r={"gestureRecognizers": [{**rec, "cancelsTouchesInView": False}]}))
    assert why(w, "C2")["ok"] is True


def test_K14_allows_selection_false(world):
    w = world(screen(allowsSelection=False))
    r = why(w, "C0")
    assert decisive(r) == ("K14", "selection-disallowed", "T")
    assert r["hittable"]["fraction"] > 0, "the cell still gets the touch"
    assert not selects(w, r["hittable"]["point"], "C0")


def test_K14_K15_the_delegate_refuses_highlight_or_selection(world):
    w = world(screen(cell("C0", 0, shouldHighlight=False), cell("C1", 1, shouldSelect=False)))
    highlight = why(w, "C0")
    assert decisive(highlight) == ("K14", "highlight-refused", RVC)
    assert "shouldHighlightRowAt" in highlight["cause"]["detail"]
    assert not selects(w, highlight["hittable"]["point"], "C0")
    select = why(w, "C1")
    assert decisive(select) == ("K15", "selection-refused", RVC)
    assert "willSelectRowAt" in select["cause"]["detail"]
    assert not selects(w, select["hittable"]["point"], "C1")
    # Without a delegate node the table answers for it; a collection view names its own message.
    w = world(fixture_f(table(cell("I0", 0, cls="UICollectionViewCell", shouldSelect=False),
                              cls="UICollectionView", delegate=None)))
    r = why(w, "I0")
    assert decisive(r) == ("K15", "selection-refused", "T")
    assert "shouldSelectItemAt" in r["cause"]["detail"]


def test_K15_a_selected_row_with_multiple_selection_is_deselected(world):
    w = world(screen(cell("C0", 0, selected=True), cell("C1", 1), allowsMultipleSelection=True))
    r = why(w, "C0")
    assert decisive(r) == ("K15", "deselects", "C0")
    reply = w.call("event.tap", point=r["hittable"]["point"], dryRun=True)
    assert ("C0", "selected", False, "K15") in changes(reply)
    # Single selection: tapping the selected row again leaves it selected and tells didSelectRowAt again.
    w = world(screen(cell("C0", 0, selected=True), cell("C1", 1)))
    assert why(w, "C0")["ok"] is True


def test_K8_K14_a_table_holds_a_taps_touches_but_the_cell_still_selects(world):
    w = world(screen())
    r = why(w, "C2")
    assert r["ok"] is True
    reply = w.call("event.tap", point=r["hittable"]["point"], dryRun=True)
    assert reply["deliveries"][0]["heldBy"] == ["T.pan"] and selects(w, r["hittable"]["point"], "C2")


# ------------------------------------------------------------------------------------------ K11: text fields

def test_K11_a_delegate_that_refuses_to_begin_editing(world):
    w = world(fixture_f(text_field("TF", (20, 100, 360, 40), textDelegate={"shouldBeginEditing": False})))
    for params in ({}, {"become": True}):
        r = why(w, "TF", **params)
        assert decisive(r) == ("K11", "begin-editing-refused", "TF"), params
        assert "textFieldShouldBeginEditing" in r["cause"]["detail"]
    w.tap(100, 120)
    assert w.call("responder.first") is None, "the engine's tap agrees"
    # Without the delegate's refusal the tap focuses it: the touch answer is ok.
    w = world(fixture_f(text_field("TF", (20, 100, 360, 40))))
    assert why(w, "TF")["ok"] is True


def test_K11_the_editing_field_refuses_to_end_editing(world):
    w = world(fixture_f(text_field("TF1", (20, 100, 360, 40), textDelegate={"shouldEndEditing": False}),
                        text_field("TF2", (20, 200, 360, 40))))
    w.call("responder.become", id="TF1")
    for params in ({}, {"become": True}):
        assert decisive(why(w, "TF2", **params)) == ("K11", "end-editing-refused", "TF1"), params
    w.tap(100, 220)
    assert w.call("responder.first") == "TF1", "the engine's tap agrees"


def test_F2_F5_a_tap_on_a_field_that_cannot_become_first_responder(world):
    w = world(fixture_f(text_field("TF", (20, 100, 360, 40), canBecomeFirstResponder=False)))
    assert decisive(why(w, "TF")) == ("F2", "cannot-become", "TF")


# ------------------------------------------------------------------------------------------ K17, K18: dimming

def test_K17_K18_the_dimming_view_and_its_controller_are_named(world):
    for style, rule in (("pageSheet", "K17"), ("popover", "K18")):
        w = world(presented_world({"modalPresentationStyle": style}, window={"horizontalSizeClass": "regular"}))
        r = why(w, "B")
        assert decisive(r) == (rule, "dimmed", "PVC.dimming"), style
        assert "PVC's" in r["cause"]["detail"], "the presented controller is named"
        assert w.tap(40, 40)["deliveries"][0]["reason"] == "dimmed", "the engine's tap agrees"
    # An over-full-screen presentation dims nothing: the button is hittable beside the presented view.
    w = world(presented_world({"modalPresentationStyle": "overFullScreen"}))
    assert why(w, "B")["ok"] is True


# ------------------------------------------------------------------------------------------ the inspector

@pytest.mark.skipif(chromium_path() is None, reason="chromium is not installed (./dev installs it)")
def test_K14_the_inspector_tints_the_selected_cell(engine, world, browser):  # noqa: F811 (browser: the fixture)
    w = world(screen())
    assert ("C0", "selected", True, "K15") in changes(w.tap(100, 20))
    web = Web(engine, w.session)
    try:
        browser.navigate(web.url)
        browser.wait_for(q('#world rect.selected[data-node-id="C0"]'), "the selected cell tinted")
        unselected = q('#world rect.selected[data-node-id="C1"]')
        assert browser.evaluate(f"{unselected} === null")
        # The tint is drawn: the selected cell is filled more strongly than the row beside it.
        opacity = "id => Number(getComputedStyle(document.querySelector(`#world rect[data-node-id='${id}']`)).fillOpacity)"
        selected, plain = browser.evaluate(f"(() => {{ const o = {opacity}; return [o('C0'), o('C1')]; }})()")
        assert selected > plain, (selected, plain)
    finally:
        web.close()


# ------------------------------------------------------------------------------------------ the pictures

def test_K17_K18_the_picture_shades_the_window_behind_the_sheet_and_outlines_the_dimming_view(engine, world):
    w = world(presented_world())
    root = svg_of(engine, "--session", w.session)
    (dim,) = shapes(root, data_dimming="PVC.dimming")
    (window_rect,) = [e for e in shapes(root, data_node_id="W") if e.tag.endswith("rect")]
    assert [dim.get(k) for k in ("x", "y", "width", "height")] == \
        [window_rect.get(k) for k in ("x", "y", "width", "height")], "it covers the whole window"
    # Drawn over the presenter's button and behind the sheet's root view, as UIKit stacks them.
    order = [e.get("data-node-id") or e.get("data-dimming") for e in root.iter() if e.tag.endswith("rect")]
    assert order.index("B") < order.index("PVC.dimming") < order.index("S")
    # `--why B` outlines the dimming view as the one to blame.
    drawn = svg_of(engine, "--session", w.session, "--why", "B")
    (culprit,) = shapes(drawn, data_why="culprit")
    assert culprit.get("data-node-id") == "PVC.dimming" and culprit.get("width") == window_rect.get("width")
    # An undimmed detent draws no dimming view, and the button is the engine's again.
    w = world(presented_world({"sheetDetent": "medium", "largestUndimmedDetent": "medium"}))
    assert shapes(svg_of(engine, "--session", w.session), data_dimming="PVC.dimming") == []
    assert why(w, "B")["ok"] is True


def test_K14_the_picture_tints_a_selected_cell(engine, world):
    w = world(screen(cell("C0", 0, selected=True), cell("C1", 1, highlighted=True), cell("C2", 2)))
    root = svg_of(engine, "--session", w.session)
    classes = {e.get("data-node-id"): e.get("class") for e in root.iter() if e.get("data-node-id") in ("C0", "C1", "C2")}
    assert classes == {"C0": "v view selected", "C1": "v view highlighted", "C2": "v view"}


# ------------------------------------------------------------------------------------------ K17: a dismissal

def test_K17_a_dismissed_sheet_leaves_the_presenter_hittable_and_nothing_dimmed(engine, world):
    w = world(presented_world({"sheetDetent": "medium"}))
    assert decisive(why(w, "B")) == ("K17", "dimmed", "PVC.dimming")
    reply = w.tap(40, 40)
    assert reply["deliveries"][0]["reason"] == "dimmed"
    checks = [(s["check"], s["value"]) for s in steps(reply, "check")
              if s["check"] in ("isModalInPresentation", "presentationControllerShouldDismiss")]
    assert checks == [("isModalInPresentation", False), ("presentationControllerShouldDismiss", True)]
    # UIKit dismisses the sheet itself: the controller leaves the window with the tap.
    assert [d["id"] for d in w.snapshot()["detached"]] == ["PVC"]
    # No dimming view is left: the presenter's button is hittable and tappable again, and not drawn shaded.
    assert why(w, "B")["ok"] is True
    assert [a["action"] for d in w.tap(40, 40)["deliveries"] for a in d["actions"] if a["performed"]] == ["save:"]
    assert w.call("hitTest", point=[40, 40], trace="none")["view"] == "B"
    assert shapes(svg_of(engine, "--session", w.session), data_dimming="PVC.dimming") == []
