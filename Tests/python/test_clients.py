"""Tests of the Python sample clients (clients/python) against the real responderd.

Engines come from conftest.py's `engines` factory (own runtime directory under /tmp, unique --name). Losses are
made in two ways: deterministically, by a small forwarding proxy between the engine's events socket and the
client that drops chosen seqs (the client finds it through RESPONDER_RPC + RESPONDER_EVENTS, as the discovery
override allows), and for real, by a subscriber with RCVHWM 1 that does not read while the engine publishes
more than its 100,000-message send queue holds.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest
import zmq

from harness import DEMO_WORLD, PATIENCE, REPO

CLIENTS = REPO / "clients" / "python"
sys.path.insert(0, str(CLIENTS))

import responder_client as rc  # noqa: E402
import trace_tail  # noqa: E402


# ------------------------------------------------------------------------------------------------ helpers

def wait_for(predicate, timeout: float = PATIENCE, what: str = "condition", interval: float = 0.02):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def engine_address(engine) -> rc.EngineAddress:
    return rc.discover(engine.name, str(engine.dir), env={})


_connections: list[rc.Connection] = []


@pytest.fixture(autouse=True)
def _close_connections():
    yield
    while _connections:
        _connections.pop().close()


def connect(engine, name: str = "test") -> rc.Connection:
    conn = rc.Connection(engine_address(engine), timeout=PATIENCE)
    _connections.append(conn)
    conn.hello(name, kind="test")
    return conn


def insert_windows(conn: rc.Connection, count: int, prefix: str = "w", session: str = "default") -> list[int]:
    """`count` tree.apply requests, one event each; returns their seqs."""
    seqs = []
    for i in range(count):
        r = conn.call("tree.apply", {"session": session, "ops": [
            {"op": "insert", "parent": "app", "node": {"id": f"{prefix}{i}", "kind": "window"}}]})
        assert r["seqRange"][0] == r["seqRange"][1]
        seqs.append(r["seq"])
    return seqs


def client_env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("RESPONDER_RPC", "RESPONDER_EVENTS")}
    env.update(extra)
    return env


def _default_sigint() -> None:
    # A test run started in the background by a non-interactive shell ignores SIGINT, and a child inherits that:
    # Python then installs no KeyboardInterrupt handler. Restore the default so that SIGINT stops a script as
    # Ctrl-C would in a terminal.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Script:
    """One sample script run as a subprocess, its stdout/stderr in files so they can be read while it runs."""

    def __init__(self, tmp: Path, script: str, args: list[str], env: dict | None = None):
        tag = f"{script}.{uuid.uuid4().hex[:6]}"
        self.out_path = tmp / f"{tag}.out"
        self.err_path = tmp / f"{tag}.err"
        self._out = open(self.out_path, "wb")
        self._err = open(self.err_path, "wb")
        self.proc = subprocess.Popen([sys.executable, str(CLIENTS / script), *args], stdout=self._out,
                                     stderr=self._err, stdin=subprocess.DEVNULL, env=env or client_env(),
                                     preexec_fn=_default_sigint)

    @property
    def stdout(self) -> str:
        return self.out_path.read_text(errors="replace")

    @property
    def stderr(self) -> str:
        return self.err_path.read_text(errors="replace")

    def wait(self, timeout: float = 2 * PATIENCE) -> int:
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)
            raise AssertionError(f"{self.proc.args[1]} did not exit within {timeout} s\n"
                                 f"stdout:\n{self.stdout[-3000:]}\nstderr:\n{self.stderr[-3000:]}")

    def stop(self, sig=signal.SIGTERM) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            self.proc.wait(PATIENCE)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)
        self._out.close()
        self._err.close()


@pytest.fixture
def scripts(tmp_path):
    made: list[Script] = []

    def run(script: str, *args: str, env: dict | None = None) -> Script:
        s = Script(tmp_path, script, list(args), env)
        made.append(s)
        return s

    yield run
    for s in made:
        s.close()


class LossyProxy:
    """Forwards the engine's events to its own XPUB (with the same $sys/welcome), dropping the session events
    whose seq is in `drop`. Stands in for a subscriber's lost messages, deterministically.

    A $sys/tick also reveals lost events: one that the engine happens to publish in the middle of a dropped run
    would reveal part of it, and the client would report (or recover) the run in two pieces, or by tick where a
    test expects a gap. With `ticks_from_seq`, the proxy withholds every tick until the session event with that
    seq has passed through it (dropped or forwarded), so the outcome does not depend on when the engine ticks."""

    def __init__(self, ctx: zmq.Context, engine, directory: Path, drop=(), ticks_from_seq: int | None = None):
        self.drop = set(drop)
        self.dropped: list[int] = []
        self.forwarded: list[int] = []
        self.ticks_from_seq = ticks_from_seq
        self.withheld_ticks = 0
        # The topics this proxy's own subscribers have subscribed to, as its XPUB reports them: once one is
        # here, the proxy forwards that topic's events (one thread both reads these and sends).
        self.subscribed: list[bytes] = []
        self._highest_seq = 0
        self.endpoint = f"ipc://{directory}/proxy-{uuid.uuid4().hex[:6]}.events"
        self._up = ctx.socket(zmq.SUB)
        self._up.setsockopt(zmq.LINGER, 0)
        self._up.setsockopt(zmq.SUBSCRIBE, b"")
        self._up.connect(engine.events_endpoint)
        assert self._up.poll(int(PATIENCE * 1000)), "the proxy got no $sys/welcome from the engine"
        assert self._up.recv_multipart() == [b"$sys/welcome"]
        self._down = ctx.socket(zmq.XPUB)
        self._down.setsockopt(zmq.LINGER, 0)
        self._down.setsockopt(zmq.XPUB_WELCOME_MSG, b"$sys/welcome")
        self._down.bind(self.endpoint)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        poller = zmq.Poller()
        poller.register(self._up, zmq.POLLIN)
        poller.register(self._down, zmq.POLLIN)
        while not self._stop.is_set():
            for sock, _ in poller.poll(50):
                frames = sock.recv_multipart()
                if sock is self._down:
                    if frames and frames[0][:1] == b"\x01":
                        self.subscribed.append(frames[0][1:])
                    continue  # subscription messages of our own subscribers
                if len(frames) == 2 and frames[0] == b"$sys/tick" and self.ticks_from_seq is not None \
                        and self._highest_seq < self.ticks_from_seq:
                    self.withheld_ticks += 1
                    continue
                if len(frames) == 2 and not frames[0].startswith(b"$sys/"):
                    seq = json.loads(frames[1]).get("seq")
                    self._highest_seq = max(self._highest_seq, seq)
                    if seq in self.drop:
                        self.dropped.append(seq)
                        continue
                    self.forwarded.append(seq)
                if len(frames) == 2:
                    self._down.send_multipart(frames)
        self._up.close(0)
        self._down.close(0)

    def wait_subscribed(self, prefix: str):
        """Until a subscriber of this proxy has a subscription starting with `prefix`: a subscriber's
        subscriptions travel to the proxy on their own, after its connection is up."""
        wait_for(lambda: any(t.startswith(prefix.encode()) for t in self.subscribed),
                 what=f"a subscription to {prefix!r} to reach the proxy")

    def close(self):
        self._stop.set()
        self._thread.join(5)


@pytest.fixture
def proxies(ctx):
    made: list[LossyProxy] = []

    def make(engine, drop=(), ticks_from_seq: int | None = None) -> LossyProxy:
        p = LossyProxy(ctx, engine, engine.dir, drop, ticks_from_seq)
        made.append(p)
        return p

    yield make
    for p in made:
        p.close()


def proxied_address(engine, proxy: LossyProxy) -> rc.EngineAddress:
    return rc.EngineAddress(rpc=engine.rpc_endpoint, events=proxy.endpoint)


def proxied_env(engine, proxy: LossyProxy) -> dict:
    return client_env(RESPONDER_RPC=engine.rpc_endpoint, RESPONDER_EVENTS=proxy.endpoint)


def collect(follower: rc.Follower, until_seq: int, timeout: float = PATIENCE) -> list[rc.Item]:
    """Items (sys ones left out) until the follower has delivered `until_seq`."""
    items = []
    deadline = time.monotonic() + timeout
    delivered = -1  # the seq of the last event (or snapshot) handed out: last_seq runs ahead while items wait
    while delivered < until_seq:
        left = deadline - time.monotonic()
        assert left > 0, f"follower stuck at seq {follower.last_seq}, expected {until_seq}"
        item = follower.next(left)
        if item is None or item.kind == "sys":
            continue
        items.append(item)
        if item.kind == "event":
            delivered = item.event.seq
        elif item.kind == "snapshot":
            delivered = item.snapshot["seq"]
    return items


def event_seqs(items) -> list[int]:
    return [i.event.seq for i in items if i.kind == "event"]


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def assert_recording_contiguous(lines: list[dict]) -> None:
    """Every event line follows the previous line's seq by exactly 1 (a snapshot line sets the seq)."""
    assert lines and "snapshot" in lines[0], "a recording starts with a snapshot line"
    last = None
    for n, obj in enumerate(lines):
        if "snapshot" in obj:
            last = obj["snapshot"]["seq"]
            continue
        assert obj["seq"] == last + 1, f"line {n + 1}: seq {obj['seq']} after {last}"
        last = obj["seq"]


# -------------------------------------------------------------------------------------------- discovery

def test_discovery_env_override_and_clear_errors(tmp_path):
    env = {"RESPONDER_RPC": "ipc:///x.rpc", "RESPONDER_EVENTS": "ipc:///x.events"}
    address = rc.discover("whatever", str(tmp_path), env=env)
    assert (address.rpc, address.events) == ("ipc:///x.rpc", "ipc:///x.events")
    # Only one of the two set: the file is used, and there is none.
    with pytest.raises(rc.NoEngineError, match=r'no engine named "nope" is running.*nope\.json'):
        rc.discover("nope", str(tmp_path), env={"RESPONDER_RPC": "ipc:///x.rpc"})
    # The default directory follows XDG_RUNTIME_DIR.
    assert rc.default_directory({"XDG_RUNTIME_DIR": "/run/user/7"}) == "/run/user/7/responder"
    assert rc.default_directory({}) == f"/tmp/responder-{os.getuid()}"
    # A discovery file left by a dead engine.
    dead = subprocess.Popen(["true"])
    dead.wait()
    (tmp_path / "ghost.json").write_text(json.dumps({"name": "ghost", "pid": dead.pid, "version": "0.1.0",
                                                      "protocol": 1, "rpc": "ipc:///g.rpc", "events": "ipc:///g.ev",
                                                      "startedAt": "2025-01-01T00:00:00Z"}))
    with pytest.raises(rc.NoEngineError, match="is gone"):
        rc.discover("ghost", str(tmp_path), env={})
    # A protocol this client does not speak.
    future = {"name": "future", "pid": os.getpid(), "version": "9.0.0", "protocol": 2, "rpc": "ipc:///f.rpc",
              "events": "ipc:///f.ev", "startedAt": "2030-01-01T00:00:00Z"}
    (tmp_path / "future.json").write_text(json.dumps(future))
    with pytest.raises(rc.NoEngineError, match="speaks protocol 2"):
        rc.discover("future", str(tmp_path), env={})
    future["protocol"] = 1
    (tmp_path / "future.json").write_text(json.dumps(future))
    assert rc.discover("future", str(tmp_path), env={}).rpc == "ipc:///f.rpc"


def test_request_example_and_rpc_error_name(engines, scripts):
    e = engines(args=["--world", str(DEMO_WORLD)])
    s = scripts("request_example.py", "--name", e.name, "--dir", str(e.dir))
    assert s.wait() == 0, s.stderr
    out = s.stdout
    assert f"engine.info: {e.name} " in out
    assert re.search(r"tree\.apply: inserted request-example under window \(at the back\) -> revision 3, seq 1,", out), out
    assert "error example: data.name=NODE_NOT_FOUND code=-32003" in out
    conn = connect(e)
    # At the back of the window (index 0): in front of nothing, so hit-testing never reaches it inside the window.
    children = [c["id"] for c in conn.call("tree.get", {"id": "window"})["tree"]["children"]]
    assert children == ["request-example", "rootVC"]
    hit = conn.call("hitTest", {"point": [30, 30]})
    assert hit["view"] == "header" and "request-example" not in json.dumps(hit), hit
    # Run again: the same view, moved back there and updated; nothing added.
    conn.call("tree.apply", {"ops": [{"op": "move", "id": "request-example", "parent": "window", "index": 1}]})
    again = scripts("request_example.py", "--name", e.name, "--dir", str(e.dir))
    assert again.wait() == 0, again.stderr
    assert "tree.apply: updated request-example under window (at the back) -> revision 5" in again.stdout, again.stdout
    assert [c["id"] for c in conn.call("tree.get", {"id": "window"})["tree"]["children"]] == children
    with pytest.raises(rc.RPCError) as info:
        conn.call("trace.replay", {"session": "no-such-session", "after": 0})
    assert info.value.name == "SESSION_NOT_FOUND" and info.value.data["session"] == "no-such-session"
    # No engine: a clear message and exit status 1.
    s = scripts("request_example.py", "--name", "not-running", "--dir", str(e.dir))
    assert s.wait() == 1
    assert 'no engine named "not-running" is running' in s.stderr


# ------------------------------------------------------------------------------------------- subscriber

@pytest.mark.parametrize("drop", [(), (5, 6, 7, 8, 9)], ids=["no-loss", "loss-5-9"])
def test_subscriber_names_missing_seqs(engines, proxies, scripts, drop):
    e = engines()
    proxy = proxies(e, drop, ticks_from_seq=10)  # the run 5–9 is reported once, by the gap at seq 10
    expected = [s for s in range(1, 21) if s not in drop]
    s = scripts("subscriber.py", "--count", str(len(expected)), "--idle-exit", "30", env=proxied_env(e, proxy))
    wait_for(lambda: "joined session default at seq 0" in s.stdout, what="the subscriber to join")
    conn = connect(e)
    insert_windows(conn, 20)
    assert s.wait() == 0, s.stderr
    printed = [int(m) for m in re.findall(r"^seq\s+(\d+)\s+default/tree", s.stdout, re.M)]
    assert printed == expected
    warnings = [line for line in s.stderr.splitlines() if line.startswith("WARNING")]
    if drop:
        assert len(warnings) == 1, s.stderr
        assert "missed seq 5\u20139 (5 events)" in warnings[0] and "got seq 10 after 4" in warnings[0]
    else:
        assert warnings == []


def test_subscriber_notices_a_lost_tail_from_the_tick(engines, proxies, scripts):
    e = engines(args=["--tick-ms", "100"])
    # Only a tick can show the lost tail 9–10; one published between seq 9 and 10 would show it in two pieces.
    proxy = proxies(e, drop=(9, 10), ticks_from_seq=10)
    s = scripts("subscriber.py", env=proxied_env(e, proxy))
    wait_for(lambda: "joined session default" in s.stdout, what="the subscriber to join")
    insert_windows(connect(e), 10)
    wait_for(lambda: "$sys/tick shows seq 10" in s.stderr, what="a tick to show the lost tail")
    s.stop(signal.SIGINT)  # as Ctrl-C: the subscriber prints its summary and exits 0
    assert s.proc.returncode == 0, s.stderr
    assert "missed seq 9\u201310 (2 events)" in s.stderr and "$sys/tick shows seq 10" in s.stderr
    warnings = [line for line in s.stderr.splitlines() if line.startswith("WARNING")]
    assert len(warnings) == 1, s.stderr
    assert "last seq 10, 2 missed" in s.stdout


# ------------------------------------------------------------------------------------------ follower

def test_follower_recovers_every_dropped_event_via_replay(engines, proxies):
    e = engines()
    drop = set(range(7, 19)) | {40, 41, 55} | set(range(90, 101))  # includes the last events: only a tick shows those
    proxy = proxies(e, drop, ticks_from_seq=19)  # the first loss, 7–18, is found by the gap at 19
    conn = connect(e)
    follower = rc.Follower(conn, "default", subscriber=rc.Subscriber(proxied_address(e, proxy), ["default/"],
                                                                     welcome_timeout=PATIENCE))
    items = []
    try:
        # In three bursts, so that a later live event reveals the first gaps and only a tick the last one.
        for upto in (30, 60, 100):
            insert_windows(conn, upto - follower.last_seq, prefix=f"b{upto}-")
            items += collect(follower, upto)
    finally:
        follower.close()
    assert items[0].kind == "snapshot" and items[0].snapshot["seq"] == 0
    events = [i for i in items if i.kind == "event"]
    assert [i.event.seq for i in events] == list(range(1, 101))
    replayed = {i.event.seq for i in events if i.replayed}
    assert drop <= replayed, f"dropped seqs not replayed: {sorted(drop - replayed)}"
    assert sorted(proxy.dropped) == sorted(drop)
    recovered = [i for i in items if i.kind == "recovered"]
    assert recovered and sum(r.count for r in recovered) == len(replayed)
    assert recovered[0].first == 7 and "gap: got seq" in recovered[0].reason
    assert any("$sys/tick" in r.reason for r in recovered), [r.describe() for r in recovered]
    assert re.fullmatch(r"recovered \d+ events \(seq 7\u2013\d+\) via trace\.replay \(.*\)", recovered[0].describe())


def test_follower_with_rewound_last_seq_replays_what_it_missed(engines):
    e = engines()
    conn = connect(e)
    follower = rc.Follower(conn, "default")
    try:
        insert_windows(conn, 30)
        items = collect(follower, 30)
        assert event_seqs(items) == list(range(1, 31))
        follower.last_seq = 12  # as if 13…30 had been lost
        insert_windows(conn, 1, prefix="more")
        items = collect(follower, 31)
    finally:
        follower.close()
    assert event_seqs(items) == list(range(13, 32))
    assert all(i.replayed for i in items if i.kind == "event" and i.event.seq <= 30)
    rec = [i for i in items if i.kind == "recovered"]
    assert [(r.first, r.last, r.count) for r in rec] == [(13, 31, 19)]


def test_follower_resumes_after_a_seq_without_a_snapshot(engines):
    e = engines()
    conn = connect(e)
    insert_windows(conn, 25)
    follower = rc.Follower(conn, "default", after=10, replay_limit=4)  # capped replies: complete is false
    try:
        items = collect(follower, 25)
    finally:
        follower.close()
    assert [i.kind for i in items if i.kind == "snapshot"] == []
    assert event_seqs(items) == list(range(11, 26))
    assert [(r.first, r.last) for r in items if r.kind == "recovered"] == [(11, 25)]


def test_follower_resuming_from_zero_a_session_that_began_with_a_world_file_takes_a_snapshot(engines):
    e = engines(args=["--world", str(DEMO_WORLD)])
    conn = connect(e)
    insert_windows(conn, 2)
    follower = rc.Follower(conn, "default", after=0)
    try:
        items = collect(follower, 2)
    finally:
        follower.close()
    assert [i.kind for i in items] == ["snapshot"]
    snapshot = items[0]
    assert snapshot.resnapshot and snapshot.snapshot["seq"] == 2
    assert len(snapshot.snapshot["tree"]["children"]) == 4  # delegate, window and the two inserted windows
    assert snapshot.describe() == (
        "REPLAY_EXPIRED: the session started with a world that is in no event (responderd --world): replaying from "
        "seq 0 cannot rebuild it; take a new session.snapshot; re-snapshotted at seq 2")


def test_follower_replay_expired_takes_a_new_snapshot(engines, proxies):
    e = engines(args=["--replay-buffer", "10"])
    proxy = proxies(e, drop=range(5, 31), ticks_from_seq=31)  # the loss 5–30 is found in one piece, at seq 31
    conn = connect(e)
    follower = rc.Follower(conn, "default", subscriber=rc.Subscriber(proxied_address(e, proxy), ["default/"],
                                                                     welcome_timeout=PATIENCE))
    try:
        insert_windows(conn, 40)
        items = collect(follower, 40)
    finally:
        follower.close()
    snaps = [i for i in items if i.kind == "snapshot"]
    assert len(snaps) == 2 and not snaps[0].resnapshot and snaps[1].resnapshot
    again = snaps[1]
    s = again.snapshot["seq"]
    assert 31 <= s <= 40 and again.oldest > 5 and again.lost == (5, s)
    assert "REPLAY_EXPIRED" in again.describe()
    # The new snapshot holds every window inserted up to its seq (window i was inserted by event i + 1).
    windows = {c["id"] for c in again.snapshot["tree"]["children"]}
    assert windows == {f"w{i}" for i in range(s)}
    seqs = event_seqs(items)
    assert seqs == [1, 2, 3, 4] + list(range(s + 1, 41))
    assert follower.recoveries[-1] is again


def test_follower_recovers_a_real_overflow(engines):
    """A follower with RCVHWM 1 that does not read while 120,000 events are published: libzmq drops what
    neither its queue nor the engine's 100,000-message send queue holds; replay brings back every one."""
    n = 120_000
    e = engines(args=["--replay-buffer", "200000", "--tick-ms", "200"])
    conn = connect(e)
    follower = rc.Follower(conn, "default", rcvhwm=1)
    sender = zmq.Context.instance().socket(zmq.DEALER)
    sender.setsockopt(zmq.LINGER, 0)
    sender.connect(e.rpc_endpoint)
    try:
        request = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tree.apply", "params": {
            "ops": [{"op": "update", "id": "app", "set": {"class": "UIApplication"}}]}}).encode()
        in_flight = 0
        for _ in range(n):  # pipelined, at most 500 requests in flight
            sender.send_multipart([b"", request])
            in_flight += 1
            if in_flight >= 500:
                assert sender.poll(int(PATIENCE * 1000))
                sender.recv_multipart()
                in_flight -= 1
        while in_flight:
            assert sender.poll(int(PATIENCE * 1000))
            reply = json.loads(sender.recv_multipart()[-1])
            assert "result" in reply, reply
            in_flight -= 1
        # Check every item as it comes rather than keeping 120,000 of them.
        expected, live, replayed, recovered = 1, 0, 0, 0
        deadline = time.monotonic() + 120
        while expected <= n:
            assert time.monotonic() < deadline, f"follower stuck at seq {follower.last_seq}"
            item = follower.next(5)
            if item is None or item.kind == "sys":
                continue
            if item.kind == "event":
                assert item.event.seq == expected, f"seq {item.event.seq}, expected {expected}"
                expected += 1
                replayed += item.replayed
                live += not item.replayed
            elif item.kind == "recovered":
                recovered += item.count
            else:
                assert item.kind == "snapshot" and not item.resnapshot, item.describe()
    finally:
        sender.close(0)
        follower.close()
    assert expected == n + 1
    assert recovered > 0, "no event was lost: the test did not overflow the subscriber"
    assert recovered == replayed and recovered + live == n


# ----------------------------------------------------------------------------------------- trace_tail

def test_trace_tail_recovers_gaps_and_prints_paths(engines, proxies, scripts):
    e = engines(args=["--world", str(DEMO_WORLD)])
    proxy = proxies(e, drop=range(10, 16), ticks_from_seq=16)  # the loss 10–15 is found in one piece, at seq 16
    s = scripts("trace_tail.py", "--streams", "all", "--count", "30", "--idle-exit", "30", env=proxied_env(e, proxy))
    wait_for(lambda: "# following session default from snapshot at seq 0" in s.stdout, what="trace_tail to join")
    conn = connect(e, "tester")
    for i in range(30):
        if i % 2:
            conn.call("event.tap", {"point": [100, 150]})
        else:
            insert_windows(conn, 1, prefix=f"tt{i}-")
    assert s.wait() == 0, s.stderr
    lines = s.stdout.splitlines()
    seqs = [int(m.group(1)) for m in (re.match(r"seq\s+(\d+)\s", line) for line in lines) if m]
    assert seqs == list(range(1, 31))
    m = re.search(r"^# recovered (\d+) events \(seq 10\u2013(\d+)\) via trace\.replay", s.stdout, re.M)
    assert m, s.stdout
    assert int(m.group(1)) == int(m.group(2)) - 9 >= 6
    tap = next(line for line in lines if re.match(r"seq\s+2\s", line))
    assert "tester#" in tap and " touch " in tap
    assert "touchesBegan: button, handled by button (touchDown)" in tap
    assert "buttonTapped: performed by rootVC" in tap
    assert re.search(r"seq\s+1\s+tester#\d+\s+tree\s+tree apply: insert window tt0-0 under app", s.stdout)
    assert "[replayed]" in next(line for line in lines if re.match(r"seq\s+10\s", line))


def test_trace_tail_describes_each_outcome_shape():
    d = trace_tail.describe_outcome
    touches = {"deliveries": [{"touch": 1, "phase": "began", "view": "E", "message": "touchesBegan",
                               "visited": ["E", "C", "A"], "handledBy": ["A"], "controlEvents": [], "actions": []}]}
    assert d("touch", touches) == "touchesBegan: E \u2192 C \u2192 A, handled by A"
    two = {"deliveries": [dict(touches["deliveries"][0], touch="a"), dict(touches["deliveries"][0], touch="b",
                                                                            handledBy=[])]}
    assert d("touch", two) == ("a touchesBegan: E \u2192 C \u2192 A, handled by A; "
                               "b touchesBegan: E \u2192 C \u2192 A, unhandled")
    nohit = {"deliveries": [{"touch": 1, "phase": "began", "view": None, "message": "touchesBegan", "visited": [],
                             "handledBy": [], "reason": "no-hit"}]}
    assert d("touch", nohit) == "touchesBegan: delivered to no one (no-hit)"
    motion = {"message": "motionBegan", "start": "tf", "visited": ["tf", "win"], "handledBy": ["win"]}
    assert d("motion", motion) == "motionBegan: tf \u2192 win, handled by win"
    remote = {"message": "remoteControlReceived", "start": None, "visited": [], "handledBy": []}
    steps = [{"step": "discard", "reason": "not-receiving-remote-control-events", "rule": "E1"}]
    assert d("remoteControl", remote, steps) == "remoteControlReceived: discarded (not-receiving-remote-control-events)"
    action = {"performed": True, "by": "vc", "visited": ["b", "vc"]}
    assert d("action", action, [{"step": "action", "action": "go:"}]) == "go: b \u2192 vc, performed by vc"
    assert d("action", {"performed": False, "by": None, "visited": ["b"], "reason": "end-of-chain"}) == \
        "action b, not performed (end-of-chain)"
    become = {"result": True, "reason": "became", "resigned": "old"}
    assert d("become", become, [{"step": "check", "id": "tf"}]) == "become tf: true (became), resigned old"
    assert d("mystery", {"something": 1}) == "mystery"
    assert d("touch", None) == "touch"


# --------------------------------------------------------------------------------------------- record

def test_record_resumes_after_kill_without_gaps_or_duplicates(engines, scripts, tmp_path):
    e = engines()
    out = tmp_path / "rec.jsonl"
    args = [str(out), "--name", e.name, "--dir", str(e.dir)]
    conn = connect(e)

    first = scripts("record.py", *args)
    wait_for(lambda: out.exists() and out.read_text().count("\n") >= 1, what="the starting snapshot")
    insert_windows(conn, 10, prefix="a")
    wait_for(lambda: out.read_text().count("\n") >= 11, what="10 recorded events")
    first.stop(signal.SIGKILL)
    insert_windows(conn, 15, prefix="b")  # made while no recorder runs
    with open(out, "a") as f:
        f.write('{"session":"default","stream":"tree","seq":11,"rev')  # as if killed in mid-write

    second = scripts("record.py", *args, "--until-seq", "30")
    wait_for(lambda: "resuming" in second.stderr, what="the recorder to resume")
    insert_windows(conn, 5, prefix="c")
    assert second.wait() == 0, second.stderr
    assert "dropping a torn last line" in second.stderr
    assert "recovered 15 events (seq 11\u201325)" in second.stderr
    assert "!!!" not in second.stderr

    third = scripts("record.py", *args)
    wait_for(lambda: "resuming" in third.stderr, what="the recorder to resume")
    insert_windows(conn, 10, prefix="d")
    wait_for(lambda: out.read_text().count("\n") >= 41, what="40 recorded events")
    third.stop(signal.SIGTERM)
    assert third.proc.returncode == 0 and "wrote 10 events (seq 31\u201340)" in third.stderr

    lines = read_jsonl(out)
    assert_recording_contiguous(lines)
    assert [o["seq"] for o in lines[1:]] == list(range(1, 41))
    assert lines[0]["snapshot"]["seq"] == 0 and sum("snapshot" in o for o in lines) == 1
    assert lines[11]["ops"][0]["node"]["id"] == "b0" and lines[11]["cause"]["client"] == "test"


def test_record_after_replay_expired_writes_a_snapshot_and_says_so(engines, scripts, tmp_path):
    e = engines(args=["--replay-buffer", "10"])
    out = tmp_path / "rec.jsonl"
    args = [str(out), "--name", e.name, "--dir", str(e.dir)]
    conn = connect(e)
    first = scripts("record.py", *args, "--count", "3")
    wait_for(lambda: out.exists() and out.read_text().count("\n") >= 1, what="the starting snapshot")
    insert_windows(conn, 3, prefix="a")
    assert first.wait() == 0, first.stderr
    insert_windows(conn, 30, prefix="b")  # seq 4…33; the engine keeps 24…33

    second = scripts("record.py", *args, "--count", "2")
    wait_for(lambda: "resuming" in second.stderr, what="the recorder to resume")
    insert_windows(conn, 2, prefix="c")
    assert second.wait() == 0, second.stderr
    assert "GAP IN THE RECORDING" in second.stderr and "REPLAY_EXPIRED" in second.stderr
    assert "events seq 4\u201333 are not in the file" in second.stderr

    lines = read_jsonl(out)
    assert_recording_contiguous(lines)
    kinds = ["snapshot" if "snapshot" in o else o["seq"] for o in lines]
    assert kinds == ["snapshot", 1, 2, 3, "snapshot", 34, 35]
    assert lines[4]["snapshot"]["seq"] == 33
    assert len(lines[4]["snapshot"]["tree"]["children"]) == 33


def test_record_notices_an_engine_restart(engines, scripts, tmp_path):
    first_engine = engines()
    name, runtime = first_engine.name, first_engine.runtime_dir
    out = tmp_path / "rec.jsonl"
    args = [str(out), "--name", name, "--dir", str(first_engine.dir)]
    rec = scripts("record.py", *args, "--count", "5")
    wait_for(lambda: out.exists() and out.read_text().count("\n") >= 1, what="the starting snapshot")
    insert_windows(connect(first_engine), 5, prefix="old")
    assert rec.wait() == 0, rec.stderr
    first_engine.stop()

    second_engine = engines(name=name, runtime_dir=runtime)
    insert_windows(connect(second_engine), 2, prefix="new")  # seq 1…2 of a new engine: below the file's 5
    rec = scripts("record.py", *args, "--count", "1")
    wait_for(lambda: "resuming" in rec.stderr, what="the recorder to resume")
    insert_windows(connect(second_engine), 1, prefix="newer")
    assert rec.wait() == 0, rec.stderr
    assert "GAP IN THE RECORDING" in rec.stderr and "restarted" in rec.stderr
    lines = read_jsonl(out)
    assert_recording_contiguous(lines)
    kinds = ["snapshot" if "snapshot" in o else o["seq"] for o in lines]
    assert kinds == ["snapshot", 1, 2, 3, 4, 5, "snapshot", 3]
    assert {c["id"] for c in lines[6]["snapshot"]["tree"]["children"]} == {"new0", "new1"}
