"""`responder compare` and the MCP `compare` tool against a real engine: the same input on one tree under the
`uikit` and the `android` profile, printed side by side with the first difference marked and the deciding rules
cited. The trees are the seed's three contrasts (alpha 0, a disabled parent, View versus ViewGroup; scenarios
Q3, Q4 and Q5b of the Android reference) and a quick drag on a button in a scroll view (Q7), each written to a
world file by the test; the docs/examples copies of the three contrasts are checked to be the same trees."""

from __future__ import annotations

import json
import subprocess

import anyio
import pytest

from harness import PATIENCE, REPO, new_session
from stdio_harness import mcp_session, responder_path, target_args

APP, AD, W, RVC, R = "app", "AD", "W", "RVC", "R"
MARK = "≠"


# ------------------------------------------------------------------------------------------ trees

def node(id: str, kind: str, frame=None, *children, **fields) -> dict:
    n = {"id": id, "kind": kind, **fields}
    if frame is not None:
        n["frame"] = list(frame)
    if children:
        n["children"] = list(children)
    return n


def button(id: str, frame, action: str, *children, **fields) -> dict:
    fields.setdefault("class", "UIButton")
    return node(id, "control", frame, *children,
                targets=[{"event": "touchUpInside", "action": action, "target": RVC}], **fields)


def app(*r_children, actions=("save", "dismiss", "open")) -> dict:
    """The application: AD, key window W (0,0,400,800) whose root view controller RVC (the Activity under
    android; it implements every action) has root view R filling W with `r_children`, back to front."""
    root = node(R, "view", (0, 0, 400, 800), *r_children)
    rvc = node(RVC, "viewController", None, root, handles={a: "handle" for a in actions})
    return node(APP, "application", None, node(AD, "appDelegate"), node(W, "window", (0, 0, 400, 800), rvc, key=True))


def alpha_zero() -> dict:
    """Q3: a button under a transparent full-screen button."""
    return app(button("Btn", (0, 0, 200, 100), "save"), button("Veil", (0, 0, 400, 800), "dismiss", alpha=0),
               actions=("save", "dismiss"))


def disabled_parent() -> dict:
    """Q4: a button inside a view with user interaction off."""
    return app(node("P", "view", (0, 0, 300, 300), button("Btn", (10, 10, 100, 50), "save"),
                    userInteractionEnabled=False), actions=("save",))


def view_vs_viewgroup() -> dict:
    """Q5b: a custom control with an interactive label in it; under android the label is clickable."""
    title = node("Title", "view", (10, 10, 200, 30), **{"class": "UILabel", "userInteractionEnabled": True,
                                                         "android": {"clickable": True}})
    return app(button("Card", (20, 20, 360, 80), "open", title, **{"class": "CardControl", "baseClass": "UIControl"}),
               actions=("open",))


def scroll_view_with_button() -> dict:
    """Q7's tree S: R > SV(0,0,400,800)[UIScrollView, content 2000 high] > Content(0,0,400,2000)[LinearLayout] >
    Btn(0,100,400,100)[save]."""
    content = node("Content", "view", (0, 0, 400, 2000), button("Btn", (0, 100, 400, 100), "save"),
                   android={"class": "LinearLayout"})
    return app(node("SV", "view", (0, 0, 400, 800), content, **{"class": "UIScrollView", "contentSize": [400, 2000]}))


EXAMPLES = {
    "compare-alpha-zero.json": alpha_zero,
    "compare-disabled-parent.json": disabled_parent,
    "compare-view-vs-viewgroup.json": view_vs_viewgroup,
}


# ------------------------------------------------------------------------------------------ running

def compare(engine, *args, ok: bool = True) -> subprocess.CompletedProcess:
    """`responder compare ARGS`, run from the repository (the guide's paths are relative to it)."""
    r = subprocess.run([str(responder_path()), *target_args(engine), "compare", *args], capture_output=True,
                       text=True, timeout=PATIENCE * 2, cwd=REPO)
    if ok:
        assert r.returncode == 0, r.stderr
    return r


def world_file(tmp_path, tree: dict) -> str:
    path = tmp_path / "world.json"
    path.write_text(json.dumps({"tree": tree}))
    return str(path)


def table(stdout: str) -> list[tuple[str, str, str, str]]:
    """The rows under the header: (marker, event, uikit, android)."""
    rows = []
    for line in stdout.splitlines()[1:]:
        if " | " not in line:
            break
        event, uikit, android = [c.strip() for c in line[2:].split(" | ")]
        rows.append((line[0].strip(), event, uikit, android))
    return rows


def line(stdout: str, prefix: str) -> str:
    (found,) = [l for l in stdout.splitlines() if l.startswith(prefix)]
    return found[len(prefix):].strip()


def scratch_sessions(client) -> list[str]:
    return [s["session"] for s in client.call("session.list")["sessions"] if s["session"].startswith("compare-")]


# ------------------------------------------------------------------------------------------ the three contrasts

def test_alpha_zero_uikit_saves_android_dismisses_H2_AD5_AC4_AX1(engine, client, tmp_path):
    out = compare(engine, "--world", world_file(tmp_path, alpha_zero()), "--tap", "50", "50").stdout
    assert [c.strip() for c in out.splitlines()[0].split("|")] == ["event", "uikit", "android"], out
    assert table(out) == [
        (MARK, "began/DOWN", "Btn (touchDown)", "Veil consumed"),
        ("", "ended/UP", "Btn (touchUpInside, primaryActionTriggered) → save", "Veil consumed, click → dismiss"),
    ], out
    assert line(out, "first difference:") == "began/DOWN — uikit: Btn (touchDown), android: Veil consumed"
    why_uikit = line(out, "why uikit:")
    assert why_uikit.startswith("hit Btn (H2)") and "Veil passed over (H2, alpha)" in why_uikit, out
    assert "save → RVC (A2)" in why_uikit, out
    why_android = line(out, "why android:")
    assert why_android.startswith("Veil offered (AD5: alpha is not tested), consumed (AC4)"), out
    assert "Veil click → dismiss on RVC (AX1)" in why_android and "Btn" not in why_android, out
    assert scratch_sessions(client) == [], "both scratch sessions are deleted"


def test_disabled_parent_blocks_uikit_only_H2_N3_AD5_AC4(engine, client, tmp_path):
    out = compare(engine, "--world", world_file(tmp_path, disabled_parent()), "--tap", "20", "20").stdout
    assert table(out) == [
        (MARK, "began/DOWN", "R, unhandled", "Btn consumed"),
        ("", "ended/UP", "R, unhandled", "Btn consumed, click → save"),
    ], out
    assert line(out, "first difference:") == "began/DOWN — uikit: R, unhandled, android: Btn consumed"
    why_uikit = line(out, "why uikit:")
    assert why_uikit.startswith("hit R (H2); P passed over (H2, interaction-disabled)"), out
    assert "nobody handled it (N3, end-of-chain)" in why_uikit and why_uikit.endswith("no action"), out
    assert line(out, "why android:") == ("P offered (AD5: userInteractionEnabled is not tested); "
                                         "Btn offered (AD5), consumed (AC4); Btn click → save on RVC (AX1)"), out


def test_view_vs_viewgroup_card_opens_in_uikit_title_takes_it_in_android_T2_T3_AD6_AC4_AC10(engine, tmp_path):
    out = compare(engine, "--world", world_file(tmp_path, view_vs_viewgroup()), "--tap", "40", "40").stdout
    assert table(out) == [
        (MARK, "began/DOWN", "Title → Card (touchDown)", "Title consumed"),
        ("", "ended/UP", "Title → Card (touchUpInside) → open", "Title consumed, click by Title: no listener"),
    ], out
    assert line(out, "first difference:") == "began/DOWN — uikit: Title → Card (touchDown), android: Title consumed"
    assert line(out, "why uikit:") == "hit Title (H2); Title passed it on (T2); Card took it over (T3); open → RVC (A2)", out
    assert line(out, "why android:") == "Title offered (AD5), consumed (AC4); Title click, no listener (AC10)", out


@pytest.mark.parametrize("example", sorted(EXAMPLES))
def test_the_docs_examples_are_the_contrasts_and_compare_from_a_session(engine, client, example):
    """docs/examples holds the same three trees; compare reads a session's tree as it reads a world file."""
    path = REPO / "docs" / "examples" / example
    assert json.loads(path.read_text()) == EXAMPLES[example]()
    point = {"compare-alpha-zero.json": ("50", "50"), "compare-disabled-parent.json": ("20", "20"),
             "compare-view-vs-viewgroup.json": ("40", "40")}[example]
    from_file = compare(engine, "--world", str(path), "--tap", *point).stdout
    s = new_session(client, "cmp", tree=EXAMPLES[example]())
    revision = client.call("tree.get", session=s)["revision"]
    from_session = compare(engine, "--session", s, "--tap", *point).stdout
    assert from_session == from_file
    assert client.call("tree.get", session=s)["revision"] == revision, "the session itself is not changed"
    assert MARK in from_file


# ------------------------------------------------------------------------------------------ drag, json, explain

def test_drag_on_a_button_in_a_scroll_view_the_pan_holds_it_android_cancels_it_G8_AS1_AI4(engine, client, tmp_path):
    """Q7: under uikit the pan holds touchesBegan and takes the touch; under android Btn consumes the DOWN and
    gets CANCEL when the scroll view intercepts past the slop."""
    out = compare(engine, "--world", world_file(tmp_path, scroll_view_with_button()),
                  "--drag", "200", "150", "200", "100", "--steps", "3", "--duration", "0.048").stdout
    rows = table(out)
    assert [r[1] for r in rows] == ["began/DOWN", "moved/MOVE", "moved/MOVE", "moved/MOVE", "ended/UP"], out
    assert rows[0] == (MARK, "began/DOWN", "Btn held by SV.pan (G8)", "Btn consumed"), out
    assert [r[0] for r in rows[1:]] == ["", "", "", ""], "only the first difference is marked"
    assert "SV.pan began" in rows[1][2] and "taken-by-gesture" in rows[1][2], out
    assert rows[1][3] == "SV intercepted; Content cancelled (intercept); Btn cancelled (intercept)", out
    assert [r[3] for r in rows[2:]] == ["SV consumed"] * 3, out
    why_android = line(out, "why android:")
    assert "SV intercepted the MOVE (AS1)" in why_android and "Btn cancelled (AI4, intercept)" in why_android, out
    assert why_android.endswith("no click"), out
    assert "SV.pan began (G2)" in line(out, "why uikit:"), out


def test_touches_file_json_and_explain(engine, client, tmp_path):
    world = world_file(tmp_path, alpha_zero())
    touches = tmp_path / "touches.json"
    touches.write_text(json.dumps([{"touch": 1, "phase": "began", "point": [50, 50], "time": 0},
                                   {"touch": 1, "phase": "ended", "point": [50, 50], "time": 0.05}]))
    text = compare(engine, "--world", world, "--touches", str(touches)).stdout
    assert text == compare(engine, "--world", world, "--tap", "50", "50").stdout

    reply = json.loads(compare(engine, "--world", world, "--tap", "50", "50", "--json").stdout)
    assert set(reply) == {"uikit", "android", "firstDifference"} and reply["firstDifference"] == 0
    assert [d["view"] for d in reply["uikit"]["deliveries"]] == ["Btn", "Btn"]
    assert [d["message"] for d in reply["android"]["deliveries"]] == ["ACTION_DOWN", "ACTION_UP"]
    assert reply["android"]["deliveries"][1]["actions"][0]["action"] == "dismiss"

    explained = compare(engine, "--world", world, "--tap", "50", "50", "--explain").stdout
    assert explained.startswith(text)
    assert "uikit trace (" in explained and "hitTest Veil: miss at (50, 50) [touch tap-1] (H2, alpha)" in explained
    assert "android trace (" in explained and "candidate group R, child Veil, result offered" in explained
    assert "AD5  A candidate is visible and contains the point; nothing else counts" in explained
    assert scratch_sessions(client) == []


def test_same_outcome_is_said_and_nothing_marked(engine, tmp_path):
    """Q3b's analogue: a plain button alone is the same tap in both models."""
    out = compare(engine, "--world", world_file(tmp_path, app(button("Btn", (0, 0, 200, 100), "save"))),
                  "--tap", "50", "50").stdout
    assert [r[0] for r in table(out)] == ["", ""], out
    assert "no difference: both models handle every event alike" in out


def test_bad_input_is_refused_and_scratch_sessions_are_deleted(engine, client, tmp_path):
    r = compare(engine, "--tap", "1", "2", "--drag", "1", "2", "3", "4", ok=False)
    assert r.returncode != 0 and "give one input" in r.stderr
    r = compare(engine, "--tap", "1", ok=False)
    assert r.returncode != 0 and "--tap takes two numbers" in r.stderr
    r = compare(engine, "--world", world_file(tmp_path, alpha_zero()), "--session", "x", "--tap", "1", "2", ok=False)
    assert r.returncode != 0 and "--session or --world" in r.stderr
    # The engine refuses the tree: its error, named by field, and no scratch session left behind.
    bad = app(node("V", "view", (0, 0, 10, 10), android={"clickabel": True}))
    r = compare(engine, "--world", world_file(tmp_path, bad), "--tap", "5", "5", ok=False)
    assert r.returncode == 1 and "INVALID_NODE" in r.stderr and "clickabel" in r.stderr, r.stderr
    # A touch the engine refuses after both sessions exist: the sessions go all the same.
    touches = tmp_path / "bad.json"
    touches.write_text(json.dumps([{"touch": 1, "phase": "ended", "point": [5, 5]}]))
    r = compare(engine, "--world", world_file(tmp_path, alpha_zero()), "--touches", str(touches), ok=False)
    assert r.returncode == 1 and "error:" in r.stderr, r.stderr
    assert scratch_sessions(client) == []


def test_help_explains_every_option():
    r = subprocess.run([str(responder_path()), "compare", "--help"], capture_output=True, text=True, timeout=PATIENCE)
    assert r.returncode == 0
    for option in ("--world", "--tap", "--drag", "--steps", "--duration", "--touches", "--explain", "--session"):
        assert option in r.stdout, option
    assert "first difference" in r.stdout and "AD5" in r.stdout


# ------------------------------------------------------------------------------------------ MCP

def test_mcp_compare_gives_the_same_table_and_both_replies(engine, client):
    s = new_session(client, "mcpcmp", tree=alpha_zero())

    async def body():
        async with mcp_session(target_args(engine)) as m:
            result = await m.call_tool("compare", {"session": s, "x": 50, "y": 50})
            text = "\n".join(c.text for c in result.content if c.type == "text")
            assert not result.is_error, text
            assert text.splitlines()[0] == "tap at (50, 50), uikit | android:"
            cli = compare(engine, "--session", s, "--tap", "50", "50").stdout
            assert text.splitlines()[1:] == cli.splitlines()
            structured = result.structured_content
            assert structured["firstDifference"] == 0
            assert structured["android"]["deliveries"][0]["view"] == "Veil"
            assert structured["uikit"]["deliveries"][0]["view"] == "Btn"

            # A world given inline and a drag; a drag missing its end is refused naming the argument.
            result = await m.call_tool("compare", {"world": disabled_parent(), "x1": 20, "y1": 20, "x2": 22,
                                                   "y2": 21, "steps": 1, "duration": 0.05})
            text = "\n".join(c.text for c in result.content if c.type == "text")
            assert not result.is_error, text
            assert f"{MARK} began/DOWN" in text and "first difference: began/DOWN" in text, text
            result = await m.call_tool("compare", {"x1": 20, "y1": 20})
            assert result.is_error and result.structured_content["error"]["data"]["field"] == "x2"
    async def bounded():
        with anyio.fail_after(4 * PATIENCE):
            await body()
    anyio.run(bounded)
    assert scratch_sessions(client) == []


def test_the_cli_guide_shows_what_compare_prints(engine):
    """docs/cli.md's compare section: every `$ responder compare …` line, run from the repository, prints what
    the guide shows."""
    guide = (REPO / "docs" / "cli.md").read_text()
    section = guide.split("## UIKit and Android side by side")[1].split("\n## ")[0]
    block = section.split("```console\n")[1].split("```")[0]
    ran = 0
    for chunk in block.split("$ responder ")[1:]:
        command, _, expected = chunk.partition("\n")
        args = command.split()
        assert args[0] == "compare"
        assert compare(engine, *args[1:]).stdout == expected.rstrip("\n") + "\n", command
        ran += 1
    assert ran == 3
