"""`responder import` reads what lldb prints about gesture recognizers and control targets, attaches them to the
views they belong to by address, and the world it builds dispatches them: against a real engine and the real CLI.
The sections are our own, written in the shapes lldb, Foundation and UIKit print (the comments name where each
shape is seen); the views are test_import_variants' settings screen."""

from __future__ import annotations

import json
import re
from pathlib import Path

from harness import find, new_session
from test_import_variants import (CELL_CONTENT, CHIP, COLLECTION, CONTROLLERS, LINK_LABEL, PLAIN_CELL_CONTENT,
                                  SETTINGS_VC, SIGN_IN, SWITCH, TABLE, VIEWS, WINDOW, cli, performed, write)

ROOT = Path(__file__).resolve().parents[2]
COMMAND_FILE = ROOT / "tools" / "lldb" / "responder-dump.lldb"

TERMS_TAP, TERMS_DOUBLE, TERMS_PRESS, CUSTOM = "0x600003a0c000", "0x600003a0c100", "0x600003a0c200", "0x600003a0c300"
DELEGATE_OBJECT = "0x600002b18000"  # an object outside the view tree (a coordinator)

# `-[UIGestureRecognizer description]`: class and address, `state = …`, the flags only when they differ from
# UIKit's defaults (`enabled = NO`, `cancelsTouchesInView = NO`, `delaysTouchesBegan = YES`,
# `delaysTouchesEnded = NO`), `view = <Class 0x…>`, `target= <(action=…, target=<Class 0x…>)>`, then the kind's
# parameters that differ (`numberOfTapsRequired = 2`, `minimumPressDuration = …`) and the `must-fail = {` list,
# one description a line, closed by `}>`. Shapes as seen in public code comments and logs: the navigation
# controller's edge pan (`enabled = NO; delaysTouchesBegan = YES`), a collection view's recognizers listed with
# `numberOfTouchesRequired = 2; must-fail = {`, a web view's single tap waiting on its double tap.
SINGLE = (f"<UITapGestureRecognizer: {TERMS_TAP}; state = Possible; view = <UILabel {LINK_LABEL}>; "
          f"target= <(action=termsTapped:, target=<MyApp.SettingsViewController {SETTINGS_VC}>)>")
DOUBLE = (f"<UITapGestureRecognizer: {TERMS_DOUBLE}; state = Possible; view = <UILabel {LINK_LABEL}>; "
          f"target= <(action=termsZoomed:, target=<MyApp.SettingsViewController {SETTINGS_VC}>)>; "
          f"numberOfTapsRequired = 2")
PRESS = (f"<UILongPressGestureRecognizer: {TERMS_PRESS}; state = Possible; cancelsTouchesInView = NO; "
         f"delaysTouchesEnded = NO; view = <UILabel {LINK_LABEL}>; "
         f"target= <(action=termsPressed:, target=<MyApp.LinkCoordinator {DELEGATE_OBJECT}>)>; "
         f"minimumPressDuration = 0.3")
# A custom subclass: its kind is not in the print.
SWIPE_TO_DELETE = (f"<MyApp.SwipeToDelete: {CUSTOM}; state = Possible; enabled = NO; view = <UITableView {TABLE}>; "
                   f"target= <(action=swiped:, target=<MyApp.SettingsViewController {SETTINGS_VC}>)>>")


def descriptions() -> list[list[str]]:
    """The label's three recognizers, each as the lines its description takes: the single tap waits for the double
    tap (`must-fail = {`, the other description, `}>`), and the double tap lists it under `must-fail-for`."""
    return [[SINGLE + "; must-fail = {", f"        {DOUBLE}>", "    }>"],
            [DOUBLE + "; must-fail-for = {", f"        {SINGLE}>", "    }>"],
            [PRESS + ">"]]


# Objective-C `po label.gestureRecognizers` (or `po [0x… gestureRecognizers]`): NSArray's debugDescription,
# `<__NSArrayI 0x…>(`, the elements separated by `,` after each one's last line, and a closing `)` (the shape
# `po` gives any NSArray).
def objc_array(items: list[list[str]]) -> str:
    out = ["<__NSArrayI 0x600000c5d2f0>("]
    for i, lines in enumerate(items):
        out += lines[:-1] + [lines[-1] + ("," if i < len(items) - 1 else "")]
    return "\n".join(out + [")"])


def objc_recognizers(view: str, items: list[list[str]]) -> str:
    return f"(lldb) po [{view} gestureRecognizers]\n" + objc_array(items) + "\n"


# Swift `po label.gestureRecognizers`: an `[UIGestureRecognizer]?`, dumped as `▿ Optional<Array<…>>`,
# `▿ some : N elements` and one `- i : <description>` per element (the dump Swift's `po` gives any array of objects).
def swift_recognizers(items: list[list[str]]) -> str:
    out = ["(lldb) po termsLabel.gestureRecognizers", "▿ Optional<Array<UIGestureRecognizer>>",
           f"  ▿ some : {len(items)} elements"]
    for i, lines in enumerate(items):
        out += [f"    - {i} : {lines[0]}"] + lines[1:]
    return "\n".join(out) + "\n"


# Objective-C `po [button allTargets]` (an NSSet: `{(` … `)}`, NSNull printed `<null>`) and
# `po [button actionsForTarget:… forControlEvent:64]` (an array of selector names), each after the command that
# printed it, as in debugging notes that find a button's action this way.
OBJC_TARGETS = f"""\
(lldb) po [(UIControl *){CHIP} allTargets]
{{(
    <MyApp.SettingsViewController: {SETTINGS_VC}>
)}}
(lldb) po [(UIControl *){CHIP} actionsForTarget:(id){SETTINGS_VC} forControlEvent:64]
<__NSSingleObjectArrayI 0x600000c1c0a0>(
chipTapped:
)
(lldb) e id $signIn = (id){SIGN_IN}
(lldb) po [$signIn allTargets]
{{(
    <null>
)}}
(lldb) po [$signIn actionsForTarget:nil forControlEvent:UIControlEventTouchUpInside]
<__NSArrayM 0x600000c1c0c0>(
signInTapped:
)
(lldb) po [{SWITCH} allTargets]
{{(
)}}
"""

# The same from a Swift frame: `allTargets` is a `Set<AnyHashable>` (`▿ 1 element`, `▿ 0 : AnyHashable(<…>)`,
# `- value : <…>`, as Swift dumps AnyHashable keys) and `actions(forTarget:forControlEvent:)` a `[String]?`.
SWIFT_TARGETS = f"""\
(lldb) po unsafeBitCast({CHIP}, to: UIControl.self).allTargets
▿ 1 element
  ▿ 0 : AnyHashable(<MyApp.SettingsViewController: {SETTINGS_VC}>)
    - value : <MyApp.SettingsViewController: {SETTINGS_VC}>
(lldb) po unsafeBitCast({CHIP}, to: UIControl.self).actions(forTarget: unsafeBitCast({SETTINGS_VC}, to: AnyObject.self), forControlEvent: .touchUpInside)
▿ Optional<Array<String>>
  ▿ some : 1 element
    - 0 : "chipTapped:"
(lldb) po unsafeBitCast({SIGN_IN}, to: UIControl.self).allTargets
▿ 1 element
  ▿ 0 : AnyHashable(<null>)
    - value : <null>
(lldb) po unsafeBitCast({SIGN_IN}, to: UIControl.self).actions(forTarget: nil, forControlEvent: .touchUpInside)
▿ Optional<Array<String>>
  ▿ some : 1 element
    - 0 : "signInTapped:"
(lldb) po unsafeBitCast({SWITCH}, to: UIControl.self).allTargets
- 0 elements
"""

# A table's recognizers printed Objective-C style: the two UIKit gives every scroll view (the engine's K8 pan), as
# a collection view's are seen listed in public code, and one of a custom class.
TABLE_RECOGNIZERS = f"""\
(lldb) po [{TABLE} gestureRecognizers]
<__NSArrayI 0x600000c1c0e0>(
<UIScrollViewDelayedTouchesBeganGestureRecognizer: 0x600003a0c400; state = Possible; delaysTouchesBegan = YES; view = <UITableView {TABLE}>; target= <(action=delayed:, target=<UITableView {TABLE}>)>>,
<UIScrollViewPanGestureRecognizer: 0x600003a0c500; state = Possible; delaysTouchesEnded = NO; view = <UITableView {TABLE}>; target= <(action=handlePan:, target=<UITableView {TABLE}>)>>,
{SWIPE_TO_DELETE}
)
"""


def import_world(engine, tmp_path, *texts: str, ok: bool = True) -> tuple[dict, str]:
    files = [write(tmp_path, f"part{i}.txt", t) for i, t in enumerate(texts)]
    r = cli(engine, "import", *files)
    assert (r.returncode == 0) == ok, r.stderr
    return (json.loads(r.stdout)["tree"] if ok else {}), r.stderr


def check_recognizers_and_targets(tree: dict):
    label = find(tree, LINK_LABEL)
    assert label["gestureRecognizers"] == [
        {"id": TERMS_TAP, "kind": "tap", "requireToFail": [TERMS_DOUBLE],
         "targets": [{"target": SETTINGS_VC, "action": "termsTapped:"}]},
        {"id": TERMS_DOUBLE, "kind": "tap", "numberOfTapsRequired": 2,
         "targets": [{"target": SETTINGS_VC, "action": "termsZoomed:"}]},
        {"id": TERMS_PRESS, "kind": "longPress", "cancelsTouchesInView": False, "delaysTouchesEnded": False,
         "minimumPressDuration": 0.3, "targets": [{"target": DELEGATE_OBJECT, "action": "termsPressed:"}]},
    ], label["gestureRecognizers"]
    assert find(tree, CHIP)["targets"] == [{"event": "touchUpInside", "action": "chipTapped:", "target": SETTINGS_VC}]
    assert find(tree, SIGN_IN)["targets"] == [{"event": "touchUpInside", "action": "signInTapped:", "target": None}]
    assert "targets" not in find(tree, SWITCH)
    # The targets the app registered implement their actions.
    assert find(tree, SETTINGS_VC)["handles"] == {"termsTapped:": "handle", "termsZoomed:": "handle",
                                                  "chipTapped:": "handle"}


def test_objc_and_swift_prints_give_the_same_recognizers_and_targets(engine, tmp_path):
    objc, err = import_world(engine, tmp_path, VIEWS, CONTROLLERS, objc_recognizers(LINK_LABEL, descriptions()),
                             OBJC_TARGETS)
    assert "warning" not in err and "error" not in err, err
    check_recognizers_and_targets(objc)
    assert "3 recognizers, 2 control targets" in err, err
    swift, err = import_world(engine, tmp_path, VIEWS, CONTROLLERS, swift_recognizers(descriptions()),
                              SWIFT_TARGETS)
    assert "warning" not in err and "error" not in err, err
    assert swift == objc
    # Pasted through a ticket (CRLF), in one file after the views: the same world.
    one = (VIEWS + CONTROLLERS + objc_recognizers(LINK_LABEL, descriptions()) + OBJC_TARGETS).replace("\n", "\r\n")
    crlf, err = import_world(engine, tmp_path, one)
    assert crlf == objc, err


def test_an_nslogged_array_and_a_single_recognizer_are_read_too(engine, tmp_path):
    # NSLog / `print` of the array: NSArray's description, each element quoted, newlines inside escaped as `\n`
    # (as the collection view's recognizers are seen in code comments); `po` of one recognizer from Swift prints
    # `Optional(<…>)` when it came from an optional.
    escaped_newline = "\\n"
    logged = "(\n" + ",\n".join('    "' + escaped_newline.join(d) + '"' for d in descriptions()[:2]) + "\n)\n"
    lone = f"Optional({PRESS}>)\n"
    tree, err = import_world(engine, tmp_path, VIEWS, CONTROLLERS, logged, lone, OBJC_TARGETS)
    assert "warning" not in err and "error" not in err, err
    check_recognizers_and_targets(tree)


def test_recognizers_and_targets_read_from_a_dump_take_part_in_dispatch(engine, client, tmp_path):
    tree, _ = import_world(engine, tmp_path, VIEWS, CONTROLLERS, objc_recognizers(LINK_LABEL, descriptions()),
                           OBJC_TARGETS)
    session = new_session(client, "dumped-gestures", tree=tree)
    # A double tap on the label: the double-tap recognizer read from the dump recognizes and sends its action to
    # the controller; the single tap, which must wait for it to fail (must-fail), does not.
    taps = [client.call("event.tap", session=session, point=[40, 620], time=t) for t in (0, 0.1)]
    sent = [(a["recognizer"], a["action"], a["target"], a["performed"])
            for reply in taps for d in reply["deliveries"] for a in d.get("gestureActions", [])]
    assert sent == [(TERMS_DOUBLE, "termsZoomed:", SETTINGS_VC, True)], taps
    # One tap, and the double tap gives up: the single tap read from the dump recognizes (G5).
    client.call("event.tap", session=session, point=[40, 620], time=5)
    waited = client.call("clock.advance", session=session, by=1)
    sent = [(a["recognizer"], a["action"], a["performed"]) for a in waited.get("gestureActions", [])]
    assert sent == [(TERMS_TAP, "termsTapped:", True)], waited
    # The chip's target read from `actionsForTarget:forControlEvent:` receives its action on a tap.
    reply = client.call("event.tap", session=session, point=[300, 620], time=10)
    assert ("chipTapped:", "touchUpInside") in performed(reply), reply
    # The long press's target is not a node of the world: the engine says so instead of inventing one.
    hold = client.call("event.touch", session=session, touches=[
        {"touch": "h", "phase": "began", "point": [40, 620], "time": 20},
        {"touch": "h", "phase": "ended", "point": [40, 620], "time": 21}])
    reasons = [(a["recognizer"], a.get("reason")) for d in hold["deliveries"] for a in d.get("gestureActions", [])]
    assert (TERMS_PRESS, "target-missing") in reasons, hold


def test_what_the_dump_does_not_show_is_listed(engine, tmp_path):
    _, err = import_world(engine, tmp_path, VIEWS, CONTROLLERS)
    unknown_views = sorted([WINDOW, TABLE, CELL_CONTENT, PLAIN_CELL_CONTENT, LINK_LABEL, COLLECTION])
    assert ("import: 6 views have gesture recognizers whose kinds the dump does not show; answers assume they do "
            f"not fire ({', '.join(unknown_views[:5])}, …)") in err, err
    assert f"import: 3 controls' targets are not in the dump; answers assume they send no actions" in err, err
    assert "0 recognizers, 0 control targets" in err, err
    tree, err = import_world(engine, tmp_path, VIEWS, CONTROLLERS, objc_recognizers(LINK_LABEL, descriptions()),
                             TABLE_RECOGNIZERS, OBJC_TARGETS)
    assert "gestureRecognizers" not in find(tree, TABLE) and "handles" not in find(tree, TABLE), find(tree, TABLE)
    assert "import: 4 views have gesture recognizers whose kinds" in err, err
    assert LINK_LABEL not in err.split("import: 4 views")[1].splitlines()[0], err
    assert (f"import: 1 recognizer is of a class the engine does not model; answers assume it does not fire "
            f"(MyApp.SwipeToDelete {CUSTOM} on {TABLE})") in err, err
    assert "controls' targets are not in the dump" not in err, err
    assert (f"import: 1 action is sent to the first responder (nil target): which responder implements it the dump "
            f"does not show (signInTapped: from {SIGN_IN})") in err, err
    # A target whose actions are for events the engine does not know (menuActionTriggered, 1 << 14).
    menu = (f"(lldb) po [{SWITCH} allTargets]\n{{(\n    <MyApp.SettingsViewController: {SETTINGS_VC}>\n)}}\n"
            f"(lldb) po [{SWITCH} actionsForTarget:{SETTINGS_VC} forControlEvent:16384]\n"
            f"<__NSSingleObjectArrayI 0x600000c1c0a0>(\nshowMenu:\n)\n")
    tree, err = import_world(engine, tmp_path, VIEWS, CONTROLLERS, OBJC_TARGETS, menu)
    assert (f"import: 1 control target has no actions in the dump for the events the engine knows "
            f"({SETTINGS_VC} of {SWITCH})") in err, err
    assert "names no single control event the engine knows" in err and "targets" not in find(tree, SWITCH), err


def test_targets_printed_through_a_name_lldb_alone_knows_are_reported_not_guessed(engine, tmp_path):
    named = (f"(lldb) po self.saveButton.allTargets\n{{(\n    <MyApp.SettingsViewController: {SETTINGS_VC}>\n)}}\n"
             f"(lldb) po [self.saveButton actionsForTarget:self forControlEvent:64]\n"
             f"<__NSSingleObjectArrayI 0x600000c1c0a0>(\nsave:\n)\n")
    tree, err = import_world(engine, tmp_path, VIEWS, CONTROLLERS, named)
    assert err.count("cannot be attached: it names the control by no address lldb printed") == 2, err
    assert all("targets" not in find(tree, c) for c in (CHIP, SIGN_IN, SWITCH))
    r = cli(engine, "import", "--strict", write(tmp_path, "v.txt", VIEWS), write(tmp_path, "n.txt", named))
    assert r.returncode == 1 and r.stdout == "", r.stderr


# ------------------------------------------------------------------------------------------ the command file

def command_file_transcript(recognizer_section: list[list[str]], controls: dict[str, list[tuple[str | None, int, str]]]):
    """What lldb shows for `command source tools/lldb/responder-dump.lldb`: each command echoed after `(lldb) `,
    the two hierarchy dumps after their commands, and the walk's string after the last: its sections rendered
    from the command file's own format strings (`%p` as `0x…`, a nil target as `0x0`)."""
    text = COMMAND_FILE.read_text()
    commands = [l for l in text.splitlines() if l.strip() and not l.lstrip().startswith("#")]
    formats = re.findall(r'appendFormat:@"(responder-dump:[^"]*)"', text)
    assert len(formats) == 3, formats
    recognizers_format, targets_format, actions_format = (f.replace("\\n", "\n") for f in formats)

    def render(fmt: str, *values) -> str:
        out = fmt
        for v in values:
            out = re.sub(r"%(p|lu|@)", lambda _: str(v), out, count=1)
        return out

    walk = render(recognizers_format, LINK_LABEL, objc_array(recognizer_section))
    for control, actions in controls.items():
        targets = sorted({t or "<null>" for t, _, _ in actions})
        members = "".join(f"    <MyApp.SettingsViewController: {t}>\n" if t != "<null>" else "    <null>\n"
                          for t in targets)
        walk += render(targets_format, control, "{(\n" + members + ")}")
        for target, event, action in actions:
            walk += render(actions_format, control, target or "0x0", event,
                           f"<__NSSingleObjectArrayI 0x600000c1c0a0>(\n{action}\n)")
    outputs = {"recursiveDescription": VIEWS, "_printHierarchy": CONTROLLERS, "$rdOut": walk}
    lines = ["(lldb) command source ~/src/responder-engine/tools/lldb/responder-dump.lldb",
             "Executing commands in '/Users/me/src/responder-engine/tools/lldb/responder-dump.lldb'."]
    printed = []
    for command in commands:
        lines.append(f"(lldb) {command}")
        if " -O -- " in command:
            key = next(k for k in outputs if k in command)
            printed.append(key)
            lines.append(outputs[key].rstrip("\n"))
    # The file prints the views, then the controllers, then the walk's string; every other command prints nothing.
    assert printed == ["recursiveDescription", "_printHierarchy", "$rdOut"], printed
    return "\n".join(lines) + "\n"


def test_the_command_files_output_imports_with_its_recognizers_and_targets(engine, client, tmp_path):
    transcript = command_file_transcript(descriptions(), {
        CHIP: [(SETTINGS_VC, 64, "chipTapped:")],
        SIGN_IN: [(None, 64, "signInTapped:")],
        SWITCH: [],
    })
    tree, err = import_world(engine, tmp_path, transcript)
    assert "warning" not in err and "error" not in err, err
    check_recognizers_and_targets(tree)
    assert "controls' targets are not in the dump" not in err and "1 window, 2 controllers" in err, err
    session = new_session(client, "command-file", tree=tree)
    reply = client.call("event.tap", session=session, point=[300, 620])
    assert ("chipTapped:", "touchUpInside") in performed(reply), reply


def test_the_command_file_only_reads():
    text = COMMAND_FILE.read_text()
    commands = [l for l in text.splitlines() if l.strip() and not l.lstrip().startswith("#")]
    assert all(c.startswith("expr -l objc ") for c in commands), commands
    # No setter, no message that changes the app: only getters, descriptions and the walk's own variables.
    for forbidden in ("set", "remove", "add", "perform", "send", "insert"):
        calls = re.findall(r"\[[^\[\]]*\b(" + forbidden + r"[A-Za-z]*):", text)
        assert all(c in ("addObjectsFromArray",) for c in calls), (forbidden, calls)


# ------------------------------------------------------------------------------------------ names in answers

SAVE_SCREEN = """\
<UIWindow: 0x7f9b1c400000; frame = (0 0; 390 844); layer = <UIWindowLayer: 0x600002c10000>>
   | <UIView: 0x7f9b1c401000; frame = (0 0; 390 844); layer = <CALayer: 0x600002c10010>>
   |    | <UIButton: 0x7f9b1c402000; frame = (20 700; 350 50); opaque = NO; layer = <CALayer: 0x600002c10020>>
   |    |    | <UIButtonLabel: 0x7f9b1c403000; frame = (120 15; 110 20); text = 'Save Changes'; opaque = NO; userInteractionEnabled = NO; layer = <_UILabelLayer: 0x600002c10030>>
"""


def test_find_hit_first_and_make_key_name_the_views_by_display_name(engine, client, tmp_path):
    tree, _ = import_world(engine, tmp_path, SAVE_SCREEN)
    session = new_session(client, "names", tree=tree)
    button, window = '0x7f9b1c402000  UIButton "Save Changes"  control', "0x7f9b1c400000 (UIWindow)"
    r = cli(engine, "find", "Save", "--session", session)
    assert r.returncode == 0 and r.stdout.splitlines()[0] == button, r.stdout
    r = cli(engine, "hit", "60", "720", "--explain", "--session", session)
    assert r.returncode == 0 and r.stdout.startswith(
        f'hit 0x7f9b1c402000 (UIButton "Save Changes") in window {window} at local '), r.stdout
    assert '0x7f9b1c403000 (UIButtonLabel "Save Changes")' in r.stdout, r.stdout
    client.call("tree.apply", session=session, ops=[
        {"op": "update", "id": "0x7f9b1c402000", "set": {"canBecomeFirstResponder": True}}])
    assert cli(engine, "become", "0x7f9b1c402000", "--session", session).returncode == 0
    r = cli(engine, "first", "--session", session)
    assert r.stdout.strip() == 'first responder: 0x7f9b1c402000 (UIButton "Save Changes")', r.stdout
    r = cli(engine, "first", "--window", "0x7f9b1c400000", "--session", session)
    assert r.stdout.strip() == f'first responder in window {window}: 0x7f9b1c402000 (UIButton "Save Changes")', r.stdout
    r = cli(engine, "make-key", "0x7f9b1c400000", "--session", session)
    assert r.stdout.startswith(f"{window} is the key window (it already was)"), r.stdout
