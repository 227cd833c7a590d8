"""Table and collection view cells (rules K14–K16: docs/rules.md, Protocol/README.md 8.6 and 12.1) through the real
engine. A tap on a cell highlights it when the touch reaches it and selects it at touch-up, telling the view's
delegate; a button in the cell, a scroll, or a recognizer that cancels touches keeps the touch — and the selection —
from it. Replies and events are validated against Protocol/schemas like every other.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from harness import PATIENCE, new_session
from stdio_harness import responder_path, target_args
from test_gestures import World, began, ended, moved, published, steps, world  # noqa: F401 (world: the fixture)
from test_scenarios import RVC, control, fixture_f, node, view

DID_SELECT = "tableView(_:didSelectRowAt:)"
DID_DESELECT = "tableView(_:didDeselectRowAt:)"
DID_HIGHLIGHT = "tableView(_:didHighlightRowAt:)"
DID_UNHIGHLIGHT = "tableView(_:didUnhighlightRowAt:)"
TOUCHES = ("touchesBegan", "touchesMoved", "touchesEnded", "touchesCancelled")
# The view controller is the table's delegate and implements didSelectRowAt (and its own touchesBegan, which a
# touch on a cell must never reach).
DELEGATE = {"handles": {DID_SELECT: "handle", "save:": "handle", "dismiss:": "handle", "touchesBegan": "handle"}}


def cell(id: str, row: int, *children, cls: str = "UITableViewCell", **fields) -> dict:
    return view(id, (0, row * 44, 400, 44), *children, **{"class": cls, **fields})


def table(*cells, cls: str = "UITableView", **fields) -> dict:
    return view("T", (0, 0, 400, 600), *cells, **{"class": cls, "contentSize": [400, 1000], "delegate": RVC,
                                                    **fields})


def screen(*cells, r: dict | None = None, **table_fields) -> dict:
    """A table of cells C0, C1, … under R; the button B sits in C1."""
    cells = cells or (cell("C0", 0, view("L0", (16, 12, 200, 20), **{"class": "UILabel"})),
                      cell("C1", 1, control("B", (300, 4, 80, 36),
                                            targets=[{"event": "touchUpInside", "action": "save:", "target": None}])),
                      cell("C2", 2))
    return fixture_f(table(*cells, **table_fields), r=r, rvc=DELEGATE)


def changes(reply: dict) -> list[tuple]:
    return [(s["id"], s["field"], s["to"], s["rule"]) for s in steps(reply, "change")]


def told(reply: dict) -> list[tuple]:
    """The delegate's messages, in order: (message, disposition, rule)."""
    return [(s["message"], s["disposition"], s["rule"]) for s in steps(reply, "deliver") if s["to"] == RVC
            and s["rule"] in ("K14", "K15", "K16")]


def node_of(w, id: str) -> dict:
    return w.call("tree.get", id=id)["tree"]


# ------------------------------------------------------------------------------------------ K14, K15: a tap

def test_K14_K15_a_tap_on_a_cell_highlights_it_then_selects_it_and_tells_the_delegate(world):
    # Before: the same views without the classes — the touch climbs to the view controller and nothing is selected.
    plain = world(fixture_f(view("T", (0, 0, 400, 600), view("C0", (0, 0, 400, 44))), rvc=DELEGATE))
    before = plain.tap(100, 20)
    assert changes(before) == [] and before["deliveries"][0]["handledBy"] == [RVC]
    w = world(screen())
    sub = w.subscribe()
    reply = w.tap(100, 20)
    # K8: the table holds touchesBegan until the tap ends, so the cell is highlighted at touch-up, then selected.
    assert reply["deliveries"][0]["heldBy"] == ["T.pan"]
    assert changes(reply) == [("C0", "highlighted", True, "K14"), ("C0", "highlighted", False, "K15"),
                              ("C0", "selected", True, "K15")]
    assert told(reply) == [(DID_HIGHLIGHT, "not-handled", "K14"), (DID_UNHIGHLIGHT, "not-handled", "K15"),
                           (DID_SELECT, "handled", "K15")]
    # K14: the cell handles the touch itself; the view controller's touchesBegan is never called.
    cell_steps = [(s["to"], s["message"], s["disposition"], s["rule"]) for s in steps(reply, "deliver")
                  if s["message"] in TOUCHES]
    assert cell_steps == [("L0", "touchesBegan", "not-handled", "T2"), ("C0", "touchesBegan", "handled", "K14"),
                          ("L0", "touchesEnded", "not-handled", "T2"), ("C0", "touchesEnded", "handled", "K14")] \
        or cell_steps == [("C0", "touchesBegan", "handled", "K14"), ("C0", "touchesEnded", "handled", "K14")]
    assert all(s["to"] != RVC for s in steps(reply, "deliver") if s["message"] in TOUCHES)
    # The selection is state: tree.get shows it and the dispatch tree event publishes it.
    c0 = node_of(w, "C0")
    assert (c0["selected"], c0["highlighted"], c0["shouldHighlight"], c0["shouldSelect"]) == (True, False, True, True)
    assert node_of(w, "T")["allowsSelection"] is True and node_of(w, "T")["delegate"] == RVC
    tree_event = published(sub, w.session, reply)[0][1]
    assert tree_event["ops"] == [{"op": "update", "id": "C0", "set": {"highlighted": False, "selected": True}}]


def test_K15_single_selection_deselects_the_previous_row_first_and_a_second_tap_keeps_it(world):
    w = world(screen())
    w.tap(100, 20)
    reply = w.tap(100, 110)
    assert changes(reply)[-2:] == [("C0", "selected", False, "K15"), ("C2", "selected", True, "K15")]
    assert [m for m, _, _ in told(reply)][-2:] == [DID_DESELECT, DID_SELECT]
    again = w.tap(100, 110)
    assert ("C2", "selected", False, "K15") not in changes(again) and node_of(w, "C2")["selected"] is True
    assert [m for m, _, _ in told(again)][-1] == DID_SELECT, "tapping the selected row again tells didSelect again"
    # Programmatic selection (tree.apply) tells the delegate nothing.
    w.apply({"op": "update", "id": "C0", "set": {"selected": True}})
    assert node_of(w, "C0")["selected"] is True


def test_K15_multiple_selection_adds_rows_and_a_tap_on_a_selected_one_deselects_it(world):
    w = world(screen(allowsMultipleSelection=True))
    w.tap(100, 20)
    second = w.tap(100, 110)
    assert changes(second)[-1] == ("C2", "selected", True, "K15") and node_of(w, "C0")["selected"] is True
    third = w.tap(100, 20)
    assert changes(third)[-1] == ("C0", "selected", False, "K15")
    assert [m for m, _, _ in told(third)][-1] == DID_DESELECT and node_of(w, "C2")["selected"] is True


def test_K14_K15_the_delegate_answers_and_allows_selection_refuse(world):
    no_highlight = world(screen(cell("C0", 0, shouldHighlight=False)))
    reply = no_highlight.tap(100, 20)
    assert changes(reply) == [] and told(reply) == [], "shouldHighlight false: no highlight, no selection"
    no_select = world(screen(cell("C0", 0, shouldSelect=False)))
    reply = no_select.tap(100, 20)
    assert changes(reply) == [("C0", "highlighted", True, "K14"), ("C0", "highlighted", False, "K15")]
    assert DID_SELECT not in [m for m, _, _ in told(reply)], "willSelectRowAt answering nil: nothing selected"
    off = world(screen(allowsSelection=False))
    reply = off.tap(100, 20)
    assert changes(reply) == [] and told(reply) == []
    assert all(s["to"] != RVC for s in steps(reply, "deliver")), "the cell still keeps its touches"


def test_K14_a_cell_override_without_super_keeps_the_touch_from_selection(world):
    w = world(screen(cell("C0", 0, handles={"touchesBegan": "handle", "touchesEnded": "handle"})))
    reply = w.tap(100, 20)
    assert changes(reply) == []
    assert [(s["to"], s["disposition"], s["rule"]) for s in steps(reply, "deliver", message="touchesBegan")] == \
        [("C0", "handled", "T2")]
    calls_super = world(screen(cell("C0", 0, handles={"touchesBegan": "handle+super", "touchesEnded": "handle+super"})))
    reply = calls_super.tap(100, 20)
    assert changes(reply)[-1] == ("C0", "selected", True, "K15")
    assert [(s["to"], s["disposition"]) for s in steps(reply, "deliver", message="touchesBegan")] == \
        [("C0", "handled+super")], "super reaches the cell's own implementation, which stops the touch"


def test_K14_K15_collection_view_cells_select_items(world):
    w = world(fixture_f(table(cell("I0", 0, cls="UICollectionViewCell"), cls="UICollectionView"),
                        rvc={"handles": {"collectionView(_:didSelectItemAt:)": "handle"}}))
    reply = w.tap(100, 20)
    assert changes(reply)[-1] == ("I0", "selected", True, "K15")
    assert [m for m, _, _ in told(reply)] == ["collectionView(_:didHighlightItemAt:)",
                                              "collectionView(_:didUnhighlightItemAt:)",
                                              "collectionView(_:didSelectItemAt:)"]
    # A table cell in a collection view (or no container at all) is a plain view.
    stray = world(fixture_f(table(cell("X", 0), cls="UICollectionView"), rvc=DELEGATE))
    assert changes(stray.tap(100, 20)) == []


# ------------------------------------------------------------------------------------------ K16: what prevents it

def test_K16_a_button_in_the_cell_takes_the_touch_and_nothing_is_selected(world):
    w = world(screen())
    reply = w.tap(340, 60)
    assert [(a["action"], a["by"]) for d in reply["deliveries"] for a in d["actions"] if a["performed"]] == \
        [("save:", RVC)]
    assert changes(reply) == [] and told(reply) == []
    assert node_of(w, "C1")["selected"] is False


def test_K16_a_background_tap_recognizer_that_cancels_touches_keeps_didSelectRowAt_from_being_called(world):
    def with_dismiss(cancels: bool):
        return world(screen(r={"gestureRecognizers": [{"id": "dismiss", "kind": "tap", "cancelsTouchesInView": cancels,
                                                        "targets": [{"target": RVC, "action": "dismiss:"}]}]}))
    # A quick tap: the recognizer takes the touch before the cell has any of it.
    w = with_dismiss(True)
    reply = w.tap(100, 20)
    assert ("dismiss", "recognized") in [(g["recognizer"], g["to"]) for g in steps(reply, "gesture")]
    assert changes(reply) == [] and DID_SELECT not in [m for m, _, _ in told(reply)]
    assert node_of(w, "C0")["selected"] is False
    # Held past the scroll delay: the cell is highlighted, then gets touchesCancelled and loses the highlight.
    w.touch(began("h", (100, 20), 1.0))
    assert changes(w.advance(to=1.2)) == [("C0", "highlighted", True, "K14")]
    held = w.touch(ended("h", None, 1.25))
    assert [(s["to"], s["rule"]) for s in steps(held, "deliver", message="touchesCancelled")] == [("C0", "K14")]
    assert [(d["reason"], d["rule"], d["handledBy"]) for d in held["deliveries"][0]["gestureDeliveries"]] == \
        [("cancelled-by-gesture", "G7", ["C0"])]
    assert changes(held) == [("C0", "highlighted", False, "K16")]
    assert told(held) == [(DID_UNHIGHLIGHT, "not-handled", "K16")]
    # cancelsTouchesInView false: the held touchesEnded arrives when it recognizes, and the row is selected.
    kept = with_dismiss(False)
    reply = kept.tap(100, 20)
    assert ("dismiss", "recognized") in [(g["recognizer"], g["to"]) for g in steps(reply, "gesture")]
    assert changes(reply)[-1] == ("C0", "selected", True, "K15") and told(reply)[-1] == (DID_SELECT, "handled", "K15")


def test_K16_a_scroll_that_begins_removes_the_highlight_and_keeps_the_selection(world):
    w = world(screen(cell("C0", 0, selected=True), cell("C2", 2)))
    w.touch(began("s", (100, 100), 0))
    tick = w.advance(to=0.2)
    assert changes(tick) == [("C2", "highlighted", True, "K14")], "the delay ran out: the touch reached the cell"
    drag = w.touch(moved("s", (100, 0), 0.3))
    assert ("T.pan", "began") in [(g["recognizer"], g["to"]) for g in steps(drag, "gesture")]
    assert ("C2", "highlighted", False, "K16") in changes(drag)
    end = w.touch(ended("s", None, 0.35))
    assert [c for c in changes(end) if c[1] == "selected"] == []
    assert node_of(w, "C0")["selected"] is True and node_of(w, "C2")["selected"] is False


def test_K16_a_touch_that_ends_outside_the_cell_selects_nothing(world):
    # Scrolling disabled: no pan and no delay, so the touch moves freely from C0 to C2.
    w = world(screen(scrollEnabled=False))
    reply = w.touch(began("o", (100, 20), 0), moved("o", (100, 110), 0.1), ended("o", None, 0.2))
    assert changes(reply) == [("C0", "highlighted", True, "K14"), ("C0", "highlighted", False, "K15")]
    assert node_of(w, "C0")["selected"] is False and node_of(w, "C2")["selected"] is False


def test_K14_cell_fields_apply_only_to_cells_and_tables(world):
    w = world(screen())
    err = w.error("tree.apply", ops=[{"op": "update", "id": "L0", "set": {"selected": True}}])
    assert err.data["name"] == "INVALID_NODE" and err.data["field"] == "ops[0].set.selected"
    err = w.error("tree.apply", ops=[{"op": "update", "id": "C0", "set": {"allowsSelection": False}}])
    assert err.data["field"] == "ops[0].set.allowsSelection"
    assert "selected" not in node_of(w, "R"), "a node without a cell class writes no cell fields"


def cell_traces(engine, client) -> list[dict]:
    """Traces in which every step, rule and field of K14–K16 occurs: test_dispatch's coverage check adds them."""
    traces: list[dict] = []
    made: list[str] = []

    def make(tree: dict) -> World:
        name = new_session(client, "cellcov", tree=tree)
        made.append(name)
        return World(engine, client, name)

    w = make(screen())
    traces.append(w.tap(100, 20)["trace"])  # K14 and K15: highlight, selection, delegate messages
    w.touch(began("s", (100, 100), 0))
    traces.append(w.advance(to=0.2)["trace"])
    traces.append(w.touch(moved("s", (100, 0), 0.3), ended("s", None, 0.35))["trace"])  # K16: the scroll cancels
    for name in made:
        client.rpc("session.delete", {"session": name}, validate=False)
    return traces


# ------------------------------------------------------------------------------------------ the guide's example

REPO = Path(__file__).resolve().parents[2]
GUIDE = REPO / "docs" / "gestures-and-uikit-classes.md"


def guide_example() -> list[tuple[list[str], list[str]]]:
    """The console block of the guide's cells section: each `$ responder …` command with the lines it prints."""
    section = GUIDE.read_text().split("## Table and collection view cells", 1)[1]
    block = section.split("```console\n", 1)[1].split("```", 1)[0]
    runs: list[tuple[list[str], list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ responder "):
            runs.append((line.removeprefix("$ responder ").split(), []))
        else:
            runs[-1][1].append(line)
    return runs


def test_K14_K15_K16_the_guide_example_runs_as_written(engine):
    runs = guide_example()
    assert [args[0] for args, _ in runs] == ["session", "tap", "tap", "why", "why", "apply", "tap"]
    for args, expected in runs:
        r = subprocess.run([str(responder_path()), *target_args(engine), *args], capture_output=True, text=True,
                           timeout=PATIENCE, cwd=REPO)
        # `why` exits 1 when its answer is no, as both of the guide's are.
        assert r.returncode == (1 if args[0] == "why" else 0), (args, r.stderr)
        assert r.stdout.splitlines() == expected, (args, r.stdout)
    assert "delegate listVC: tableView(_:didSelectRowAt:), handled (K15)" in runs[-1][1]
    # K16: `why` names the recognizer (G7) and the star (control-in-cell) that keep the rows from being selected.
    assert runs[3][1][0].startswith("row0: not ok (G7, cancelled-by-gesture): dismissTap")
    assert runs[4][1][0].startswith("row1: not ok (K16, control-in-cell): star")
    # `tree` shows the selection and the delegate among the flags.
    r = subprocess.run([str(responder_path()), *target_args(engine), "tree", "--session", "cells"], capture_output=True,
                       text=True, timeout=PATIENCE)
    lines = r.stdout.splitlines()
    assert any("row0  view  UITableViewCell" in line and "[selected]" in line for line in lines), lines
    assert any("table  view  UITableView" in line and "[delegate listVC]" in line for line in lines), lines
    assert not any("row1" in line and "selected" in line for line in lines), lines
