"""Every error the foundation can produce, triggered against the real engine. Each reply is validated against
error-response.json (code tied to name, required details per name) by the client; the tests check the details
name what was wrong, and that the failed request changed nothing."""

import json

import pytest

from harness import find, new_session, unique_name


def snapshot(client, s):
    # Setup/comparison only: session.snapshot's schema is checked in test_methods.
    resp = client.rpc("session.snapshot", {"session": s}, validate=False)
    assert "result" in resp, resp
    return resp["result"]


def assert_unchanged(client, s, before):
    after = snapshot(client, s)
    assert after["revision"] == before["revision"], "a failed request must not change the revision"
    assert after["seq"] == before["seq"], "a failed request must not publish events"
    assert after["tree"] == before["tree"] and after["detached"] == before["detached"], \
        "a failed request must not change the world"


@pytest.fixture
def demo(client):
    s = new_session(client, "err")
    return s, snapshot(client, s)


def apply_error(client, s, ops, **params):
    return client.error("tree.apply", session=s, ops=ops, **params)


def raw_error(client, text: bytes | str):
    client.send_json_text(text)
    resp = client.recv_response(what=repr(text)[:60])
    from harness import check_response
    check_response("?", resp)
    assert "error" in resp, f"{text!r:.80} should be refused, got {resp}"
    return resp


# ----------------------------------------------------------------------------------------- JSON-RPC

@pytest.mark.parametrize("text", [b"{not json", b"", b'{"jsonrpc":"2.0","id":1,"method":"engine.info"',
                                  b'{"jsonrpc":"2.0","id":1,"method":"\xff\xfe"}', b"[1,2"])
def test_parse_error(client, text):
    resp = raw_error(client, text)
    assert resp["error"]["data"]["name"] == "PARSE_ERROR" and resp["error"]["code"] == -32700
    assert resp["id"] is None


@pytest.mark.parametrize("request_obj,reply_id,field", [
    ([{"jsonrpc": "2.0", "id": 1, "method": "engine.info"}], None, None),  # batches are not supported
    ("engine.info", None, None),
    (42, None, None),
    ({"jsonrpc": "1.0", "id": 5, "method": "engine.info"}, 5, "jsonrpc"),
    ({"id": 6, "method": "engine.info"}, 6, "jsonrpc"),
    ({"jsonrpc": "2.0", "id": "seven"}, "seven", "method"),
    ({"jsonrpc": "2.0", "id": 8, "method": 8}, 8, "method"),
    ({"jsonrpc": "2.0", "id": {"x": 1}, "method": "engine.info"}, None, "id"),
    ({"jsonrpc": "2.0", "id": [1], "method": "engine.info"}, None, "id"),
    ({"jsonrpc": "2.0", "method": 3}, None, "method"),  # not a request, so answered although it has no id
])
def test_invalid_request(client, request_obj, reply_id, field):
    resp = raw_error(client, json.dumps(request_obj))
    err = resp["error"]
    assert err["data"]["name"] == "INVALID_REQUEST" and err["code"] == -32600
    assert resp["id"] == reply_id
    if field is not None:
        assert err["data"].get("field") == field


def test_method_not_found(client):
    e = client.error("tree.explode", session="default")
    assert e.name == "METHOD_NOT_FOUND" and e.code == -32601
    assert e.data.get("method") == "tree.explode"
    e = client.error("")
    assert e.name == "METHOD_NOT_FOUND"


@pytest.mark.parametrize("method,params,field", [
    ("engine.info", {"verbose": True}, "verbose"),
    ("session.list", {"session": "default"}, "session"),
    ("tree.get", {"sesion": "default"}, "sesion"),
    ("tree.get", {"session": 5}, "session"),
    ("tree.get", {"session": "bad name!"}, "session"),
    ("tree.get", {"session": "x" * 65}, "session"),
    ("tree.get", {"id": 5}, "id"),
    ("tree.apply", {}, "ops"),
    ("tree.apply", {"ops": {}}, "ops"),
    ("tree.apply", {"ops": [], "ifRevision": "3"}, "ifRevision"),
    ("tree.apply", {"ops": [{"op": "explode", "id": "x"}]}, "ops[0].op"),
    ("tree.apply", {"ops": [{"id": "x"}]}, "ops[0].op"),
    ("tree.apply", {"ops": [{"op": "remove"}]}, "ops[0].id"),
    ("tree.apply", {"ops": [{"op": "remove", "id": "title", "extra": 1}]}, "ops[0].extra"),
    ("tree.apply", {"ops": [{"op": "insert", "node": {"id": "n", "kind": "view"}}]}, "ops[0].parent"),
    ("tree.apply", {"ops": [{"op": "update", "id": "title"}]}, "ops[0].set"),
    ("tree.load", {}, "tree"),
    ("session.create", {"session": "ok-name", "tree": {"id": "app", "kind": "application"}, "world": 1}, "world"),
    ("client.hello", {}, "name"),
])
def test_invalid_params(client, method, params, field):
    resp = client.rpc(method, params)
    assert "error" in resp, f"{method} {params} should fail"
    data = resp["error"]["data"]
    assert data["name"] == "INVALID_PARAMS" and resp["error"]["code"] == -32602
    assert data.get("field") == field


def test_params_must_be_an_object(client):
    for params in ([], ["default"], "default", 3):
        resp = client.rpc("tree.get", params)
        assert resp["error"]["data"]["name"] == "INVALID_PARAMS" and resp["error"]["data"].get("field") == "params"


def test_index_out_of_range(client, demo):
    s, before = demo
    for op in [{"op": "insert", "parent": "card", "index": 3, "node": {"id": "n", "kind": "view"}},
               {"op": "insert", "parent": "card", "index": -1, "node": {"id": "n", "kind": "view"}},
               {"op": "move", "id": "title", "parent": "card", "index": 7}]:
        e = apply_error(client, s, [{"op": "update", "id": "title", "set": {"hidden": True}}, op])
        assert e.name == "INVALID_PARAMS" and e.data.get("opIndex") == 1 and e.data.get("field") == "ops[1].index"
    assert_unchanged(client, s, before)


# ----------------------------------------------------------------------------------------- sessions

def test_session_not_found(client):
    for method, params in [("tree.get", {}), ("tree.apply", {"ops": []}), ("session.snapshot", {}),
                           ("session.delete", {}), ("tree.load", {"tree": {"id": "app", "kind": "application"}})]:
        e = client.error(method, session="no-such-session", **params)
        assert e.name == "SESSION_NOT_FOUND" and e.code == -32001 and e.data.get("field") == "session"


def test_session_exists(client):
    s = new_session(client)
    before = snapshot(client, s)
    e = client.error("session.create", session=s, tree={"id": "app", "kind": "application"})
    assert e.name == "SESSION_EXISTS" and e.data.get("field") == "session"
    assert_unchanged(client, s, before)


def test_session_create_failure_creates_nothing(client):
    name = unique_name("nope")
    e = client.error("session.create", session=name, tree={"id": "app", "kind": "application",
                                                           "children": [{"id": "w", "kind": "window", "hiden": True}]})
    assert e.name == "INVALID_NODE"
    assert client.error("tree.get", session=name).name == "SESSION_NOT_FOUND"


# ----------------------------------------------------------------------------------------- nodes

def test_node_not_found(client, demo):
    s, before = demo
    e = client.error("tree.get", session=s, id="ghost")
    assert e.name == "NODE_NOT_FOUND" and e.data.get("id") == "ghost" and e.data.get("field") == "id"
    cases = [
        ({"op": "update", "id": "ghost", "set": {}}, "ops[1].id"),
        ({"op": "remove", "id": "ghost"}, "ops[1].id"),
        ({"op": "move", "id": "ghost", "parent": "root"}, "ops[1].id"),
        ({"op": "move", "id": "title", "parent": "ghost"}, "ops[1].parent"),
        ({"op": "insert", "parent": "ghost", "node": {"id": "n", "kind": "view"}}, "ops[1].parent"),
    ]
    for op, field in cases:
        e = apply_error(client, s, [{"op": "update", "id": "title", "set": {"alpha": 0.5}}, op])
        assert e.name == "NODE_NOT_FOUND", op
        assert e.data.get("id") == "ghost" and e.data.get("opIndex") == 1 and e.data.get("field") == field, op
    assert_unchanged(client, s, before)


def test_duplicate_id(client, demo):
    s, before = demo
    e = apply_error(client, s, [{"op": "insert", "parent": "card", "node": {"id": "button", "kind": "control"}}])
    assert e.name == "DUPLICATE_ID" and e.data.get("id") == "button" and e.data.get("opIndex") == 0
    assert e.data.get("field") == "ops[0].node.id"
    e = apply_error(client, s, [{"op": "insert", "parent": "card", "node": {"id": "n1", "kind": "view", "children": [
        {"id": "n2", "kind": "view"}, {"id": "n2", "kind": "view"}]}}])
    assert e.name == "DUPLICATE_ID" and e.data.get("id") == "n2" and e.data.get("field") == "ops[0].node.children[1].id"
    e = apply_error(client, s, [{"op": "insert", "parent": "card", "node": {"id": "n3", "kind": "view"}},
                                {"op": "insert", "parent": None, "node": {"id": "n3", "kind": "view"}}])
    assert e.name == "DUPLICATE_ID" and e.data.get("opIndex") == 1
    e = client.error("tree.load", session=s, tree={"id": "app", "kind": "application"},
                     detached=[{"id": "d", "kind": "view"}, {"id": "d", "kind": "view"}])
    assert e.name == "DUPLICATE_ID" and e.data.get("id") == "d" and e.data.get("field") == "detached[1].id"
    assert "opIndex" not in e.data, "tree.load errors have no opIndex"
    assert_unchanged(client, s, before)


def test_cycle(client, demo):
    s, before = demo
    for target in ["button", "card"]:
        e = apply_error(client, s, [{"op": "update", "id": "title", "set": {"hidden": True}},
                                    {"op": "move", "id": "card", "parent": target}])
        assert e.name == "CYCLE" and e.data.get("id") == "card" and e.data.get("opIndex") == 1
        assert e.data.get("parent") == target
    assert_unchanged(client, s, before)


@pytest.mark.parametrize("node,field,bad_id", [
    ({"id": "n", "kind": "view", "hiden": True}, "ops[0].node.hiden", "n"),
    ({"id": "n", "kind": "view", "children": [{"id": "m", "kind": "view"}, {"id": "k", "kind": "view", "hiden": 1}]},
     "ops[0].node.children[1].hiden", "k"),
    ({"id": "n", "kind": "view", "alpha": 1.5}, "ops[0].node.alpha", "n"),
    ({"id": "n", "kind": "view", "alpha": -0.1}, "ops[0].node.alpha", "n"),
    ({"id": "n", "kind": "view", "frame": [0, 0, -1, 10]}, "ops[0].node.frame", "n"),
    ({"id": "n", "kind": "view", "frame": [0, 0, 10]}, "ops[0].node.frame", "n"),
    ({"id": "n", "kind": "view", "frame": [0, 0, "10", 10]}, "ops[0].node.frame", "n"),
    ({"id": "n", "kind": "view", "hidden": "yes"}, "ops[0].node.hidden", "n"),
    ({"id": "n", "kind": "view", "key": True}, "ops[0].node.key", "n"),
    ({"id": "n", "kind": "view", "enabled": False}, "ops[0].node.enabled", "n"),
    ({"id": "n", "kind": "view", "presentedBy": "rootVC"}, "ops[0].node.presentedBy", "n"),
    ({"id": "n", "kind": "view", "receivesRemoteControlEvents": True}, "ops[0].node.receivesRemoteControlEvents", "n"),
    ({"id": "n", "kind": "control", "targets": [{"event": "tap", "action": "a:"}]}, "ops[0].node.targets[0].event", "n"),
    ({"id": "n", "kind": "view", "hitTest": {"mode": "sometimes"}}, "ops[0].node.hitTest.mode", "n"),
    ({"id": "n", "kind": "view", "handles": {"touchesBegan": "always"}}, "ops[0].node.handles.touchesBegan", "n"),
    ({"id": "n", "kind": "widget"}, "ops[0].node.kind", "n"),
    ({"id": "n"}, "ops[0].node.kind", "n"),
    ({"kind": "view"}, "ops[0].node.id", None),
    ({"id": "", "kind": "view"}, "ops[0].node.id", None),
    ({"id": "x" * 257, "kind": "view"}, "ops[0].node.id", None),
])
def test_invalid_node_on_insert(client, demo, node, field, bad_id):
    s, before = demo
    e = apply_error(client, s, [{"op": "insert", "parent": "card", "node": node}])
    assert e.name == "INVALID_NODE" and e.code == -32006
    assert e.data.get("field") == field and e.data.get("opIndex") == 0
    if bad_id is not None:
        assert e.data.get("id") == bad_id
    assert_unchanged(client, s, before)


def test_hiden_is_rejected_naming_it(client, demo):
    """The typo that started the 'unknown fields are errors' rule, through every way a node arrives."""
    s, before = demo
    e = apply_error(client, s, [{"op": "update", "id": "title", "set": {"hiden": True}}])
    assert (e.name, e.data.get("field"), e.data.get("id")) == ("INVALID_NODE", "ops[0].set.hiden", "title")
    e = apply_error(client, s, [{"op": "insert", "parent": "card", "node": {"id": "n", "kind": "view", "hiden": True}}])
    assert (e.name, e.data.get("field"), e.data.get("id")) == ("INVALID_NODE", "ops[0].node.hiden", "n")
    tree = {"id": "app", "kind": "application", "children": [{"id": "w", "kind": "window", "hiden": True}]}
    e = client.error("tree.load", session=s, tree=tree)
    assert (e.name, e.data.get("field"), e.data.get("id")) == ("INVALID_NODE", "tree.children[0].hiden", "w")
    assert "opIndex" not in e.data
    assert_unchanged(client, s, before)


@pytest.mark.parametrize("set_,field", [
    ({"alpha": 2}, "ops[0].set.alpha"),
    ({"id": "other"}, "ops[0].set.id"),
    ({"kind": "control"}, "ops[0].set.kind"),
    ({"children": []}, "ops[0].set.children"),
    ({"revision": 3}, "ops[0].set.revision"),
    ({"key": True}, "ops[0].set.key"),
    ({"frame": [0, 0, 1, 1], "hidden": 0}, "ops[0].set.hidden"),
])
def test_invalid_node_on_update(client, demo, set_, field):
    s, before = demo
    e = apply_error(client, s, [{"op": "update", "id": "title", "set": set_}])
    assert e.name == "INVALID_NODE" and e.data.get("field") == field and e.data.get("id") == "title"
    assert e.data.get("opIndex") == 0
    assert_unchanged(client, s, before)


def test_non_finite_numbers(client, demo):
    s, before = demo
    for literal in ["1e999", "-1e999"]:
        text = ('{"jsonrpc":"2.0","id":1,"method":"tree.apply","params":{"session":"%s","ops":[{"op":"update",'
                '"id":"title","set":{"frame":[0,0,%s,10]}}]}}' % (s, literal))
        client.send_json_text(text)
        resp = client.recv_response()
        from harness import check_response
        check_response("tree.apply", resp)
        data = resp["error"]["data"]
        assert data["name"] == "INVALID_NODE" and data.get("field") == "ops[0].set.frame" and data.get("id") == "title"
    assert_unchanged(client, s, before)


def test_second_key_window(client, demo):
    s, before = demo
    w2 = {"id": "w2", "kind": "window", "key": True}
    e = apply_error(client, s, [{"op": "update", "id": "title", "set": {"hidden": True}},
                                {"op": "insert", "parent": "app", "node": w2}])
    assert e.name == "INVALID_NODE" and e.data.get("field") == "key" and e.data.get("id") in ("w2", "window")
    assert e.data.get("opIndex") == 1, "a rule checked when the batch completes names the last op touching the node"
    assert_unchanged(client, s, before)
    # moving the key flag in one batch is fine
    client.call("tree.apply", session=s, ops=[{"op": "update", "id": "window", "set": {"key": False}},
                                              {"op": "insert", "parent": "app", "node": w2}])


def test_tree_load_root_must_be_app(client, demo):
    s, before = demo
    for tree in [{"id": "root", "kind": "application"}, {"id": "app", "kind": "window"}]:
        e = client.error("tree.load", session=s, tree=tree)
        assert e.name == "INVALID_NODE" and e.data.get("field") in ("tree.id", "tree.kind")
    assert_unchanged(client, s, before)


# ----------------------------------------------------------------------------------------- placement

@pytest.mark.parametrize("ops,op_index,node_id", [
    ([{"op": "insert", "parent": "root", "node": {"id": "w2", "kind": "window"}}], 0, "w2"),
    ([{"op": "insert", "parent": "app", "node": {"id": "v", "kind": "view"}}], 0, "v"),
    ([{"op": "insert", "parent": "app", "node": {"id": "d2", "kind": "appDelegate"}}], 0, None),
    ([{"op": "insert", "parent": "delegate", "node": {"id": "v", "kind": "view"}}], 0, "v"),
    ([{"op": "insert", "parent": "root", "node": {"id": "a2", "kind": "application"}}], 0, "a2"),
    ([{"op": "insert", "parent": None, "node": {"id": "d2", "kind": "appDelegate"}}], 0, "d2"),
    ([{"op": "insert", "parent": "rootVC", "node": {"id": "v", "kind": "view"}}], 0, None),
    ([{"op": "insert", "parent": "root", "node": {"id": "vc", "kind": "viewController"}}], 0, "vc"),
    ([{"op": "update", "id": "title", "set": {"hidden": True}},
      {"op": "remove", "id": "root"}], 1, None),
    ([{"op": "insert", "parent": "window", "node": {"id": "vc2", "kind": "viewController",
                                                    "children": [{"id": "v2", "kind": "view"}]}}], 0, None),
    ([{"op": "insert", "parent": "root", "node": {"id": "vc3", "kind": "viewController", "presentedBy": "rootVC",
                                                  "children": [{"id": "v3", "kind": "view"}]}}], 0, "vc3"),
    ([{"op": "insert", "parent": "rootVC", "node": {"id": "w3", "kind": "window"}}], 0, "w3"),
    ([{"op": "remove", "id": "app"}], 0, "app"),
    ([{"op": "move", "id": "app", "parent": "root"}], 0, "app"),
    ([{"op": "move", "id": "delegate", "parent": None}], 0, "delegate"),
    ([{"op": "insert", "parent": None, "node": {"id": "loose", "kind": "view"}},
      {"op": "move", "id": "window", "parent": "loose"}], 1, "window"),
])
def test_invalid_placement(client, demo, ops, op_index, node_id):
    s, before = demo
    e = apply_error(client, s, ops)
    assert e.name == "INVALID_PLACEMENT" and e.code == -32007
    assert e.data.get("opIndex") == op_index
    if node_id is not None:
        assert e.data.get("id") == node_id
    assert_unchanged(client, s, before)


def test_invalid_placement_in_load(client, demo):
    s, before = demo
    tree = {"id": "app", "kind": "application", "children": [{"id": "v", "kind": "view"}]}
    e = client.error("tree.load", session=s, tree=tree)
    assert e.name == "INVALID_PLACEMENT" and e.data.get("id") == "v" and "opIndex" not in e.data
    assert_unchanged(client, s, before)


# ----------------------------------------------------------------------------------------- revisions

def test_revision_conflict_on_apply(client, demo):
    s, before = demo
    rev = before["revision"]
    e = apply_error(client, s, [{"op": "update", "id": "title", "set": {"hidden": True}}], ifRevision=rev - 1)
    assert e.name == "REVISION_CONFLICT" and e.data["revision"] == rev and e.data["expected"] == rev - 1
    assert_unchanged(client, s, before)
    client.call("tree.apply", session=s, ifRevision=rev, ops=[{"op": "update", "id": "title", "set": {"hidden": True}}])
    e = apply_error(client, s, [{"op": "update", "id": "title", "set": {"hidden": False}}], ifRevision=rev)
    assert e.name == "REVISION_CONFLICT" and e.data["revision"] == rev + 1
    assert client.call("tree.get", session=s, id="title")["tree"]["hidden"] is True


def test_revision_conflict_comes_before_a_look_at_the_ops_or_the_tree(client, demo):
    # Section 11: with an out-of-date ifRevision, no op is looked at (a malformed one included).
    s, before = demo
    stale = before["revision"] - 1
    bad_ops = [{"op": "update", "id": "title", "set": {"hiden": True}}, {"op": "explode"}]
    assert apply_error(client, s, bad_ops, ifRevision=stale).name == "REVISION_CONFLICT"
    e = client.error("tree.load", session=s, tree={"id": "app", "kind": "application", "frmae": 1}, ifRevision=stale)
    assert e.name == "REVISION_CONFLICT"
    # With the right revision, the same requests are refused for what is wrong with them.
    assert apply_error(client, s, bad_ops, ifRevision=before["revision"]).name == "INVALID_NODE"
    assert client.error("tree.load", session=s, tree={"id": "app", "kind": "application", "frmae": 1}).name == "INVALID_NODE"
    assert_unchanged(client, s, before)


def test_revision_conflict_on_load(client, demo):
    s, before = demo
    e = client.error("tree.load", session=s, tree={"id": "app", "kind": "application"}, ifRevision=before["revision"] + 5)
    assert e.name == "REVISION_CONFLICT" and e.data["revision"] == before["revision"]
    assert e.data["expected"] == before["revision"] + 5
    assert_unchanged(client, s, before)


def test_node_revision_conflict(client, demo):
    s, before = demo
    client.call("tree.apply", session=s, ops=[{"op": "update", "id": "title", "set": {"alpha": 0.5}}])
    before = snapshot(client, s)
    title_rev = find(before["tree"], "title")["revision"]
    card_rev = find(before["tree"], "card")["revision"]
    assert title_rev == before["revision"] and card_rev < title_rev
    e = apply_error(client, s, [{"op": "update", "id": "title", "ifNodeRevision": card_rev, "set": {"alpha": 1}}])
    assert e.name == "REVISION_CONFLICT" and e.data.get("id") == "title" and e.data["revision"] == title_rev
    assert e.data["expected"] == card_rev and e.data.get("opIndex") == 0
    e = apply_error(client, s, [{"op": "remove", "id": "button"},
                                {"op": "insert", "parent": "card", "ifNodeRevision": title_rev,
                                 "node": {"id": "n", "kind": "view"}}])
    assert e.name == "REVISION_CONFLICT" and e.data.get("id") == "card" and e.data["revision"] == card_rev
    assert e.data.get("opIndex") == 1
    assert_unchanged(client, s, before)


# ----------------------------------------------------------------------------------------- atomicity

def test_failing_batch_applies_nothing(client, engine, demo):
    s, before = demo
    sub = engine.subscriber(f"{s}/")
    ops = [{"op": "update", "id": "title", "set": {"hidden": True}},
           {"op": "insert", "parent": "card", "node": {"id": "fresh", "kind": "view"}},
           {"op": "move", "id": "button", "parent": "header"},
           {"op": "remove", "id": "textField"},
           {"op": "update", "id": "ghost", "set": {"alpha": 0}}]
    e = apply_error(client, s, ops)
    assert e.name == "NODE_NOT_FOUND" and e.data.get("opIndex") == 4
    assert_unchanged(client, s, before)
    assert client.error("tree.get", session=s, id="fresh").name == "NODE_NOT_FOUND"
    sub.nothing(0.5)
    r = client.call("tree.apply", session=s, ops=ops[:4])
    assert r["revision"] == before["revision"] + 1 and r["seqRange"] == [before["seq"] + 1, before["seq"] + 1]
    _, event = sub.next(f"{s}/tree")
    assert event["seq"] == before["seq"] + 1 and event["ops"] == ops[:4]


def test_batch_failing_at_completion_applies_nothing(client, demo):
    """A viewController left without its root view is caught when the batch completes."""
    s, before = demo
    e = apply_error(client, s, [{"op": "insert", "parent": "card", "node": {"id": "n", "kind": "view"}},
                                {"op": "move", "id": "root", "parent": None}])
    assert e.name == "INVALID_PLACEMENT" and e.data.get("id") == "rootVC" and e.data.get("opIndex") == 1
    assert_unchanged(client, s, before)


def test_errors_name_the_parameter_that_was_wrong(client, demo):
    s, before = demo
    e = client.error("responder.first", session=s, window="ghost")
    assert e.name == "NODE_NOT_FOUND" and e.data.get("field") == "window"
    e = client.error("responder.first", session=s, window="card")
    assert e.name == "WRONG_KIND" and e.data.get("field") == "window"
    e = client.error("tree.load", session=s, tree={"id": "app", "kind": "view"})
    assert e.name == "INVALID_NODE" and e.data.get("field") == "tree.kind"
    e = client.error("tree.load", session=s, tree={"id": "root", "kind": "application"})
    assert e.name == "INVALID_NODE" and e.data.get("field") == "tree.id"
    assert_unchanged(client, s, before)


# ----------------------------------------------------------------------------------------- recognizers, clock

def _set(node_id, *recognizers):
    return {"op": "update", "id": node_id, "set": {"gestureRecognizers": list(recognizers)}}


@pytest.mark.parametrize("ops,name,field,recognizer", [
    ([_set("root", {"id": "a", "kind": "tap"}, {"id": "b", "kind": "swirl"})],
     "INVALID_NODE", "ops[0].set.gestureRecognizers[1].kind", None),
    ([_set("root", {"id": "a", "kind": "tap", "minimumPressDuration": 1})],
     "INVALID_NODE", "ops[0].set.gestureRecognizers[0].minimumPressDuration", None),
    ([_set("root", {"id": "a", "kind": "tap", "type": "x"})], "INVALID_NODE", "ops[0].set.gestureRecognizers[0].type", None),
    ([_set("root", {"id": "a", "kind": "pan", "targets": [{"target": "card"}]})],
     "INVALID_NODE", "ops[0].set.gestureRecognizers[0].targets[0].action", None),
    ([_set("root", {"id": "a", "kind": "pan", "minimumNumberOfTouches": 2, "maximumNumberOfTouches": 1})],
     "INVALID_NODE", "ops[0].set.gestureRecognizers[0].maximumNumberOfTouches", None),
    ([_set("root", {"id": "a", "kind": "tap", "requireToFail": ["a"]})],
     "INVALID_NODE", "ops[0].set.gestureRecognizers[0].requireToFail[0]", None),
    ([{"op": "remove", "id": "title"}, _set("root", {"id": "a", "kind": "tap", "simultaneousWith": ["b", "zz"]}),
      _set("card", {"id": "b", "kind": "pan"})],
     "INVALID_NODE", "ops[1].set.gestureRecognizers[0].simultaneousWith[1]", "zz"),
    ([_set("root", {"id": "a", "kind": "tap"}, {"id": "a", "kind": "pan"})],
     "DUPLICATE_ID", "ops[0].set.gestureRecognizers[1].id", "a"),
    ([{"op": "insert", "parent": "card", "node": {"id": "n", "kind": "view", "gestureRecognizers": [
        {"id": "a", "kind": "pan"}, {"id": "a", "kind": "tap"}]}}],
     "DUPLICATE_ID", "ops[0].node.gestureRecognizers[1].id", "a"),
    ([_set("root", {"id": "b", "kind": "tap"}), _set("card", {"id": "b", "kind": "pan"})],
     "DUPLICATE_ID", "ops[1].set.gestureRecognizers[0].id", "b"),
    pytest.param([_set("root", {"id": "a", "kind": "tap"}), {"op": "insert", "parent": "card", "node": {
        "id": "n", "kind": "view", "gestureRecognizers": [{"id": "a", "kind": "pan"}]}}],
        "DUPLICATE_ID", "ops[1].node.gestureRecognizers[0].id", "a"),
    pytest.param([{"op": "insert", "parent": "card", "node": {
        "id": "n", "kind": "view", "gestureRecognizers": [{"id": "a", "kind": "pan", "requireToFail": ["q"]}]}}],
        "INVALID_NODE", "ops[0].node.gestureRecognizers[0].requireToFail[0]", "q"),
])
def test_recognizer_errors_name_the_member(client, demo, ops, name, field, recognizer):
    """8.4: recognizer errors give the full path of the member; names of other recognizers are checked when the
    batch completes (op 2 adds `b`, so only `zz` is unknown); the batch changes nothing."""
    s, before = demo
    e = apply_error(client, s, ops)
    assert (e.name, e.data.get("field"), e.data.get("recognizer")) == (name, field, recognizer)
    assert e.data.get("opIndex") == int(field[4])
    assert_unchanged(client, s, before)


def test_recognizer_ids_are_their_own_id_space(client, demo):
    """8.2: a recognizer may share a node's id; a removed recognizer that others name leaves a name that is ignored."""
    s, _ = demo
    client.call("tree.apply", session=s, ops=[_set("card", {"id": "card", "kind": "tap", "requireToFail": ["x"]}),
                                              _set("root", {"id": "x", "kind": "pan"})])
    client.call("tree.apply", session=s, ops=[_set("root")])
    assert client.call("tree.get", session=s, id="card")["tree"]["gestureRecognizers"][0]["requireToFail"] == ["x"]
    tap = client.call("event.tap", session=s, point=[100, 125])  # on the card, outside its subviews
    assert [(g["recognizer"], g["reason"]) for d in tap["deliveries"] for g in d.get("gestures", [])][0] == \
        ("card", "taps-completed"), "the missing required recognizer holds nothing back"


@pytest.mark.parametrize("method,params,field,clock", [
    ("clock.advance", {}, "to", None),
    ("clock.advance", {"to": 1, "by": 1}, "by", None),
    ("clock.advance", {"by": -1}, "by", None),
    ("clock.advance", {"to": 0.5}, "to", 1),
    ("event.touch", {"touches": [{"touch": 1, "phase": "began", "point": [1, 1], "time": 0.5}]}, "touches[0].time", 1),
    ("event.touch", {"touches": [{"touch": 1, "phase": "began", "point": [1, 1], "time": 2},
                                 {"touch": 1, "phase": "ended", "time": 1.5}]}, "touches[1].time", 2),
    ("event.tap", {"point": [1, 1], "time": 0.5}, "time", 1),
])
def test_time_never_goes_back(client, demo, method, params, field, clock):
    """G11, 12.3: a time or clock.advance target before the session's clock (1 here) is INVALID_PARAMS with the
    clock's time (as an earlier entry of the same request left it); nothing changes, the clock included."""
    s, _ = demo
    client.call("clock.advance", session=s, to=1)
    before = snapshot(client, s)
    e = client.error(method, session=s, **params)
    assert (e.name, e.data.get("field"), e.data.get("clock")) == ("INVALID_PARAMS", field, clock)
    assert_unchanged(client, s, before)
    assert snapshot(client, s)["clock"] == 1


def test_a_refused_tap_uses_no_tap_id(client, demo):
    s, _ = demo
    client.call("clock.advance", session=s, to=1)
    client.error("event.tap", session=s, point=[1, 1], time=0.5)
    assert client.call("event.tap", session=s, point=[1, 1])["deliveries"][0]["touch"] == "tap-1"
