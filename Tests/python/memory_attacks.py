"""Peers that try to make the engine hold memory without bound, one per bound of docs/limits.md ("Memory a peer
can make the engine hold"). Each runs in a process of its own, as a hostile program would: the engine cuts a
subscriber by its process, and the tests' other peers must stay unaffected. The tests (test_memory_bounds.py)
run them scaled down; bench/memory_soak.py runs them at full size.

    python3 memory_attacks.py subscribe <events endpoint> <count> <topic bytes>
    python3 memory_attacks.py queue <rpc endpoint> <count> <frame bytes>
    python3 memory_attacks.py multipart <rpc endpoint> <count> <frame bytes>

Each prints "sent" once it has handed everything to libzmq, then holds its connections until it is killed."""

from __future__ import annotations

import json
import socket
import struct
import sys
import time

import zmq


def hold():
    print("sent", flush=True)
    while True:
        time.sleep(3600)


def subscribe(endpoint: str, count: int, size: int) -> None:
    """`count` subscriptions to distinct topics of `size` bytes: libzmq's trie keeps one node per byte."""
    s = zmq.Context().socket(zmq.SUB)
    s.setsockopt(zmq.LINGER, 0)
    # Subscriptions past the high-water mark would be dropped here, not sent.
    s.setsockopt(zmq.SNDHWM, 0)
    s.connect(endpoint)
    for i in range(count):
        s.setsockopt(zmq.SUBSCRIBE, (b"%010d" % i + b"x" * size)[:size])
    hold()


def slow_load(nodes: int) -> bytes:
    """A tree.load large enough to be read off the engine thread, and slow to read."""
    children = [{"id": f"v{i}", "kind": "view", "frame": [0, 0, 1, 1]} for i in range(nodes)]
    tree = {"id": "app", "kind": "application", "children": [
        {"id": "W", "kind": "window", "frame": [0, 0, 400, 800], "key": True, "children": children}]}
    return json.dumps({"jsonrpc": "2.0", "id": "slow", "method": "tree.load",
                       "params": {"session": "default", "tree": tree}}).encode()


def queue(endpoint: str, count: int, size: int) -> None:
    """A slow request, then `count` frames of `size` bytes that wait behind it."""
    s = zmq.Context().socket(zmq.DEALER)
    s.setsockopt(zmq.LINGER, 0)
    s.setsockopt(zmq.SNDHWM, 0)
    s.connect(endpoint)
    s.send(slow_load(200_000))
    filler = b'{"jsonrpc":"2.0","id":1,"method":"engine.info","pad":"' + b"x" * size + b'"}'
    for _ in range(count):
        s.send(filler)
    hold()


def zmtp_dealer(endpoint: str) -> socket.socket:
    """A connection that speaks ZMTP 3.0 itself (NULL mechanism, as a DEALER): libzmq would keep an unfinished
    message on the sender's side, where it cannot reach the engine."""
    if endpoint.startswith("ipc://"):
        s = socket.socket(socket.AF_UNIX)
        s.connect(endpoint[len("ipc://"):])
    else:
        host, port = endpoint[len("tcp://"):].rsplit(":", 1)
        s = socket.create_connection((host, int(port)))
    s.sendall(b"\xff" + b"\0" * 8 + b"\x7f" + b"\x03\x00" + b"NULL".ljust(20, b"\0") + b"\0" + b"\0" * 31)
    ready = b"\x05READY" + b"\x0bSocket-Type" + struct.pack(">I", 6) + b"DEALER"
    s.sendall(b"\x04" + bytes([len(ready)]) + ready)
    greeting = b""
    while len(greeting) < 64:
        chunk = s.recv(64 - len(greeting))
        if not chunk:
            raise SystemExit("the engine closed the connection during the greeting")
        greeting += chunk
    return s


def multipart(endpoint: str, count: int, size: int) -> None:
    """`count` frames of `size` bytes, each flagged "more": one message that never ends."""
    s = zmtp_dealer(endpoint)
    frame = b"\x03" + struct.pack(">Q", size) + b"x" * size
    try:
        for _ in range(count):
            s.sendall(frame)
    except OSError as e:
        print(f"cut: {e}", flush=True)
    hold()


if __name__ == "__main__":
    attack, endpoint, count, size = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    {"subscribe": subscribe, "queue": queue, "multipart": multipart}[attack](endpoint, count, size)
