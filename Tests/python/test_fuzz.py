"""Bad input never crashes the engine and never changes anything: a seeded stream of mutated requests
(wrong types, unknown fields, bad ops, junk bytes) against the real engine, which must answer each with a
JSON-RPC result or a named error — never INTERNAL_ERROR — and still serve the unchanged world afterwards."""

from __future__ import annotations

import copy
import json
import random

from harness import demo_tree

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
