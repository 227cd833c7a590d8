"""`responder import` of lldb dumps, `responder record` / `replay --check`, and `dryRun`, against a
real engine and the real CLI."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest

from harness import PATIENCE, SCHEMAS, find, new_session, unique_name
from stdio_harness import responder_path, target_args


def cli(engine, *args, stdin: str | None = None, timeout: float = PATIENCE) -> subprocess.CompletedProcess:
    return subprocess.run([str(responder_path()), *target_args(engine), *args], input=stdin, capture_output=True,
                          text=True, timeout=timeout)


def wait_for(condition, what: str, timeout: float = PATIENCE):
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


# ------------------------------------------------------------------------------------------------- dumps

# A key window's recursiveDescription: 11 levels deep, every key the importer reads, a scroll view with an
# offset, a label and an image view (interaction off, which lldb prints as it does for every view), a hidden
# view, a transformed one, unknown keys, a truncated line (16) and a stray line (21).
VIEWS = """\
(lldb) po UIApplication.shared.keyWindow!.value(forKey: "recursiveDescription")
<UIWindow: 0x7fa1e8c05a30; frame = (0 0; 390 844); gestureRecognizers = <NSArray: 0x600000c0c2a0>; layer = <UIWindowLayer: 0x600000c0c1e0>>
   | <UITransitionView: 0x7fa1e8d01000; frame = (0 0; 390 844); autoresize = W+H; layer = <CALayer: 0x600000c10000>>
   |    | <UIDropShadowView: 0x7fa1e8d02000; frame = (0 0; 390 844); autoresize = W+H; layer = <CALayer: 0x600000c10100>>
   |    |    | <UILayoutContainerView: 0x7fa1e8d03000; frame = (0 0; 390 844); autoresize = W+H; layer = <CALayer: 0x600000c10200>>
   |    |    |    | <UINavigationTransitionView: 0x7fa1e8d04000; frame = (0 0; 390 844); clipsToBounds = YES; autoresize = W+H; layer = <CALayer: 0x600000c10300>>
   |    |    |    |    | <UIViewControllerWrapperView: 0x7fa1e8d05000; frame = (0 0; 390 844); autoresize = W+H; layer = <CALayer: 0x600000c10400>>
   |    |    |    |    |    | <UIView: 0x7fa1e8d06000; frame = (0 0; 390 844); autoresize = W+H; backgroundColor = UIExtendedGrayColorSpace 1 1; layer = <CALayer: 0x600000c10500>>
   |    |    |    |    |    |    | <UIScrollView: 0x7fa1e8d07000; frame = (0 100; 390 744); clipsToBounds = YES; gestureRecognizers = <NSArray: 0x600000c0c3a0>; layer = <CALayer: 0x600000c10600>; contentOffset: {0, 200}; contentSize: {390, 2000}; adjustedContentInset: {0, 0, 34, 0}>
   |    |    |    |    |    |    |    | <MyApp.CardView: 0x7fa1e8d08000; frame = (16 220; 358 200); tag = 7; layer = <CALayer: 0x600000c10700>>
   |    |    |    |    |    |    |    |    | <UILabel: 0x7fa1e8d09000; frame = (16 16; 200 30); text = 'Edit; profile'; opaque = NO; userInteractionEnabled = NO; layer = <_UILabelLayer: 0x600000c10800>>
   |    |    |    |    |    |    |    |    | <UIButton: 0x7fa1e8d0a000; frame = (16 100; 120 44); opaque = NO; layer = <CALayer: 0x600000c10900>>
   |    |    |    |    |    |    |    |    |    | <UIButtonLabel: 0x7fa1e8d0b000; frame = (30 12; 60 20); text = 'Save'; userInteractionEnabled = NO; layer = <_UILabelLayer: 0x600000c10a00>>
   |    |    |    |    |    |    |    |    | <MyApp.AvatarView: 0x7fa1e8d0c000; frame = (250 16; 80 80); hidden = YES; layer = <CALayer: 0x600000c10b00>>
   |    |    |    |    |    |    |    |    | <UIImageView: 0x7fa1e8d0d000; frame = (250 100; 80 80); alpha = 0.5; transform = [0.5, 0, 0, 0.5, 0, 0]; userInteractionEnabled = NO; layer = <CALayer: 0x600000c10c00>>
   |    |    |    |    |    |    |    |    | <UIView: 0x7fa1e8d0e000; frame = (16 160; 100 30
   |    |    |    |    |    |    |    |    | <UIView: 0x7fa1e8d10000; frame = (150 150; 60 40); alpha = 0.005; layer = <CALayer: 0x600000c10e00>>
   |    |    |    |    |    |    | <UIView: 0x7fa1e8d0f000; frame = (0 0; 390 100); userInteractionEnabled = NO; weird = thing; layer = <CALayer: 0x600000c10d00>>
   |    | <UIView: 0x7fa1e8d20000; frame = (0 500; 390 344); layer = <CALayer: 0x600000c11000>>
   |    |    | <MyApp.SheetButton: 0x7fa1e8d21000; frame = (20 20; 200 50); layer = <CALayer: 0x600000c11100>>
this line is not from lldb
"""

# The view controllers' _printHierarchy: a navigation controller, its child, and a presented sheet.
CONTROLLERS = """\
<UINavigationController 0x7fa1e9010000>, state: appeared, view: <UILayoutContainerView 0x7fa1e8d03000>
   | <MyApp.EditorViewController 0x7fa1e9011000>, state: appeared, view: <UIView 0x7fa1e8d06000>
   + <MyApp.SheetViewController 0x7fa1e9012000>, state: appeared, view: <UIView 0x7fa1e8d20000>
"""


@pytest.fixture
def dumps(tmp_path: Path):
    (tmp_path / "views.txt").write_text(VIEWS)
    (tmp_path / "vcs.txt").write_text(CONTROLLERS)
    return tmp_path


def hit(client, session, x, y):
    return client.call("hitTest", session=session, point=[x, y])["view"]


def test_import_both_dumps_loads_a_world_whose_hits_and_chains_match_the_app(engine, dumps):
    session = unique_name("imp")[:60]
    r = cli(engine, "import", str(dumps / "views.txt"), str(dumps / "vcs.txt"), "--load", "--session", session)
    assert r.returncode == 0, r.stderr
    # The damaged lines are reported with their numbers and skipped.
    assert "views.txt:16:" in r.stderr and "views.txt:21:" in r.stderr, r.stderr
    assert "views.txt:2:" not in r.stderr and "vcs.txt" not in r.stderr, r.stderr
    assert "imported" in r.stdout

    client = engine.client()
    try:
        tree = client.call("tree.get", session=session)["tree"]
        window = find(tree, "0x7fa1e8c05a30")
        assert window["kind"] == "window" and window["key"] is True
        assert window["annotations"]["gestureRecognizers"] == "<NSArray: 0x600000c0c2a0>"
        scroll = find(tree, "0x7fa1e8d07000")
        assert scroll["class"] == "UIScrollView" and scroll["boundsOrigin"] == [0, 200] and scroll["clipsToBounds"] is True
        assert scroll["contentSize"] == [390, 2000] and "contentSize" not in scroll["annotations"]
        card = find(tree, "0x7fa1e8d08000")
        assert card["class"] == "MyApp.CardView" and card["annotations"]["tag"] == "7"
        label = find(tree, "0x7fa1e8d09000")
        assert label["userInteractionEnabled"] is False and label["annotations"]["text"] == "Edit; profile"
        assert find(tree, "0x7fa1e8d0a000")["kind"] == "control"
        assert find(tree, "0x7fa1e8d0c000")["hidden"] is True
        image = find(tree, "0x7fa1e8d0d000")
        assert image["alpha"] == 0.5 and image["transform"] == [0.5, 0, 0, 0.5, 0, 0] and image["userInteractionEnabled"] is False
        # The printed frame is the scaled box: the bounds are twice its size about the same center.
        assert image["frame"] == [210, 60, 160, 160] and image["annotations"]["printedFrame"] == "(250 100; 80 80)"
        assert find(tree, "0x7fa1e8d0f000")["annotations"]["weird"] == "thing"
        assert find(tree, "0x7fa1e8d0e000") is None, "the truncated line is skipped"
        # Controllers sit above their root views; the presented one under the window, with presentedBy.
        nav = find(tree, "0x7fa1e9010000")
        assert nav["kind"] == "viewController" and nav["class"] == "UINavigationController"
        assert [c["id"] for c in nav["children"]] == ["0x7fa1e8d03000"]
        editor = find(tree, "0x7fa1e9011000")
        assert [c["id"] for c in editor["children"]] == ["0x7fa1e8d06000"] and editor["annotations"]["state"] == "appeared"
        sheet = find(tree, "0x7fa1e9012000")
        assert sheet["presentedBy"] == "0x7fa1e9010000" and sheet in window["children"]

        # The button: card at y 100 + 220 - 200 (scrolled) = 120; button 100 below → 220…264, x 32…152.
        assert hit(client, session, 60, 240) == "0x7fa1e8d0a000"
        # Its label has interaction off: the tap still goes to the button.
        assert hit(client, session, 60, 250) == "0x7fa1e8d0a000"
        # The UILabel (interaction off by default) passes the point to the card.
        assert hit(client, session, 40, 145) == "0x7fa1e8d08000"
        # The hidden avatar and the scaled image view: the card gets those points.
        assert hit(client, session, 280, 150) == "0x7fa1e8d08000"
        # alpha 0.005 is below UIKit's hit-test threshold.
        assert hit(client, session, 190, 280) == "0x7fa1e8d08000"
        # The top bar has interaction off: the root view under it gets the point.
        assert hit(client, session, 200, 50) == "0x7fa1e8d06000"
        # The presented sheet is in front: its button.
        assert hit(client, session, 100, 540) == "0x7fa1e8d21000"

        chain = client.call("responderChain", session=session, id="0x7fa1e8d0a000")["chain"]
        assert chain[:5] == ["0x7fa1e8d0a000", "0x7fa1e8d08000", "0x7fa1e8d07000", "0x7fa1e8d06000", "0x7fa1e9011000"]
        assert "0x7fa1e9010000" in chain and chain[-1] == "app"
        sheet_chain = client.call("responderChain", session=session, id="0x7fa1e8d21000")["chain"]
        assert sheet_chain[:3] == ["0x7fa1e8d21000", "0x7fa1e8d20000", "0x7fa1e9012000"]

        # hit --explain answers why, with the dump's addresses.
        r = cli(engine, "hit", "60", "240", "--explain", "--session", session)
        assert r.returncode == 0 and "0x7fa1e8d0f000" in r.stdout and "interaction-disabled" in r.stdout, r.stdout
    finally:
        client.close()


def test_import_prints_the_world_and_strict_refuses_damaged_lines(engine, dumps):
    r = cli(engine, "import", str(dumps / "views.txt"))
    assert r.returncode == 0, r.stderr
    world = json.loads(r.stdout)
    assert world["tree"]["id"] == "app" and find(world["tree"], "0x7fa1e8d21000")["class"] == "MyApp.SheetButton"
    # The printed world loads as it is.
    client = engine.client()
    try:
        session = new_session(client, "impout", tree=world["tree"])
        assert hit(client, session, 60, 240) == "0x7fa1e8d0a000"
    finally:
        client.close()

    r = cli(engine, "import", "--strict", str(dumps / "views.txt"))
    assert r.returncode == 1 and r.stdout == ""
    assert "views.txt:16:" in r.stderr and "views.txt:21:" in r.stderr

    # Controllers alone are readable (strict passes them) but hold no window: refused unless --partial.
    r = cli(engine, "import", "--strict", str(dumps / "vcs.txt"))
    assert r.returncode == 1 and "no view line was read" in r.stderr and "vcs.txt:" not in r.stderr, r.stderr
    r = cli(engine, "import", "--strict", "--partial", str(dumps / "vcs.txt"))
    assert r.returncode == 0, r.stderr


def test_import_a_subview_dump_and_a_controllers_only_dump(engine, tmp_path):
    # `po someView.recursiveDescription` of a view that is not a window: with --partial, it is put in a window of
    # its size.
    (tmp_path / "sub.txt").write_text(
        "<MyApp.Toolbar: 0x600001a00000; frame = (0 0; 320 44); layer = <CALayer: 0x6000>>\n"
        "   | <UIButton: 0x600001a01000; frame = (8 4; 36 36); layer = <CALayer: 0x6001>>\n"
        "   | <UIButton: 0x600001a02000; frame = (276 4; 36 36); userInteractionEnabled = NO; layer = <CALayer: 0x6002>>\n")
    (tmp_path / "only-vcs.txt").write_text(CONTROLLERS)
    r = cli(engine, "import", str(tmp_path / "sub.txt"), "-", stdin=CONTROLLERS)
    assert r.returncode == 1 and "shows no window" in r.stderr and r.stdout == "", r.stderr
    r = cli(engine, "import", "--partial", str(tmp_path / "sub.txt"), "-", stdin=CONTROLLERS)
    assert r.returncode == 0, r.stderr
    tree = json.loads(r.stdout)["tree"]
    windows = tree["children"]
    assert windows[0]["kind"] == "window" and windows[0]["frame"] == [0, 0, 320, 44]
    assert windows[0]["children"][0]["id"] == "0x600001a00000"
    client = engine.client()
    try:
        session = new_session(client, "impsub", tree=tree)
        assert hit(client, session, 20, 20) == "0x600001a01000"
        assert hit(client, session, 290, 20) == "0x600001a00000"
        # Controllers whose views were not dumped get placeholder root views and still form chains.
        chain = client.call("responderChain", session=session, id="0x7fa1e8d06000")["chain"]
        assert chain[:2] == ["0x7fa1e8d06000", "0x7fa1e9011000"]
    finally:
        client.close()


# ------------------------------------------------------------------------------------------ record/replay

def start_record(engine, path: Path, session: str, count: int) -> subprocess.Popen:
    proc = subprocess.Popen([str(responder_path()), *target_args(engine), "record", str(path), "--session", session,
                             "--count", str(count)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_for(lambda: path.exists() and path.read_text().endswith("\n"), "the recording's snapshot line")
    return proc


def test_record_then_replay_check_round_trip_and_an_edited_recording_is_caught(engine, tmp_path):
    client = engine.client()
    try:
        session = new_session(client, "rec")
        # Activity before the recording starts: the snapshot carries its effect.
        client.call("tree.apply", session=session, ops=[{"op": "update", "id": "title", "set": {"hidden": True}}])
        client.call("event.tap", session=session, point=[300, 300])
        path = tmp_path / "session.jsonl"
        proc = start_record(engine, path, session, count=6)
        client.call("event.tap", session=session, point=[100, 150])
        client.call("tree.apply", session=session, ops=[{"op": "update", "id": "button", "set": {"enabled": False}}])
        client.call("event.tap", session=session, point=[100, 150])
        client.call("responder.become", session=session, id="textField")
        client.call("action.send", session=session, action="copy:")
        client.call("event.touch", session=session, touches=[{"touch": 1, "phase": "began", "point": [100, 210]},
                                                             {"touch": 1, "phase": "ended"}])
        out, err = proc.communicate(timeout=PATIENCE)
        assert proc.returncode == 0, err
    finally:
        client.close()

    lines = [json.loads(l) for l in path.read_text().splitlines()]
    for i, line in enumerate(lines):
        SCHEMAS.validate("recording-line.json", line, f"recording line {i + 1}")
    assert lines[0]["type"] == "snapshot" and find(lines[0]["tree"], "title")["hidden"] is True
    assert [l["method"] for l in lines[1:]] == ["event.tap", "tree.apply", "event.tap", "responder.become",
                                                "action.send", "event.touch"]
    assert lines[1]["params"] == {"point": [100, 150]} and lines[1]["trace"]["kind"] == "touch"

    r = cli(engine, "replay", str(path), "--check")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "6 requests" in r.stdout and "match" in r.stdout

    # An edited recording: the first tap now lands elsewhere.
    edited = list(lines)
    edited[1] = dict(lines[1], params={"point": [100, 60]})
    with pytest.raises(AssertionError):
        SCHEMAS.validate("recording-line.json", dict(lines[1], extra=1))
    bad = tmp_path / "edited.jsonl"
    bad.write_text("".join(json.dumps(l) + "\n" for l in edited))
    r = cli(engine, "replay", str(bad), "--check")
    assert r.returncode == 1, r.stdout + r.stderr
    assert "request 1" in r.stdout and "event.tap" in r.stdout and "step" in r.stdout, r.stdout
    assert "recorded:" in r.stdout and "replayed:" in r.stdout

    # An edited trace (the recorded expectation changed) is caught at its request.
    edited = list(lines)
    trace = json.loads(json.dumps(lines[4]["trace"]))
    trace["outcome"]["result"] = not trace["outcome"]["result"]
    edited[4] = dict(lines[4], trace=trace)
    bad.write_text("".join(json.dumps(l) + "\n" for l in edited))
    r = cli(engine, "replay", str(bad), "--check")
    assert r.returncode == 1 and "request 4" in r.stdout and "outcome" in r.stdout, r.stdout

    # Replay leaves no session behind.
    sessions = [s["session"] if isinstance(s, dict) else s for s in engine.client().call("session.list")["sessions"]]
    assert not any(str(s).startswith("replay-") for s in sessions)


def test_trace_events_carry_the_request(engine):
    client = engine.client()
    sub = None
    try:
        session = new_session(client, "req")
        sub = engine.subscriber(f"{session}/")
        client.call("event.tap", session=session, point=[100, 150], tapCount=2)
        _, event = sub.next(f"{session}/trace")
        assert event["request"] == {"method": "event.tap", "params": {"point": [100, 150], "tapCount": 2}}
    finally:
        if sub:
            sub.close()
        client.close()


# ------------------------------------------------------------------------------------------------- dryRun

def test_dry_runs_change_nothing_and_publish_nothing(engine):
    client = engine.client()
    sub = None
    try:
        session = new_session(client, "dry")
        sub = engine.subscriber(f"{session}/")
        before = client.call("session.snapshot", session=session)

        tap = client.call("event.tap", session=session, point=[100, 150], dryRun=True)
        assert tap["dryRun"] is True and tap["seq"] == before["seq"] and tap["seqRange"] is None
        assert tap["deliveries"][0]["view"] == "button"
        applied = client.call("tree.apply", session=session, dryRun=True,
                              ops=[{"op": "update", "id": "button", "set": {"hidden": True}}])
        assert applied["dryRun"] is True and applied["revision"] == before["revision"] + 1
        become = client.call("responder.become", session=session, id="textField", dryRun=True)
        assert become["dryRun"] is True and become["result"] is True
        client.call("event.touch", session=session, dryRun=True, touches=[{"touch": 9, "phase": "began", "point": [100, 150]}])
        client.call("clock.advance", session=session, by=5, dryRun=True)
        client.call("event.motion", session=session, phase="began", dryRun=True)
        client.call("action.send", session=session, action="copy:", dryRun=True)
        client.call("window.makeKey", session=session, id="window", dryRun=True)
        # Errors are what they would be.
        err = client.error("tree.apply", session=session, dryRun=True, ops=[{"op": "remove", "id": "nope"}])
        assert err.name == "NODE_NOT_FOUND"
        # CLI --dry-run.
        r = cli(engine, "tap", "100", "150", "--dry-run", "--session", session)
        assert r.returncode == 0 and "dry run" in r.stdout and "button" in r.stdout, r.stdout + r.stderr
        ops = [{"op": "remove", "id": "card"}]
        r = cli(engine, "apply", "-", "--dry-run", "--session", session, stdin=json.dumps(ops))
        assert r.returncode == 0 and "dry run" in r.stdout, r.stdout + r.stderr

        after = client.call("session.snapshot", session=session)
        assert after["revision"] == before["revision"] and after["seq"] == before["seq"]
        assert after["tree"] == before["tree"] and after["liveTouches"] == [] and after["clock"] == before["clock"]
        assert after["firstResponders"] == before["firstResponders"]

        # The real request is the next event: nothing was published by the dry runs.
        real = client.call("event.tap", session=session, point=[100, 150])
        _, event = sub.next()
        assert event["seq"] == before["seq"] + 1 == real["seqRange"][0]
        # And the dry run's answer was the real one.
        assert {k: v for k, v in tap.items() if k not in ("seq", "seqRange", "dryRun")} == \
               {k: v for k, v in real.items() if k not in ("seq", "seqRange")}
    finally:
        if sub:
            sub.close()
        client.close()


def test_record_resumes_an_existing_recording_without_missing_a_request(engine, tmp_path):
    client = engine.client()
    try:
        session = new_session(client, "resume")
        path = tmp_path / "resume.jsonl"
        proc = start_record(engine, path, session, count=1)
        client.call("event.tap", session=session, point=[100, 150])
        proc.communicate(timeout=PATIENCE)
        assert proc.returncode == 0
        # While no recorder runs: a request the resumed recorder must fetch, and a half-written line to drop.
        client.call("responder.become", session=session, id="textField")
        with path.open("a") as f:
            f.write('{"type": "requ')
        proc = subprocess.Popen([str(responder_path()), *target_args(engine), "record", str(path), "--session", session,
                                 "--count", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        wait_for(lambda: len(path.read_text().splitlines()) >= 3 and path.read_text().endswith("\n"), "the missed request")
        client.call("event.tap", session=session, point=[100, 210])
        _, err = proc.communicate(timeout=PATIENCE)
        assert proc.returncode == 0 and "resuming" in err, err
    finally:
        client.close()
    lines = [json.loads(l) for l in path.read_text().splitlines()]
    assert [l["type"] for l in lines] == ["snapshot", "request", "request", "request"]
    assert [l["method"] for l in lines[1:]] == ["event.tap", "responder.become", "event.tap"]
    assert [l["seq"][0] for l in lines[1:]] == sorted(l["seq"][0] for l in lines[1:])
    r = cli(engine, "replay", str(path), "--check")
    assert r.returncode == 0, r.stdout + r.stderr
