"""A new user's first hour, through the real binaries: responderd, the `responder` CLI,
`responder-subscribe` and `./dev`. Where what is shown depends on a terminal, the command's standard error is a
pty. Waits are on conditions with generous deadlines (harness.PATIENCE), never fixed sleeps.
"""

from __future__ import annotations

import json
import math
import os
import pty
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import uuid
from pathlib import Path

import pytest
import zmq

from harness import DEMO_WORLD, PATIENCE, REPO, demo_tree, responderd_path

BIN = responderd_path().parent
CLI = BIN / "responder"
SUBSCRIBE = BIN / "responder-subscribe"


# ------------------------------------------------------------------------------------------------ helpers

def wait_for(predicate, timeout: float = PATIENCE, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def client_env() -> dict:
    return {k: v for k, v in os.environ.items() if k not in ("RESPONDER_RPC", "RESPONDER_EVENTS")}


def target(engine=None, directory: Path | None = None, name: str | None = None) -> list[str]:
    if engine is not None:
        directory, name = engine.dir, engine.name
    return ["--dir", str(directory), "--name", name]


def cli(*args: str, stdin: str | None = None, timeout: float = PATIENCE) -> subprocess.CompletedProcess:
    """Runs `responder` to completion, its output captured (so standard error is not a terminal)."""
    if not CLI.exists():
        pytest.fail(f"responder not found at {CLI} (build it with `swift build --product responder`)")
    return subprocess.run([str(CLI), *args], capture_output=True, text=True, env=client_env(), timeout=timeout,
                          input=stdin, stdin=None if stdin is not None else subprocess.DEVNULL)


@pytest.fixture
def short_dir():
    """A private directory with a short path (ipc endpoints must stay under ~100 bytes), removed afterwards."""
    d = Path(tempfile.mkdtemp(prefix="rsp-", dir="/tmp"))
    yield d
    shutil.rmtree(d, ignore_errors=True)


class OnTerminal:
    """A command whose standard error is a terminal (a pty), its standard output a file. `text` is everything
    written to the terminal so far, control sequences included."""

    def __init__(self, args: list[str], out: Path):
        master, slave = pty.openpty()
        self._out = open(out, "w+b")
        self.out_path = out
        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=self._out, stderr=slave, env=client_env())
        os.close(slave)
        self._master = master
        self._buffer = bytearray()
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self):
        while True:
            try:
                data = os.read(self._master, 4096)
            except OSError:  # EIO: every holder of the terminal's other end has closed it
                break
            if not data:
                break
            with self._lock:
                self._buffer.extend(data)

    @property
    def text(self) -> str:
        with self._lock:
            return self._buffer.decode(errors="replace")

    @property
    def stdout(self) -> str:
        return self.out_path.read_text(errors="replace")

    def wait(self, timeout: float = PATIENCE) -> int:
        try:
            rc = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)
            raise AssertionError(f"{self.proc.args} did not exit within {timeout} s; terminal:\n{self.text!r}")
        self._reader.join(PATIENCE)
        return rc

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)
        self._reader.join(5)
        os.close(self._master)
        self._out.close()


@pytest.fixture
def terminals():
    made: list[OnTerminal] = []

    def run(args: list[str], out: Path) -> OnTerminal:
        t = OnTerminal([str(a) for a in args], out)
        made.append(t)
        return t

    yield run
    for t in made:
        t.close()


class HoldingEngine:
    """A stand-in for an engine that is busy with one request: its own discovery file (`<dir>/<name>.json`, with
    the real engine's pid and events endpoint) names a ROUTER that forwards every request to the real engine,
    except that one of method `hold` waits until `release()`. The CLI cannot tell it from a busy engine."""

    def __init__(self, ctx: zmq.Context, engine, directory: Path, hold: str):
        self.name = "held-" + uuid.uuid4().hex[:6]
        self.directory = directory
        self.hold = hold
        self.held_bytes: int | None = None
        self._endpoint = f"ipc://{directory}/{self.name}.rpc"
        self._engine = engine
        self._ctx = ctx
        self._held = threading.Event()
        self._release = threading.Event()
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        assert self._ready.wait(PATIENCE), "the holding engine did not start"
        (directory / f"{self.name}.json").write_text(json.dumps({
            "name": self.name, "pid": engine.proc.pid, "version": "0.1.0", "protocol": 1, "rpc": self._endpoint,
            "events": engine.events_endpoint, "startedAt": "2026-01-01T00:00:00Z"}))

    def _run(self):
        front = self._ctx.socket(zmq.ROUTER)
        front.setsockopt(zmq.LINGER, 0)
        front.bind(self._endpoint)
        back = self._ctx.socket(zmq.DEALER)
        back.setsockopt(zmq.LINGER, 0)
        back.connect(self._engine.rpc_endpoint)
        self._ready.set()
        try:
            while not self._stop.is_set():
                if not front.poll(50, zmq.POLLIN):
                    continue
                routing, *rest = front.recv_multipart()
                body = rest[-1]
                if json.loads(body).get("method") == self.hold:
                    self.held_bytes = len(body)
                    self._held.set()
                    while not self._release.wait(0.05):
                        if self._stop.is_set():
                            return
                back.send_multipart([b"", body])
                if back.poll(int(PATIENCE * 1000), zmq.POLLIN):
                    front.send_multipart([routing, b"", back.recv_multipart()[-1]])
        finally:
            front.close(0)
            back.close(0)

    def wait_held(self):
        assert self._held.wait(PATIENCE), f"no {self.hold} request reached the holding engine"

    def release(self):
        self._release.set()

    def close(self):
        self._stop.set()
        self._thread.join(PATIENCE)


@pytest.fixture
def holding(ctx):
    made: list[HoldingEngine] = []

    def make(engine, directory: Path, hold: str) -> HoldingEngine:
        h = HoldingEngine(ctx, engine, directory, hold)
        made.append(h)
        return h

    yield make
    for h in made:
        h.close()


def write_world(path: Path, views: int) -> int:
    """A world of one window holding `views` views in rows of 100; returns the file's size in bytes."""
    rows = [{"id": f"r{r}", "kind": "view", "frame": [0, r, 390, 1],
             "children": [{"id": f"v{r}-{i}", "kind": "view", "frame": [i, 0, 1, 1]} for i in range(100)]}
            for r in range(views // 100)]
    world = {"tree": {"id": "app", "kind": "application", "children": [
        {"id": "w", "kind": "window", "frame": [0, 0, 390, 844], "key": True, "children": rows}]}}
    path.write_text(json.dumps(world))
    return path.stat().st_size


ERASE = "\r\x1b[K"


# ------------------------------------------------------------------------------------------ long requests

def test_a_large_request_shows_progress_on_a_terminal_and_waits_as_long_as_its_size_needs(
        engines, short_dir, holding, terminals):
    e = engines()
    world = short_dir / "big.json"
    size = write_world(world, 30_000)
    assert size > 1_000_000
    busy = holding(e, short_dir, "session.create")
    t = terminals([CLI, "session", "create", "big", world, *target(directory=short_dir, name=busy.name)],
                  short_dir / "create.out")
    busy.wait_held()
    # The engine has the request and does not answer yet: the status line says so, once a second.
    line = wait_for(lambda: re.search(r"session\.create: ([\d.]+) MB sent; waiting for the engine… 1 s "
                                      r"\(timeout (\d+) s\)", t.text), what=f"the waiting line; terminal: {t.text!r}")
    busy.release()
    assert t.wait() == 0, t.text
    assert t.stdout.startswith("created session big at revision 2, seq 1"), t.stdout
    text = t.text
    assert f"reading {world} ({size / 1e6:.1f} MB)…" in text
    assert f"session.create: sending {busy.held_bytes / 1e6:.1f} MB to the engine…" in text
    assert line.group(1) == f"{busy.held_bytes / 1e6:.1f}"
    # Without --timeout a request waits 10 s, plus 10 s for each MB it sends.
    assert int(line.group(2)) == 10 + math.ceil(10 * busy.held_bytes / 1e6)
    assert text.endswith(ERASE), f"the status line must be erased before the command ends: {text[-200:]!r}"
    sessions = {s["session"]: s for s in e.client().call("session.list")["sessions"]}
    assert sessions["big"] == {"session": "big", "revision": 2, "seq": 1, "nodes": 2 + 300 + 30_000}

    # load and apply show the same, straight to the engine.
    t = terminals([CLI, "load", world, "--session", "big", *target(e)], short_dir / "load.out")
    assert t.wait() == 0, t.text
    assert "tree.load: sending" in t.text and t.text.endswith(ERASE), t.text
    ops = short_dir / "ops.json"
    ops.write_text(json.dumps([{"op": "update", "id": f"v{r}-{i}", "set": {"alpha": 0.5}}
                               for r in range(300) for i in range(100)]))
    t = terminals([CLI, "apply", ops, "--session", "big", *target(e)], short_dir / "apply.out")
    assert t.wait() == 0, t.text
    assert re.search(r"tree\.apply: sending 1\.\d MB to the engine…", t.text), t.text
    assert t.stdout.startswith("applied 30000 ops to big"), t.stdout

    # Not on a terminal: no status line at all.
    r = cli("session", "create", "quiet", str(world), *target(e))
    assert r.returncode == 0 and r.stderr == "", r


def test_a_timeout_tells_a_busy_engine_from_a_gone_one(engines, short_dir, terminals):
    e = engines()
    pid = e.proc.pid
    os.kill(pid, signal.SIGSTOP)  # an engine that does not answer, as one busy with a large request
    try:
        r = cli("info", "--timeout", "1", *target(e))
    finally:
        os.kill(pid, signal.SIGCONT)
    assert r.returncode == 1
    assert r.stderr == (f"error: no reply to client.hello: the engine (pid {pid}) has not answered within 1 s; "
                        f"it may be busy with a large request; --timeout waits longer\n"), r.stderr
    assert cli("info", *target(e)).returncode == 0

    # Explicit endpoints name no process: the message says both.
    nobody = f"ipc://{short_dir}/nobody.rpc,ipc://{short_dir}/nobody.events"
    r = cli("info", "--timeout", "0.5", "--connect", nobody)
    assert r.returncode == 1
    assert r.stderr == ("error: no reply to client.hello within 0.5 s: the engine may be busy with a large request, "
                        "or not running; --timeout waits longer\n"), r.stderr

    # An engine that goes away while a command waits is reported at once, not when the timeout ends.
    os.kill(pid, signal.SIGSTOP)
    t = terminals([CLI, "info", "--timeout", "600", *target(e)], short_dir / "gone.out")
    wait_for(lambda: "client.hello: waiting for the engine… 1 s (timeout 600 s)" in t.text,
             what=f"the waiting line; terminal: {t.text!r}")
    os.kill(pid, signal.SIGKILL)
    e.proc.wait(PATIENCE)
    started = time.monotonic()
    assert t.wait() == 1
    assert time.monotonic() - started < PATIENCE
    assert f"error: the engine (pid {pid}) is gone: it stopped before answering client.hello" in t.text, t.text
    # Its discovery file is left (SIGKILL): the next command says so before sending anything.
    r = cli("info", *target(e))
    assert r.returncode == 1 and f"is not running (pid {pid} in" in r.stderr, r.stderr
    help_text = " ".join(cli("tap", "--help").stdout.split())
    assert "--timeout <seconds> Seconds to wait for each reply. Default: 10, plus 10 for each MB the request sends" \
        in help_text, help_text


# ----------------------------------------------------------------------------------- clean failed starts

BAD_WORLDS = {
    "unknown-field": ({"tree": {"id": "app", "kind": "application", "children": [
        {"id": "w", "kind": "window", "frmae": [0, 0, 10, 10]}]}},
        'INVALID_NODE (-32006): unknown field tree.children[0].frmae on window "w"\n'
        "  field: tree.children[0].frmae\n  id: w\n"),
    "duplicate-id": ({"tree": {"id": "app", "kind": "application", "children": [
        {"id": "w", "kind": "window"}, {"id": "w", "kind": "window"}]}},
        'DUPLICATE_ID (-32004): a node with id "w" already exists\n  id: w\n  field: tree.children[1].id\n'),
    "detached": ({"tree": {"id": "app", "kind": "application"}, "detached": [
        {"id": "d", "kind": "view", "children": [{"id": "e", "kind": "view", "hiden": True}]}]},
        'INVALID_NODE (-32006): unknown field detached[0].children[0].hiden on view "e"\n'
        "  field: detached[0].children[0].hiden\n  id: e\n"),
    "bare-node": ({"id": "app", "kind": "application"},
                  'a world file is {"tree": <application node>, "detached"?: [<node>…]}; this file holds a bare '
                  'node: put it under "tree"\n'),
    "not-json": ("{\"tree\": ", "not valid JSON"),
}


@pytest.mark.parametrize("case", list(BAD_WORLDS))
def test_a_bad_world_file_names_the_field_by_its_path_in_the_file_and_leaves_nothing(engines, short_dir, case):
    content, expected = BAD_WORLDS[case]
    world = short_dir / f"{case}.json"
    world.write_text(content if isinstance(content, str) else json.dumps(content))
    e = engines(args=["--world", str(world)], wait=False)
    assert e.wait() == 1
    err = e.stderr_text()
    if case == "not-json":
        assert err.startswith(f"responderd: --world {world}: not valid JSON"), err
    else:
        assert err == f"responderd: --world {world}: {expected}", err
    # Nothing, or only the lock file, which an engine may leave (Protocol/README.md "The lock"): no sockets, no
    # discovery file. (A file that is no world is refused before the engine touches its directory.)
    left = sorted(p.name for p in e.dir.iterdir()) if e.dir.exists() else []
    assert left == ([] if case in ("bare-node", "not-json") else [f"{e.name}.lock"]), left


def test_a_start_that_fails_to_bind_removes_the_socket_file_it_made(engines, short_dir):
    e = engines(args=["--events", f"ipc://{short_dir}/no-such-dir/x.events"], wait=False)
    assert e.wait() == 1
    assert "cannot bind" in e.stderr_text()
    assert sorted(p.name for p in e.dir.iterdir()) == [f"{e.name}.lock"], "the rpc socket file must be removed"


# -------------------------------------------------------------------------------------------- streams

def test_replaying_from_zero_a_session_that_began_with_a_world_file_says_so(engines, short_dir):
    e = engines(args=["--world", str(DEMO_WORLD)])
    c = e.client()
    # Before any event, and after some: the world the session began with is in no event.
    for _ in range(2):
        err = c.error("trace.replay", session="default", after=0)
        assert err.name == "REPLAY_EXPIRED" and err.data["oldest"] == 1, err
        assert "responderd --world" in err.error["message"]
        c.call("tree.apply", session="default", ops=[{"op": "update", "id": "title", "set": {"alpha": 0.5}}])
    assert [x["event"]["seq"] for x in c.call("trace.replay", session="default", after=1)["events"]] == [2]
    # A created session publishes its world as its first event: replaying from 0 rebuilds it.
    assert "result" in c.rpc("session.create", {"session": "made", "tree": demo_tree()}, validate=False)
    first = c.call("trace.replay", session="made", after=0)["events"][0]["event"]
    assert (first["seq"], first["change"]) == (1, "load")
    # And an engine without --world starts as the bare application: nothing to refuse.
    plain = engines().client()
    assert plain.call("trace.replay", session="default", after=0)["events"] == []

    # The Swift sample subscriber asked to replay from 0 takes a snapshot instead of an empty mirror.
    out = short_dir / "subscribe.out"
    with open(out, "wb") as f:
        sub = subprocess.Popen([str(SUBSCRIBE), *target(e), "--since", "0", "--count", "1"], stdout=f,
                               stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=client_env())
        try:
            wait_for(lambda: "snapshot:" in out.read_text(), what="responder-subscribe's snapshot")
            c.call("tree.apply", session="default", ops=[{"op": "update", "id": "title", "set": {"alpha": 1}}])
            assert sub.wait(PATIENCE) == 0
        finally:
            if sub.poll() is None:
                sub.kill()
                sub.wait(5)
    lines = out.read_text().splitlines()
    # 16 nodes: the demo world (1.6: with an image view and its button, a switch, a scroll view and its rows).
    assert lines[0] == "snapshot: seq 2, revision 4, 16 nodes", lines
    assert re.fullmatch(r"#3 tree by [0-9a-f]+ revision 5 nodes 16", lines[1]), lines

    # `responder watch --since 0` says why it starts from a snapshot.
    out = short_dir / "watch.out"
    with open(out, "wb") as f:
        watch = subprocess.Popen([str(CLI), "watch", "--since", "0", *target(e)], stdout=f, stderr=subprocess.STDOUT,
                                 stdin=subprocess.DEVNULL, env=client_env())
        try:
            wait_for(lambda: "following default" in out.read_text(), what="watch to follow")
        finally:
            watch.send_signal(signal.SIGINT)
            watch.wait(PATIENCE)
    assert out.read_text().splitlines()[:3] == [
        "replaying default after seq 0",
        "not replayed: the session started with a world that is in no event (responderd --world): replaying from "
        "seq 0 cannot rebuild it; take a new session.snapshot",
        "following default from seq 3 (revision 5, 16 nodes)",
    ]


# ---------------------------------------------------------------------------------------------- ./dev

@pytest.fixture
def fake_tools(short_dir):
    """`swift` and `python3` stand-ins first on PATH: each logs its arguments and succeeds."""
    bin_dir = short_dir / "bin"
    bin_dir.mkdir()
    log = short_dir / "tools.log"
    for tool in ("swift", "python3"):
        script = bin_dir / tool
        script.write_text(f'#!/bin/sh\necho "{tool} $*" >> "{log}"\n')
        script.chmod(0o755)
    env = client_env()
    env["PATH"] = f"{bin_dir}:{env['PATH']}"
    return env, log


def test_dev_run_builds_only_the_products_and_dev_test_builds_the_tests(fake_tools, short_dir):
    if not Path("/usr/include/zmq.h").exists():
        pytest.skip("./dev would install libzmq3-dev first")
    if not (REPO / ".build" / "debug" / "responderd").exists():
        pytest.skip("./dev run starts .build/debug/responderd, which is not built")
    env, log = fake_tools
    name = "devrun-" + uuid.uuid4().hex[:6]
    run = subprocess.Popen([str(REPO / "dev"), "run", "--name", name, "--dir", str(short_dir)], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    try:
        wait_for(lambda: (short_dir / f"{name}.json").exists() or run.poll() is not None, what="./dev run's engine")
        assert run.poll() is None, run.stdout.read().decode()
    finally:
        run.send_signal(signal.SIGTERM)  # the engine replaced the script (exec): this stops it
        output = run.communicate(timeout=PATIENCE)[0].decode()
    assert run.returncode == 0, output
    # Only the two products a user runs: not the benchmark, the sample subscriber or the test support.
    assert "==> building responderd and responder\n" in output
    # Before building, the pinned package versions are checked out (Package.resolved).
    assert [line for line in log.read_text().splitlines() if line.startswith("swift")] == [
        "swift package resolve", "swift build --product responderd", "swift build --product responder"]

    log.unlink()
    test = subprocess.run([str(REPO / "dev"), "test"], env=env, capture_output=True, text=True, timeout=PATIENCE,
                          stdin=subprocess.DEVNULL)
    assert test.returncode == 0, test.stdout + test.stderr
    assert "==> building the products and the tests" in test.stdout
    calls = log.read_text().splitlines()
    assert [line for line in calls if line.startswith("swift")] == [
        "swift package resolve", "swift build --build-tests", "swift test --skip-build"]
    assert "python3 -m pytest Tests/python -q" in calls
