"""`responder draw` against the real engine: the SVG is parsed and read through its data attributes —
every view's shape, the hit path with its reasons, the touch point, the responder chain — and the Graphviz
forms are checked."""

from __future__ import annotations

import math
import shutil
import struct
import subprocess
import xml.etree.ElementTree as ET
import zlib

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
    r = draw(engine, "--session", s, "--format", "graph-png", "--out", str(tmp_path / "w.png"), env={"PATH": "/nonexistent"})
    assert r.returncode == 1 and b"Graphviz's `dot`, which is not installed" in r.stderr
    if shutil.which("dot"):
        r = draw(engine, "--session", s, "--hit", "60", "300", "--format", "graph-png", "--out", str(tmp_path / "w.png"))
        assert r.returncode == 0, r.stderr
        assert (tmp_path / "w.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    r = draw(engine, "--session", s, "--out", str(tmp_path / "w.gv"))
    assert r.returncode == 0 and (tmp_path / "w.gv").read_text().startswith("digraph world {")


# ------------------------------------------------------------------------------------------ the output by extension

def read_png(data: bytes) -> tuple[int, int, list[bytes], int]:
    """A PNG's width, height, rows of pixels and bytes per pixel (8-bit RGB or RGBA, not interlaced): enough to
    read the pictures Chromium writes, with no imaging library."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "a PNG signature"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        assert zlib.crc32(kind + body) == struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])[0], "chunk CRC"
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, color, _, _, interlace = header
    assert depth == 8 and color in (2, 6) and interlace == 0, header
    bpp = 3 if color == 2 else 4
    raw, stride, rows, prev = zlib.decompress(idat), width * bpp, [], bytearray(width * bpp)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, rows, bpp


def pixel(png, x: float, y: float) -> tuple[int, int, int]:
    _, _, rows, bpp = png
    i = int(x) * bpp
    return tuple(rows[int(y)][i:i + 3])


def near(a, b, tolerance=12) -> bool:
    return all(abs(p - q) <= tolerance for p, q in zip(a, b))


def view_box(root: ET.Element) -> tuple[float, float, float, float]:
    return tuple(float(v) for v in root.get("viewBox").split())


@pytest.mark.skipif(not shutil.which("chromium"), reason="chromium renders the PNG")
def test_png_is_the_screen_picture_rasterised(engine, tmp_path):
    c = engine.client()
    s = new_session(c, "drawpng")
    root = svg_of(engine, "--session", s, "--why", "photoButton")
    r = draw(engine, "--session", s, "--why", "photoButton", "--out", str(tmp_path / "w.png"))
    assert r.returncode == 0, r.stderr.decode()
    png = read_png((tmp_path / "w.png").read_bytes())
    x0, y0, w, h = view_box(root)
    assert (png[0], png[1]) == (math.ceil(w), math.ceil(h)), "one pixel per point of the picture"
    # The culprit's outline (photo, K1) is drawn in the highlight red: its top edge, halfway along.
    (culprit,) = shapes(root, data_why="culprit")
    assert culprit.get("data-node-id") == "photo"
    cx, cy, cw = (float(culprit.get(k)) for k in ("x", "y", "width"))
    assert near(pixel(png, cx + cw / 2 - x0, cy - y0), (0xd3, 0x2f, 0x2f)), pixel(png, cx + cw / 2 - x0, cy - y0)
    # The background of the picture, away from everything.
    assert near(pixel(png, 2, 2), (0xee, 0xf0, 0xf4))
    # Only the extensions that name a format.
    r = draw(engine, "--session", s, "--out", str(tmp_path / "w.jpg"))
    assert r.returncode != 0 and not (tmp_path / "w.jpg").exists()
    assert b"--out" in r.stderr and b".jpg" in r.stderr and all(e in r.stderr for e in (b".svg", b".png", b".dot", b".gv"))
    r = draw(engine, "--session", s, "--out", str(tmp_path / "w.svg"))
    assert r.returncode == 0 and ET.parse(tmp_path / "w.svg").getroot().tag == f"{SVG}svg"
    r = draw(engine, "--session", s, "--out", str(tmp_path / "x.png"), env={"PATH": "/nonexistent"})
    assert r.returncode == 1 and b"Chromium, which is not installed" in r.stderr


# ------------------------------------------------------------------------------------------ --why

def why_text(engine, s: str, view_id: str) -> list[str]:
    r = subprocess.run([str(responder_path()), *target_args(engine), "why", view_id, "--session", s],
                       capture_output=True, timeout=PATIENCE * 2)
    return r.stdout.decode().splitlines()


@pytest.mark.parametrize("view_id,culprit,recognizer", [
    ("photoButton", "photo", None),  # K1: an image view's interaction is off
    ("header", "header", "headerTap"),  # G7: a tap recognizer cancels its touches
    ("button", None, None),  # ok
])
def test_why_draws_the_same_answer_responder_why_prints(engine, view_id, culprit, recognizer):
    c = engine.client()
    s = new_session(c, "drawwhy")
    c.call("tree.apply", session=s, ops=[{"op": "update", "id": "header", "set": {
        "gestureRecognizers": [{"id": "headerTap", "kind": "tap"}]}}])
    root = svg_of(engine, "--session", s, "--why", view_id)
    (group,) = [g for g in root.iter(f"{SVG}g") if g.get("class") == "why"]
    answer = c.call("whyNot", session=s, view=view_id)
    assert group.get("data-view") == view_id and group.get("data-ok") == str(answer["ok"]).lower()
    assert group.get("data-culprit") == culprit == (answer["cause"] or {}).get("culprit")
    assert group.get("data-recognizer") == recognizer
    # The caption is `responder why`'s text, line for line (the rules legend follows it there).
    caption = group.find(f"{SVG}title").text.split("\n")
    printed = why_text(engine, s, view_id)
    assert printed[:len(caption)] == caption and caption[-1].startswith("hittable")
    legend = [" ".join(t.itertext()) for t in root.iter(f"{SVG}text") if "lg" in (t.get("class") or "").split()]
    assert caption[0].split(":")[0] in " ".join(legend)
    # The view is outlined; the hittable area and point lie inside it.
    (outline,) = shapes(root, data_why="view")
    assert outline.get("data-node-id") == view_id
    area = shapes(root, data_why="area")
    if answer["hittable"]["point"] is None:
        assert not area and not shapes(root, data_why="point")
    else:
        ox, oy, ow, oh = (float(outline.get(k)) for k in ("x", "y", "width", "height"))
        assert area and all(ox - 0.01 <= float(a.get("x")) and float(a.get("x")) + float(a.get("width")) <= ox + ow + 0.01
                            and oy - 0.01 <= float(a.get("y")) and float(a.get("y")) + float(a.get("height")) <= oy + oh + 0.01
                            for a in area)
        (point,) = shapes(root, data_why="point")
        drawn = [float(v) for v in point.get("data-point").split(",")]
        assert drawn == pytest.approx(answer["hittable"]["point"], abs=0.005), "the point, to two decimals"
