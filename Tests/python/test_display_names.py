"""The CLI's answers name an imported node by its display name beside its id (`0x… (UIButton "Sign in")`), round
the numbers they print to two decimals, and end an explanation with what each rule it cites means — against a
real engine and the real CLI, on the settings screen `test_import_variants.py` imports."""

from __future__ import annotations

import copy
import subprocess
import time

import pytest

from harness import PATIENCE, find, new_session
from stdio_harness import responder_path, target_args
from test_import_variants import (CELL, CELL_CONTENT, CONTROLLERS, EFFECT_CONTENT, NAV_BAR, ROOT_VIEW, SETTINGS_VC,
                                  SIGN_IN, SIGN_IN_LABEL, SWITCH, TABLE, VIEWS, WINDOW, cli, imported, write)

SIGN_IN_NAME = f'{SIGN_IN} (UIButton "Sign in")'
SWITCH_NAME = f"{SWITCH} (UISwitch)"
WINDOW_NAME = f"{WINDOW} (UIWindow)"


@pytest.fixture
def screen(engine, client, tmp_path) -> tuple[str, dict]:
    """A session on the imported settings screen, and its tree."""
    world, _ = imported(engine, write(tmp_path, "views.txt", VIEWS), write(tmp_path, "vcs.txt", CONTROLLERS))
    return new_session(client, "names", tree=world["tree"]), world["tree"]


def without_names(tree: dict) -> dict:
    """The same world with no display names: as one built by hand."""
    tree = copy.deepcopy(tree)
    stack = [tree]
    while stack:
        node = stack.pop()
        node.get("annotations", {}).pop("displayName", None)
        stack.extend(node.get("children", []))
    return tree


def run(engine, *args: str) -> list[str]:
    r = cli(engine, *args)
    assert r.returncode == 0, r.stderr
    return r.stdout.splitlines()


def test_hit_and_its_explanation_name_views_and_say_what_each_rule_means(engine, screen):
    session, _ = screen
    out = run(engine, "hit", "100", "790", "--explain", "--session", session)
    assert out[0] == f"hit {SIGN_IN_NAME} in window {WINDOW_NAME} at local (80, 26)", out
    rows = out[2:out.index("rules:")]
    # Every view asked, by name: the button hit, its title label and the navigation bar passed over, and why.
    assert any(row.startswith(SIGN_IN_NAME) and " hit " in row for row in rows), rows
    assert any(row.startswith(f"{EFFECT_CONTENT} (_UIVisualEffectContentView)") for row in rows), rows
    label = next(row for row in rows if row.startswith(f'{SIGN_IN_LABEL} (UIButtonLabel "Sign in")'))
    assert label.split()[-5:] == ["miss", "H2", "(-60,", "11)", "interaction-disabled"], label
    bar = next(row for row in rows if row.startswith(f"{NAV_BAR} (UINavigationBar)"))
    assert " miss " in bar and " H3 " in bar and bar.endswith("outside-bounds"), bar
    # After the rows, each rule id printed with its one-line meaning (docs/rules.md's titles).
    legend = out[out.index("rules:") + 1:]
    assert "  H2  hitTest: exclusions, then the front-most subview, then the view itself" in legend, legend
    assert "  H3  point(inside:) is the bounds rectangle" in legend, legend
    cited = {row.split()[0] for row in legend}
    printed = {word for row in rows for word in row.split() if word[:1] in "HK" and word[1:].isdigit()}
    assert printed and printed <= cited, (printed, cited)


def test_chain_names_each_responder(engine, screen):
    session, _ = screen
    out = run(engine, "chain", SWITCH, "--session", session)
    assert out[0].startswith(
        f"{SWITCH_NAME} → {CELL_CONTENT} (UITableViewCellContentView) → {CELL} (MyApp.ToggleCell \"Wi-Fi\") → "
        f"{TABLE} (UITableView) → {ROOT_VIEW} (UIView) → {SETTINGS_VC} (MyApp.SettingsViewController)"), out
    assert out[0].endswith(f"→ {WINDOW_NAME} → app"), out  # the stand-in application has no name of its own


def test_tap_names_the_view_the_path_and_the_steps(engine, screen):
    session, _ = screen
    out = run(engine, "tap", "100", "790", "--explain", "--session", session)
    assert out[0].startswith(f"touch tap-1 began on {SIGN_IN_NAME}: touchesBegan: {SIGN_IN_NAME}, handled by "
                             f"{SIGN_IN_NAME}"), out
    steps = out[next(i for i, line in enumerate(out) if line.startswith("trace (")):]
    assert f"  1. hitTest {WINDOW_NAME}: hit at (100, 790) [touch tap-1] (H2)" in steps, steps
    assert any(line.endswith(f"controlEvent touchDown on {SIGN_IN_NAME} [touch tap-1] (T3)") for line in steps), steps
    assert "  T3  Controls turn touches into control events" in steps[steps.index("rules:"):], steps


def test_tree_shows_the_name_beside_the_id(engine, screen):
    session, _ = screen
    out = run(engine, "tree", "--session", session)
    line = next(line for line in out if SIGN_IN in line)
    assert line.endswith(f"{SIGN_IN_NAME}  control  UIButton  (20, 20, 350, 50)"), line
    assert any(line.endswith(f"{SWITCH_NAME}  control  UISwitch  (321, 6, 51, 31)  [off]") for line in out), out


def test_watch_names_the_views_of_a_tap(engine, client, screen, tmp_path):
    session, _ = screen
    path = tmp_path / "watch.out"
    with open(path, "w+") as out:
        watch = subprocess.Popen([str(responder_path()), "watch", "--session", session, *target_args(engine)],
                                 stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)

    def watched(pattern: str) -> str:
        deadline = time.monotonic() + PATIENCE
        while time.monotonic() < deadline:
            hits = [line for line in path.read_text().splitlines() if pattern in line]
            if hits:
                return hits[0]
            assert watch.poll() is None, f"watch exited: {path.read_text()}"
            time.sleep(0.05)
        raise AssertionError(f"watch printed no line with {pattern!r}: {path.read_text()}")

    try:
        watched(f"following {session} from seq")
        client.call("event.tap", session=session, point=[100, 790])
        line = watched("trace (")
        assert f"touch: touch tap-1 began on {SIGN_IN_NAME}: touchesBegan: {SIGN_IN_NAME}, handled by" in line, line
    finally:
        watch.terminate()
        watch.wait(PATIENCE)


def test_a_world_without_names_reads_as_ids_alone(engine, client, screen):
    _, tree = screen
    session = new_session(client, "ids", tree=without_names(tree))
    chain = client.call("responderChain", session=session, id=SWITCH)["chain"]
    assert run(engine, "chain", SWITCH, "--session", session) == [" → ".join(chain)]
    assert run(engine, "hit", "340", "121", "--session", session) == [f"hit {SWITCH} in window {WINDOW} at local (19, 15)"]
    tap = run(engine, "tap", "100", "790", "--session", session)
    assert tap[0].startswith(f"touch tap-1 began on {SIGN_IN}: touchesBegan: {SIGN_IN}, handled by {SIGN_IN}"), tap
    assert "(UI" not in "\n".join(run(engine, "tree", "--session", session))


def test_frames_and_points_are_rounded_to_two_decimals(engine, client):
    view = {"id": "v", "kind": "view", "frame": [10.333333333, 20.126, 100.005, 44]}
    tree = {"id": "app", "kind": "application", "children": [
        {"id": "w", "kind": "window", "frame": [0, 0, 390, 844], "key": True, "children": [view]}]}
    session = new_session(client, "round", tree=tree)
    assert run(engine, "hit", "50", "50", "--session", session) == ["hit v in window w at local (39.67, 29.87)"]
    line = next(line for line in run(engine, "tree", "--session", session) if line.lstrip("└─ ").startswith("v "))
    assert "(10.33, 20.13, 100, 44)" in line or "(10.33, 20.13, 100.01, 44)" in line, line


def test_draw_labels_the_views_and_names_the_hit_path_by_display_name(engine, screen, tmp_path):
    session, _ = screen
    out = tmp_path / "hit.svg"
    run(engine, "draw", "--hit", "100", "790", "--out", str(out), "--session", session)
    svg = out.read_text()
    # The view's hover text, the hit path's and the chain's, and the legend (which wraps its long lines).
    assert f"<title>{SIGN_IN} · UIButton &quot;Sign in&quot; · control</title>" in svg
    assert f"<title>11. {SIGN_IN} (UIButton &quot;Sign in&quot;): hit" in svg
    assert f"<title>1. {SIGN_IN} (UIButton &quot;Sign in&quot;)</title>" in svg
    assert f">Hit {SIGN_IN} (UIButton &quot;Sign in&quot;) in<" in svg
    assert f">11. {SIGN_IN} (UIButton &quot;Sign in&quot;) — hit (H2),<" in svg


def test_why_names_the_view_and_says_what_its_rules_mean(engine, screen):
    session, _ = screen
    r = cli(engine, "why", SIGN_IN_LABEL, "--session", session)
    out = r.stdout.splitlines()
    assert out[0].startswith(f'{SIGN_IN_LABEL} (UIButtonLabel "Sign in"): not ok ('), out
    rule = out[0].split("not ok (")[1].split(",")[0]
    legend = out[out.index("rules:") + 1:]
    assert any(line.split()[0] == rule and len(line.split()) > 1 for line in legend), out
