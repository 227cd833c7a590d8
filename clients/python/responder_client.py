"""A small Python client for responderd: discovery, JSON-RPC requests, events and a gap-free follower.

Only needs pyzmq (``python3 -m pip install pyzmq``). The pieces:

* :func:`discover` finds a running engine: RESPONDER_RPC + RESPONDER_EVENTS if both are set, else the
  discovery file ``<dir>/<name>.json`` (dir: ``$XDG_RUNTIME_DIR/responder`` or ``/tmp/responder-<uid>``).
  Raises :class:`NoEngineError` with a readable message when no engine runs.
* :class:`Connection` sends JSON-RPC 2.0 requests on a DEALER socket; :meth:`Connection.call` returns the
  result or raises :class:`RPCError`, whose ``name`` is the error's ``data.name`` (e.g. ``REPLAY_EXPIRED``).
* :class:`Subscriber` is a SUB socket that returns only once the engine's ``$sys/welcome`` has arrived: the
  connection is up (its subscriptions may still be on their way; the Follower recovers what they missed).
* :class:`Follower` implements the join procedure of Protocol/README.md for one session: subscribe, wait for
  the welcome, take ``session.snapshot`` (or resume after a known seq), then hand out every event in seq
  order exactly once, recovering gaps with ``trace.replay`` and re-snapshotting on ``REPLAY_EXPIRED``.
"""

from __future__ import annotations

import collections
import itertools
import json
import os
import stat
import time
from dataclasses import dataclass, field
from typing import Any, Iterator, Mapping, Optional

import zmq

PROTOCOL = 1  # the protocol version these clients speak
WELCOME_TOPIC = b"$sys/welcome"
SYS_PREFIX = "$sys/"


# --------------------------------------------------------------------------------------------- errors

class ClientError(Exception):
    """Base class of everything this module raises."""


class NoEngineError(ClientError):
    """No engine could be found (no discovery file, a stale one, or an unreadable one)."""


class EngineTimeout(ClientError):
    """The engine did not answer (or did not welcome a subscriber) in time."""


class RPCError(ClientError):
    """A JSON-RPC error answered by the engine. ``name`` is ``error.data.name`` (e.g. ``NODE_NOT_FOUND``)."""

    def __init__(self, method: str, error: Mapping[str, Any]):
        self.method = method
        self.code = error.get("code")
        self.message = error.get("message", "")
        self.data = dict(error.get("data") or {})
        self.name = self.data.get("name", "UNKNOWN")
        super().__init__(f"{method}: {self.name} ({self.code}): {self.message}")


# ------------------------------------------------------------------------------------------ discovery

@dataclass
class EngineAddress:
    rpc: str
    events: str
    name: Optional[str] = None
    pid: Optional[int] = None
    source: str = ""          # where the address came from: the discovery file's path or "environment"
    info: dict = field(default_factory=dict)
    server_key: Optional[str] = None  # the engine's CURVE public key (Z85) for tcp endpoints: connect with CURVE


def _read_own_file(path: str, what: str) -> bytes:
    """Reads a file that is this user's and that no one else may write, never through a symbolic link: a
    discovery file planted by another user would send everything to their endpoints (Protocol/README.md §3)."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)  # ELOOP for a link
    try:
        st = os.fstat(fd)
        if st.st_uid != os.geteuid():
            raise NoEngineError(f"refusing {what} {path}: it belongs to uid {st.st_uid}, not to this user "
                                f"(uid {os.geteuid()}); someone else may have planted it")
        if st.st_mode & 0o022:
            raise NoEngineError(f"refusing {what} {path}: group or others may write it")
        with os.fdopen(os.dup(fd), "rb") as f:
            return f.read()
    finally:
        os.close(fd)


def _check_own_directory(path: str) -> None:
    st = os.lstat(path)
    if stat.S_ISLNK(st.st_mode) or not stat.S_ISDIR(st.st_mode):
        raise NoEngineError(f"refusing engine directory {path}: not a directory (a symbolic link?)")
    if st.st_uid != os.geteuid() or st.st_mode & 0o022:
        raise NoEngineError(f"refusing engine directory {path}: it is not this user's alone")


def client_key_path(env: Mapping[str, str] = os.environ) -> str:
    """Where ``responder keygen`` keeps this user's CURVE keypair."""
    if env.get("RESPONDER_CLIENT_KEY"):
        return env["RESPONDER_CLIENT_KEY"]
    config = env.get("XDG_CONFIG_HOME") or os.path.join(env.get("HOME") or os.path.expanduser("~"), ".config")
    return os.path.join(config, "responder", "client.key")


def _apply_curve(socket: zmq.Socket, address: "EngineAddress") -> None:
    """CURVE with this user's key when the engine names a server key (tcp); nothing otherwise."""
    if not address.server_key:
        return
    path = client_key_path()
    try:
        text = _read_own_file(path, "client key").decode()
    except FileNotFoundError:
        raise NoEngineError("the engine uses CURVE (tcp) and this user has no client key: run `responder keygen` "
                            "and add the public key to the engine's authorized_clients") from None
    keys = dict(line.split(" ", 1) for line in text.splitlines() if line and not line.startswith("#"))
    socket.curve_serverkey = address.server_key.encode()
    socket.curve_publickey = keys["public"].strip().encode()
    socket.curve_secretkey = keys["secret"].strip().encode()


def default_directory(env: Mapping[str, str] = os.environ) -> str:
    """The engine's default directory: ``$XDG_RUNTIME_DIR/responder``, else ``/tmp/responder-<uid>``."""
    xdg = env.get("XDG_RUNTIME_DIR")
    if xdg:
        return os.path.join(xdg, "responder")
    return f"/tmp/responder-{os.getuid()}"


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # it exists, it is just not ours
    return True


def discover(name: str = "default", directory: Optional[str] = None,
             env: Mapping[str, str] = os.environ) -> EngineAddress:
    """Finds the engine named ``name``. RESPONDER_RPC + RESPONDER_EVENTS (both set) override the file."""
    rpc, events = env.get("RESPONDER_RPC"), env.get("RESPONDER_EVENTS")
    if rpc and events:
        return EngineAddress(rpc=rpc, events=events, source="environment (RESPONDER_RPC, RESPONDER_EVENTS)",
                             server_key=env.get("RESPONDER_SERVER_KEY") or None)
    directory = directory or default_directory(env)
    path = os.path.join(directory, f"{name}.json")
    try:
        _check_own_directory(directory)
        info = json.loads(_read_own_file(path, "discovery file"))
    except FileNotFoundError:
        raise NoEngineError(
            f'no engine named "{name}" is running: there is no discovery file {path}.\n'
            f"Start one (e.g. `responderd --name {name}"
            + (f" --dir {directory}" if directory != default_directory(env) else "")
            + "`), pass the right --name/--dir, or set RESPONDER_RPC and RESPONDER_EVENTS.") from None
    except (OSError, ValueError) as e:
        raise NoEngineError(f"cannot read the discovery file {path} (a symbolic link is refused): {e}") from None
    if not isinstance(info, dict) or not isinstance(info.get("rpc"), str) or not isinstance(info.get("events"), str):
        raise NoEngineError(f"the discovery file {path} has no rpc/events endpoints")
    if info.get("protocol", PROTOCOL) != PROTOCOL:
        raise NoEngineError(f'the engine named "{name}" speaks protocol {info.get("protocol")}; '
                            f"this client speaks protocol {PROTOCOL}")
    pid = info.get("pid")
    if isinstance(pid, int) and not _process_alive(pid):
        raise NoEngineError(f'the engine named "{name}" is not running: pid {pid} in {path} is gone '
                            "(the file was left by an engine that crashed)")
    return EngineAddress(rpc=info["rpc"], events=info["events"], name=info.get("name"), pid=pid,
                         source=path, info=info, server_key=info.get("curveServerKey"))


# ----------------------------------------------------------------------------------------- requests

class Connection:
    """JSON-RPC 2.0 over a DEALER socket: frames ``[b"", json]`` out, ``[b"", json]`` back."""

    def __init__(self, address: EngineAddress, timeout: float = 10.0, context: Optional[zmq.Context] = None):
        self.address = address
        self.timeout = timeout
        self._context = context or zmq.Context.instance()
        self._socket = self._context.socket(zmq.DEALER)
        self._socket.setsockopt(zmq.LINGER, 0)
        _apply_curve(self._socket, address)
        self._socket.connect(address.rpc)
        self._ids = itertools.count(1)

    def close(self) -> None:
        self._socket.close(0)

    def __enter__(self) -> "Connection":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def call(self, method: str, params: Optional[Mapping[str, Any]] = None, timeout: Optional[float] = None) -> Any:
        """Sends one request and returns its ``result``; raises :class:`RPCError` for an error answer."""
        request_id = next(self._ids)
        request = {"jsonrpc": "2.0", "id": request_id, "method": method, "params": dict(params or {})}
        self._socket.send_multipart([b"", json.dumps(request).encode()])
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not self._socket.poll(int(left * 1000) + 1):
                raise EngineTimeout(f"no reply to {method} within {self.timeout:g} s from {self.address.rpc}: "
                                    "is the engine running?")
            frames = self._socket.recv_multipart()
            reply = json.loads(frames[-1])
            if reply.get("id") != request_id:
                continue  # a late answer to an earlier request that timed out
            if "error" in reply:
                raise RPCError(method, reply["error"])
            return reply.get("result")

    def hello(self, name: str, kind: str = "tool") -> Any:
        """Names this client; events it causes then carry ``cause.client == name``."""
        return self.call("client.hello", {"name": name, "kind": kind})


# ------------------------------------------------------------------------------------------- events

@dataclass
class Event:
    topic: str
    body: dict

    @property
    def is_sys(self) -> bool:
        return self.topic.startswith(SYS_PREFIX)

    @property
    def seq(self) -> Optional[int]:
        return self.body.get("seq")

    @property
    def stream(self) -> Optional[str]:
        return self.body.get("stream")

    @property
    def session(self) -> Optional[str]:
        return self.body.get("session")


class Subscriber:
    """A SUB socket on the engine's events, ready once the constructor returns.

    ``topics`` are prefixes (``"default/"``, ``"default/trace"``); ``$sys/`` is always subscribed, last, which
    brings the single-frame ``$sys/welcome`` (the connection is up) and ``$sys/tick`` (once one arrives, every
    subscription is live: they reach the engine in order; Protocol/README.md 13.1).
    ``rcvhwm`` bounds the messages queued here (0: unlimited).
    """

    def __init__(self, address: EngineAddress, topics: list[str], rcvhwm: int = 0,
                 welcome_timeout: float = 10.0, context: Optional[zmq.Context] = None):
        self.address = address
        self._context = context or zmq.Context.instance()
        self._socket = self._context.socket(zmq.SUB)
        self._socket.setsockopt(zmq.LINGER, 0)
        self._socket.setsockopt(zmq.RCVHWM, rcvhwm)
        for topic in topics:
            self._socket.setsockopt(zmq.SUBSCRIBE, topic.encode())
        self._socket.setsockopt(zmq.SUBSCRIBE, SYS_PREFIX.encode())
        _apply_curve(self._socket, address)
        self._socket.connect(address.events)
        deadline = time.monotonic() + welcome_timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not self._socket.poll(int(left * 1000) + 1):
                self.close()
                raise EngineTimeout(f"no $sys/welcome from {address.events} within {welcome_timeout:g} s: "
                                    "is the engine running?")
            frames = self._socket.recv_multipart()
            if len(frames) == 1 and frames[0] == WELCOME_TOPIC:
                break

    def close(self) -> None:
        self._socket.close(0)

    def next(self, timeout: Optional[float] = None) -> Optional[Event]:
        """The next event, or None if none arrives within ``timeout`` seconds (None: wait forever)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            if deadline is None:
                wait = -1
            else:
                wait = max(0, int((deadline - time.monotonic()) * 1000))
            if not self._socket.poll(wait):
                return None
            frames = self._socket.recv_multipart()
            if len(frames) != 2:
                continue  # the welcome again (a reconnect) or something we do not understand
            return Event(frames[0].decode("utf-8", "replace"), json.loads(frames[1]))


# ----------------------------------------------------------------------------------------- follower

@dataclass
class Item:
    """What :meth:`Follower.next` hands out.

    kind is one of:
      ``"snapshot"``  -- ``snapshot`` is the session.snapshot result to start from; ``resnapshot`` is True
                         when it replaced history that could not be replayed (``lost`` = (first, last): the seqs
                         folded into it that will never be seen one by one; ``oldest`` = the oldest seq the
                         engine still held).
      ``"event"``     -- ``event`` is the next session event (seq = previous + 1); ``replayed`` tells whether
                         it came from trace.replay rather than the live subscription.
      ``"recovered"`` -- a gap was filled from the replay ring: ``count`` events, seqs ``first``..``last``,
                         which follow this item (with ``replayed`` set). ``reason`` says what revealed the gap.
      ``"sys"``       -- ``event`` is a ``$sys/`` event (tick, sessions).
    """
    kind: str
    event: Optional[Event] = None
    snapshot: Optional[dict] = None
    replayed: bool = False
    resnapshot: bool = False
    first: Optional[int] = None
    last: Optional[int] = None
    count: int = 0
    reason: str = ""
    lost: Optional[tuple[int, int]] = None
    oldest: Optional[int] = None

    def describe(self) -> str:
        """A human sentence for recovered/snapshot items."""
        if self.kind == "recovered":
            span = f"seq {format_seqs(self.first, self.last)}"
            return f"recovered {self.count} event{'s' if self.count != 1 else ''} ({span}) via trace.replay ({self.reason})"
        if self.kind == "snapshot" and self.resnapshot:
            missed = ""
            if self.lost:
                a, b = self.lost
                missed = f"; events seq {format_seqs(a, b)} were not received one by one (folded into the snapshot)"
            if self.reason:
                return f"{self.reason}; re-snapshotted at seq {self.snapshot.get('seq')}"
            return (f"REPLAY_EXPIRED: the engine holds events only from seq {self.oldest}; "
                    f"re-snapshotted at seq {self.snapshot.get('seq')}{missed}")
        if self.kind == "snapshot":
            return f"snapshot at seq {self.snapshot.get('seq')} (revision {self.snapshot.get('revision')})"
        return self.kind


class Follower:
    """Follows one session and hands out every event exactly once, in seq order.

    Join (``after=None``): subscribe to ``<session>/`` and ``$sys/``, wait for the welcome, take
    ``session.snapshot`` (seq S) and then deliver events with seq > S. Resume (``after=N``): the same, but
    instead of a snapshot the history after N is fetched with ``trace.replay`` (a snapshot is taken only if
    the engine no longer holds it).

    A gap -- an event with seq > last + 1, or a ``$sys/tick`` showing a later seq than the last one delivered --
    is filled with ``trace.replay(after: last)`` (repeated while ``complete`` is false); ``REPLAY_EXPIRED``
    leads to a new snapshot. A tick showing an earlier seq was published before the snapshot or the replay and
    changes nothing, unless the session's seq went back (a new engine, a re-created session): then a new
    snapshot. What was recovered is reported as ``recovered`` / ``snapshot`` items and kept in
    ``recoveries``.
    """

    def __init__(self, connection: Connection, session: str = "default", after: Optional[int] = None,
                 rcvhwm: int = 0, replay_limit: Optional[int] = None, subscriber: Optional[Subscriber] = None):
        self.connection = connection
        self.session = session
        self.replay_limit = replay_limit
        self.subscriber = subscriber or Subscriber(connection.address, [f"{session}/"], rcvhwm=rcvhwm)
        self.last_seq = 0
        self._deleted = False
        self.recoveries: list[Item] = []
        self._pending: collections.deque[Item] = collections.deque()
        if after is None:
            self._take_snapshot(resnapshot=False)
        else:
            self.last_seq = after
            self._recover(reason=f"resuming after seq {after}")

    def close(self) -> None:
        self.subscriber.close()

    # -- recovery

    def _take_snapshot(self, resnapshot: bool, oldest: Optional[int] = None, reason: str = "") -> None:
        snapshot = self.connection.call("session.snapshot", {"session": self.session})
        item = Item("snapshot", snapshot=snapshot, resnapshot=resnapshot, oldest=oldest, reason=reason)
        if resnapshot:
            # Events after our last seq up to the snapshot's are folded into the snapshot: never seen one by one.
            if snapshot["seq"] > self.last_seq:
                item.lost = (self.last_seq + 1, snapshot["seq"])
            self.recoveries.append(item)
        self.last_seq = snapshot["seq"]
        self._pending.append(item)

    def _recover(self, reason: str) -> None:
        """Fetches every event after ``last_seq`` that the engine holds; re-snapshots if it holds too few.

        Hands out a ``recovered`` item first, then the recovered events in order.
        """
        start = self.last_seq
        got: list[Item] = []
        while True:
            params: dict[str, Any] = {"session": self.session, "after": self.last_seq}
            if self.replay_limit:
                params["limit"] = self.replay_limit
            try:
                reply = self.connection.call("trace.replay", params)
            except RPCError as e:
                if e.name != "REPLAY_EXPIRED":
                    raise
                self._hand_out_recovered(start, got, reason)
                oldest = e.data.get("oldest")
                # The events are held, yet cannot rebuild the session (replaying from 0 a session that began with
                # responderd --world, Protocol/README.md 14.1): say the engine's reason.
                refused = f"REPLAY_EXPIRED: {e.message}" if isinstance(oldest, int) and oldest <= self.last_seq + 1 else ""
                self._take_snapshot(resnapshot=True, oldest=oldest, reason=refused)
                return
            if isinstance(reply.get("seq"), int) and reply["seq"] < self.last_seq:
                # The session's seq went backwards: the engine restarted or the session was re-created.
                self._hand_out_recovered(start, got, reason)
                self._restarted(f"session {self.session} restarted: its seq went back from {self.last_seq} to "
                                f"{reply['seq']} (a new engine or a re-created session)")
                return
            before = len(got)
            for entry in reply.get("events", []):
                body = entry["event"]
                seq = body.get("seq")
                if seq is None or seq <= self.last_seq:
                    continue
                if seq != self.last_seq + 1:
                    # Cannot happen with a consistent engine (it answers REPLAY_EXPIRED instead): never
                    # hand out a hole silently.
                    self._hand_out_recovered(start, got, reason)
                    self._take_snapshot(resnapshot=True, oldest=seq)
                    return
                self.last_seq = seq
                got.append(Item("event", event=Event(entry.get("topic", ""), body), replayed=True))
            if reply.get("complete", True) or len(got) == before:
                break
        self._hand_out_recovered(start, got, reason)

    def _check_restart(self, reason: str) -> None:
        """Re-snapshots if the session's seq went back below ``last_seq``; a stale tick changes nothing.

        Recovering here instead would replay the events already waiting on the subscription.
        """
        try:
            reply = self.connection.call("trace.replay", {"session": self.session, "after": self.last_seq, "limit": 1})
        except RPCError as e:
            if e.name != "REPLAY_EXPIRED":
                raise
            self._recover(reason=reason)
            return
        seq = reply.get("seq")
        if isinstance(seq, int) and seq < self.last_seq:
            self._restarted(f"session {self.session} restarted: its seq went back from {self.last_seq} to {seq} "
                            f"(a new engine or a re-created session)")

    def _restarted(self, reason: str) -> None:
        """The session's numbering started again (engine restart, or the session was deleted and re-created)."""
        self.last_seq = 0
        self._deleted = False
        self._take_snapshot(resnapshot=True, reason=reason)

    def _hand_out_recovered(self, start: int, got: list, reason: str) -> None:
        if got:
            item = Item("recovered", first=start + 1, last=start + len(got), count=len(got), reason=reason)
            self.recoveries.append(item)
            self._pending.append(item)
            self._pending.extend(got)

    # -- delivery

    def next(self, timeout: Optional[float] = None) -> Optional[Item]:
        """The next item, or None when nothing arrives within ``timeout`` seconds (None: wait forever)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            if self._pending:
                return self._pending.popleft()
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            event = self.subscriber.next(left)
            if event is None:
                return None
            if event.is_sys:
                if event.topic == "$sys/tick":
                    latest = (event.body.get("sessions") or {}).get(self.session)
                    if isinstance(latest, int) and latest > self.last_seq:
                        self._recover(reason=f"$sys/tick showed seq {latest}, last seen {self.last_seq}")
                    elif isinstance(latest, int) and latest < self.last_seq:
                        # Either a tick published before our snapshot or before events we since replayed (it
                        # waited in the queue: nothing is missing), or the session restarted: the engine's
                        # current seq tells which.
                        self._check_restart(reason=f"$sys/tick showed seq {latest}, below last seen {self.last_seq}")
                elif event.topic == "$sys/sessions" and event.body.get("session") == self.session:
                    action = event.body.get("action")
                    if action == "deleted":
                        # Until it is created again there is nothing to follow; its events stop here.
                        self._deleted = True
                    elif action == "created" and self._deleted:
                        self._restarted(f"session {self.session} was deleted and created again")
                self._pending.append(Item("sys", event=event))
                continue
            if event.session != self.session or event.seq is None:
                continue
            seq = event.seq
            if seq <= self.last_seq:
                continue  # held by the snapshot, or already recovered by replay
            if seq > self.last_seq + 1:
                self._recover(reason=f"gap: got seq {seq}, expected {self.last_seq + 1}")
                if seq <= self.last_seq:
                    continue
            if seq == self.last_seq + 1:
                self.last_seq = seq
                self._pending.append(Item("event", event=event))
            # else: replay re-snapshotted past it; the live event is older than the snapshot -- drop it.

    def events(self, timeout: Optional[float] = None) -> Iterator[Item]:
        """Iterates items until none arrives within ``timeout`` (forever if None)."""
        while True:
            item = self.next(timeout)
            if item is None:
                return
            yield item


# ------------------------------------------------------------------------------------------ helpers

def add_engine_arguments(parser) -> None:
    """The common --name/--dir/--session flags of the samples."""
    parser.add_argument("--name", default="default", help="engine name (its discovery file is <dir>/<name>.json)")
    parser.add_argument("--dir", default=None,
                        help="discovery directory (default: $XDG_RUNTIME_DIR/responder or /tmp/responder-<uid>)")
    parser.add_argument("--session", default="default", help="session to follow (default: default)")


def format_seqs(first: int, last: int) -> str:
    return f"{first}" if first == last else f"{first}\u2013{last}"


class IdleTimer:
    """``--idle-exit``: how long to wait for the next item, and whether that many seconds passed with none.

    ``seconds`` of 0 (or None) never expires and waits forever."""

    def __init__(self, seconds: Optional[float]):
        self.seconds = seconds or 0.0
        self.reset()

    def reset(self) -> None:
        self.deadline = time.monotonic() + self.seconds

    def wait(self) -> Optional[float]:
        return None if not self.seconds else max(0.0, self.deadline - time.monotonic())

    @property
    def expired(self) -> bool:
        return bool(self.seconds) and time.monotonic() >= self.deadline

