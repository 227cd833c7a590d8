"""Durable sessions (Protocol/README.md 14.7): what an engine with a state directory brings back after SIGKILL or
SIGTERM, what it does not (live touches, the replay ring), the epoch, the state directory's checks, and a
damaged state refused or recovered."""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import stat
import subprocess
from pathlib import Path

import pytest

from harness import PATIENCE, RPCError, demo_tree, find, responderd_path


def durable(engines, state: Path, name: str | None = None, runtime_dir: Path | None = None, args=(), **kw):
    """An engine keeping its state in `state` (restart it by passing the same name and runtime_dir)."""
    return engines(name=name, runtime_dir=runtime_dir, args=["--state-dir", str(state), *args], **kw)


def restart(engines, e, sig=signal.SIGKILL, args=()):
    """Stops `e` with `sig` and starts the same engine again over the same state directory."""
    e.stop(sig)
    return engines(name=e.name, runtime_dir=e.runtime_dir, args=[*e.args, *args])


def snapshot(c, session: str) -> dict:
    return c.call("session.snapshot", session=session)


def without(d: dict, *keys: str) -> dict:
    return {k: v for k, v in d.items() if k not in keys}


def test_every_acknowledged_change_is_back_after_sigkill_under_a_new_epoch(engines, tmp_path):
    e = durable(engines, tmp_path / "state")
    c = e.client()
    info = c.call("engine.info")
    assert info["durability"] == {"mode": "normal", "stateDir": str(tmp_path / "state")}
    first_epoch = info["epoch"]
    c.call("session.create", session="s", tree=demo_tree())
    c.call("tree.apply", session="s", ops=[
        {"op": "update", "id": "title", "set": {"alpha": 0.5}},
        {"op": "insert", "parent": "card", "node": {"id": "extra", "kind": "view", "frame": [0, 0, 5, 5]}}])
    c.call("tree.apply", session="s", ops=[{"op": "move", "id": "extra", "parent": "header", "index": 0}])
    c.call("responder.become", session="s", id="textField")
    c.call("clock.advance", session="s", by=3.25)
    c.call("event.tap", session="s", point=[30, 130])
    c.call("event.touch", session="s", touches=[{"touch": "held", "phase": "began", "point": [200, 600]}])
    before = snapshot(c, "s")
    assert before["liveTouches"], "a touch is live before the kill"
    last_seq = before["seq"]

    e = restart(engines, e)
    c = e.client()
    info = c.call("engine.info")
    assert info["epoch"] != first_epoch
    after = snapshot(c, "s")
    assert after["epoch"] == info["epoch"]
    # Everything acknowledged, node revisions included; nothing live.
    assert without(after, "epoch", "liveTouches", "recognizers") == without(before, "epoch", "liveTouches", "recognizers")
    assert after["liveTouches"] == []
    assert all(r["state"] == "possible" and r["touches"] == [] for r in after["recognizers"])
    assert after["firstResponders"] == {"window": "textField"} and after["clock"] == 3.25
    assert {s["session"] for s in c.call("session.list")["sessions"]} == {"default", "s"}

    # The touch id is free again; seq continues after the last acknowledged one, under the new epoch.
    sub = e.subscriber("s/", "$sys/")
    sub.next("$sys/tick")  # subscribed for sure
    began = c.call("event.touch", session="s", touches=[{"touch": "held", "phase": "began", "point": [200, 600]}])
    assert began["seqRange"][0] == last_seq + 1
    _, event = sub.next("s/trace")
    assert event["seq"] == last_seq + 1 and event["epoch"] == info["epoch"]

    # The replay ring starts empty past the restored seq.
    with pytest.raises(RPCError) as err:
        c.call("trace.replay", session="s", after=last_seq - 1)
    assert err.value.name == "REPLAY_EXPIRED" and err.value.data["oldest"] == last_seq + 1
    assert [x["event"]["seq"] for x in c.call("trace.replay", session="s", after=last_seq)["events"]] == [last_seq + 1]


def test_sigterm_and_deletes_are_kept_and_the_world_file_only_seeds_a_first_start(engines, tmp_path):
    world = tmp_path / "world.json"
    world.write_text('{"tree": {"id": "app", "kind": "application", "children": [{"id": "w", "kind": "window", "frame": [0, 0, 10, 10]}]}}')
    e = durable(engines, tmp_path / "state", args=["--world", str(world)])
    c = e.client()
    c.call("tree.apply", session="default", ops=[{"op": "update", "id": "w", "set": {"hidden": True}}])
    c.call("session.create", session="gone")
    c.call("session.delete", session="gone")
    e = restart(engines, e, signal.SIGTERM)
    c = e.client()
    tree = c.call("tree.get", session="default")
    assert tree["revision"] == 3 and tree["tree"]["children"][0]["hidden"] is True, "--world must not replace the kept default"
    assert [s["session"] for s in c.call("session.list")["sessions"]] == ["default"]
    # That default still started from a world no event holds (14.1).
    with pytest.raises(RPCError) as err:
        c.call("trace.replay", session="default", after=0)
    assert err.value.name == "REPLAY_EXPIRED"


def test_many_batches_are_compacted_and_read_back(engines, tmp_path):
    e = durable(engines, tmp_path / "state")
    c = e.client()
    c.call("session.create", session="s", tree=demo_tree())
    big = "x" * 4000
    for i in range(150):  # ~600 KB of batches: more than the log keeps before a new snapshot
        c.call("tree.apply", session="s", ops=[{"op": "update", "id": "title", "set": {"annotations": {"n": f"{i}{big}"}}}])
    before = c.call("tree.get", session="s")
    db = sqlite3.connect(tmp_path / "state" / "state.db")
    logged = db.execute("SELECT count(*) FROM batches WHERE session = 's'").fetchone()[0]
    snapshot_revision = db.execute("SELECT snapshot_revision FROM sessions WHERE name = 's'").fetchone()[0]
    db.close()
    assert logged < 150 and snapshot_revision > 2, "the log was folded into a newer snapshot"
    e = restart(engines, e)
    assert e.client().call("tree.get", session="s") == before


def test_durability_none_and_ephemeral_keep_nothing(engines, tmp_path):
    for flags in (["--durability", "none"], ["--ephemeral"]):
        e = durable(engines, tmp_path / "state", args=flags)
        c = e.client()
        assert c.call("engine.info")["durability"] == {"mode": "none", "stateDir": None}
        c.call("session.create", session="s")
        e = restart(engines, e)
        assert [s["session"] for s in e.client().call("session.list")["sessions"]] == ["default"]
        e.stop()
    assert not (tmp_path / "state" / "state.db").exists()
    # --state-dir none, the third spelling: nothing is written anywhere, nothing comes back.
    e = engines(args=["--state-dir", "none"])
    c = e.client()
    assert c.call("engine.info")["durability"] == {"mode": "none", "stateDir": None}
    c.call("session.create", session="s")
    e = restart(engines, e)
    assert [s["session"] for s in e.client().call("session.list")["sessions"]] == ["default"]


def test_the_default_state_dir_follows_xdg_state_home_with_private_modes(engines, tmp_path):
    e = engines(args=["--durability", "normal"])  # the harness points XDG_STATE_HOME into the test's directory
    state = e.runtime_dir / "state" / "responder" / e.name
    assert e.client().call("engine.info")["durability"]["stateDir"] == str(state)
    assert stat.S_IMODE(state.stat().st_mode) == 0o700
    assert stat.S_IMODE((state / "state.db").stat().st_mode) == 0o600


def start_fails(state: Path, *args: str) -> str:
    """Runs responderd expecting it to refuse to start; returns its standard error."""
    run = subprocess.run([str(responderd_path()), "--name", "refused", "--dir", str(state.parent / "rt"),
                          "--state-dir", str(state), *args], capture_output=True, text=True, timeout=PATIENCE)
    assert run.returncode == 1, run.stdout + run.stderr
    return run.stderr


def test_a_state_dir_not_ours_or_a_symlink_is_refused(tmp_path):
    target = tmp_path / "elsewhere"
    target.mkdir()
    link = tmp_path / "link"
    link.symlink_to(target)
    assert "not a directory (a symlink" in start_fails(link)
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o777)
    assert "writable by group or others" in start_fails(shared)
    assert not (shared / "state.db").exists()
    if os.geteuid() == 0:
        foreign = tmp_path / "foreign"
        foreign.mkdir(mode=0o700)
        os.chown(foreign, 65534, 65534)
        assert "belongs to uid 65534" in start_fails(foreign)
        assert not (foreign / "state.db").exists()


def test_a_damaged_database_is_refused_naming_it_and_recover_sets_it_aside(engines, tmp_path):
    state = tmp_path / "state"
    state.mkdir(mode=0o700)
    (state / "state.db").write_bytes(b"this is not a database" * 100)
    err = start_fails(state)
    assert str(state / "state.db") in err and "--recover" in err
    e = durable(engines, state, args=["--recover"])
    assert [s["session"] for s in e.client().call("session.list")["sessions"]] == ["default"]
    assert "--recover:" in e.stderr_text() and "moved to" in e.stderr_text()
    assert list(state.glob("state.db.damaged-*"))


def test_a_batch_that_no_longer_applies_stops_the_start_and_recover_keeps_the_session_before_it(engines, tmp_path):
    e = durable(engines, tmp_path / "state")
    c = e.client()
    c.call("session.create", session="s", tree=demo_tree())
    c.call("tree.apply", session="s", ops=[{"op": "update", "id": "title", "set": {"alpha": 0.5}}])
    kept = c.call("tree.get", session="s")
    applied = c.call("tree.apply", session="s", ops=[{"op": "update", "id": "title", "set": {"alpha": 0.25}}])
    e.stop(signal.SIGKILL)
    db = sqlite3.connect(tmp_path / "state" / "state.db")
    db.execute("UPDATE batches SET ops = ? WHERE session = 's' AND revision = ?", (b'[{"op": "explode"}]', applied["revision"]))
    db.commit()
    db.close()
    err = start_fails(tmp_path / "state")
    assert f'session "s" in {tmp_path / "state" / "state.db"}' in err and f"revision {applied['revision']}" in err
    e = engines(name=e.name, runtime_dir=e.runtime_dir, args=["--state-dir", str(tmp_path / "state"), "--recover"])
    c = e.client()
    assert c.call("tree.get", session="s")["tree"] == kept["tree"]
    assert re.search(r'--recover: session "s" kept up to revision \d+', e.stderr_text())
    # seq is never reused, even for the dropped change, and the recovered state is what is kept from now on.
    assert c.call("session.snapshot", session="s")["seq"] == applied["seq"]
    e = restart(engines, e)
    assert e.client().call("tree.get", session="s")["tree"] == kept["tree"]
    assert "--recover:" not in e.stderr_text()


def test_every_event_and_engine_info_carry_the_epoch(engines, tmp_path):
    e = durable(engines, tmp_path / "state", args=["--tick-ms", "50"])
    sub = e.subscriber("$sys/", "d/")
    c = e.client()
    epoch = c.call("engine.info")["epoch"]
    assert re.fullmatch(r"[0-9a-f]{16}", epoch)
    assert sub.next("$sys/tick")[1]["epoch"] == epoch  # subscribed for sure
    c.call("session.create", session="d")
    assert sub.next("d/tree")[1]["epoch"] == epoch
    assert sub.next("$sys/sessions")[1]["epoch"] == epoch


def test_state_a_dispatch_changed_is_back_after_sigkill(engines, tmp_path):
    """K3 changes a switch's `on` by dispatch (a `dispatch` tree event, revision + 1): it is logged like a batch,
    so a restart brings the switch back on and the revisions stay contiguous."""
    e = durable(engines, tmp_path / "state")
    c = e.client()
    c.call("session.create", session="s", tree=demo_tree())
    before_tap = snapshot(c, "s")
    c.call("event.tap", session="s", point=[325, 595])  # the demo world's UISwitch `toggle`
    before = snapshot(c, "s")
    assert before["revision"] == before_tap["revision"] + 1

    e = restart(engines, e)
    after = snapshot(e.client(), "s")
    assert after["revision"] == before["revision"]
    assert without(after, "epoch", "liveTouches", "recognizers") == without(before, "epoch", "liveTouches", "recognizers")
    assert find(before_tap["tree"], "toggle")["on"] is False and find(after["tree"], "toggle")["on"] is True


def test_an_owned_session_stays_owned_after_sigkill(engines, tmp_path):
    """7.1: the owner token is part of the session's durable state: a restart does not open the session to all."""
    e = durable(engines, tmp_path / "state")
    c = e.client()
    c.call("session.create", session="mine", tree=demo_tree(), owner="s3cret-owner-token-0123456789")
    e = restart(engines, e)
    c = e.client()
    update = [{"op": "update", "id": "button", "set": {"alpha": 0.5}}]
    with pytest.raises(RPCError) as refused:
        c.call("tree.apply", session="mine", ops=update)
    assert refused.value.name == "SESSION_OWNED"
    assert c.call("tree.apply", session="mine", ops=update, owner="s3cret-owner-token-0123456789")["revision"] > 1
    with pytest.raises(RPCError):
        c.call("session.delete", session="mine")


def wide_tree(views: int) -> dict:
    """The demo world with `views` more views in a panel no test point falls in: a large snapshot to not rewrite."""
    tree = demo_tree()
    window = find(tree, "window")
    window["children"].append({"id": "filler", "kind": "view", "frame": [0, 0, 1, 1], "children": [
        {"id": f"filler{i}", "kind": "view", "frame": [0, 0, 1, 1], "annotations": {"label": f"row {i}"}} for i in range(views)]})
    return tree


def written_bytes(pid: int) -> int:
    """What the process has passed to write(2) and its kin so far (files and sockets alike)."""
    for line in Path(f"/proc/{pid}/io").read_text().splitlines():
        if line.startswith("wchar:"):
            return int(line.split()[1])
    raise AssertionError("no wchar in /proc/<pid>/io")


def test_a_dispatch_commits_its_progress_without_writing_the_world_again(engines, tmp_path):
    """A tap changes seq, the clock and the tap counter, not the tree: what it commits is that progress. SQLite
    writes a row whole, so progress kept in the snapshot's row would write the world again for every tap."""
    e = durable(engines, tmp_path / "state")
    c = e.client()
    c.call("session.create", session="s", tree=wide_tree(10_000))
    db = sqlite3.connect(tmp_path / "state" / "state.db")
    world_bytes = db.execute("SELECT length(tree) FROM sessions WHERE name = 's'").fetchone()[0]
    db.close()
    assert world_bytes > 1_000_000
    before = written_bytes(e.proc.pid)
    taps = 20
    for _ in range(taps):
        last = c.call("event.tap", session="s", point=[60, 150], trace="none")
    written = written_bytes(e.proc.pid) - before
    # The old row rewrite wrote the world 20 times over; progress is a few pages a tap.
    assert written < world_bytes, f"{taps} taps wrote {written} bytes, a {world_bytes}-byte world"

    # What they committed is back after a kill: seq and the tap counter go on from the last tap.
    e = restart(engines, e)
    tapped = e.client().call("event.tap", session="s", point=[60, 150], trace="none")
    assert tapped["seqRange"][0] == last["seq"] + 1
    assert tapped["deliveries"][0]["touch"] == f"tap-{taps + 1}"


def test_a_format_1_state_opens_as_format_2_keeping_every_session(engines, tmp_path):
    """Format 1 kept seq, revision and the durable parts in the snapshot's row; an engine of format 2 reads them
    there until a session's first commit writes its progress row, and the sessions come back as they were."""
    e = durable(engines, tmp_path / "state")
    c = e.client()
    c.call("session.create", session="s", tree=demo_tree())
    c.call("tree.apply", session="s", ops=[{"op": "update", "id": "title", "set": {"alpha": 0.5}}])
    c.call("responder.become", session="s", id="textField")
    c.call("event.tap", session="s", point=[60, 150])
    before = snapshot(c, "s")
    e.stop(signal.SIGTERM)

    # Written back as format 1 wrote it: progress in the snapshot's row, no progress table.
    db = sqlite3.connect(tmp_path / "state" / "state.db")
    db.executescript("""
        UPDATE sessions SET seq = (SELECT seq FROM progress p WHERE p.name = sessions.name),
            revision = (SELECT revision FROM progress p WHERE p.name = sessions.name),
            state = (SELECT state FROM progress p WHERE p.name = sessions.name);
        DROP TABLE progress;
        UPDATE engine SET value = 1 WHERE key = 'format';
        """)
    db.commit()
    db.close()

    e = engines(name=e.name, runtime_dir=e.runtime_dir, args=e.args)
    c = e.client()
    after = snapshot(c, "s")
    assert without(after, "epoch", "liveTouches", "recognizers") == without(before, "epoch", "liveTouches", "recognizers")
    tapped = c.call("event.tap", session="s", point=[60, 150])
    assert tapped["seqRange"][0] == before["seq"] + 1
    db = sqlite3.connect(tmp_path / "state" / "state.db")
    assert db.execute("SELECT value FROM engine WHERE key = 'format'").fetchone()[0] == 2
    assert db.execute("SELECT seq FROM progress WHERE name = 's'").fetchone()[0] == tapped["seq"]
    db.close()


def _listing(directory: Path) -> dict:
    """Every file in `directory` with its inode, size and modification time."""
    return {p.name: (p.stat().st_ino, p.stat().st_size, p.stat().st_mtime_ns) for p in sorted(directory.iterdir())}


def test_recover_on_a_running_engines_state_directory_changes_no_file(engines, tmp_path):
    """The same --name from another runtime directory (another XDG_RUNTIME_DIR) is not stopped by the name's
    lock: the state directory's own lock must refuse it before --recover touches anything."""
    state = tmp_path / "state"
    running = durable(engines, state)
    c = running.client()
    root = c.call("tree.get")["tree"]["id"]
    c.call("tree.apply", ops=[{"op": "insert", "parent": root, "node": {"id": "kept", "kind": "window", "frame": [0, 0, 100, 100]}}])
    before = _listing(state)
    intruder = durable(engines, state, name=running.name, args=["--recover"], start=False)
    intruder.start(wait=False)
    assert intruder.wait() == 1
    assert "in use by another engine" in intruder.stderr_text()
    assert "moved to" not in intruder.stderr_text()
    after = _listing(state)
    assert {k: v[0] for k, v in after.items()} == {k: v[0] for k, v in before.items()}, "a file was moved or replaced"
    # The running engine's acknowledged writes still land in the files a restart reads.
    c.call("tree.apply", ops=[{"op": "update", "id": "kept", "set": {"alpha": 0.5}}])
    again = restart(engines, running)
    assert find(again.client().call("tree.get")["tree"], "kept")["alpha"] == 0.5


def _history(engines, state: Path, batches: int = 200):
    """Session "s" saved through 15 batches and a clean stop, then taken through `batches` more and SIGKILL: those
    are in the write-ahead log only (SQLite folds it into the database every 1,000 pages; this writes fewer)."""
    e = durable(engines, state)
    c = e.client()
    c.call("session.create", session="s", tree=demo_tree())
    for i in range(15):
        c.call("tree.apply", session="s", ops=[{"op": "update", "id": "title", "set": {"alpha": 0.5}}])
    e.stop(signal.SIGTERM)  # a clean stop folds the log into the database: these come back whatever follows
    e = again(engines, e)
    c = e.client()
    for i in range(batches):
        last = c.call("tree.apply", session="s", ops=[{"op": "update", "id": "title", "set": {"alpha": (i % 10) / 10}}])
    e.stop(signal.SIGKILL)
    assert (state / "state.db-wal").stat().st_size > 0
    return e, last


def again(engines, e, *args: str):
    """Starts the stopped engine `e` again over its state directory, with `args` instead of its own extras."""
    return engines(name=e.name, runtime_dir=e.runtime_dir, args=[*[a for a in e.args if a != "--recover"], *args])


def _recovered_above(engines, e, last: dict):
    """Starts `e` again with --recover and checks that session "s" goes on above every seq and revision it had
    acknowledged: a subscriber that held them sees a gap, never a seq it already has."""
    e = again(engines, e, "--recover")
    c = e.client()
    snap = c.call("session.snapshot", session="s")
    assert snap["seq"] > last["seq"] and snap["revision"] > last["revision"], (snap["seq"], snap["revision"], last)
    sub = e.subscriber("s/")
    applied = c.call("tree.apply", session="s", ops=[{"op": "update", "id": "title", "set": {"alpha": 1}}])
    while (event := sub.next()[1])["stream"] != "tree":
        pass
    assert event["seq"] == applied["seq"] > last["seq"] + 1
    log = e.stderr_text()
    assert re.search(r'--recover: session "s" came back at revision \d+ \(seq \d+\); it continues after revision', log), log
    # What was recovered is what the next start finds, with nothing to report.
    e.stop(signal.SIGTERM)
    plain = again(engines, e)
    assert plain.client().call("session.snapshot", session="s")["revision"] == applied["revision"]
    assert "--recover" not in plain.stderr_text()
    return log


def test_a_lost_write_ahead_log_is_refused_and_recover_goes_on_above_every_acknowledged_seq(engines, tmp_path):
    state = tmp_path / "state"
    e, last = _history(engines, state)
    (state / "state.db-wal").unlink()
    (state / "state.db-shm").unlink(missing_ok=True)
    err = start_fails(state)
    assert f"the write-ahead log {state / 'state.db-wal'} is missing" in err and "--recover" in err, err
    assert start_fails(state) == err, "a refusal changes nothing that the next start reads"
    log = _recovered_above(engines, e, last)
    assert "is missing" in log


def test_a_damaged_write_ahead_log_is_refused_and_recover_keeps_a_copy(engines, tmp_path):
    state = tmp_path / "state"
    e, last = _history(engines, state)
    wal = state / "state.db-wal"
    data = bytearray(wal.read_bytes())
    middle = len(data) // 2
    data[middle:middle + 64] = os.urandom(64)
    wal.write_bytes(bytes(data))
    err = start_fails(state)
    assert f"the write-ahead log {wal} is damaged at frame" in err and "--recover" in err, err
    _recovered_above(engines, e, last)
    copies = list(state.glob("state.db-wal.damaged-*"))
    assert len(copies) == 1 and copies[0].read_bytes() == bytes(data), "the damaged log is kept as it was"


def test_a_log_with_a_damaged_header_is_refused(engines, tmp_path):
    state = tmp_path / "state"
    _history(engines, state, batches=20)
    wal = state / "state.db-wal"
    data = bytearray(wal.read_bytes())
    data[0:8] = b"\0" * 8
    wal.write_bytes(bytes(data))
    assert "has a damaged header" in start_fails(state)


def test_a_torn_last_frame_is_not_a_loss(engines, tmp_path):
    """The end of a write that never completed (a power cut mid-frame) held nothing acknowledged: no refusal."""
    state = tmp_path / "state"
    e, last = _history(engines, state, batches=20)
    with open(state / "state.db-wal", "ab") as f:
        f.write(os.urandom(4096 + 24 + 100))
    e = again(engines, e)
    assert e.client().call("session.snapshot", session="s")["seq"] == last["seq"]
    assert "--recover" not in e.stderr_text()


def test_an_empty_or_missing_database_beside_a_history_is_refused(engines, tmp_path):
    state = tmp_path / "state"
    e = durable(engines, state)
    e.client().call("session.create", session="s", tree=demo_tree())
    e.stop(signal.SIGTERM)
    (state / "state.db").write_bytes(b"")
    assert f"the state database {state / 'state.db'} is empty, but this directory held sessions" in start_fails(state)
    assert (state / "state.db").stat().st_size == 0, "the refusal touched the file"
    (state / "state.db").unlink()
    assert "is missing, but this directory held sessions" in start_fails(state)
    e = again(engines, e, "--recover")
    assert [s["session"] for s in e.client().call("session.list")["sessions"]] == ["default"]
    assert "--recover: no session came back" in e.stderr_text()
    e.stop(signal.SIGTERM)
    assert "--recover" not in again(engines, e).stderr_text()


def test_a_log_lost_after_the_engines_own_checkpoint_is_still_noticed(engines, tmp_path):
    """Past 1,000 pages of log the engine folds the log into the database itself and raises the generation: the
    changes after that checkpoint are in the log only, and losing them is noticed like any other."""
    state = tmp_path / "state"
    e = durable(engines, state)
    c = e.client()
    c.call("session.create", session="s", tree=demo_tree())
    big = demo_tree()
    find(big, "window")["children"].append({"id": "notes", "kind": "view", "frame": [0, 0, 1, 1], "children": [
        {"id": f"note{i}", "kind": "view", "frame": [0, 0, 1, 1], "annotations": {"text": "x" * 4000}}
        for i in range(100)]})
    for _ in range(12):  # about 100 pages of snapshot each
        c.call("tree.load", session="s", tree=big)
    mark = (state / "state.mark").read_text()
    generation = int(re.search(r"generation (\d+)", mark).group(1))
    assert generation >= 2, f"no checkpoint raised the generation: {mark}"
    for i in range(10):
        last = c.call("tree.apply", session="s", ops=[{"op": "update", "id": "title", "set": {"alpha": i / 10}}])
    e.stop(signal.SIGKILL)
    (state / "state.db-wal").unlink()
    assert f"the write-ahead log {state / 'state.db-wal'} is missing" in start_fails(state)
    _recovered_above(engines, e, last)


@pytest.fixture
def small_disk(tmp_path):
    """A real 4 MiB file system (tmpfs): mounting one needs root and the right to mount, else the test is skipped."""
    disk = tmp_path / "disk"
    disk.mkdir()
    run = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m,mode=0700", "tmpfs", str(disk)],
                         capture_output=True, text=True)
    if run.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {run.stderr.strip()}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], capture_output=True)


def fill(path: Path) -> None:
    """Writes `path` until the file system has no room left."""
    with open(path, "wb", buffering=0) as f:
        chunk = b"\0" * 65536
        while True:
            try:
                f.write(chunk)
            except OSError:
                chunk = chunk[:len(chunk) // 2]
                if not chunk:
                    return


def test_a_full_disk_refuses_writes_with_storage_full_and_keeps_answering_reads(engines, small_disk):
    state = small_disk / "state"
    e = durable(engines, state)
    c = e.client()
    c.call("session.create", session="s", tree=demo_tree())
    before = c.call("session.snapshot", session="s")
    sub = e.subscriber("s/")
    notes = {"op": "insert", "parent": "window", "node": {"id": "notes", "kind": "view", "frame": [0, 0, 1, 1], "children": [
        {"id": f"note{i}", "kind": "view", "frame": [0, 0, 1, 1], "annotations": {"text": "x" * 4000}} for i in range(100)]}}
    fill(small_disk / "filler")

    with pytest.raises(RPCError) as refused:
        c.call("tree.apply", session="s", ops=[notes])
    assert refused.value.name == "STORAGE_FULL" and refused.value.code == -32050, refused.value
    assert refused.value.data["path"] == str(state / "state.db")
    # Nothing changed and nothing was published; reads are answered, and the engine is still there.
    assert c.call("session.snapshot", session="s") == before
    sub.nothing(timeout=0.5)
    assert c.call("hitTest", session="s", point=[60, 150])["view"] == "button"
    assert e.proc.poll() is None
    assert "requests that write are refused with STORAGE_FULL" in e.stderr_text()

    # With room again the same request is saved, continuing the seq as if the refused one had never been.
    (small_disk / "filler").unlink()
    applied = c.call("tree.apply", session="s", ops=[notes])
    assert applied["revision"] == before["revision"] + 1 and applied["seqRange"][0] == before["seq"] + 1
    e = restart(engines, e)
    assert find(e.client().call("tree.get", session="s")["tree"], "note99") is not None


def test_recover_keeps_every_session_sqlite_can_still_read_from_a_damaged_database(engines, tmp_path):
    """A database whose structure fails SQLite's check is set aside whole, but the sessions whose rows still read
    come back from it: here the sessions table's index is destroyed, and every session is in the table."""
    state = tmp_path / "state"
    e = durable(engines, state)
    c = e.client()
    trees = {}
    for name in ("a", "b", "c"):
        c.call("session.create", session=name, tree=demo_tree())
        c.call("tree.apply", session=name, ops=[{"op": "update", "id": "title", "set": {"alpha": 0.25}}])
        trees[name] = c.call("tree.get", session=name)["tree"]
    e.stop(signal.SIGTERM)
    db = sqlite3.connect(f"file:{state / 'state.db'}?mode=ro", uri=True)
    page = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'sqlite_autoindex_sessions_1'").fetchone()[0]
    size = db.execute("PRAGMA page_size").fetchone()[0]
    db.close()
    with open(state / "state.db", "r+b") as f:
        f.seek((page - 1) * size)
        f.write(b"\xff" * size)
    assert "--recover" in start_fails(state)
    e = again(engines, e, "--recover")
    c = e.client()
    for name, tree in trees.items():
        assert c.call("tree.get", session=name)["tree"] == tree
    log = e.stderr_text()
    back = re.search(r"read back from it: (.*)", log)
    assert back and set(re.findall(r'"([^"]+)"', back.group(1))) == {"a", "b", "c", "default"}, log
    assert "moved to" in log
    assert list(state.glob("state.db.damaged-*"))
