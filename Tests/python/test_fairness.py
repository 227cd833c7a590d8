"""Fairness: a large tree.load is read and validated off the engine thread, so other clients are
answered while it is in flight, and SIGTERM stops the engine promptly without losing anything acknowledged.
Assertions are about order and overlap, not wall-clock limits (the suite runs under `stress --cpu 2`)."""

from __future__ import annotations

import json
import signal
import time

import zmq

from harness import PATIENCE, demo_tree, find


def big_tree(views: int) -> dict:
    rows = [{"id": f"r{r}", "kind": "view", "frame": [0, r, 390, 1],
             "children": [{"id": f"v{r}-{i}", "kind": "view", "frame": [i, 0, 1, 1]} for i in range(99)]}
            for r in range(views // 100)]
    return {"id": "app", "kind": "application", "children": [
        {"id": "w", "kind": "window", "frame": [0, 0, 390, 844], "key": True, "children": rows}]}


def raw(e) -> zmq.Socket:
    s = e.ctx.socket(zmq.DEALER)
    s.setsockopt(zmq.LINGER, 0)
    s.connect(e.rpc_endpoint)
    return s


def request(method: str, rid, **params) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": rid, "method": method, "params": params}).encode()


def round_trips_while_pending(other: zmq.Socket, loader: zmq.Socket) -> tuple[int, dict]:
    """engine.info from `other`, one after another, until `loader` has its reply; returns how many were
    answered before it, and that reply."""
    answered = 0
    deadline = time.monotonic() + 10 * PATIENCE
    while time.monotonic() < deadline:
        other.send(request("engine.info", answered))
        assert other.poll(int(10 * PATIENCE * 1000)), "engine.info was not answered"
        reply = json.loads(other.recv())
        assert reply["id"] == answered and "result" in reply
        if loader.poll(0):
            return answered, json.loads(loader.recv())
        answered += 1
    raise AssertionError("the large tree.load was not answered")


def test_other_clients_are_answered_while_a_large_load_is_read(engines):
    e = engines()
    loader, other = raw(e), raw(e)
    other.send(request("engine.info", "warm"))
    assert other.poll(int(PATIENCE * 1000)) and other.recv()
    body = request("tree.load", "load", session="default", tree=big_tree(30_000))
    loader.send(body)
    # The same client's next request waits behind its load: replies keep their order per client.
    loader.send(request("tree.get", "after", session="default", id="r0"))
    answered, reply = round_trips_while_pending(other, loader)
    print(f"\nengine.info answered {answered} times while a {len(body):,}-byte tree.load was in flight")
    assert reply["id"] == "load" and reply["result"]["revision"] == 2, reply
    assert answered >= 20, f"only {answered} engine.info replies came while the load was in flight"
    assert loader.poll(int(PATIENCE * 1000))
    after = json.loads(loader.recv())
    assert after["id"] == "after" and after["result"]["tree"]["id"] == "r0"
    # A large request with a bad node is refused as it would be on the engine thread, naming the field.
    bad = big_tree(3_000)
    bad["children"][0]["children"][7]["frame"] = "wide"
    loader.send(request("tree.load", "bad", session="default", tree=bad))
    assert loader.poll(int(PATIENCE * 1000))
    error = json.loads(loader.recv())["error"]
    assert error["data"]["name"] == "INVALID_NODE" and error["data"]["field"] == "tree.children[0].children[7].frame"
    assert e.client().call("tree.get", session="default", id="r29")["revision"] == 2


def test_sigterm_during_a_large_load_stops_promptly_and_keeps_what_was_acknowledged(engines, tmp_path):
    e = engines(args=["--state-dir", str(tmp_path / "state")])
    c = e.client()
    c.call("session.create", session="s", tree=demo_tree())
    acknowledged = c.call("tree.apply", session="s", ops=[{"op": "update", "id": "title", "set": {"alpha": 0.5}}])
    before = c.call("tree.get", session="s")
    loader, other = raw(e), raw(e)
    loader.send(request("tree.load", "load", session="s", tree=big_tree(60_000)))
    # The engine still answers: the load is being read, not blocking it.
    other.send(request("engine.info", 1))
    assert other.poll(int(PATIENCE * 1000)) and json.loads(other.recv())["id"] == 1
    answered_first = loader.poll(0)
    started = time.monotonic()
    e.send_signal(signal.SIGTERM)
    rc = e.wait(PATIENCE)
    took = time.monotonic() - started
    print(f"\nSIGTERM with a large tree.load in flight: the engine exited in {took:.2f} s")
    assert rc == 0
    assert took < PATIENCE / 2, f"stopping took {took:.1f} s"
    e = engines(name=e.name, runtime_dir=e.runtime_dir, args=e.args)
    after = e.client().call("tree.get", session="s")
    loaded = after["revision"] == acknowledged["revision"] + 1 and find(after["tree"], "r0") is not None
    # Abandoned (never acknowledged, and everything that was is there), or finished whole before the signal.
    assert after == before or loaded
    if answered_first or loader.poll(0):
        assert loaded, "an acknowledged load must be kept"
