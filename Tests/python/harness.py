"""Harness for the protocol integration tests: start the real `responderd`, talk to it over ZeroMQ, and
validate every reply and event against the published schemas in Protocol/schemas.

The binary is $RESPONDERD, else .build/debug/responderd at the repository root. Each test module gets its own
engine with its own XDG_RUNTIME_DIR and a unique --name (see conftest.py), so the tests can run beside any
other engine.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

import pytest
import zmq
from jsonschema import Draft202012Validator, FormatChecker
from jsonschema.exceptions import best_match
from referencing import Registry, Resource

REPO = Path(__file__).resolve().parents[2]
PROTOCOL = REPO / "Protocol"
SCHEMA_DIR = PROTOCOL / "schemas"
SCHEMA_BASE = "https://responder-engine.invalid/protocol/1/schemas/"
DEMO_WORLD = PROTOCOL / "examples" / "demo-world.json"

# How long a test waits for something that should happen (a start-up, a reply, an event) before it fails. Only a
# broken engine takes this long; a busy machine (2 cores, other builds, `stress`) can take seconds.
PATIENCE = float(os.environ.get("RESPONDERD_PATIENCE", "60"))
START_TIMEOUT = float(os.environ.get("RESPONDERD_START_TIMEOUT", str(PATIENCE)))
REPLY_TIMEOUT = float(os.environ.get("RESPONDERD_REPLY_TIMEOUT", str(PATIENCE)))


# --------------------------------------------------------------------------------------------- schemas

class Schemas:
    """All schemas of Protocol/schemas, resolvable by $id, with a `validate(name, instance)` that fails the
    test with every violation listed."""

    def __init__(self, root: Path = SCHEMA_DIR):
        self.root = root
        self.documents: dict[str, dict] = {}
        resources = []
        for path in sorted(root.rglob("*.json")):
            doc = json.loads(path.read_text())
            rel = path.relative_to(root).as_posix()
            self.documents[rel] = doc
            resources.append((doc["$id"], Resource.from_contents(doc)))
        self.registry = Registry().with_resources(resources)
        self._validators: dict[str, Draft202012Validator] = {}

    def has(self, name: str) -> bool:
        return name in self.documents

    def validator(self, name: str) -> Draft202012Validator:
        if name not in self._validators:
            if name not in self.documents:
                raise KeyError(f"no schema {name} in {self.root}")
            self._validators[name] = Draft202012Validator(
                {"$ref": SCHEMA_BASE + name}, registry=self.registry, format_checker=FormatChecker())
        return self._validators[name]

    def errors(self, name: str, instance) -> list[str]:
        out = []
        for e in self.validator(name).iter_errors(instance):
            where = "/".join(str(p) for p in e.absolute_path) or "(top)"
            out.append(f"{where}: {e.message}")
        return out

    def validate(self, name: str, instance, what: str = "") -> None:
        errors = list(self.validator(name).iter_errors(instance))
        if errors:
            best = best_match(errors)
            where = "/".join(str(p) for p in best.absolute_path) or "(top)"
            listing = "\n  ".join(self.errors(name, instance)[:12])
            text = json.dumps(instance)
            if len(text) > 1500:
                text = text[:1500] + "…"
            raise AssertionError(
                f"{what or 'instance'} does not match {name}: at {where}: {best.message}\n  {listing}\n"
                f"instance: {text}")


SCHEMAS = Schemas()


def event_schema_for(topic: str) -> str | None:
    if topic == "$sys/sessions":
        return "events/sys-sessions.json"
    if topic == "$sys/tick":
        return "events/sys-tick.json"
    m = re.fullmatch(r"[A-Za-z0-9_-]{1,64}/(tree|trace|focus)", topic)
    if m:
        return f"events/{m.group(1)}.json"
    return None


# --------------------------------------------------------------------------------------------- client

class RPCError(Exception):
    """An error reply, raised by Client.call."""

    def __init__(self, method: str, response: dict):
        self.method = method
        self.response = response
        self.error = response["error"]
        self.code = self.error.get("code")
        self.data = self.error.get("data") or {}
        self.name = self.data.get("name")
        super().__init__(f"{method}: {self.name} ({self.code}): {self.error.get('message')} data={self.data}")


class Client:
    """A DEALER connected to the engine's rpc endpoint.

    rpc(method, params) sends one request and returns the raw response object; call(method, **params)
    returns the result, or raises RPCError. Every response is validated against result-response.json /
    error-response.json and, for results, methods/<method>.result.json.
    """

    _ids = itertools.count(1)

    def __init__(self, ctx: zmq.Context, endpoint: str, routing_id: bytes | None = None,
                 timeout: float = REPLY_TIMEOUT, curve: tuple | None = None):
        self.endpoint = endpoint
        self.timeout = timeout
        self.socket = ctx.socket(zmq.DEALER)
        self.socket.setsockopt(zmq.LINGER, 0)
        if routing_id is not None:
            self.socket.setsockopt(zmq.ROUTING_ID, routing_id)
        set_curve(self.socket, curve)
        self.socket.connect(endpoint)

    def close(self):
        self.socket.close(0)

    # raw frames -------------------------------------------------------------------------------------
    def send_frames(self, frames: list[bytes]) -> None:
        self.socket.send_multipart(frames)

    def recv_frames(self, timeout: float | None = None) -> list[bytes] | None:
        """The next message's frames, or None if none arrives in time."""
        t = self.timeout if timeout is None else timeout
        if self.socket.poll(int(t * 1000), zmq.POLLIN):
            return self.socket.recv_multipart()
        return None

    def recv_response(self, timeout: float | None = None, what: str = "request") -> dict:
        frames = self.recv_frames(timeout)
        if frames is None:
            raise AssertionError(f"no reply to {what} within {self.timeout if timeout is None else timeout} s")
        assert len(frames) == 2 and frames[0] == b"", \
            f"reply to {what} must be [empty][json], got {len(frames)} frames: {frames!r:.300}"
        try:
            return json.loads(frames[-1])
        except ValueError as e:  # pragma: no cover - reported as a failure
            raise AssertionError(f"reply to {what} is not JSON: {frames[-1]!r:.300}") from e

    def send_json_text(self, text: str | bytes) -> None:
        self.send_frames([b"", text.encode() if isinstance(text, str) else text])

    # JSON-RPC ---------------------------------------------------------------------------------------
    def request_object(self, method: str, params=None, id=...):
        if id is ...:
            id = next(self._ids)
        obj = {"jsonrpc": "2.0", "id": id, "method": method}
        if params is not None:
            obj["params"] = params
        return obj

    def rpc(self, method: str, params: dict | None = None, id=..., validate: bool = True) -> dict:
        """Sends a request (id auto-numbered unless given) and returns the raw response object."""
        req = self.request_object(method, params, id)
        self.send_json_text(json.dumps(req))
        resp = self.recv_response(what=method)
        if validate:
            check_response(method, resp)
        assert resp.get("id") == req["id"], f"{method}: reply id {resp.get('id')!r} != request id {req['id']!r}"
        return resp

    def notify(self, method: str, params: dict | None = None) -> None:
        """Sends a notification (no id): no reply is expected."""
        req = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            req["params"] = params
        self.send_json_text(json.dumps(req))

    def call(self, method: str, **params):
        """Calls a method and returns its result; raises RPCError for an error reply."""
        resp = self.rpc(method, params)
        if "error" in resp:
            raise RPCError(method, resp)
        return resp["result"]

    def error(self, method: str, **params) -> RPCError:
        """Calls a method that must fail and returns the error."""
        resp = self.rpc(method, params)
        assert "error" in resp, f"{method} should have failed, got result {json.dumps(resp.get('result'))[:500]}"
        return RPCError(method, resp)


def check_response(method: str, resp: dict) -> None:
    if "error" in resp:
        SCHEMAS.validate("error-response.json", resp, f"error reply to {method}")
    else:
        SCHEMAS.validate("result-response.json", resp, f"reply to {method}")
        name = f"methods/{method}.result.json"
        if SCHEMAS.has(name):
            SCHEMAS.validate(name, resp["result"], f"result of {method}")


# --------------------------------------------------------------------------------------------- events

def set_curve(socket: zmq.Socket, curve: tuple | None) -> None:
    """CURVE client options from (server public key, client public key, client secret key), Z85 bytes."""
    if curve is not None:
        socket.curve_serverkey, socket.curve_publickey, socket.curve_secretkey = curve


class Subscriber:
    """A SUB on the engine's events endpoint. On creation it subscribes to the given topic prefixes and to
    $sys/welcome, and waits for the welcome message, so its subscriptions are live when it returns."""

    WELCOME = b"$sys/welcome"

    def __init__(self, ctx: zmq.Context, endpoint: str, *prefixes: str, timeout: float = REPLY_TIMEOUT,
                 curve: tuple | None = None):
        self.socket = ctx.socket(zmq.SUB)
        self.socket.setsockopt(zmq.LINGER, 0)
        set_curve(self.socket, curve)
        self.prefixes = prefixes
        for p in prefixes:
            self.socket.setsockopt(zmq.SUBSCRIBE, p.encode())
        self.socket.setsockopt(zmq.SUBSCRIBE, self.WELCOME)
        self.socket.connect(endpoint)
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not self.socket.poll(int(left * 1000), zmq.POLLIN):
                raise AssertionError(f"no {self.WELCOME.decode()} on {endpoint} within {timeout} s")
            frames = self.socket.recv_multipart()
            if frames == [self.WELCOME]:
                break

    def close(self):
        self.socket.close(0)

    def next(self, topic: str | None = None, timeout: float = REPLY_TIMEOUT, validate: bool = True):
        """The next event (topic, json), skipping events whose topic is not `topic` when one is given."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not self.socket.poll(int(left * 1000), zmq.POLLIN):
                raise AssertionError(f"no event{' on ' + topic if topic else ''} within {timeout} s")
            frames = self.socket.recv_multipart()
            if frames == [self.WELCOME]:
                continue
            assert len(frames) == 2, f"an event must be [topic][json], got {len(frames)} frames: {frames!r:.300}"
            t = frames[0].decode()
            body = json.loads(frames[1])
            if validate:
                name = event_schema_for(t)
                assert name is not None, f"event on unexpected topic {t!r}"
                SCHEMAS.validate(name, body, f"event on {t}")
            if topic is None or t == topic:
                return t, body

    def nothing(self, timeout: float = 0.5, topic: str | None = None) -> None:
        """Asserts that no event (on `topic`, if given) arrives within `timeout`."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not self.socket.poll(int(left * 1000), zmq.POLLIN):
                return
            frames = self.socket.recv_multipart()
            if frames == [self.WELCOME]:
                continue
            t = frames[0].decode()
            if topic is None or t == topic:
                raise AssertionError(f"unexpected event on {t}: {frames[-1][:500]!r}")


# --------------------------------------------------------------------------------------------- engine

def responderd_path() -> Path:
    env = os.environ.get("RESPONDERD")
    return Path(env) if env else REPO / ".build" / "debug" / "responderd"


def unique_name(prefix: str) -> str:
    prefix = re.sub(r"[^A-Za-z0-9_-]", "-", prefix)[:40]
    return f"{prefix}-{os.getpid()}-{uuid.uuid4().hex[:6]}"


class Engine:
    """One responderd process with its own runtime directory."""

    def __init__(self, ctx: zmq.Context, runtime_dir: Path, name: str, args: list[str] = (),
                 env: dict | None = None, xdg: bool = True):
        self.ctx = ctx
        self.runtime_dir = Path(runtime_dir)
        self.name = name
        self.args = list(args)
        self.proc: subprocess.Popen | None = None
        self.env = dict(os.environ if env is None else env)
        # Default state directories (sessions, keys and authorized_clients) land in the test's own directory,
        # never in the user's; a test that passes its own env may choose another.
        if env is None or "XDG_STATE_HOME" not in env:
            self.env["XDG_STATE_HOME"] = str(self.runtime_dir / "state")
        if xdg:
            self.env["XDG_RUNTIME_DIR"] = str(self.runtime_dir)
            self.dir = self.runtime_dir / "responder"
        else:
            self.env.pop("XDG_RUNTIME_DIR", None)
            self.dir = Path(f"/tmp/responder-{os.getuid()}")
        self._clients: list = []
        # Run in the child before responderd starts (e.g. lowering its open-file limit).
        self.preexec = None

    @property
    def discovery_path(self) -> Path:
        return self.dir / f"{self.name}.json"

    @property
    def lock_path(self) -> Path:
        return self.dir / f"{self.name}.lock"

    def start(self, wait: bool = True) -> "Engine":
        binary = responderd_path()
        if not binary.exists():
            pytest.fail(f"responderd not found at {binary} (build it with `swift build --product responderd` "
                        f"or set RESPONDERD)")
        self.runtime_dir.mkdir(parents=True, exist_ok=True)
        self.stdout = open(self.runtime_dir / f"{self.name}.{uuid.uuid4().hex[:4]}.stdout", "w+b")
        self.stderr = open(self.runtime_dir / f"{self.name}.{uuid.uuid4().hex[:4]}.stderr", "w+b")
        # Tests keep state in memory unless they ask for a state directory (--state-dir, --durability).
        durable = any(a.startswith(("--state-dir", "--durability", "--ephemeral")) for a in self.args)
        args = self.args if durable else [*self.args, "--ephemeral"]
        self.proc = subprocess.Popen([str(binary), "--name", self.name, *args], env=self.env,
                                     stdout=self.stdout, stderr=self.stderr, stdin=subprocess.DEVNULL,
                                     preexec_fn=self.preexec)
        if wait:
            self.wait_ready()
        return self

    def stderr_text(self) -> str:
        self.stderr.flush()
        self.stderr.seek(0)
        return self.stderr.read().decode(errors="replace")

    def wait_ready(self, timeout: float = START_TIMEOUT) -> dict:
        """Waits for a discovery file naming this process and returns it."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            rc = self.proc.poll()
            if rc is not None:
                raise AssertionError(f"responderd --name {self.name} exited with {rc} before it was ready:\n"
                                     f"{self.stderr_text()[-3000:]}")
            try:
                d = json.loads(self.discovery_path.read_text())
                if d.get("pid") == self.proc.pid:
                    self._discovery = d
                    return d
            except (OSError, ValueError):
                pass
            time.sleep(0.02)
        raise AssertionError(f"no discovery file {self.discovery_path} for pid {self.proc.pid} within {timeout} s:\n"
                             f"{self.stderr_text()[-3000:]}")

    @property
    def discovery(self) -> dict:
        return self._discovery

    @property
    def rpc_endpoint(self) -> str:
        return self._discovery["rpc"]

    @property
    def events_endpoint(self) -> str:
        return self._discovery["events"]

    def client(self, routing_id: bytes | None = None, timeout: float = REPLY_TIMEOUT, curve: tuple | None = None) -> Client:
        c = Client(self.ctx, self.rpc_endpoint, routing_id, timeout, curve=curve)
        self._clients.append(c)
        return c

    def subscriber(self, *prefixes: str, timeout: float = REPLY_TIMEOUT, curve: tuple | None = None) -> Subscriber:
        s = Subscriber(self.ctx, self.events_endpoint, *prefixes, timeout=timeout, curve=curve)
        self._clients.append(s)
        return s

    @property
    def state_dir(self) -> Path:
        return Path(self.env.get("XDG_STATE_HOME", "")) / "responder" / self.name

    def authorize_client(self) -> tuple:
        """A new client keypair added to this engine's authorized_clients; returns what `curve=` takes."""
        public, secret = zmq.curve_keypair()
        self.state_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        path = self.state_dir / "authorized_clients"
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        with os.fdopen(fd, "a") as f:
            f.write(public.decode() + " test client\n")
        return (self._discovery["curveServerKey"].encode(), public, secret)

    def send_signal(self, sig) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(sig)

    def wait(self, timeout: float = PATIENCE) -> int:
        return self.proc.wait(timeout)

    def stop(self, sig=signal.SIGTERM, timeout: float = PATIENCE) -> int | None:
        """Stops this engine (by its pid) and returns its exit status."""
        for c in self._clients:
            c.close()
        self._clients.clear()
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        return self.proc.returncode


# --------------------------------------------------------------------------------------------- worlds

def demo_tree() -> dict:
    return json.loads(DEMO_WORLD.read_text())["tree"]


def new_session(client: Client, prefix: str = "s", tree: dict | None = None, **params) -> str:
    """Creates a session with a unique name (the demo world unless `tree` is given) and returns its name."""
    name = unique_name(prefix)[:64]
    # Setup only: the reply is checked for success, and its schema in test_methods, so that a schema
    # mismatch in session.create's result is reported once, not by every test that needs a session.
    resp = client.rpc("session.create", dict(session=name, tree=demo_tree() if tree is None else tree, **params),
                      validate=False)
    assert "result" in resp, f"session.create failed: {resp}"
    return name


def find(tree: dict, node_id: str) -> dict | None:
    """The node with `node_id` in a nested tree (iterative)."""
    stack = [tree]
    while stack:
        n = stack.pop()
        if n.get("id") == node_id:
            return n
        stack.extend(n.get("children", []))
    return None


def ids(tree: dict) -> list[str]:
    out, stack = [], [tree]
    while stack:
        n = stack.pop()
        out.append(n["id"])
        stack.extend(reversed(n.get("children", [])))
    return out


def strip_revisions(tree: dict) -> dict:
    t = {k: v for k, v in tree.items() if k != "revision"}
    t["children"] = [strip_revisions(c) for c in tree.get("children", [])]
    return t
