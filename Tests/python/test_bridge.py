"""`responder bridge`: the engine's JSON-RPC over stdin/stdout with LSP Content-Length framing, driven
by a framed client that owns every byte (stdio_harness.Bridge), against a real engine shared with pyzmq clients.
Pass-through with ids echoed exactly, every way the bytes can arrive, a large message, events forwarded gap-free
while requests are in flight (and gaps recovered by replay), framing errors, and exiting when stdin closes."""

from __future__ import annotations

import json

import pytest

from harness import PATIENCE, demo_tree, new_session
from stdio_harness import Bridge, frame, target_args
from test_clients import LossyProxy


@pytest.fixture
def bridges(engine, tmp_path):
    """A factory for bridges (by default on the module's engine); each is stopped at the end of the test."""
    made: list[Bridge] = []

    def make(args: list[str] | None = None) -> Bridge:
        b = Bridge(target_args(engine) if args is None else args, tmp_path / f"bridge-{len(made)}.stderr")
        made.append(b)
        return b

    yield make
    for b in made:
        b.stop()


def result(reply: dict):
    assert "result" in reply, f"expected a result: {reply}"
    return reply["result"]


def raw(client, method: str, **params):
    resp = client.rpc(method, params, validate=False)
    assert "result" in resp, resp
    return resp["result"]


def test_engine_methods_pass_through_unchanged_with_ids_echoed_exactly(bridges, client):
    b = bridges()
    s = new_session(client, "br")
    # Results are the engine's own: the same as a direct request (engine.info differs only in the caller's id).
    direct = raw(client, "engine.info")
    via = result(b.request("engine.info", id="info"))
    assert {k: v for k, v in via.items() if k != "client"} == {k: v for k, v in direct.items() if k != "client"}
    assert result(b.request("tree.get", {"session": s, "id": "card"}, id=2)) == raw(client, "tree.get", session=s, id="card")
    # Every kind of id comes back as it was sent, and 1 and "1" stay different.
    for id in [0, -7, 2**53 - 1, 2**64 + 1, "1", "", "ид-🙂 \"quoted\"", "x" * 300, 1, 2.5]:
        assert b.request("session.list", id=id)["id"] == id
    # Byte for byte, even where the engine would write the number its own way (1000, 1, 9007199254740991.0).
    for written in [b"1e3", b"1.0", b"-0", b"9007199254740991", b"123456789012345678901234567890"]:
        b.write(frame(b'{"jsonrpc": "2.0", "method": "session.list", "id": ' + written + b'}'))
        raw_reply = b.next(lambda m: "result" in m, what=f"reply to id {written!r}").raw
        assert raw_reply.startswith(b'{"jsonrpc":"2.0","id":' + written + b',"result":'), raw_reply[:120]
    result(b.request("bridge.unsubscribe", id=2**64 + 1))
    assert b.request("hitTest", {"session": s, "point": [60, 150]}, id=None)["result"]["view"] == "button"
    # Errors too are the engine's, with its names and fields.
    err = b.request("tree.get", {"session": s, "id": "nope"}, id="e1")["error"]
    assert err["data"] == {"name": "NODE_NOT_FOUND", "id": "nope", "field": "id"}
    assert b.request("no.such.method", id="e2")["error"]["data"] == {"name": "METHOD_NOT_FOUND", "method": "no.such.method"}
    assert b.request("tree.get", {"session": s, "bogus": 1}, id="e3")["error"]["data"]["field"] == "bogus"
    # A notification is carried out and never answered: the next reply is the next request's.
    b.send({"jsonrpc": "2.0", "method": "tree.apply", "params": {"session": s, "ops": [
        {"op": "update", "id": "title", "set": {"hidden": True}}]}})
    after = result(b.request("tree.get", {"session": s, "id": "title"}, id="after"))
    assert after["tree"]["hidden"] is True
    b.nothing(0.3)


def test_a_message_written_one_byte_at_a_time(bridges):
    b = bridges()
    data = frame({"jsonrpc": "2.0", "id": "slow", "method": "session.list"})
    for i in range(len(data)):
        b.write(data[i:i + 1])
    assert "sessions" in result(b.reply("slow"))
    # Header names in any case, other headers, and a bare \n line end are all accepted.
    body = json.dumps({"jsonrpc": "2.0", "id": "lax", "method": "session.list"}).encode()
    b.write(b"content-length: %d\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\n\r\n" % len(body) + body)
    assert "sessions" in result(b.reply("lax"))


def test_several_messages_in_one_write(bridges, client):
    b = bridges()
    s = new_session(client, "brmany")
    requests = [{"jsonrpc": "2.0", "id": f"m{i}", "method": "tree.apply",
                 "params": {"session": s, "ops": [{"op": "update", "id": "title", "set": {"alpha": i / 100}}]}}
                for i in range(30)]
    b.write(b"".join(frame(r) for r in requests))
    revisions = [result(b.reply(f"m{i}"))["revision"] for i in range(30)]
    assert revisions == list(range(revisions[0], revisions[0] + 30)), "in order, each applied once"


def test_a_large_message_each_way(bridges, client):
    b = bridges()
    s = new_session(client, "brbig")
    views = [{"id": f"v{i}", "kind": "view", "frame": [i % 300, i % 700, 10, 10], "class": "UILabel" + "x" * 40}
             for i in range(20_000)]
    world = demo_tree()
    world["children"][1]["children"][0]["children"][0]["children"].append(
        {"id": "big", "kind": "view", "frame": [0, 0, 390, 844], "children": views})
    request = {"jsonrpc": "2.0", "id": "load", "method": "tree.load", "params": {"session": s, "tree": world}}
    assert len(frame(request)) > 2_000_000
    b.send(request)
    result(b.reply("load"))
    tree = result(b.request("tree.get", {"session": s, "id": "big"}, id="get"))["tree"]
    assert [c["id"] for c in tree["children"]] == [f"v{i}" for i in range(20_000)]


def test_events_stream_gap_free_while_requests_are_in_flight(bridges, engine, client):
    b = bridges()
    s = new_session(client, "brev")
    sub = result(b.request("bridge.subscribe", {"session": s}, id="sub"))
    assert sub == {"session": s, "seq": 1}
    other = engine.client()
    # Requests through the bridge, pipelined in one write, while another client taps the same session.
    n = 60
    b.write(b"".join(frame({"jsonrpc": "2.0", "id": i, "method": "event.tap", "params": {"session": s, "point": [60, 150]}})
                     for i in range(n)))
    for _ in range(n):
        raw(other, "event.tap", session=s, point=[200, 500])
    replies = [result(b.reply(i)) for i in range(n)]
    events = [b.notification("event")["params"] for _ in range(2 * n)]
    assert [e["event"]["seq"] for e in events] == list(range(2, 2 + 2 * n)), "every event once, in order"
    assert all(e["topic"] == f"{s}/trace" and e["event"]["session"] == s for e in events)
    causes = {e["event"]["cause"]["client"] for e in events}
    assert "responder-bridge" in causes and len(causes) == 2, causes
    mine = [e["event"] for e in events if e["event"]["cause"]["client"] == "responder-bridge"]
    assert [e["cause"]["request"] for e in mine] == list(range(n)), "causes carry the editor's own ids"
    assert [e["trace"] for e in mine] == [r["trace"] for r in replies]
    # A stream filter: only tree events from now on.
    assert result(b.request("bridge.unsubscribe", {"session": s}, id="un")) == {"sessions": [s]}
    assert result(b.request("bridge.subscribe", {"session": s, "streams": ["tree"]}, id="sub2"))["seq"] == 2 + 2 * n - 1
    raw(other, "event.tap", session=s, point=[200, 500])
    raw(other, "tree.apply", session=s, ops=[{"op": "update", "id": "title", "set": {"hidden": True}}])
    tree_event = b.notification("event")["params"]
    assert tree_event["topic"] == f"{s}/tree" and tree_event["event"]["seq"] == 2 + 2 * n + 1


def test_a_gap_is_recovered_by_replay_and_announced(bridges, engine, client, ctx):
    s = new_session(client, "brgap")
    # The bridge's events come through a proxy that loses seqs 4-6 (and holds back ticks until seq 8 passed,
    # so that it is the gap at 7, not a tick, that reveals them).
    proxy = LossyProxy(ctx, engine, engine.dir, drop={4, 5, 6}, ticks_from_seq=8)
    try:
        b = bridges(["--connect", f"{engine.rpc_endpoint},{proxy.endpoint}", "--timeout", str(int(PATIENCE))])
        assert result(b.request("bridge.subscribe", {"session": s}, id="sub"))["seq"] == 1
        # The seqs the proxy forwards must reach the bridge: its subscription first reaches the proxy.
        proxy.wait_subscribed(f"{s}/")
        for _ in range(8):
            raw(client, "event.tap", session=s, point=[60, 150])
        seen = []
        while len([m for m in seen if m["method"] == "event"]) < 8:
            seen.append(b.next(lambda m: m.get("method") in ("event", "bridge.recovered")))
        kinds = [(m["method"], m["params"].get("event", {}).get("seq")) for m in seen]
        recovered = next(m["params"] for m in seen if m["method"] == "bridge.recovered")
        # The replay brings back the lost events and whatever followed them by then.
        assert recovered["session"] == s and recovered["after"] == 3 and recovered["through"] >= 6
        assert recovered["count"] == recovered["through"] - 3
        at = kinds.index(("bridge.recovered", None))
        assert [seq for _, seq in kinds[:at]] == [2, 3] and [seq for _, seq in kinds[at + 1:]] == list(range(4, 10))
        assert proxy.dropped == [4, 5, 6]
    finally:
        proxy.close()


def test_events_no_longer_held_are_announced_as_expired(engines, ctx, tmp_path):
    e = engines(args=["--replay-buffer", "2"])
    c = e.client()
    s = new_session(c, "brexp")
    proxy = LossyProxy(ctx, e, e.dir, drop=set(range(3, 9)), ticks_from_seq=10)
    b = Bridge(["--connect", f"{e.rpc_endpoint},{proxy.endpoint}", "--timeout", str(int(PATIENCE))], tmp_path / "b.stderr")
    try:
        assert result(b.request("bridge.subscribe", {"session": s}, id="sub"))["seq"] == 1
        proxy.wait_subscribed(f"{s}/")
        for _ in range(9):
            raw(c, "event.tap", session=s, point=[60, 150])
        assert b.notification("event")["params"]["event"]["seq"] == 2
        expired = b.notification("bridge.recovered")["params"]
        assert expired["expired"] is True and expired["after"] == 2 and expired["count"] == 0
        assert expired["through"] >= 9
        # The stream goes on after the jump, in order.
        raw(c, "event.tap", session=s, point=[60, 150])
        seqs = [b.notification("event")["params"]["event"]["seq"] for _ in range(11 - expired["through"])]
        assert seqs == list(range(expired["through"] + 1, 12))
    finally:
        b.stop()
        proxy.close()


def test_unsubscribe_stops_events_and_a_deleted_session_ends_them(bridges, client):
    b = bridges()
    s, t = new_session(client, "brun"), new_session(client, "brdel")
    result(b.request("bridge.subscribe", {"session": s}, id=1))
    result(b.request("bridge.subscribe", {"session": t, "streams": ["trace"]}, id=2))
    raw(client, "event.tap", session=s, point=[60, 150])
    assert b.notification("event")["params"]["event"]["session"] == s
    assert result(b.request("bridge.unsubscribe", {"session": s}, id=3)) == {"sessions": [s]}
    raw(client, "event.tap", session=s, point=[60, 150])
    raw(client, "session.delete", session=t)
    deleted = b.notification("event")["params"]
    assert deleted["topic"] == "$sys/sessions" and deleted["event"]["action"] == "deleted"
    assert deleted["event"]["session"] == t
    assert b.notification("bridge.ended")["params"] == {"session": t, "reason": "deleted"}
    # Nothing of s after its unsubscribe reply, and nothing is subscribed any more.
    assert result(b.request("bridge.unsubscribe", id=4)) == {"sessions": []}
    b.nothing(0.5)


def test_bridge_method_errors_and_framing_errors(bridges, client):
    b = bridges()
    s = new_session(client, "brbad")
    err = b.request("bridge.subscribe", {"session": s, "streams": ["tree", "clicks"]}, id="b1")["error"]
    assert err["code"] == -32602 and err["data"] == {"name": "INVALID_PARAMS", "field": "streams[1]"}
    assert b.request("bridge.subscribe", {"sesion": s}, id="b2")["error"]["data"]["field"] == "sesion"
    err = b.request("bridge.subscribe", {"session": "no-such-session"}, id="b3")["error"]
    assert err["data"]["name"] == "SESSION_NOT_FOUND" and err["data"]["field"] == "session"
    assert b.request("bridge.subscrib", id="b4")["error"]["data"] == {"name": "METHOD_NOT_FOUND", "method": "bridge.subscrib"}
    result(b.request("bridge.subscribe", {"session": s}, id="b5"))
    assert b.request("bridge.subscribe", {"session": s}, id="b6")["error"]["data"]["field"] == "session"
    # A header without Content-Length: reported on stderr, and the next message is read as usual.
    b.write(b"Content-Lenght: 40\r\n\r\n{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": 1}")
    b.write(b"Content-Length: x2\r\n\r\n")
    assert "sessions" in result(b.request("session.list", id="after-bad-header"))
    # A body that is not JSON, or not a request: the engine's own answer, id null when none can be read.
    b.write(frame(b"{not json"))
    assert b.reply(None)["error"]["data"]["name"] == "PARSE_ERROR"
    b.write(frame(b'{"jsonrpc": "2.0", "id": "bad-method", "method": 7}'))
    assert b.reply("bad-method")["error"]["data"] == {"name": "INVALID_REQUEST", "field": "method"}
    stderr = b.stderr()
    assert "a header without Content-Length" in stderr and "Content-Length is not a byte count" in stderr, stderr


def test_exits_when_stdin_closes_after_answering_what_it_was_sent(bridges, client):
    b = bridges()
    s = new_session(client, "brexit")
    result(b.request("bridge.subscribe", {"session": s}, id="sub"))
    b.write(b"".join(frame({"jsonrpc": "2.0", "id": f"last{i}", "method": "event.tap",
                            "params": {"session": s, "point": [60, 150]}}) for i in range(5)))
    b.close_stdin()
    assert b.wait() == 0
    for i in range(5):
        assert "deliveries" in result(b.reply(f"last{i}"))


def test_no_engine_is_a_clear_error(bridges, tmp_path):
    b = bridges(["--dir", str(tmp_path), "--name", "nobody-here"])
    assert b.wait() == 1
    assert 'no engine named "nobody-here" is running' in b.stderr()
    assert "responderd --name nobody-here" in b.stderr()
