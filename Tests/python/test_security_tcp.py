"""tcp is CURVE (Protocol/README.md 2.1): an authorized client works; an unknown key, a wrong server key and a
plain client are refused; the loopback traffic carries none of a request's text; --insecure-tcp is loopback
only and loud. Also: owned sessions (7.1) and client ids held by their connection (14.5), over real
connections with different keys. Refusals are observed through libzmq's socket monitor (the handshake's
outcome), not by waiting for a reply that never comes."""

from __future__ import annotations

import os
import socket
import subprocess
import threading
import time
import uuid

import pytest
import zmq
from zmq.utils.monitor import recv_monitor_message

import responder_client_path  # noqa: F401
import responder_client as rc
from harness import PATIENCE, RPCError
from stdio_harness import responder_path

pytestmark = pytest.mark.skipif(not zmq.has("curve"), reason="libzmq without CURVE (libsodium)")

TCP = ["--rpc", "tcp://127.0.0.1:*", "--events", "tcp://127.0.0.1:*"]
HANDSHAKE = {zmq.EVENT_HANDSHAKE_SUCCEEDED: "succeeded", zmq.EVENT_HANDSHAKE_FAILED_AUTH: "refused by the engine",
             zmq.EVENT_HANDSHAKE_FAILED_NO_DETAIL: "failed", zmq.EVENT_HANDSHAKE_FAILED_PROTOCOL: "failed"}


@pytest.fixture(scope="module")
def curve_engine(engines_module):
    return engines_module(TCP)


@pytest.fixture(scope="module")
def engines_module(ctx, tmp_path_factory):
    from harness import Engine, unique_name
    made = []

    def make(args):
        e = Engine(ctx, tmp_path_factory.mktemp("rt"), unique_name("tcp"), args)
        made.append(e)
        return e.start()
    yield make
    for e in made:
        e.stop()


def handshake(ctx, endpoint: str, curve: tuple | None, socket_type=zmq.DEALER) -> tuple[str, zmq.Socket]:
    """Connects and returns how the handshake ended (and the socket, for the caller to use and close)."""
    s = ctx.socket(socket_type)
    s.linger = 0
    if curve:
        s.curve_serverkey, s.curve_publickey, s.curve_secretkey = curve
    monitor = s.get_monitor_socket(zmq.EVENT_HANDSHAKE_SUCCEEDED | zmq.EVENT_HANDSHAKE_FAILED_AUTH
                                   | zmq.EVENT_HANDSHAKE_FAILED_NO_DETAIL | zmq.EVENT_HANDSHAKE_FAILED_PROTOCOL)
    s.connect(endpoint)
    try:
        assert monitor.poll(int(PATIENCE * 1000)), "no handshake outcome"
        event = recv_monitor_message(monitor)
        return HANDSHAKE[event["event"]], s
    finally:
        s.disable_monitor()
        monitor.close(0)


def ask(s: zmq.Socket, method: str = "engine.info", params: dict | None = None, timeout: float = PATIENCE):
    import json
    s.send_multipart([b"", json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params or {}}).encode()])
    if not s.poll(int(timeout * 1000)):
        return None
    return json.loads(s.recv_multipart()[-1])


def test_an_authorized_client_works_and_others_are_refused(ctx, curve_engine):
    e = curve_engine
    assert len(e.discovery["curveServerKey"]) == 40
    curve = e.authorize_client()
    outcome, s = handshake(ctx, e.rpc_endpoint, curve)
    assert outcome == "succeeded"
    assert ask(s)["result"]["name"] == e.name
    s.close(0)
    e.subscriber("$sys/", curve=curve)  # the events socket too

    stranger = zmq.curve_keypair()
    wrong_server = zmq.curve_keypair()[0]
    for label, credentials in [("unknown key", (curve[0], *stranger)), ("wrong server key", (wrong_server, curve[1], curve[2])),
                               ("plain client", None)]:
        for endpoint in [e.rpc_endpoint, e.events_endpoint]:
            outcome, s = handshake(ctx, endpoint, credentials, zmq.DEALER if endpoint == e.rpc_endpoint else zmq.SUB)
            s.close(0)
            assert outcome != "succeeded", f"{label} on {endpoint}"
    assert "is not in authorized_clients" in e.stderr_text(), "the engine logs the refused key"


def test_a_key_added_to_authorized_clients_applies_to_the_next_connection(ctx, curve_engine):
    e = curve_engine
    server = e.discovery["curveServerKey"].encode()
    public, secret = zmq.curve_keypair()
    outcome, s = handshake(ctx, e.rpc_endpoint, (server, public, secret))
    s.close(0)
    assert outcome == "refused by the engine"
    with open(e.state_dir / "authorized_clients", "a") as f:
        f.write(f"# added while running\n{public.decode()} late client\n")
    outcome, s = handshake(ctx, e.rpc_endpoint, (server, public, secret))
    assert outcome == "succeeded" and ask(s)["result"]["name"] == e.name
    s.close(0)
    assert (os.stat(e.state_dir / "engine.key").st_mode & 0o777) == 0o600
    assert (os.stat(e.state_dir).st_mode & 0o777) == 0o700


class LoopbackCapture:
    """Every frame on the loopback interface while it runs (an AF_PACKET socket, as tcpdump would read them)."""

    def __init__(self):
        self.sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.ntohs(0x0003))
        self.sock.bind(("lo", 0))
        self.sock.settimeout(0.05)
        self.data = bytearray()
        self.frames = 0
        self.running = True
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while self.running:
            try:
                frame = self.sock.recv(65536)
            except socket.timeout:
                continue
            self.data += frame
            self.frames += 1

    def stop(self) -> bytes:
        self.running = False
        self.thread.join()
        # The tap queued every frame of the exchange before the client read its reply, but a busy machine may
        # not have run the reading thread since: take what is still queued.
        self.sock.setblocking(False)
        while True:
            try:
                frame = self.sock.recv(65536)
            except BlockingIOError:
                break
            self.data += frame
            self.frames += 1
        self.sock.close()
        return bytes(self.data)


def capture_exchange(ctx, engine, curve, marker: str) -> tuple[bytes, int]:
    """Captures a fresh connection sending `marker` (a client.hello name, echoed in the reply)."""
    capture = LoopbackCapture()
    try:
        s = ctx.socket(zmq.DEALER)
        s.linger = 0
        if curve:
            s.curve_serverkey, s.curve_publickey, s.curve_secretkey = curve
        s.connect(engine.rpc_endpoint)
        reply = ask(s, "client.hello", {"name": marker})
        s.close(0)
        assert reply["result"]["name"] == marker
    finally:
        data = capture.stop()
    return data, capture.frames


def test_loopback_traffic_carries_no_request_text(ctx, curve_engine, engines_module):
    if os.geteuid() != 0:
        pytest.skip("capturing loopback traffic (AF_PACKET) needs root or CAP_NET_RAW")
    marker = "marker-" + uuid.uuid4().hex
    data, frames = capture_exchange(ctx, curve_engine, curve_engine.authorize_client(), marker)
    assert frames > 0
    assert marker.encode() not in data, "CURVE traffic must not show the request's text"
    # The capture sees plain traffic: the same exchange with --insecure-tcp shows the marker, both ways.
    plain = engines_module([*TCP, "--insecure-tcp"])
    data, _ = capture_exchange(ctx, plain, None, marker)
    assert data.count(marker.encode()) >= 2


def test_insecure_tcp_is_loopback_only_and_loud(engines):
    e = engines(args=["--rpc", "tcp://0.0.0.0:*", "--insecure-tcp"], wait=False)
    assert e.wait() != 0
    assert "loopback address only" in e.stderr_text() and "tcp://0.0.0.0:*" in e.stderr_text()
    ok = engines(args=[*TCP, "--insecure-tcp"])
    assert "WARNING: --insecure-tcp" in ok.stderr_text()
    assert "curveServerKey" not in ok.discovery
    assert ok.client().call("engine.info")["name"] == ok.name


def test_the_cli_and_the_sample_client_use_the_keygen_key(curve_engine, tmp_path, monkeypatch):
    e = curve_engine
    env = {**os.environ, "XDG_RUNTIME_DIR": str(e.runtime_dir), "XDG_STATE_HOME": e.env["XDG_STATE_HOME"],
           "XDG_CONFIG_HOME": str(tmp_path / "config")}
    cli = [str(responder_path()), "--name", e.name]
    before = subprocess.run([*cli, "info"], env=env, capture_output=True, text=True, timeout=PATIENCE)
    assert before.returncode != 0 and "responder keygen" in before.stderr, "without a key: say what to do, at once"
    made = subprocess.run([*cli, "keygen"], env=env, capture_output=True, text=True, timeout=PATIENCE)
    assert made.returncode == 0 and "authorized_clients" in made.stdout, made.stderr
    unlisted = subprocess.run([*cli, "info"], env=env, capture_output=True, text=True, timeout=PATIENCE)
    assert unlisted.returncode != 0 and "not in the engine's authorized_clients" in unlisted.stderr, unlisted.stderr
    made = subprocess.run([*cli, "keygen", "--authorize"], env=env, capture_output=True, text=True, timeout=PATIENCE)
    assert made.returncode == 0, made.stderr
    key_file = tmp_path / "config" / "responder" / "client.key"
    assert (os.stat(key_file).st_mode & 0o777) == 0o600
    public = next(line.split()[1] for line in key_file.read_text().splitlines() if line.startswith("public "))
    assert public in made.stdout and public in (e.state_dir / "authorized_clients").read_text()
    again = subprocess.run([*cli, "keygen", "--authorize"], env=env, capture_output=True, text=True, timeout=PATIENCE)
    assert "keeping the existing key" in again.stdout and "already in" in again.stdout
    assert (e.state_dir / "authorized_clients").read_text().count(public) == 1
    info = subprocess.run([*cli, "info"], env=env, capture_output=True, text=True, timeout=PATIENCE)
    assert info.returncode == 0 and f"engine    {e.name}" in info.stdout, info.stderr
    # The Swift sample subscriber (the client library's EventSubscriber and SessionFollower) over CURVE: an event,
    # replayed from seq 0 so that it cannot be missed.
    session = "k" + uuid.uuid4().hex[:8]
    assert subprocess.run([*cli, "session", "create", session], env=env, capture_output=True, timeout=PATIENCE).returncode == 0
    sub = subprocess.run([str(responder_path().parent / "responder-subscribe"), "--name", e.name, "--session", session,
                          "--since", "0", "--count", "1"], env=env, capture_output=True, text=True, timeout=PATIENCE)
    assert sub.returncode == 0 and "#1 tree by responder" in sub.stdout, sub.stderr
    # The Python sample client: the same key file, found the same way.
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    address = rc.discover(e.name, str(e.dir))
    assert address.server_key == e.discovery["curveServerKey"]
    with rc.Connection(address, timeout=PATIENCE) as c:
        assert c.call("engine.info")["name"] == e.name


TOKEN = "t0k3n-" + "x" * 26
BEGIN = {"touches": [{"touch": "t1", "phase": "began", "point": [5, 5]}]}
END = {"touches": [{"touch": "t1", "phase": "ended", "point": [5, 5]}]}


def connect_as(engine, routing_id: bytes, curve: tuple):
    """A connection with `routing_id` that the engine answers. Until the engine has noticed that the previous
    connection with that id closed, libzmq's ROUTER ignores a new one with the same id (no handover, so no
    one can displace a live connection): try again until one is answered."""
    deadline, wait = time.monotonic() + PATIENCE, 0.5
    while True:
        c = engine.client(routing_id=routing_id, curve=curve)
        c.send_json_text('{"jsonrpc": "2.0", "id": 0, "method": "engine.info"}')
        if c.recv_frames(timeout=wait) is not None:
            return c
        c.close()
        wait = min(2 * wait, 5)  # a busy machine answers slowly: wait longer each time
        assert time.monotonic() < deadline, "the engine never answered a connection with that routing id"


def test_a_touch_stays_with_its_client_across_a_reconnect_by_another_key(ctx, curve_engine):
    """Two keys, one routing id: the second cannot end the first one's touch; the first, reconnecting, can."""
    e = curve_engine
    alice, mallory = e.authorize_client(), e.authorize_client()
    rid = b"shared-id-" + uuid.uuid4().hex[:6].encode()
    session = "s" + uuid.uuid4().hex[:8]
    a = e.client(routing_id=rid, curve=alice)
    a.call("session.create", session=session, tree={"id": "app", "kind": "application", "children": [
        {"id": "W", "kind": "window", "frame": [0, 0, 100, 100], "key": True}]})
    a.call("event.touch", session=session, **BEGIN)
    a.close()
    m = connect_as(e, rid, mallory)
    err = m.error("event.touch", session=session, **END)
    assert err.name == "CLIENT_ID_IN_USE" and err.code == -32041 and err.data["client"] == rid.hex()
    assert m.error("client.hello", name="mallory", token=TOKEN).name == "CLIENT_ID_IN_USE"
    assert [t["touch"] for t in m.call("session.snapshot", session=session)["liveTouches"]] == ["t1"], "reads stay open"
    m.close()
    a2 = connect_as(e, rid, alice)
    a2.call("event.touch", session=session, **END)
    assert a2.call("session.snapshot", session=session)["liveTouches"] == []


def test_an_owned_session_over_the_wire(curve_engine):
    e = curve_engine
    owner, other = e.client(curve=e.authorize_client()), e.client(curve=e.authorize_client())
    session = "own" + uuid.uuid4().hex[:8]
    owner.call("session.create", session=session, owner=TOKEN)
    op = {"op": "insert", "parent": "app", "node": {"id": "W", "kind": "window", "frame": [0, 0, 10, 10]}}
    for method, params in [("tree.apply", {"ops": [op]}), ("tree.load", {"tree": {"id": "app", "kind": "application"}}),
                           ("session.delete", {})]:
        err = other.error(method, session=session, **params)
        assert err.name == "SESSION_OWNED" and err.data == {"name": "SESSION_OWNED", "session": session, "field": "owner"}
    assert other.call("tree.apply", session=session, ops=[op], dryRun=True)["dryRun"] is True
    owner.call("tree.apply", session=session, ops=[op], owner=TOKEN)
    assert other.call("tree.get", session=session)["tree"]["children"][0]["id"] == "W"
    assert other.call("session.delete", session=session, owner=TOKEN)["deleted"] is True


def test_the_cli_sends_the_owner_token(engines):
    """`--owner` (or $RESPONDER_OWNER): session create makes the session owned; apply and delete send it."""
    e = engines()
    session = "cli" + uuid.uuid4().hex[:8]

    def cli(*args, owner=None, stdin=None):
        env = {**os.environ, "XDG_RUNTIME_DIR": str(e.runtime_dir), **({"RESPONDER_OWNER": owner} if owner else {})}
        return subprocess.run([str(responder_path()), "--name", e.name, *args], input=stdin, env=env,
                              capture_output=True, text=True, timeout=PATIENCE)
    assert cli("session", "create", session, owner=TOKEN).returncode == 0
    ops = '[{"op": "insert", "parent": "app", "node": {"id": "W", "kind": "window", "frame": [0, 0, 10, 10]}}]'
    denied = cli("apply", "--session", session, "-", stdin=ops)
    assert denied.returncode != 0 and "SESSION_OWNED" in denied.stderr, denied.stderr
    allowed = cli("--owner", TOKEN, "apply", "--session", session, "-", stdin=ops)
    assert allowed.returncode == 0, allowed.stderr
    assert "SESSION_OWNED" in cli("session", "delete", session).stderr
    assert cli("session", "delete", session, owner=TOKEN).returncode == 0
