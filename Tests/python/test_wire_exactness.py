"""JSON-RPC as written (Protocol/README.md sections 5 and 6, revision 1.7): numeric ids come back byte for byte
as sent, in the reply and in the cause of the events the request published; a notification is never answered,
even when it is wrong; error details `field` and `id` keep to their schema whatever the request held."""

from __future__ import annotations

import json
import re

import pytest

from harness import check_response, new_session

NUMERIC_IDS = ["1e999", "-1e999", "12345678901234567890123", "1e3", "-0.0", "1.5E+2", "0.1000000000000000055511151231257827",
               "-9007199254740993"]


def raw_id(reply: bytes) -> bytes:
    m = re.match(rb'\{"jsonrpc":"2\.0","id":([^,]*),', reply)
    assert m, f"unexpected reply framing: {reply[:200]!r}"
    return m.group(1)


@pytest.mark.parametrize("id_text", NUMERIC_IDS)
def test_numeric_ids_are_echoed_exactly(client, id_text):
    for method in ("engine.info", "no.such.method"):
        client.send_json_text(f'{{"jsonrpc":"2.0","id":{id_text},"method":"{method}"}}')
        frames = client.recv_frames()
        assert frames is not None, f"no reply to id {id_text}"
        assert raw_id(frames[-1]) == id_text.encode()
    # Also when the request is refused before its method is read.
    client.send_json_text(f'{{"jsonrpc":"1.0","id":{id_text},"method":"engine.info"}}')
    assert raw_id(client.recv_frames()[-1]) == id_text.encode()


def test_an_event_names_its_request_by_the_id_as_sent(engine, client):
    s = new_session(client, "ids")
    sub = engine.subscriber(f"{s}/tree")
    client.send_json_text(json.dumps({"jsonrpc": "2.0", "id": 0, "method": "tree.apply", "params": {
        "session": s, "ops": [{"op": "update", "id": "card", "set": {"alpha": 0.5}}]}}).replace('"id": 0', '"id": 98765432109876543210'))
    assert raw_id(client.recv_frames()[-1]) == b"98765432109876543210"
    frames = None
    while frames is None or frames[0] != f"{s}/tree".encode():
        assert sub.socket.poll(60_000), "no tree event"
        frames = sub.socket.recv_multipart()
    assert b'"cause":{"client":' in frames[1] and b'"request":98765432109876543210}' in frames[1]


NOTIFICATIONS = [
    {"method": "tree.get", "params": [1]},
    {"method": "tree.get", "params": "x"},
    {"method": "tree.get", "params": {"zzz": 1}},
    {"method": "tree.get", "params": {"session": "no-such-session"}},
    {"method": "tree.apply", "params": {"ops": [{"op": "remove", "id": "nothing"}]}},
    {"method": "no.such.method"},
]


@pytest.mark.parametrize("note", NOTIFICATIONS, ids=lambda n: json.dumps(n)[:40])
def test_a_notification_is_never_answered(client, note):
    client.send_json_text(json.dumps({"jsonrpc": "2.0", **note}))
    # The engine answers in order: the next reply is the one to the request sent after the notification.
    resp = client.rpc("engine.info", id="after")
    assert resp["id"] == "after"
    assert client.recv_frames(timeout=0.3) is None


def test_unreadable_messages_are_still_answered_with_id_null(client):
    """Section 5: what cannot be read as a request is answered, with id null, even without an id."""
    for text in ['{"jsonrpc":"2.0","method":', '[]', '{"jsonrpc":"1.0","method":"engine.info"}', '{"jsonrpc":"2.0","method":7}']:
        client.send_json_text(text)
        resp = client.recv_response(what=text)
        check_response("?", resp)
        assert resp["id"] is None and resp["error"]["data"]["name"] in ("PARSE_ERROR", "INVALID_REQUEST")


@pytest.mark.parametrize("method,params,field", [
    ("tree.get", {"": 1}, '""'),
    ("hitTest", {"point": [1, 2], "": 3}, '""'),
    ("tree.apply", {"ops": [{"op": "update", "id": "card", "set": {"": 1}}]}, 'ops[0].set.""'),
    ("tree.get", {"k" * 3000: 1}, None),
    ("tree.get", {"id": ""}, "id"),
    ("tree.get", {"id": "x" * 300}, "id"),
    ("tree.apply", {"ops": [{"op": "remove", "id": ""}]}, "ops[0].id"),
    ("tree.apply", {"ops": [{"op": "insert", "parent": "y" * 257, "node": {"id": "q", "kind": "view"}}]}, "ops[0].parent"),
    ("responder.become", {"id": "z" * 1000}, "id"),
])
def test_error_details_keep_to_their_schema(client, method, params, field):
    s = new_session(client, "det")
    # client.rpc validates every reply against error-response.json: field 1…256 bytes, id a node id.
    resp = client.rpc(method, {"session": s, **params})
    data = resp["error"]["data"]
    assert 1 <= len(data["field"].encode()) <= 256
    if field is not None:
        assert data["field"] == field
    else:
        assert data["field"].startswith("kkkk") and data["field"].endswith("…")
    if "id" in data:
        assert 1 <= len(data["id"].encode()) <= 256
    # An id that cannot name a node is a bad param, not a missing node.
    if field in ("id", "ops[0].id", "ops[0].parent"):
        assert data["name"] == "INVALID_PARAMS"


def _ids(tree: dict) -> list[str]:
    return [tree["id"], *(i for c in tree.get("children", []) for i in _ids(c))]


def _raw_request(client, id_text: str, method: str, params: dict) -> bytes:
    """Sends params as raw UTF-8 (no \\u escapes) and returns the reply's bytes."""
    text = f'{{"jsonrpc":"2.0","id":{id_text},"method":"{method}","params":{json.dumps(params, ensure_ascii=False)}}}'
    client.send_json_text(text.encode())
    return client.recv_frames()[-1]


@pytest.mark.parametrize("escaped", [True, False], ids=["escaped", "raw-utf8"])
def test_ids_are_read_in_nfc_so_canonically_equivalent_spellings_are_one_id(client, escaped):
    """Protocol/README.md section 5: every string is read in Unicode NFC. A precomposed "é" and "e" + U+0301 are
    one id, as are "K" and the KELVIN SIGN; the engine shows the NFC spelling, whichever came in."""
    s = new_session(client)
    window = "window"
    decomposed, precomposed = "cafe\u0301", "caf\u00e9"
    kelvin, k = "\u212aelvin", "Kelvin"

    def call(method, params, id_text="7"):
        if escaped:
            return client.rpc(method, params)
        reply = json.loads(_raw_request(client, id_text, method, params))
        check_response(method, reply)
        return reply

    inserted = call("tree.apply", {"session": s, "ops": [
        {"op": "insert", "parent": window, "node": {"id": decomposed, "kind": "view", "frame": [0, 0, 10, 10]}},
        {"op": "insert", "parent": window, "node": {"id": kelvin, "kind": "view", "frame": [0, 0, 10, 10],
                                                    "annotations": {"text": "Ångström e\u0301"}}}]})
    assert "result" in inserted, inserted
    tree = client.call("tree.get", session=s)["tree"]
    assert precomposed in _ids(tree) and decomposed not in _ids(tree)
    assert k in _ids(tree) and kelvin not in _ids(tree)
    assert "é" in json.dumps(tree, ensure_ascii=False) and "e\u0301" not in json.dumps(tree, ensure_ascii=False)
    # The other spelling names the same node: an update finds it, an insert is a duplicate.
    assert "result" in call("tree.apply", {"session": s, "ops": [{"op": "update", "id": precomposed, "set": {"alpha": 0.5}}]})
    dup = call("tree.apply", {"session": s, "ops": [
        {"op": "insert", "parent": window, "node": {"id": k, "kind": "view", "frame": [0, 0, 1, 1]}}]})
    assert dup["error"]["data"]["name"] == "DUPLICATE_ID" and dup["error"]["data"]["id"] == k, dup


def test_a_request_with_text_beyond_ascii_keeps_its_numeric_id_and_layout(client):
    s = new_session(client)
    reply = _raw_request(client, "1.50", "tree.apply", {"session": s, "ops": [
        {"op": "update", "id": "title", "set": {"annotations": {"text": "e\u0301t\u00e9"}}}]})
    assert raw_id(reply) == b"1.50"
    assert "result" in json.loads(reply), reply
