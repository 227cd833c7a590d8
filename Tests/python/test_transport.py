"""Request framing and JSON-RPC envelope details on the rpc socket."""

import json

import zmq

from harness import PATIENCE, check_response


def info_request(id_):
    return json.dumps({"jsonrpc": "2.0", "id": id_, "method": "engine.info"}).encode()


def test_dealer_with_delimiter(client):
    client.send_frames([b"", info_request(1)])
    frames = client.recv_frames()
    assert frames is not None and len(frames) == 2 and frames[0] == b""
    resp = json.loads(frames[1])
    check_response("engine.info", resp)
    assert resp["id"] == 1


def test_dealer_without_delimiter(client):
    client.send_frames([info_request("bare")])
    frames = client.recv_frames()
    assert frames is not None, "a DEALER sending just [json] must be answered"
    assert len(frames) == 1, "the reply has the request's framing: [json]"
    resp = json.loads(frames[-1])
    check_response("engine.info", resp)
    assert resp["id"] == "bare"


def test_req_socket(engine, ctx):
    req = ctx.socket(zmq.REQ)
    req.setsockopt(zmq.LINGER, 0)
    req.connect(engine.rpc_endpoint)
    try:
        for i in range(3):
            req.send(info_request(i))
            assert req.poll(int(PATIENCE * 1000), zmq.POLLIN), "no reply on REQ"
            resp = json.loads(req.recv())
            check_response("engine.info", resp)
            assert resp["id"] == i
    finally:
        req.close(0)


def test_malformed_framing_is_dropped(client):
    client.send_frames([b"", b"extra", info_request(1)])
    client.send_frames([b"not-empty", info_request(2)])
    assert client.recv_frames(0.7) is None
    assert client.call("engine.info")["protocol"] == 1, "the connection still works"


def test_ids_are_echoed(client):
    for id_ in ["abc", "", 0, -3, 1.5, 2 ** 40, None, "ü"]:
        resp = client.rpc("engine.info", None, id=id_)
        assert resp["id"] == id_ and type(resp["id"]) is type(id_)


def test_params_absent_means_empty(client):
    resp = client.rpc("session.list", None)
    assert "result" in resp


def test_unknown_request_members_are_ignored(client):
    client.send_json_text(json.dumps({"jsonrpc": "2.0", "id": 9, "method": "engine.info", "meta": {"x": 1}}))
    resp = client.recv_response()
    check_response("engine.info", resp)
    assert "result" in resp


def test_pipelined_requests_answer_in_order(client):
    for i in range(20):
        client.send_frames([b"", info_request(f"p{i}")])
    ids = []
    for _ in range(20):
        frames = client.recv_frames()
        assert frames is not None
        ids.append(json.loads(frames[-1])["id"])
    assert ids == [f"p{i}" for i in range(20)]


def test_replies_go_to_the_right_client(engine):
    a = engine.client(routing_id=b"A-client")
    b = engine.client(routing_id=b"B-client")
    a.send_frames([b"", info_request("for-a")])
    b.send_frames([b"", info_request("for-b")])
    assert json.loads(b.recv_frames()[-1])["id"] == "for-b"
    assert json.loads(a.recv_frames()[-1])["id"] == "for-a"
    assert a.call("engine.info")["client"] == b"A-client".hex()
