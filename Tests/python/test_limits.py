"""LIMIT_EXCEEDED with small limits given on the command line. Limits are exact: reaching a maximum is fine,
exceeding it is refused, and a refused request changes nothing."""

import json

import pytest

from harness import check_response, new_session

MAX_NODES = 12
MAX_DEPTH = 6
MAX_MESSAGE_BYTES = 4096
MAX_OPS = 4


@pytest.fixture(scope="module")
def engine_args():
    return ["--max-nodes", str(MAX_NODES), "--max-depth", str(MAX_DEPTH),
            "--max-message-bytes", str(MAX_MESSAGE_BYTES), "--max-ops", str(MAX_OPS)]


def fresh(client):
    """A session holding only the application (1 node, depth 0)."""
    return new_session(client, "lim", tree={"id": "app", "kind": "application"})


def state(client, s):
    snap = client.rpc("session.snapshot", {"session": s}, validate=False)["result"]
    return snap["revision"], snap["seq"], snap["tree"], snap["detached"]


def test_engine_info_reports_the_limits(client):
    limits = client.call("engine.info")["limits"]
    assert limits["maxNodes"] == MAX_NODES and limits["maxDepth"] == MAX_DEPTH
    assert limits["maxMessageBytes"] == MAX_MESSAGE_BYTES and limits["maxOpsPerBatch"] == MAX_OPS


def test_max_nodes_counts_app_tree_and_detached(client):
    s = fresh(client)
    # app + window + 4 in the tree + 2 detached = 8 nodes
    client.call("tree.apply", session=s, ops=[
        {"op": "insert", "parent": "app", "node": {"id": "w", "kind": "window", "children": [
            {"id": "v1", "kind": "view"}, {"id": "v2", "kind": "view"}, {"id": "v3", "kind": "view"},
            {"id": "v4", "kind": "view"}]}},
        {"op": "insert", "parent": None, "node": {"id": "d1", "kind": "view", "children": [{"id": "d2", "kind": "view"}]}}])
    nodes = lambda: next(x for x in client.call("session.list")["sessions"] if x["session"] == s)["nodes"]
    assert nodes() == 8
    more = [{"op": "insert", "parent": "w", "node": {"id": f"m{i}", "kind": "view"}} for i in range(MAX_NODES - 8)]
    client.call("tree.apply", session=s, ops=more)
    assert nodes() == MAX_NODES, "reaching the maximum is allowed"
    before = state(client, s)
    e = client.error("tree.apply", session=s, ops=[{"op": "insert", "parent": None, "node": {"id": "x", "kind": "view"}}])
    assert e.name == "LIMIT_EXCEEDED" and e.data["limit"] == "nodes" and e.data["max"] == MAX_NODES
    assert e.data.get("opIndex") == 0
    assert state(client, s) == before
    # removing first makes room within the same batch
    client.call("tree.apply", session=s, ops=[{"op": "remove", "id": "d2"},
                                              {"op": "insert", "parent": None, "node": {"id": "x", "kind": "view"}}])


def test_max_nodes_on_load_and_create(client):
    s = fresh(client)
    tree = {"id": "app", "kind": "application", "children": [
        {"id": "w", "kind": "window", "children": [{"id": f"v{i}", "kind": "view"} for i in range(MAX_NODES - 1)]}]}
    before = state(client, s)
    e = client.error("tree.load", session=s, tree=tree)
    assert e.name == "LIMIT_EXCEEDED" and e.data["limit"] == "nodes" and e.data["max"] == MAX_NODES
    assert state(client, s) == before
    e = client.error("session.create", session=s + "-2", tree=tree)
    assert e.name == "LIMIT_EXCEEDED" and e.data["limit"] == "nodes"
    tree["children"][0]["children"].pop()
    client.call("tree.load", session=s, tree=tree)


def test_max_depth(client):
    s = fresh(client)
    # app 0, w 1, v2..v6 at depths 2..6: one node per op keeps the JSON shallow
    ops = [{"op": "insert", "parent": "app", "node": {"id": "d1", "kind": "window"}}]
    ops += [{"op": "insert", "parent": f"d{i - 1}", "node": {"id": f"d{i}", "kind": "view"}} for i in range(2, MAX_DEPTH + 1)]
    for i in range(0, len(ops), MAX_OPS):
        client.call("tree.apply", session=s, ops=ops[i:i + MAX_OPS])
    before = state(client, s)
    e = client.error("tree.apply", session=s, ops=[
        {"op": "insert", "parent": f"d{MAX_DEPTH}", "node": {"id": "deep", "kind": "view"}}])
    assert e.name == "LIMIT_EXCEEDED" and e.data["limit"] == "depth" and e.data["max"] == MAX_DEPTH
    assert e.data.get("opIndex") == 0
    assert state(client, s) == before
    # a detached chain: its root is at depth 0
    client.call("tree.apply", session=s, ops=[{"op": "insert", "parent": None, "node": {"id": "r0", "kind": "view"}}])
    e = client.error("tree.apply", session=s, ops=[{"op": "move", "id": "r0", "parent": f"d{MAX_DEPTH}"}])
    assert e.name == "LIMIT_EXCEEDED" and e.data["limit"] == "depth"
    # moving a subtree deeper
    e = client.error("tree.apply", session=s, ops=[
        {"op": "insert", "parent": "d2", "node": {"id": "side", "kind": "view"}},
        {"op": "move", "id": "d3", "parent": "side"}])
    assert e.name == "LIMIT_EXCEEDED" and e.data["limit"] == "depth" and e.data.get("opIndex") == 1


def test_max_message_bytes(client):
    def request_of_size(n, id_prefix):
        base = {"jsonrpc": "2.0", "id": "", "method": "engine.info"}
        pad = n - len(json.dumps(base, separators=(",", ":")).encode())
        base["id"] = id_prefix + "x" * (pad - len(id_prefix))
        text = json.dumps(base, separators=(",", ":")).encode()
        assert len(text) == n
        return text, base["id"]

    at_max, at_id = request_of_size(MAX_MESSAGE_BYTES, "ok")
    client.send_json_text(at_max)
    resp = client.recv_response()
    check_response("engine.info", resp)
    assert resp["id"] == at_id and "result" in resp, "a request of exactly maxMessageBytes is accepted"

    over, _ = request_of_size(MAX_MESSAGE_BYTES + 1, "no")
    client.send_json_text(over)
    resp = client.recv_response()
    check_response("engine.info", resp)
    data = resp["error"]["data"]
    assert data["name"] == "LIMIT_EXCEEDED" and data["limit"] == "messageBytes" and data["max"] == MAX_MESSAGE_BYTES
    assert resp["id"] is None, "an oversized request is not parsed, so its id is unknown"
    assert client.call("engine.info")["protocol"] == 1, "the connection survives"


def test_max_ops_per_batch(client):
    s = fresh(client)
    before = state(client, s)
    ops = [{"op": "insert", "parent": None, "node": {"id": f"n{i}", "kind": "view"}} for i in range(MAX_OPS + 1)]
    e = client.error("tree.apply", session=s, ops=ops)
    assert e.name == "LIMIT_EXCEEDED" and e.data["limit"] == "opsPerBatch" and e.data["max"] == MAX_OPS
    assert state(client, s) == before
    client.call("tree.apply", session=s, ops=ops[:MAX_OPS])


def test_json_nested_too_deep_for_the_reader(client):
    depth = MAX_DEPTH + 200
    text = '{"jsonrpc":"2.0","id":1,"method":"engine.info","params":{"x":' + "[" * depth + "]" * depth + "}}"
    client.send_json_text(text)
    resp = client.recv_response()
    check_response("engine.info", resp)
    data = resp["error"]["data"]
    assert data["name"] == "LIMIT_EXCEEDED" and data["limit"] == "depth" and data["max"] == MAX_DEPTH
    assert resp["id"] is None
