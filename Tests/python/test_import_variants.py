"""`responder import` reads a screen the same whichever way lldb printed it, and the world it builds behaves as
the app does: against a real engine and the real CLI. The dumps are our own, written in the shapes lldb and
UIKit print (the comments name each shape)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from harness import PATIENCE, find, new_session
from stdio_harness import responder_path, target_args

# ------------------------------------------------------------------------------------------------- the screen

# A settings screen as `-[UIView recursiveDescription]` prints it: a navigation controller's views, a table
# scrolled by its inset (contentOffset {0, -100}) with a custom cell (`baseClass = UITableViewCell`) holding a
# label and a switch, a plain cell, a label made tappable (no `userInteractionEnabled` key: UIKit prints the key
# only when it is NO) whose text has an apostrophe, a custom control printed with `baseClass = UIButton`, a badge
# rotated by a quarter turn and moved 10 points (its printed frame is the rotated bounding box), a collection
# view with a custom cell, and a visual effect view (text after its closing `>`) whose content holds a button.
WINDOW = "0x7f8a5c500000"
NAV_VIEW, ROOT_VIEW = "0x7f8a5c503000", "0x7f8a5c506000"
NAV_BAR = "0x7f8a5c517000"
TABLE, CELL, CELL_CONTENT, CELL_LABEL, SWITCH = ("0x7f8a5c507000", "0x7f8a5c508000", "0x7f8a5c509000",
                                                "0x7f8a5c50a000", "0x7f8a5c50b000")
PLAIN_CELL, PLAIN_CELL_CONTENT = "0x7f8a5c50c000", "0x7f8a5c50d000"
LINK_LABEL, CHIP, BADGE = "0x7f8a5c50e000", "0x7f8a5c50f000", "0x7f8a5c510000"
COLLECTION, PHOTO_CELL, PHOTO_CONTENT = "0x7f8a5c516000", "0x7f8a5c518000", "0x7f8a5c519000"
EFFECT, EFFECT_CONTENT, SIGN_IN, SIGN_IN_LABEL = "0x7f8a5c511000", "0x7f8a5c513000", "0x7f8a5c514000", "0x7f8a5c515000"
NAV_VC, SETTINGS_VC = "0x7f8a5d010000", "0x7f8a5c611000"

VIEWS = f"""\
<UIWindow: {WINDOW}; frame = (0 0; 390 844); gestureRecognizers = <NSArray: 0x600001c20000>; layer = <UIWindowLayer: 0x600001c20010>>
   | <UITransitionView: 0x7f8a5c501000; frame = (0 0; 390 844); autoresize = W+H; layer = <CALayer: 0x600001c20020>>
   |    | <UIDropShadowView: 0x7f8a5c502000; frame = (0 0; 390 844); autoresize = W+H; layer = <CALayer: 0x600001c20030>>
   |    |    | <UILayoutContainerView: {NAV_VIEW}; frame = (0 0; 390 844); autoresize = W+H; layer = <CALayer: 0x600001c20040>>
   |    |    |    | <UINavigationTransitionView: 0x7f8a5c504000; frame = (0 0; 390 844); clipsToBounds = YES; autoresize = W+H; layer = <CALayer: 0x600001c20050>>
   |    |    |    |    | <UIViewControllerWrapperView: 0x7f8a5c505000; frame = (0 0; 390 844); autoresize = W+H; layer = <CALayer: 0x600001c20060>>
   |    |    |    |    |    | <UIView: {ROOT_VIEW}; frame = (0 0; 390 844); autoresize = W+H; backgroundColor = <UIDynamicSystemColor: 0x600001c20070; name = systemGroupedBackgroundColor>; layer = <CALayer: 0x600001c20080>>
   |    |    |    |    |    |    | <UITableView: {TABLE}; frame = (0 0; 390 600); clipsToBounds = YES; autoresize = W+H; gestureRecognizers = <NSArray: 0x600001c20090>; backgroundColor = <UIDynamicSystemColor: 0x600001c20070; name = systemGroupedBackgroundColor>; layer = <CALayer: 0x600001c200a0>; contentOffset: {{0, -100}}; contentSize: {{390, 500}}; adjustedContentInset: {{100, 0, 34, 0}}; dataSource: <MyApp.SettingsViewController: {SETTINGS_VC}>>
   |    |    |    |    |    |    |    | <MyApp.ToggleCell: {CELL}; baseClass = UITableViewCell; frame = (0 0; 390 44); clipsToBounds = YES; autoresize = W; layer = <CALayer: 0x600001c200b0>>
   |    |    |    |    |    |    |    |    | <UITableViewCellContentView: {CELL_CONTENT}; frame = (0 0; 390 44); gestureRecognizers = <NSArray: 0x600001c200c0>; layer = <CALayer: 0x600001c200d0>>
   |    |    |    |    |    |    |    |    |    | <UILabel: {CELL_LABEL}; frame = (20 12; 200 20); text = 'Wi-Fi'; opaque = NO; autoresize = RM+BM; userInteractionEnabled = NO; layer = <_UILabelLayer: 0x600001c200e0>>
   |    |    |    |    |    |    |    |    |    | <UISwitch: {SWITCH}; frame = (321 6; 51 31); opaque = NO; layer = <CALayer: 0x600001c200f0>>
   |    |    |    |    |    |    |    | <UITableViewCell: {PLAIN_CELL}; frame = (0 44; 390 44); text = 'About'; clipsToBounds = YES; autoresize = W; layer = <CALayer: 0x600001c20100>>
   |    |    |    |    |    |    |    |    | <UITableViewCellContentView: {PLAIN_CELL_CONTENT}; frame = (0 0; 390 44); gestureRecognizers = <NSArray: 0x600001c20110>; layer = <CALayer: 0x600001c20120>>
   |    |    |    |    |    |    | <UILabel: {LINK_LABEL}; frame = (20 610; 250 30); text = 'Don't have an account? "Sign up"'; opaque = NO; autoresize = RM+BM; tag = 12; gestureRecognizers = <NSArray: 0x600001c20130>; layer = <_UILabelLayer: 0x600001c20140>>
   |    |    |    |    |    |    | <MyApp.ThemeChip: {CHIP}; baseClass = UIButton; frame = (290 610; 80 30); opaque = NO; layer = <CALayer: 0x600001c20150>>
   |    |    |    |    |    |    | <MyApp.BadgeView: {BADGE}; frame = (300 660; 40 80); transform = [0, 1, -1, 0, 10, 0]; layer = <CALayer: 0x600001c20160>>
   |    |    |    |    |    |    | <UICollectionView: {COLLECTION}; frame = (0 650; 250 90); clipsToBounds = YES; gestureRecognizers = <NSArray: 0x600001c20170>; layer = <CALayer: 0x600001c20180>; contentOffset: {{0, 0}}; contentSize: {{500, 90}}; adjustedContentInset: {{0, 0, 0, 0}}; layout: <UICollectionViewFlowLayout: 0x7f8a5c600000>; dataSource: <MyApp.SettingsViewController: {SETTINGS_VC}>>
   |    |    |    |    |    |    |    | <MyApp.PhotoCell: {PHOTO_CELL}; baseClass = UICollectionViewCell; frame = (10 0; 80 80); layer = <CALayer: 0x600001c20190>>
   |    |    |    |    |    |    |    |    | <UIView: {PHOTO_CONTENT}; frame = (0 0; 80 80); layer = <CALayer: 0x600001c201a0>>
   |    |    |    |    |    |    | <UIVisualEffectView: {EFFECT}; frame = (0 744; 390 100); autoresize = W+TM; layer = <CALayer: 0x600001c201b0>> effect=<UIBlurEffect: 0x600001c201c0> style=UIBlurEffectStyleSystemChromeMaterial
   |    |    |    |    |    |    |    | <_UIVisualEffectBackdropView: 0x7f8a5c512000; frame = (0 0; 390 100); autoresize = W+H; userInteractionEnabled = NO; layer = <UICABackdropLayer: 0x600001c201d0>>
   |    |    |    |    |    |    |    | <_UIVisualEffectContentView: {EFFECT_CONTENT}; frame = (0 0; 390 100); autoresize = W+H; layer = <CALayer: 0x600001c201e0>>
   |    |    |    |    |    |    |    |    | <UIButton: {SIGN_IN}; frame = (20 20; 350 50); opaque = NO; layer = <CALayer: 0x600001c201f0>>
   |    |    |    |    |    |    |    |    |    | <UIButtonLabel: {SIGN_IN_LABEL}; frame = (140 15; 70 20); text = 'Sign in'; opaque = NO; userInteractionEnabled = NO; layer = <_UILabelLayer: 0x600001c20200>>
   |    |    |    | <UINavigationBar: {NAV_BAR}; frame = (0 47; 390 44); opaque = NO; autoresize = W; layer = <CALayer: 0x600001c20210>>
"""

# `-[UIViewController _printHierarchy]`: the navigation controller and its child.
CONTROLLERS = f"""\
<UINavigationController {NAV_VC}>, state: appeared, view: <UILayoutContainerView {NAV_VIEW}>
   | <MyApp.SettingsViewController {SETTINGS_VC}>, state: appeared, view: <UIView {ROOT_VIEW}>
"""

# Where a tap lands in the app, and so in every variant's world.
EXPECTED_HITS = {
    (200, 60): NAV_BAR,
    (60, 122): CELL_CONTENT,        # the cell's label has interaction off: its content view
    (340, 121): SWITCH,             # the table's inset offset puts the first cell at y 100
    (60, 166): PLAIN_CELL_CONTENT,
    (40, 620): LINK_LABEL,          # a label made tappable
    (300, 620): CHIP,
    (320, 665): BADGE,              # inside the printed (rotated) frame
    (360, 700): ROOT_VIEW,          # where the printed frame, read as untransformed, would have put the badge
    (50, 690): PHOTO_CONTENT,
    (100, 790): SIGN_IN,            # inside the visual effect view's content, where it is drawn
    (200, 760): EFFECT_CONTENT,
}


# ------------------------------------------------------------------------------------------ the variants

def swift_escaped(text: str) -> str:
    """A string as Swift's debugDescription writes it (what `po` shows for a `String` value)."""
    return (text.replace("\\", "\\\\").replace('"', '\\"').replace("'", "\\'")
            .replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t"))


def c_escaped(text: str) -> str:
    """A string as lldb's NSString summary writes it (`p` of an NSString without -O)."""
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


VARIANTS = {
    # Objective-C: `po [[UIWindow keyWindow] recursiveDescription]`, prompt line kept.
    "objc po": lambda d, cmd: f"(lldb) po [[UIWindow keyWindow] {cmd}]\n" + d,
    # `expr -l objc -O -- …` from a Swift frame prints the same text.
    "expr -l objc -O": lambda d, cmd: f"(lldb) expr -l objc -O -- [[UIWindow keyWindow] {cmd}]\n" + d,
    # Swift `po …value(forKey:)`: an `Any?`, shown as `▿ Optional<Any>` with the text after `  - some : `.
    "swift po Any?": lambda d, cmd: (f'(lldb) po UIApplication.shared.keyWindow!.value(forKey: "{cmd}")\n'
                                     "▿ Optional<Any>\n  - some : " + d),
    # Swift `po` of a `String?`: the whole dump on one line, quoted and escaped.
    "swift po String?": lambda d, cmd: '▿ Optional<String>\n  - some : "' + swift_escaped(d) + '"\n',
    # `p` of an NSString: lldb's summary, `@"…"` with C escapes.
    "objc p": lambda d, cmd: '(__NSCFString *) $3 = 0x00006000031c8000 @"' + c_escaped(d) + '"\n',
    # Pasted through a ticket or chat (CRLF), or saved by an old Mac editor (CR).
    "crlf": lambda d, cmd: d.replace("\n", "\r\n"),
    "cr": lambda d, cmd: d.replace("\n", "\r"),
    # The Swift wrapper and CRLF together.
    "swift po Any? crlf": lambda d, cmd: ("▿ Optional<Any>\n  - some : " + d).replace("\n", "\r\n"),
}


def cli(engine, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(responder_path()), *target_args(engine), *args], capture_output=True, text=True,
                          timeout=PATIENCE)


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_bytes(text.encode())  # as is: no newline translation
    return str(path)


def imported(engine, *files: str, ok: bool = True) -> tuple[dict, str]:
    r = cli(engine, "import", *files)
    assert (r.returncode == 0) == ok, r.stderr
    return (json.loads(r.stdout) if ok else {}), r.stderr


@pytest.fixture
def plain(engine, tmp_path):
    world, err = imported(engine, write(tmp_path, "views.txt", VIEWS), write(tmp_path, "vcs.txt", CONTROLLERS))
    assert "warning" not in err and "error" not in err, err
    return world


def hits(client, tree: dict) -> dict:
    session = new_session(client, "variant", tree=tree)
    return {p: client.call("hitTest", session=session, point=list(p))["view"] for p in EXPECTED_HITS}


def test_the_plain_dump_builds_the_screen_and_says_what_it_made(engine, client, plain, tmp_path):
    tree = plain["tree"]
    assert hits(client, tree) == EXPECTED_HITS
    # Cells keep their classes, and a custom cell behaves as the cell class it names (K14–K16).
    assert find(tree, CELL)["class"] == "MyApp.ToggleCell" and find(tree, CELL)["baseClass"] == "UITableViewCell"
    assert "baseClass" not in find(tree, CELL).get("annotations", {})
    assert find(tree, PLAIN_CELL)["class"] == "UITableViewCell"
    assert find(tree, CELL_CONTENT)["class"] == "UITableViewCellContentView"
    assert find(tree, PHOTO_CELL)["baseClass"] == "UICollectionViewCell"
    table = find(tree, TABLE)
    assert table["boundsOrigin"] == [0, -100] and table["contentSize"] == [390, 500]
    # Keys after quoted text with an apostrophe and quotes survive.
    link = find(tree, LINK_LABEL)["annotations"]
    assert link["text"] == 'Don\'t have an account? "Sign up"' and link["tag"] == "12"
    assert link["gestureRecognizers"] == "<NSArray: 0x600001c20130>"
    # The text after the visual effect view's `>` is kept; its children stay its children.
    effect = find(tree, EFFECT)
    assert effect["annotations"]["effect"] == "<UIBlurEffect: 0x600001c201c0>"
    assert effect["annotations"]["style"] == "UIBlurEffectStyleSystemChromeMaterial"
    assert [c["id"] for c in effect["children"]] == ["0x7f8a5c512000", EFFECT_CONTENT]
    # The rotated badge: bounds 80 × 40 about the center the printed box gives, less the transform's 10 points.
    badge = find(tree, BADGE)
    assert badge["frame"] == [270, 680, 80, 40] and badge["annotations"]["printedFrame"] == "(300 660; 40 80)"
    # The summary names what was made.
    r = cli(engine, "import", write(tmp_path, "v.txt", VIEWS), write(tmp_path, "c.txt", CONTROLLERS))
    assert "1 window, 2 controllers, 3 controls" in r.stderr and "stand-in" not in r.stderr, r.stderr


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_variant_gives_the_plain_world(engine, client, plain, tmp_path, variant):
    shape = VARIANTS[variant]
    views = write(tmp_path, "views.txt", shape(VIEWS, "recursiveDescription"))
    vcs = write(tmp_path, "vcs.txt", shape(CONTROLLERS, "_printHierarchy"))
    world, err = imported(engine, views, vcs)
    assert "warning" not in err and "error" not in err, err
    assert world == plain, f"{variant}: not the plain dump's world"
    assert hits(client, world["tree"]) == EXPECTED_HITS


def test_the_chain_runs_through_both_controllers(engine, client, plain):
    session = new_session(client, "chain", tree=plain["tree"])
    chain = client.call("responderChain", session=session, id=SWITCH)["chain"]
    assert chain[:6] == [SWITCH, CELL_CONTENT, CELL, TABLE, ROOT_VIEW, SETTINGS_VC], chain
    assert chain[chain.index(NAV_VIEW) + 1] == NAV_VC and chain[-2:] == [WINDOW, "app"], chain


def performed(reply: dict) -> list[tuple]:
    return [(a["action"], a["event"]) for d in reply["deliveries"] for a in d["actions"] if a["performed"]]


def test_a_custom_control_with_base_class_uibutton_sends_its_actions(engine, client, plain):
    chip = find(plain["tree"], CHIP)
    assert chip["kind"] == "control" and chip["baseClass"] == "UIButton"
    session = new_session(client, "chip", tree=plain["tree"])
    client.call("tree.apply", session=session, ops=[
        {"op": "update", "id": CHIP, "set": {"targets": [
            {"event": "primaryActionTriggered", "action": "chipTapped:", "target": None}]}},
        {"op": "update", "id": SETTINGS_VC, "set": {"handles": {"chipTapped:": "handle"}}}])
    reply = client.call("event.tap", session=session, point=[300, 620])
    # K2: a UIButton sends primaryActionTriggered with touchUpInside.
    assert ("chipTapped:", "primaryActionTriggered") in performed(reply), reply


def test_labels_follow_what_lldb_prints_about_interaction(engine, client, plain):
    tree = plain["tree"]
    # K1: lldb prints `userInteractionEnabled = NO` when it is NO, so a label without the key was made tappable.
    assert find(tree, LINK_LABEL)["userInteractionEnabled"] is True
    assert find(tree, CELL_LABEL)["userInteractionEnabled"] is False
    session = new_session(client, "k1", tree=tree)
    r = cli(engine, "hit", "40", "620", "--explain", "--session", session)
    assert r.returncode == 0 and LINK_LABEL in r.stdout and "interaction-disabled" not in r.stdout, r.stdout


# ------------------------------------------------------------------------------------------ an honest result

def test_a_lost_line_with_children_is_refused_unless_partial(engine, tmp_path):
    # The visual effect view's line cut short: its children would land in the root view's coordinates.
    lines = VIEWS.splitlines(keepends=True)
    at = next(i for i, l in enumerate(lines) if EFFECT in l)
    lines[at] = lines[at][:lines[at].index("; autoresize")] + "\n"
    damaged = write(tmp_path, "views.txt", "".join(lines))
    _, err = imported(engine, damaged, ok=False)
    assert f"views.txt:{at + 1}: unreadable view line" in err, err
    nested = next(l for l in err.splitlines() if f"views.txt:{at + 2}:" in l)
    assert nested.startswith("error: ") and f"(line {at + 1})" in nested and "--partial" in err, err
    world, err = imported(engine, damaged, "--partial")
    nested = next(l for l in err.splitlines() if f"views.txt:{at + 2}:" in l)
    assert nested.startswith("warning: "), err
    assert find(world["tree"], EFFECT) is None and find(world["tree"], SIGN_IN) is not None


def test_a_dump_without_a_window_is_refused_unless_partial(engine, tmp_path):
    # `po someView.recursiveDescription` of the root view alone, its markers gone with its ancestors.
    sub = write(tmp_path, "sub.txt", VIEWS.splitlines()[6].lstrip(" |") + "\n")
    _, err = imported(engine, sub, ok=False)
    assert "shows no window" in err and ROOT_VIEW in err and "--partial" in err, err
    world, err = imported(engine, sub, "--partial")
    assert "1 stand-in window" in err and world["tree"]["children"][0]["children"][0]["id"] == ROOT_VIEW, err
    _, err = imported(engine, write(tmp_path, "none.txt", "nothing to see\n"), ok=False)
    assert "none.txt:1: not a hierarchy line" in err and "no view line was read" in err, err


# ------------------------------------------------------------------------------------------ names

def test_imported_views_keep_display_names_and_find_lists_them(engine, client, plain):
    tree = plain["tree"]
    # A button's title is printed on its UIButtonLabel; a cell's text on the label in its content view.
    assert find(tree, SIGN_IN)["annotations"]["displayName"] == 'UIButton "Sign in"'
    assert find(tree, CELL)["annotations"]["displayName"] == 'MyApp.ToggleCell "Wi-Fi"'
    assert find(tree, PLAIN_CELL)["annotations"]["displayName"] == 'UITableViewCell "About"'
    assert find(tree, SWITCH)["annotations"]["displayName"] == "UISwitch"
    assert find(tree, SETTINGS_VC)["annotations"]["displayName"] == "MyApp.SettingsViewController"
    session = new_session(client, "find", tree=tree)
    r = cli(engine, "find", "sign in", "--session", session)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [f'{SIGN_IN}  UIButton "Sign in"  control',
                                     f'{SIGN_IN_LABEL}  UIButtonLabel "Sign in"  view'], r.stdout
    r = cli(engine, "find", "ThemeChip", "--session", session, "--json")
    assert json.loads(r.stdout) == [{"id": CHIP, "kind": "control", "class": "MyApp.ThemeChip",
                                     "displayName": "MyApp.ThemeChip"}], r.stdout
    r = cli(engine, "find", "no such words", "--session", session)
    assert r.returncode == 1 and r.stdout == "" and 'no node matches "no such words"' in r.stderr, r.stderr


def test_a_view_rotated_by_45_degrees_is_read_as_square_and_says_so(engine, client, tmp_path):
    # UIKit prints cos 45° with all its digits; the box of a 45° turn fixes only width + height.
    c = "0.70710678118654757"
    dump = (f"<UIWindow: {WINDOW}; frame = (0 0; 390 844); layer = <UIWindowLayer: 0x600001c20010>>\n"
            f"   | <MyApp.Dial: {BADGE}; frame = (100 100; 141.4213562373095 141.4213562373095); "
            f"transform = [{c}, {c}, -{c}, {c}, 0, 0]; layer = <CALayer: 0x600001c20160>>\n")
    r = cli(engine, "import", "--strict", write(tmp_path, "dial.txt", dump))
    assert r.returncode == 0 and "note: " in r.stderr and "dial.txt:2: frame: bounds assumed square" in r.stderr, r.stderr
    dial = find(json.loads(r.stdout)["tree"], BADGE)
    assert [round(v, 6) for v in dial["frame"]] == [120.710678, 120.710678, 100, 100], dial
    assert "square" in dial["annotations"]["frameAssumption"]
    session = new_session(client, "dial", tree=json.loads(r.stdout)["tree"])
    # The box's center and a point near its top corner (the rotated square's top vertex) hit the dial.
    assert client.call("hitTest", session=session, point=[170.7, 170.7])["view"] == BADGE
    assert client.call("hitTest", session=session, point=[170.7, 105])["view"] == BADGE
    assert client.call("hitTest", session=session, point=[105, 105])["view"] == WINDOW
