"""Golden tests against another build of the app: `responder record`, then `responder replay --check` on another
world (`--world FILE`, `--import DUMP`), against a real engine and the real CLI. A request that comes to
something else is one line saying what, by meaning (hit, handled, actions, first responder) with display
names; the count of matched requests is right; exit 1 on any difference, 0 when every request means the same."""

from __future__ import annotations

import json
import re
import signal
import subprocess
from pathlib import Path

from harness import DEMO_WORLD, PATIENCE, demo_tree, find, new_session, unique_name
from stdio_harness import responder_path, target_args
from test_import_record import CONTROLLERS, VIEWS, cli, start_record, wait_for


def record(engine, tmp_path: Path, session: str, requests: list[tuple[str, dict]]) -> Path:
    """Records `requests` sent to `session`; returns the recording."""
    path = tmp_path / f"{session}.jsonl"
    proc = start_record(engine, path, session, count=len(requests))
    client = engine.client()
    try:
        for method, params in requests:
            client.call(method, session=session, **params)
    finally:
        client.close()
    out, err = proc.communicate(timeout=PATIENCE)
    assert proc.returncode == 0, err
    # `record` says what it recorded: the requests, their seqs, the snapshot and the file.
    assert re.search(rf"record: wrote {len(requests)} requests? \(seq \d+…\d+\) and 1 snapshot to {re.escape(str(path))}",
                     err), err
    return path


def world_file(tmp_path: Path, name: str, tree: dict) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps({"tree": tree}))
    return path


DEMO_REQUESTS = [
    ("event.tap", {"point": [100, 150]}),            # the button: buttonTapped: performed by rootVC
    ("responder.become", {"id": "textField"}),
    ("action.send", {"action": "copy:"}),
    ("event.tap", {"point": [300, 300]}),
]


def test_an_unchanged_world_matches_every_request(engine, tmp_path):
    client = engine.client()
    session = new_session(client, "gold")
    client.close()
    path = record(engine, tmp_path, session, DEMO_REQUESTS)

    r = cli(engine, "replay", str(path), "--check", "--world", str(DEMO_WORLD))
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.strip() == f"replayed 4 requests on {DEMO_WORLD}: all 4 match the recording", r.stdout

    # The same world with other geometry where no request goes: still the same meaning, its steps may differ.
    tree = demo_tree()
    find(tree, "title")["frame"] = [16, 60, 200, 20]
    moved = world_file(tmp_path, "moved.json", tree)
    r = cli(engine, "replay", str(path), "--check", "--world", str(moved))
    assert r.returncode == 0, r.stdout + r.stderr


def test_a_changed_handler_is_one_line_by_meaning_and_exit_1(engine, tmp_path):
    client = engine.client()
    session = new_session(client, "gold")
    client.close()
    path = record(engine, tmp_path, session, DEMO_REQUESTS)

    # The new build moved the button's action from the view controller to the card.
    tree = demo_tree()
    find(tree, "rootVC")["handles"].pop("buttonTapped:")
    find(tree, "card").setdefault("handles", {})["buttonTapped:"] = "handle"
    changed = world_file(tmp_path, "changed.json", tree)

    r = cli(engine, "replay", str(path), "--check", "--world", str(changed))
    assert r.returncode == 1, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == 2, r.stdout
    assert lines[0].startswith('request 1 (line 2, event.tap {"point":[100,150]}): '), lines[0]
    assert "actions: buttonTapped: by rootVC → buttonTapped: by card" in lines[0], lines[0]
    assert "hit:" not in lines[0] and "step" not in lines[0], "only what differs, by meaning"
    assert lines[1] == f"replay on {changed} differs from the recording: 3 of 4 requests matched, 1 differs", lines[1]

    # A second difference is a second line, and the count follows: the text field cannot become first responder.
    find(tree, "textField")["canBecomeFirstResponder"] = False
    changed.write_text(json.dumps({"tree": tree}))
    r = cli(engine, "replay", str(path), "--check", "--world", str(changed))
    assert r.returncode == 1, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert [l.split(" (")[0] for l in lines[:-1]] == ["request 1", "request 2", "request 3"], r.stdout
    assert "first responder: textField → none" in lines[1], lines[1]
    assert lines[-1].endswith("1 of 4 requests matched, 3 differ"), lines[-1]

    # Replay leaves no session behind.
    client = engine.client()
    sessions = [s["session"] if isinstance(s, dict) else s for s in client.call("session.list")["sessions"]]
    client.close()
    assert not any(str(s).startswith("replay-") for s in sessions)


def test_replay_on_a_new_dump_compares_by_display_name(engine, tmp_path):
    """Two builds' dumps print other addresses: nodes are compared by the names a person knows them by."""
    session = unique_name("golddump")[:64]
    (tmp_path / "views.txt").write_text(VIEWS)
    (tmp_path / "vcs.txt").write_text(CONTROLLERS)
    r = cli(engine, "--session", session, "import", str(tmp_path / "views.txt"), str(tmp_path / "vcs.txt"), "--load")
    assert r.returncode == 0, r.stderr
    # The Save button (scrolled by 200: at 16+16, 100+100+220-200 on the screen).
    path = record(engine, tmp_path, session, [("event.tap", {"point": [60, 222]}), ("event.tap", {"point": [5, 5]})])
    recorded = [json.loads(l) for l in path.read_text().splitlines()]
    assert recorded[1]["trace"]["outcome"]["deliveries"][0]["view"] == "0x7fa1e8d0a000", recorded[1]

    rebuilt = VIEWS.replace("0x7fa1e8d", "0x7fb2c9e")
    (tmp_path / "new.txt").write_text(rebuilt)
    r = cli(engine, "replay", str(path), "--check", "--import", str(tmp_path / "new.txt"), "--import",
            str(tmp_path / "vcs.txt"))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "all 2 match the recording" in r.stdout, r.stdout

    # The next build hides the button: the tap falls to the card, named as a person knows it.
    hidden = rebuilt.replace("<UIButton: 0x7fb2c9e0a000; frame = (16 100; 120 44);",
                             "<UIButton: 0x7fb2c9e0a000; frame = (16 100; 120 44); hidden = YES;")
    assert hidden != rebuilt
    (tmp_path / "hidden.txt").write_text(hidden)
    r = cli(engine, "replay", str(path), "--check", "--import", str(tmp_path / "hidden.txt"))
    assert r.returncode == 1, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == 2 and lines[0].startswith("request 1 "), r.stdout
    assert 'hit: 0x7fa1e8d0a000 (UIButton "Save") → 0x7fb2c9e08000 (MyApp.CardView)' in lines[0], lines[0]
    assert lines[1].endswith("1 of 2 requests matched, 1 differs"), lines[1]


def test_replay_refuses_what_it_cannot_read(engine, tmp_path):
    client = engine.client()
    session = new_session(client, "gold")
    client.close()
    path = record(engine, tmp_path, session, DEMO_REQUESTS[:1])
    r = cli(engine, "replay", str(path), "--check", "--world", str(tmp_path / "missing.json"))
    assert r.returncode == 1 and "No such file or directory" in r.stderr, r.stderr
    bad = tmp_path / "bad.json"
    bad.write_text('{"tree": {"id": "app",\n  "kind" "application"}}')
    r = cli(engine, "replay", str(path), "--check", "--world", str(bad))
    assert r.returncode == 1 and "line 2, column 10" in r.stderr, r.stderr
    r = cli(engine, "replay", str(path), "--world", str(bad), "--import", str(bad))
    assert r.returncode != 0 and "not both" in r.stderr, r.stderr


def test_record_stopped_with_ctrl_c_says_what_it_wrote(engine, tmp_path):
    client = engine.client()
    session = new_session(client, "goldint")
    path = tmp_path / "interrupted.jsonl"
    proc = subprocess.Popen([str(responder_path()), *target_args(engine), "record", str(path), "--session", session],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_for(lambda: path.exists() and path.read_text().endswith("\n"), "the recording's snapshot line")
        client.call("event.tap", session=session, point=[100, 150])
        client.call("event.tap", session=session, point=[300, 300])
        wait_for(lambda: len(path.read_text().splitlines()) == 3, "both requests recorded")
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=PATIENCE)
    finally:
        client.close()
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert re.search(rf"record: wrote 2 requests \(seq \d+…\d+\) and 1 snapshot to {re.escape(str(path))}", err), err
    assert len(path.read_text().splitlines()) == 3
