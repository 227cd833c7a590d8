"""Bad input never crashes the engine and never changes anything: a seeded stream of mutated requests
(wrong types, unknown fields, bad ops, junk bytes), byte-level mutations, every frame shape, notifications and
deep, wide and long input against the real engine, which must answer each at most once with a JSON-RPC result or
a named error — never INTERNAL_ERROR — and still serve the unchanged world afterwards, within bounded memory.
The libFuzzer target (fuzz/run) covers the decoder and validator in-process, much faster."""

from __future__ import annotations

import copy
import json
import random

from harness import SCHEMAS, demo_tree
from procstat import peak_rss_mb

METHODS = ["tree.apply", "tree.load", "tree.get", "session.create", "session.snapshot", "hitTest", "responderChain",
           "event.touch", "event.tap", "event.motion", "event.press", "event.remoteControl", "responder.become",
           "responder.resign", "responder.first", "window.makeKey", "action.send", "action.canPerform",
           "trace.replay", "client.hello", "session.clients", "engine.info"]

JUNK = [None, True, -1, 0.5, 1e308, "", "x" * 300, [], {}, [1, "a"], {"k": None}, "card", "window", "app"]

VALID = {
    "tree.apply": {"ops": [{"op": "insert", "parent": "card", "node": {"id": "n1", "kind": "view", "frame": [1, 2, 3, 4]}},
                           {"op": "update", "id": "button", "set": {"alpha": 0.5}},
                           {"op": "move", "id": "textField", "parent": "root", "index": 0},
                           {"op": "remove", "id": "title"}]},
    "event.touch": {"touches": [{"touch": 1, "phase": "began", "point": [60, 150]}]},
    "event.press": {"press": 1, "key": "a", "phase": "began"},
    "action.send": {"action": "copy:", "target": None, "sender": "button"},
    "hitTest": {"point": [60, 150]},
    "responder.become": {"id": "textField"},
}


def mutate(rng: random.Random, value):
    """Replaces one randomly chosen leaf or member of a JSON value with junk, or adds an unknown member."""
    value = copy.deepcopy(value)
    containers = []

    def walk(v):
        if isinstance(v, dict):
            containers.append(v)
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            containers.append(v)
            for x in v:
                walk(x)

    walk(value)
    if not containers:
        return rng.choice(JUNK)
    target = rng.choice(containers)
    if isinstance(target, dict):
        if target and rng.random() < 0.8:
            target[rng.choice(list(target))] = rng.choice(JUNK)
        else:
            target[rng.choice(["hiden", "zzz", "kind", "id"])] = rng.choice(JUNK)
    elif target:
        target[rng.randrange(len(target))] = rng.choice(JUNK)
    else:
        target.append(rng.choice(JUNK))
    return value


def test_mutated_requests_get_named_errors_and_change_nothing(engine, client):
    rng = random.Random(20261121)
    s = "fuzz"
    client.call("session.create", session=s, tree=demo_tree())
    before = client.call("tree.get", session=s)
    for i in range(1500):
        method = rng.choice(METHODS)
        params = mutate(rng, VALID.get(method, {"id": "card"}))
        if isinstance(params, dict):
            params["session"] = s
        if rng.random() < 0.05:
            client.send_json_text(rng.choice(['{"jsonrpc":"2.0","id":1,"method":', '[]', '\x00\xff', '{"id":[]}']))
            resp = client.recv_response(what="junk")
        else:
            resp = client.rpc(method, params, id=i, validate=False)
        assert ("result" in resp) != ("error" in resp), resp
        if "error" in resp:
            err = resp["error"]
            assert isinstance(err.get("code"), int) and err.get("data", {}).get("name"), resp
            assert err["data"]["name"] != "INTERNAL_ERROR", (method, params, resp)
        elif method in ("tree.apply", "tree.load", "window.makeKey", "session.create") and "revision" in resp["result"]:
            # A mutation that happened to stay valid changed the world: start again from the demo world.
            client.call("tree.load", session=s, tree=demo_tree())
            before = client.call("tree.get", session=s)
    assert client.call("engine.info")["name"] == engine.name
    after = client.call("tree.get", session=s)
    assert after["tree"] == before["tree"], "a rejected request changed the world"


# --------------------------------------------------------------------------------------------- bytes and frames

SEEDS = [
    '{"jsonrpc":"2.0","id":1,"method":"tree.apply","params":{"session":"%s","ops":[{"op":"insert","parent":"card","node":{"id":"n1","kind":"view","frame":[1,2,3,4]}},{"op":"update","id":"button","set":{"alpha":0.5}}]}}',
    '{"jsonrpc":"2.0","id":"t","method":"event.touch","params":{"session":"%s","touches":[{"touch":1,"phase":"began","point":[60,150]}]}}',
    '{"jsonrpc":"2.0","method":"responder.become","params":{"session":"%s","id":"textField"}}',
    '{"jsonrpc":"2.0","id":null,"method":"tree.load","params":{"session":"%s","tree":{"id":"app","kind":"application","children":[{"id":"w","kind":"window","frame":[0,0,10,10]}]}}}',
    '{"jsonrpc":"2.0","id":2.5,"method":"hitTest","params":{"session":"%s","point":[60,150]}}',
]


def mutate_bytes(rng: random.Random, data: bytes) -> bytes:
    """A few byte-level edits: flips, insertions, deletions, duplications, truncation."""
    b = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        if not b:
            b.extend(rng.randbytes(3))
        i = rng.randrange(len(b))
        action = rng.randrange(6)
        if action == 0:
            b[i] ^= 1 << rng.randrange(8)
        elif action == 1:
            b.insert(i, rng.choice(b'{}[]",:\\\x00\xff\xc3-e0'))
        elif action == 2:
            del b[i:i + rng.randint(1, 8)]
        elif action == 3:
            b[i:i] = b[i:i + rng.randint(1, 16)]
        elif action == 4:
            del b[i:]
        else:
            b[i] = rng.randrange(256)
    return bytes(b)


def strict_notification(data: bytes) -> bool:
    """Whether the engine must stay silent: a readable JSON-RPC object without an id."""
    def no_constants(name):
        raise ValueError(name)
    try:
        obj = json.loads(data.decode("utf-8"), parse_constant=no_constants)
        json.dumps(obj, ensure_ascii=False).encode("utf-8")  # lone surrogates: the engine refuses them
    except (ValueError, UnicodeError, RecursionError):
        return False
    return (isinstance(obj, dict) and "id" not in obj and obj.get("jsonrpc") == "2.0"
            and isinstance(obj.get("method"), str))


def replies_until_probe(client, probe_id: str) -> list[dict]:
    """Sends a probe request and returns every reply that came before the probe's own reply."""
    client.send_json_text(json.dumps({"jsonrpc": "2.0", "id": probe_id, "method": "engine.info"}))
    before = []
    while True:
        frames = client.recv_frames()
        assert frames is not None, f"no reply to probe {probe_id}: the engine stopped answering"
        resp = json.loads(frames[-1])
        if resp.get("id") == probe_id:
            return before
        before.append(resp)


def check_reply(resp: dict, what) -> None:
    assert resp.get("jsonrpc") == "2.0" and ("result" in resp) != ("error" in resp), (what, resp)
    if "error" in resp:
        SCHEMAS.validate("error-response.json", resp, f"error reply to {what!r:.200}")
        assert resp["error"]["data"]["name"] != "INTERNAL_ERROR", (what, resp)


def test_byte_mutations_frame_shapes_and_huge_input_leave_the_engine_serving(engines):
    """Byte-level mutations of real requests (some notifications), every frame shape, and deep, wide and long
    input: each is answered at most once with a schema-valid reply (never INTERNAL_ERROR), a notification is never
    answered, and afterwards the engine serves an unchanged world within a bounded memory."""
    e = engines(args=["--max-message-bytes", str(8 << 20)])
    client = e.client()
    s = "bytes"
    client.call("session.create", session=s, tree=demo_tree())
    rng = random.Random(20261123)
    for i in range(1500):
        seed = rng.choice(SEEDS) % s
        data = mutate_bytes(rng, seed.encode())
        client.send_json_text(data)
        got = replies_until_probe(client, f"probe-{i}")
        assert len(got) <= 1, (data, got)
        for resp in got:
            check_reply(resp, data)
        if strict_notification(data):
            assert not got, f"a notification was answered: {data!r:.300} -> {got}"
        if any("result" in r and "revision" in r["result"] for r in got):
            client.call("tree.load", session=s, tree=demo_tree())

    # Frame shapes (section 4): only [""][json] and [json] are requests; anything else is dropped unanswered.
    body = b'{"jsonrpc":"2.0","id":"shape","method":"engine.info"}'
    for frames in ([body, b""], [b"x", body], [b"", b"", body], [b""] * 5 + [body]):
        client.send_frames(frames)
        assert replies_until_probe(client, f"after-{len(frames)}") == [], frames
    # An empty body is a request that cannot be read.
    for frames in ([b""], [b"", b""]):
        client.send_frames(frames)
        got = replies_until_probe(client, f"empty-{len(frames)}")
        assert [r["error"]["data"]["name"] for r in got] == ["PARSE_ERROR"], got
    client.send_frames([body])
    frames = client.recv_frames()
    assert frames is not None and len(frames) == 1 and json.loads(frames[0])["id"] == "shape"

    # Deep, wide and long input: each refused, and nothing changes.
    before = client.call("tree.get", session=s)["tree"]
    huge = [
        b'{"jsonrpc":"2.0","id":"deep","method":"tree.get","params":{"x":' + b"[" * 400_000 + b"]" * 400_000 + b"}}",
        b'{"jsonrpc":"2.0","id":"open","method":"tree.get","params":' + b"{\"a\":" * 300_000,
        json.dumps({"jsonrpc": "2.0", "id": "wide", "method": "tree.get", "params": {f"k{i}": i for i in range(200_000)}}).encode(),
        json.dumps({"jsonrpc": "2.0", "id": "long", "method": "client.hello", "params": {"name": "n" * (6 << 20)}}).encode(),
        json.dumps({"jsonrpc": "2.0", "id": "array", "method": "hitTest", "params": {"session": s, "point": [0] * 1_000_000}}).encode(),
        json.dumps({"jsonrpc": "2.0", "id": "nodes", "method": "tree.apply", "params": {"session": s, "ops": [
            {"op": "insert", "parent": "card", "node": {"id": "deep0", "kind": "view", "children": [
                {"id": f"c{i}", "kind": "view"} for i in range(50_000)]}}, {"op": "remove", "id": "nope"}]}}).encode(),
    ]
    for data in huge:
        client.send_json_text(data)
        resp = client.recv_response(what=data[:60])
        check_reply(resp, data[:60])
        assert "error" in resp, resp
    assert client.call("tree.get", session=s)["tree"] == before
    rss = peak_rss_mb(e.proc.pid)
    print(f"engine peak RSS after the hostile input: {rss:.0f} MiB")
    assert rss < 512, f"the engine peaked at {rss:.0f} MiB"
