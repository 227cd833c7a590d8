"""`responder draw` against the real engine: the SVG is parsed and read through its data attributes —
every view's shape, the hit path with its reasons, the touch point, the responder chain — and the Graphviz
forms are checked."""

from __future__ import annotations

import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest

from harness import PATIENCE, demo_tree, find, ids, new_session
from stdio_harness import responder_path, target_args
from worlds import count, grid_world

SVG = "{http://www.w3.org/2000/svg}"


def draw(engine, *args, env=None) -> subprocess.CompletedProcess:
    return subprocess.run([str(responder_path()), *target_args(engine), "draw", *args], capture_output=True,
                          timeout=PATIENCE * 2, env=env)


def svg_of(engine, *args) -> ET.Element:
    r = draw(engine, *args)
    assert r.returncode == 0, r.stderr.decode()
    return ET.fromstring(r.stdout)


def shapes(root: ET.Element, **attrs) -> list[ET.Element]:
    return [e for e in root.iter() if all(e.get(k.replace("_", "-")) == v for k, v in attrs.items())]


def world_ids(root: ET.Element) -> set[str]:
    return {e.get("data-node-id") for e in root.iter(f"{SVG}rect") if "v" in (e.get("class") or "").split()}


def test_the_world_is_drawn_view_by_view_with_labels_and_the_first_responder(engine):
    c = engine.client()
    s = new_session(c, "draw")
    c.call("responder.become", session=s, id="textField")
    root = svg_of(engine, "--session", s)
    # Every view of the world is drawn (application, delegate and controllers have no frame).
    tree = c.call("session.snapshot", session=s)["tree"]
    views = {i for i in ids(tree) if find(tree, i)["kind"] not in ("application", "appDelegate", "viewController")}
    assert {"window", "root", "header", "title", "card", "button", "textField"} <= views
    assert world_ids(root) == views
    button = shapes(root, data_node_id="button")[0]
    # card at (16, 120) in root, button at (16, 16) in card; the window's panel starts at (24, 96) on the picture.
    assert (button.get("x"), button.get("y"), button.get("width"), button.get("height")) == ("56", "232", "326", "44")
    labels = ["".join(t.itertext()) for t in root.iter(f"{SVG}text") if t.get("class") == "l"]
    assert "button UIButton" in labels and "textField UITextField" in labels
    assert "fr" in shapes(root, data_node_id="textField")[0].get("class").split()
    title = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "wt"][0]
    assert title == "window · UIWindow · key · first responder: textField"
    assert not shapes_with(root, "data-hit")  # no overlay without --hit


def test_hit_draws_the_path_the_misses_with_their_reasons_the_touch_and_the_chain(engine):
    c = engine.client()
    s = new_session(c, "drawhit")
    root = svg_of(engine, "--session", s, "--hit", "60", "150")
    reply = c.call("hitTest", session=s, point=[60, 150])
    asked = [(e.get("data-node-id"), e.get("data-hit"), e.get("data-reason"), e.get("data-rule")) for e in
             sorted(shapes_with(root, "data-order"), key=lambda e: int(e.get("data-order")))]
    expected = [(v["id"], "hit" if v["result"] == "hit" else "miss", v.get("reason"), v["rule"]) for v in reply["visited"]]
    assert asked == expected
    assert ("textField", "miss", "outside-bounds", "H3") in asked and asked[-1][:2] == ("button", "hit")
    assert "target" in shapes(root, data_node_id="button", data_hit="hit")[0].get("class").split()
    touch = [g for g in root.iter(f"{SVG}g") if g.get("class") == "touch"]
    assert [g.get("data-point") for g in touch] == ["60,150"]
    chain = sorted((g for g in root.iter(f"{SVG}g") if g.get("data-chain")), key=lambda g: int(g.get("data-chain")))
    assert [g.get("data-node-id") for g in chain] == c.call("responderChain", session=s, id="button")["chain"]
    arrows = [(p.get("data-from"), p.get("data-to")) for p in root.iter(f"{SVG}path") if p.get("class") == "arrow"]
    assert arrows[0] == ("button", "card") and arrows[-1] == ("app", "delegate")
    legend = [" ".join(t.itertext()) for t in root.iter(f"{SVG}text") if "lg" in (t.get("class") or "")]
    assert "outside-bounds: the point is outside its bounds (H3)" in legend
    assert "Hit button in window at (60, 150)" in legend


def shapes_with(root: ET.Element, attribute: str) -> list[ET.Element]:
    return [e for e in root.iter() if e.get(attribute) is not None]


def test_reasons_transforms_bounds_origins_and_clipping(engine):
    c = engine.client()
    tree = demo_tree()
    card = find(tree, "card")
    card["clipsToBounds"] = True
    card["boundsOrigin"] = [0, 10]  # scrolled by 10: its subviews move up
    find(tree, "title")["userInteractionEnabled"] = True
    find(tree, "header")["hidden"] = True
    find(tree, "button")["transform"] = [0, 1, -1, 0, 0, 0]  # turned a quarter
    s = new_session(c, "drawgeo", tree=tree)
    root = svg_of(engine, "--session", s, "--hit", "60", "50")
    header = shapes(root, data_node_id="header", data_hit="miss")[0]
    assert header.get("data-reason") == "hidden" and header.get("data-rule") == "H2"
    assert "hidden" in shapes(root, data_node_id="header")[0].get("class").split()
    # The text field: card at (16+24, 120+96) on the picture, minus the scroll of 10.
    tf = shapes(root, data_node_id="textField")[0]
    assert (tf.get("x"), tf.get("y")) == ("56", "282")
    # The turned button: its bounds and a matrix about its center (16+163, 16+22 in card's bounds): on the
    # picture it stands 44 wide and 326 tall from (197, 81); the engine agrees that a screen point low in that
    # strip, far below where the unturned button was, hits it.
    button = [e for e in shapes(root, data_node_id="button") if "v" in (e.get("class") or "").split()][0]
    assert button.get("transform") == "matrix(0 1 -1 0 241 81)"
    assert c.call("hitTest", session=s, point=[219 - 24, 396 - 96])["view"] == "button"
    # Everything in the card is drawn inside a group clipped to the card's bounds.
    # (The card's clip: the demo world's image view and scroll view clip too.)
    clips = [c for c in root.iter(f"{SVG}clipPath") if c[0].get("y") == "216"]
    assert len(clips) == 1 and clips[0][0].get("height") == "200"
    clip = clips[0]
    clipped = [g for g in root.iter(f"{SVG}g") if g.get("clip-path") == f"url(#{clip.get('id')})"][0]
    assert {e.get("data-node-id") for e in clipped.iter(f"{SVG}rect")} >= {"button", "textField"}


def test_depth_subtree_window_and_small_views_collapsed(engine):
    c = engine.client()
    tree = grid_world(12, 20)
    s = new_session(c, "drawbig", tree=tree)
    full = svg_of(engine, "--session", s)
    assert len(world_ids(full)) == count(tree) - 3  # app, delegate, rootVC are no views
    shallow = svg_of(engine, "--session", s, "--depth", "4")
    assert world_ids(shallow) == {"window", "root"} | {f"t{i}" for i in range(12)}
    counts = {g.get("data-node-id"): int(g.get("data-collapsed")) for g in shallow.iter(f"{SVG}g") if g.get("data-collapsed")}
    assert counts == {f"t{i}": 20 for i in range(12)}
    small = svg_of(engine, "--session", s, "--min-size", "4.5")  # the cells are 4 points wide
    assert world_ids(small) == world_ids(shallow)
    sub = svg_of(engine, "--session", s, "--subtree", "t3")
    assert world_ids(sub) == {"t3"} | {f"c3-{i}" for i in range(20)}
    assert world_ids(svg_of(engine, "--session", s, "--window", "window")) == world_ids(full)
    # The hit path is drawn even where the views are too small.
    hit = svg_of(engine, "--session", s, "--min-size", "10", "--hit", "3", "16")
    assert shapes(hit, data_node_id="c0-0", data_hit="hit")


def test_bad_options_name_what_is_wrong(engine):
    c = engine.client()
    s = new_session(c, "drawbad")
    r = draw(engine, "--session", s, "--subtree", "nope")
    assert r.returncode == 1 and b'--subtree: no node "nope"' in r.stderr
    r = draw(engine, "--session", s, "--window", "card")
    assert r.returncode == 1 and b'--window: no window "card" (windows: window)' in r.stderr
    r = draw(engine, "--session", s, "--hit", "1")
    assert r.returncode != 0 and b"--hit takes two numbers" in r.stderr
    r = draw(engine, "--session", s, "--chain", "nope")
    assert r.returncode == 1 and b"NODE_NOT_FOUND" in r.stderr


def test_tap_taps_for_real_and_chain_draws_a_chain(engine):
    c = engine.client()
    s = new_session(c, "drawtap")
    root = svg_of(engine, "--session", s, "--tap", "60", "210")
    assert shapes(root, data_node_id="textField", data_hit="hit")
    assert "fr" in shapes(root, data_node_id="textField")[0].get("class").split()  # F5: the tap made it first responder
    notes = [" ".join(t.itertext()) for t in root.iter(f"{SVG}text") if "note" in (t.get("class") or "")]
    assert any("touchUpInside" in n for n in notes)
    assert c.call("session.snapshot", session=s)["firstResponders"]["window"] == "textField"
    chain = svg_of(engine, "--session", s, "--chain", "rootVC")
    steps = sorted((g for g in chain.iter(f"{SVG}g") if g.get("data-chain")), key=lambda g: int(g.get("data-chain")))
    assert [g.get("data-node-id") for g in steps] == ["rootVC", "window", "app", "delegate"]
    assert not shapes_with(chain, "data-hit")


def test_dot_and_png_through_graphviz(engine, tmp_path):
    c = engine.client()
    s = new_session(c, "drawdot")
    r = draw(engine, "--session", s, "--hit", "60", "300", "--format", "dot")
    text = r.stdout.decode()
    assert r.returncode == 0 and text.startswith("digraph world {")
    assert '"textField" [label=<<b>textField</b>' in text and "outside-bounds" in text
    assert '"card" -> "root" [constraint=false, color="#e8590c"' in text
    r = draw(engine, "--session", s, "--out", str(tmp_path / "w.png"), env={"PATH": "/nonexistent"})
    assert r.returncode == 1 and b"Graphviz's `dot`, which is not installed" in r.stderr
    if shutil.which("dot"):
        r = draw(engine, "--session", s, "--hit", "60", "300", "--out", str(tmp_path / "w.png"))
        assert r.returncode == 0, r.stderr
        assert (tmp_path / "w.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
