"""The events socket: welcome, tree events with seq/revision/cause, two clients seeing each other's changes,
$sys/sessions, $sys/tick, and trace.replay. Every event received is validated against its schema by the
Subscriber."""

import time

import zmq

from harness import Subscriber, demo_tree, new_session, unique_name


def test_welcome_only_for_matching_subscriptions(engine, ctx):
    everything = engine.subscriber("")          # "" is a prefix of $sys/welcome: waits for the welcome
    sys_only = engine.subscriber("$sys/")
    # A subscriber to a session's topics alone gets no welcome.
    sock = ctx.socket(zmq.SUB)
    sock.setsockopt(zmq.LINGER, 0)
    sock.setsockopt(zmq.SUBSCRIBE, b"nobody/")
    sock.connect(engine.events_endpoint)
    try:
        assert not sock.poll(700, zmq.POLLIN), "a subscriber to nobody/ must not get $sys/welcome"
    finally:
        sock.close(0)
    everything.close()
    sys_only.close()


def test_session_create_publishes_load_and_sys_event(engine, client):
    name = unique_name("ev")
    sub = engine.subscriber(f"{name}/", "$sys/sessions")
    created = client.call("session.create", session=name, tree=demo_tree())
    got = {}
    for _ in range(2):
        topic, event = sub.next()
        got[topic] = event
    assert set(got) == {f"{name}/tree", "$sys/sessions"}
    sys_event = got["$sys/sessions"]
    assert sys_event["action"] == "created" and sys_event["session"] == name
    load = got[f"{name}/tree"]
    assert load["change"] == "load" and load["seq"] == 1 and load["session"] == name
    assert load["revision"] == created["revision"] and load["detached"] == []
    assert load["tree"] == client.call("tree.get", session=name)["tree"], \
        "a load event carries the tree as tree.get returns it"
    client.call("session.delete", session=name)
    topic, event = sub.next("$sys/sessions")
    assert event["action"] == "deleted" and event["session"] == name and event["lastSeq"] == 1
    assert event["seq"] > sys_event["seq"]


def test_two_clients_see_each_others_changes(engine):
    alice = engine.client(routing_id=b"alice")
    bob = engine.client(routing_id=b"bob")
    s = new_session(alice, "two")
    alice_sees = engine.subscriber(f"{s}/")
    bob_sees = engine.subscriber(f"{s}/tree")
    start = alice.call("tree.get", session=s)

    ops_a = [{"op": "insert", "parent": "card", "node": {"id": "badge", "kind": "view", "frame": [300, 8, 24, 24]}}]
    ra = alice.rpc("tree.apply", {"session": s, "ops": ops_a}, id="alice-1")["result"]
    ops_b = [{"op": "update", "id": "badge", "set": {"alpha": 0.5}}, {"op": "update", "id": "title", "set": {"hidden": True}}]
    rb = bob.rpc("tree.apply", {"session": s, "ops": ops_b}, id=77)["result"]

    assert ra["seqRange"] == [start["seq"] + 1, start["seq"] + 1] and ra["revision"] == start["revision"] + 1
    assert rb["seqRange"] == [start["seq"] + 2, start["seq"] + 2] and rb["revision"] == start["revision"] + 2

    for sub in (alice_sees, bob_sees):
        _, first = sub.next(f"{s}/tree")
        _, second = sub.next(f"{s}/tree")
        assert first["seq"] == start["seq"] + 1 and second["seq"] == first["seq"] + 1
        assert first["change"] == "apply" and first["ops"] == ops_a and first["revision"] == ra["revision"]
        assert first["cause"] == {"client": b"alice".hex(), "request": "alice-1"}
        assert second["ops"] == ops_b and second["revision"] == rb["revision"]
        assert second["cause"] == {"client": b"bob".hex(), "request": 77}
        assert first["session"] == s and first["stream"] == "tree"


def test_client_hello_names_the_cause(engine):
    c = engine.client()
    c.call("client.hello", name="inspector")
    s = new_session(c, "hello")
    sub = engine.subscriber(f"{s}/tree")
    c.rpc("tree.apply", {"session": s, "ops": [{"op": "remove", "id": "title"}]}, id="r1")
    _, event = sub.next()
    assert event["cause"] == {"client": "inspector", "request": "r1"}


def test_notification_is_applied_and_published_but_not_answered(engine, client):
    s = new_session(client, "note")
    sub = engine.subscriber(f"{s}/tree")
    before = client.call("tree.get", session=s)
    client.notify("tree.apply", {"session": s, "ops": [{"op": "update", "id": "title", "set": {"hidden": True}}]})
    _, event = sub.next()
    assert event["cause"]["request"] is None and event["seq"] == before["seq"] + 1
    client.notify("tree.apply", {"session": s, "ops": [{"op": "update", "id": "ghost", "set": {}}]})  # fails
    client.notify("no.such.method")
    assert client.recv_frames(0.7) is None, "notifications get no reply, not even errors"
    after = client.call("tree.get", session=s)
    assert after["revision"] == before["revision"] + 1 and after["seq"] == before["seq"] + 1


def test_request_id_null_is_answered_and_caused_with_null(engine, client):
    s = new_session(client, "nullid")
    sub = engine.subscriber(f"{s}/tree")
    resp = client.rpc("tree.apply", {"session": s, "ops": [{"op": "remove", "id": "title"}]}, id=None)
    assert resp["id"] is None and "result" in resp
    _, event = sub.next()
    assert event["cause"]["request"] is None


def test_seq_spans_streams_and_sessions_are_independent(engine, client):
    a = new_session(client, "ia")
    b = new_session(client, "ib")
    sub = engine.subscriber(f"{a}/", f"{b}/")
    for _ in range(3):
        client.call("tree.apply", session=a, ops=[])
    client.call("tree.apply", session=b, ops=[])
    seqs = {a: [], b: []}
    for _ in range(4):
        _, e = sub.next()
        seqs[e["session"]].append(e["seq"])
    assert seqs == {a: [2, 3, 4], b: [2]}


def test_tick(engine, client):
    s = new_session(client, "tick")
    client.call("tree.apply", session=s, ops=[])
    sub = engine.subscriber("$sys/tick")
    _, first = sub.next("$sys/tick")
    t0 = time.monotonic()  # the interval is from tick to tick: the checks below (a request) are not in it
    assert first["sessions"][s] == 2 and first["sessions"]["default"] >= 0
    assert len(first["sessions"]) == client.call("engine.info")["sessions"]
    _, second = sub.next("$sys/tick")
    assert 0.3 < time.monotonic() - t0 < 2.5, "ticks come about once a second"
    assert second["seq"] > first["seq"]


def test_events_are_sent_before_the_reply(engine, client):
    s = new_session(client, "order")
    sub = engine.subscriber(f"{s}/tree")
    r = client.call("tree.apply", session=s, ops=[])
    _, event = sub.next()
    assert event["seq"] == r["seq"]


def test_trace_replay(engine, client):
    s = new_session(client, "replay")
    client.call("tree.apply", session=s, ops=[{"op": "remove", "id": "title"}])
    client.call("tree.apply", session=s, ops=[{"op": "remove", "id": "header"}])
    sub = engine.subscriber(f"{s}/")
    client.call("tree.apply", session=s, ops=[])
    _, live = sub.next()
    r = client.call("trace.replay", session=s, after=1)
    assert r["session"] == s and r["seq"] == 4 and r["complete"] is True
    assert [e["event"]["seq"] for e in r["events"]] == [2, 3, 4]
    assert all(e["topic"] == f"{s}/tree" for e in r["events"])
    assert r["events"][-1]["event"] == live, "replayed events are exactly the published ones"
    assert r["events"][0]["event"]["ops"] == [{"op": "remove", "id": "title"}]
    capped = client.call("trace.replay", session=s, after=0, limit=2)
    assert [e["event"]["seq"] for e in capped["events"]] == [1, 2] and capped["complete"] is False
    assert client.call("trace.replay", session=s, after=4) == {"session": s, "seq": 4, "events": [], "complete": True}


def test_replay_expired(engines):
    e = engines(args=["--replay-buffer", "2"])
    c = e.client()
    s = new_session(c, "exp")
    for _ in range(3):
        c.call("tree.apply", session=s, ops=[])
    err = c.error("trace.replay", session=s, after=1)
    assert err.name == "REPLAY_EXPIRED" and err.data["oldest"] == 3 and err.data["seq"] == 4
    assert [x["event"]["seq"] for x in c.call("trace.replay", session=s, after=2)["events"]] == [3, 4]
