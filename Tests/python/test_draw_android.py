"""`responder draw --profile`: the same tree drawn under UIKit's hit test and under Android's search for the view
that consumes the DOWN, read back through the SVG's data attributes. The world is the seed's alpha-0 contrast
(docs/examples/compare-alpha-zero.json): a transparent Veil over the button Btn.
"""

from __future__ import annotations

import json
import os
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from harness import new_session
from test_draw import SVG, draw, shapes, shapes_with, svg_of

ALPHA_ZERO = Path(__file__).resolve().parents[2] / "docs" / "examples" / "compare-alpha-zero.json"


def alpha_zero() -> dict:
    return json.loads(ALPHA_ZERO.read_text())


def asked(root: ET.Element) -> list[tuple]:
    """(id, data-hit, data-reason, data-rule) of every view the overlay marks, in the order it was asked."""
    return [(e.get("data-node-id"), e.get("data-hit"), e.get("data-reason"), e.get("data-rule")) for e in
            sorted(shapes_with(root, "data-order"), key=lambda e: int(e.get("data-order")))]


def legend(root: ET.Element) -> list[str]:
    return [" ".join(t.itertext()) for t in root.iter(f"{SVG}text") if "lg" in (t.get("class") or "").split()]


def legend_text(root: ET.Element) -> str:
    """The legend as one text: long lines are wrapped over several <text> elements."""
    return " ".join(legend(root))


def sessions(c) -> set[str]:
    return {s["session"] for s in c.call("session.list")["sessions"]}


def test_alpha_zero_hit_under_both_profiles(engine):
    c = engine.client()
    s = new_session(c, "drawaz", tree=alpha_zero())
    uikit = svg_of(engine, "--session", s, "--hit", "50", "50")
    # H2: UIKit passes over the transparent Veil and hits the button below it.
    marks = asked(uikit)
    assert ("Veil", "miss", "alpha", "H2") in marks
    assert marks[-1][:2] == ("Btn", "hit")
    assert "target" in shapes(uikit, data_node_id="Btn", data_hit="hit")[0].get("class").split()
    assert "Profile uikit: UIKit's hit test and responder chain" in legend_text(uikit)

    before = sessions(c)
    android = svg_of(engine, "--session", s, "--hit", "50", "50", "--profile", "android")
    # AD5: alpha is not looked at; the Veil, in front, is offered the DOWN first and consumes it (AC4).
    marks = asked(android)
    assert marks == [("W", "hit", None, "AD6"), ("R", "hit", None, "AD6"), ("Veil", "hit", None, "AC4")]
    (veil,) = shapes(android, data_node_id="Veil", data_hit="hit")
    assert "target" in veil.get("class").split()
    assert not shapes(android, data_node_id="Btn", data_hit="hit"), "Btn is never offered the DOWN"
    lines = legend(android)
    assert any(line.startswith("Profile android:") for line in lines)
    assert "Veil consumed the DOWN in W at (50, 50)" in lines
    text = legend_text(android)
    assert "its click listener calls dismiss on RVC, performed (AX1)" in text, text
    assert text.startswith("Android's search at (50, 50) (event.tap, dry run) · android"), text
    # The scratch session is gone, and the dry run changed nothing in the session drawn.
    assert sessions(c) == before
    assert c.call("session.snapshot", session=s)["profile"]["name"] == "uikit"
    assert not [g for g in android.iter(f"{SVG}g") if g.get("data-chain")], "android draws no responder chain"


def test_android_session_draws_android_by_default_skips_and_refuses_chain_and_why(engine, tmp_path):
    c = engine.client()
    tree = alpha_zero()
    # Veil invisible (AD5's visibility), and a second button outside the touch point.
    veil = tree["children"][1]["children"][0]["children"][0]["children"][1]
    veil["android"] = {"visibility": "invisible"}
    s = new_session(c, "drawand", tree=tree, profile={"name": "android"})
    root = svg_of(engine, "--session", s, "--tap", "50", "50")
    marks = asked(root)
    assert ("Veil", "miss", "invisible", "AD5") in marks
    assert marks[-1] == ("Btn", "hit", None, "AC4")
    assert [m[0] for m in marks] == ["W", "R", "Veil", "Btn"], "numbered in the order the search reached them"
    tags = {g.get("data-node-id"): " ".join(g.itertext()) for g in root.iter(f"{SVG}g")
            if "tag" in (g.get("class") or "").split()}
    assert tags["Veil"] == "3 Veil: invisible" and tags["Btn"] == "4 consumed: Btn"
    assert "its click listener calls save on RVC, performed (AX1)" in legend_text(root)
    # --tap without --dry-run tapped for real: the tap published its trace.
    assert c.call("session.snapshot", session=s)["seq"] > 0

    for option, word in (("--chain", "no responder chain"), ("--why", "no why-not")):
        r = draw(engine, "--session", s, option, "Btn")
        assert r.returncode == 1, r
        message = r.stderr.decode()
        assert word in message and "--tap" in message, message
    # The uikit side of the same tree: --chain works there (a scratch copy, deleted afterwards).
    before = sessions(c)
    chain = svg_of(engine, "--session", s, "--profile", "uikit", "--chain", "Btn")
    assert [g.get("data-node-id") for g in sorted((g for g in chain.iter(f"{SVG}g") if g.get("data-chain")),
                                                  key=lambda g: int(g.get("data-chain")))][:3] == ["Btn", "R", "RVC"]
    assert sessions(c) == before


def test_failure_on_the_copy_still_deletes_it(engine):
    c = engine.client()
    s = new_session(c, "drawfail", tree=alpha_zero())
    before = sessions(c)
    r = draw(engine, "--session", s, "--profile", "android", "--subtree", "NoSuchNode", "--hit", "50", "50")
    assert r.returncode != 0 and b"NoSuchNode" in r.stderr, r
    assert sessions(c) == before


def test_intercepting_group_is_marked(engine):
    c = engine.client()
    tree = alpha_zero()
    r = tree["children"][1]["children"][0]["children"][0]
    r["android"] = {"handles": {"onInterceptTouchEvent": "down", "onTouchEvent": "consume"}}
    s = new_session(c, "drawicpt", tree=tree, profile={"name": "android"})
    root = svg_of(engine, "--session", s, "--hit", "50", "50")
    (group,) = shapes(root, data_node_id="R", data_intercepted="true")
    assert group.get("data-hit") == "hit" and "target" in group.get("class").split(), "R took the DOWN itself"
    assert group.get("data-rule", "").startswith("A")
    tags = {g.get("data-node-id"): " ".join(g.itertext()) for g in root.iter(f"{SVG}g")
            if "tag" in (g.get("class") or "").split()}
    assert tags["R"] == "2 consumed: R (intercepted)"
    assert [m[0] for m in asked(root)] == ["W", "R"], "an intercepted DOWN searches no child"


@pytest.mark.skipif(not shutil.which("chromium"), reason="chromium renders the PNG")
def test_android_picture_as_png(engine, tmp_path):
    c = engine.client()
    s = new_session(c, "drawazpng", tree=alpha_zero())
    out = Path(os.environ.get("DRAW_ANDROID_PNG") or tmp_path / "android.png")
    r = draw(engine, "--session", s, "--hit", "50", "50", "--profile", "android", "--out", str(out))
    assert r.returncode == 0, r.stderr.decode()
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
