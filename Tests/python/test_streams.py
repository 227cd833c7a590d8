"""Event streams under load and concurrency, against the real engine over real sockets:

1. a slow joiner follows a session that is being written to while it joins, and misses nothing;
2. a flood: a subscriber that stops reading does not hold the engine back, and recovers by trace.replay
   (or, when the ring no longer holds the history, by REPLAY_EXPIRED and a new snapshot);
3. two clients editing concurrently with ifNodeRevision: no false conflict on separate subtrees, exactly one
   winner on the same node;
4. causality: a reply's seqRange is exactly the events caused by that request of that (named) client;
5. touch leases between clients;
6. $sys/tick and session.clients.

Followers are clients/python/responder_client.py's Follower (the join procedure of Protocol/README.md 13.5);
each test keeps a mirror of the session by replaying tree events and compares it with the engine at the end.
Figures (rates, counts) are printed: run with -s to see them.
"""

from __future__ import annotations

import copy
import json
import sys
import threading
import time

import pytest
import zmq

from harness import PATIENCE, REPO, REPLY_TIMEOUT, SCHEMAS, demo_tree, event_schema_for, find, new_session

sys.path.insert(0, str(REPO / "clients" / "python"))
from responder_client import Connection, EngineAddress, Event, Follower  # noqa: E402


@pytest.fixture(scope="module")
def engine_args():
    # A fast tick: followers notice trailing losses sooner, and the tick test waits less.
    return ["--tick-ms", "200"]


# --------------------------------------------------------------------------------------------- helpers

def address(engine) -> EngineAddress:
    return EngineAddress(rpc=engine.rpc_endpoint, events=engine.events_endpoint, name=engine.name)


def connection(engine) -> Connection:
    c = Connection(address(engine), timeout=30.0, context=engine.ctx)
    engine._clients.append(c)  # closed with the engine
    return c


class Mirror:
    """A client-side copy of a session, kept by applying its events in seq order (Protocol/README.md 13.3).

    Supports what these tests send: update (non-null values), insert (nodes sent in full output form, so the
    mirror's copy equals what tree.get returns), remove and move (of leaves). Every event is checked: seq
    exactly one more than the last, and an applied batch exactly one more revision.
    """

    def __init__(self, snapshot: dict):
        self.reset(snapshot)

    def reset(self, snapshot: dict) -> None:
        self.seq = snapshot["seq"]
        self.revision = snapshot["revision"]
        self._load(snapshot["tree"], snapshot["detached"])

    def _load(self, tree: dict, detached: list) -> None:
        self.tree = copy.deepcopy(tree)
        self.detached = copy.deepcopy(detached)
        self.nodes: dict[str, dict] = {}
        self.parent: dict[str, str | None] = {}
        for root in [self.tree, *self.detached]:
            self._index(root, None)

    def _index(self, node: dict, parent: str | None) -> None:
        stack = [(node, parent)]
        while stack:
            n, p = stack.pop()
            self.nodes[n["id"]] = n
            self.parent[n["id"]] = p
            stack.extend((c, n["id"]) for c in n.get("children", []))

    def _siblings(self, parent: str | None) -> list:
        return self.detached if parent is None else self.nodes[parent]["children"]

    def _unlink(self, node_id: str) -> dict:
        node = self.nodes[node_id]
        siblings = self._siblings(self.parent[node_id])
        siblings.remove(node)
        return node

    def _link(self, node: dict, parent: str | None, index: int | None) -> None:
        siblings = self._siblings(parent)
        siblings.insert(len(siblings) if index is None else index, node)
        self.parent[node["id"]] = parent

    def apply(self, topic: str, event: dict) -> None:
        assert event["seq"] == self.seq + 1, f"event seq {event['seq']} after {self.seq}: missing or duplicated"
        self.seq = event["seq"]
        if event["stream"] != "tree":
            assert event["revision"] == self.revision, f"a {event['stream']} event moved the revision: {event}"
            return
        if event["change"] == "load":
            self.revision = event["revision"]
            self._load(event["tree"], event["detached"])
            return
        assert event["revision"] == self.revision + 1, \
            f"an applied batch adds exactly 1 to the revision: {self.revision} -> {event['revision']}"
        rev = self.revision = event["revision"]
        for op in event["ops"]:
            kind = op["op"]
            if kind == "update":
                node = self.nodes[op["id"]]
                for k, v in op["set"].items():
                    assert v is not None, "the mirror does not know defaults"
                    node[k] = copy.deepcopy(v)
                node["revision"] = rev
            elif kind == "insert":
                node = copy.deepcopy(op["node"])
                stack = [node]
                while stack:  # the inserted node and everything nested in it carry the batch's revision
                    n = stack.pop()
                    n["revision"] = rev
                    n.setdefault("children", [])
                    stack.extend(n["children"])
                self._link(node, op["parent"], op.get("index"))
                self._index(node, op["parent"])
            elif kind == "remove":
                node = self._unlink(op["id"])
                stack = [node]
                while stack:
                    n = stack.pop()
                    del self.nodes[n["id"]], self.parent[n["id"]]
                    stack.extend(n["children"])
            elif kind == "move":
                node = self._unlink(op["id"])
                assert not node["children"], "the mirror moves leaves only"
                self._link(node, op["parent"], op.get("index"))
                node["revision"] = rev
            else:  # pragma: no cover
                raise AssertionError(f"unexpected op {op}")

    def assert_equals_engine(self, client, session: str) -> None:
        now = client.call("session.snapshot", session=session)
        assert now["seq"] == self.seq, f"mirror at seq {self.seq}, engine at {now['seq']}"
        assert now["revision"] == self.revision, f"mirror at revision {self.revision}, engine at {now['revision']}"
        got = client.call("tree.get", session=session)
        assert got["revision"] == self.revision
        assert got["tree"] == self.tree, "the mirror's tree differs from tree.get"
        assert now["tree"] == self.tree and now["detached"] == self.detached


def drain(follower: Follower, mirror_box: list, until_seq: int, timeout: float, validate_every: int = 0):
    """Takes items from `follower` into the mirror (mirror_box[0], created at the first snapshot) until it
    has applied `until_seq`. Returns (seqs delivered, live count, replayed count, snapshot items)."""
    seqs, live, replayed, snapshots = [], 0, 0, []
    deadline = time.monotonic() + timeout
    while mirror_box[0] is None or mirror_box[0].seq < until_seq:
        left = deadline - time.monotonic()
        assert left > 0, (f"follower stuck at seq {mirror_box[0].seq if mirror_box[0] else None}, "
                          f"expected {until_seq}; recoveries: {[r.describe() for r in follower.recoveries]}")
        item = follower.next(timeout=left)
        assert item is not None, f"no event within {timeout} s (follower at seq {follower.last_seq}, want {until_seq})"
        if item.kind == "snapshot":
            snapshots.append(item)
            if mirror_box[0] is None:
                mirror_box[0] = Mirror(item.snapshot)
            else:
                mirror_box[0].reset(item.snapshot)
        elif item.kind == "event":
            ev = item.event
            if validate_every and (len(seqs) % validate_every == 0):
                SCHEMAS.validate(event_schema_for(ev.topic), ev.body, f"event on {ev.topic}")
            mirror_box[0].apply(ev.topic, ev.body)
            seqs.append(ev.seq)
            if item.replayed:
                replayed += 1
            else:
                live += 1
    return seqs, live, replayed, snapshots


def pipeline(sock: zmq.Socket, make_params, n: int, method: str = "tree.apply", window: int = 256):
    """Sends n requests on a DEALER, at most `window` unanswered (below the ROUTER's per-peer high-water
    mark of 1000, so no reply is dropped), and checks every reply. Returns (seconds, last reply)."""
    sent = answered = 0
    last = None
    t0 = time.perf_counter()
    while answered < n:
        while sent < n and sent - answered < window:
            req = {"jsonrpc": "2.0", "id": sent, "method": method, "params": make_params(sent)}
            sock.send_multipart([b"", json.dumps(req).encode()])
            sent += 1
        assert sock.poll(int(REPLY_TIMEOUT * 1000)), f"no reply to request {answered} within {REPLY_TIMEOUT} s"
        reply = json.loads(sock.recv_multipart()[-1])
        assert "error" not in reply, f"request {answered} failed: {reply}"
        assert reply["id"] == answered, f"replies come in request order: got id {reply['id']}, expected {answered}"
        answered += 1
        last = reply
    return time.perf_counter() - t0, last


def view_template(tree: dict) -> dict:
    """A plain view in full output form (from the demo world's header), to insert with new ids."""
    stack = [tree]
    while stack:
        n = stack.pop()
        if n["id"] == "header":
            t = {k: copy.deepcopy(v) for k, v in n.items() if k not in ("revision", "children")}
            t["children"] = []
            return t
        stack.extend(n.get("children", []))
    raise AssertionError("no header in the demo world")


# --------------------------------------------------------------------------------- 1. slow joiner

SLOW_JOINER_WRITES = 2000
JOIN_AFTER = 200  # the subscriber starts joining once this many writes are done


def writer_ops(i: int, template: dict) -> list:
    """The i-th batch of the slow joiner's writer: inserts, updates, moves and removes of views in the demo
    world's header and card, plus updates of existing nodes."""
    step, k = i % 4, i - i % 4
    if step == 0:
        node = dict(template, id=f"v{k}", frame=[k % 300, k % 50, 10, 10])
        return [{"op": "insert", "parent": "card" if k % 8 else "header", "node": node}]
    if step == 1:
        return [{"op": "update", "id": f"v{k}", "set": {"alpha": (i % 97) / 100, "hidden": i % 3 == 0}},
                {"op": "update", "id": "title", "set": {"frame": [16, 50, 358 - i % 100, 40]}}]
    if step == 2:
        return [{"op": "move", "id": f"v{k}", "parent": "header" if k % 8 else "card", "index": 0}]
    if (k // 4) % 2 == 0:
        return [{"op": "remove", "id": f"v{k}"}]
    return [{"op": "update", "id": "card", "set": {"alpha": (i % 89) / 100}}]


def test_slow_joiner_gets_every_event_after_its_snapshot(engine, client):
    s = new_session(client, "join")
    template = view_template(client.call("tree.get", session=s)["tree"])
    start_seq = client.call("tree.get", session=s)["seq"]
    writer = engine.client()
    done: dict = {}
    go = threading.Event()
    joined = threading.Event()

    def write():
        last = None
        try:
            for i in range(SLOW_JOINER_WRITES):
                if i == JOIN_AFTER:
                    go.set()
                if i == SLOW_JOINER_WRITES - 1:
                    # However slow the join (a busy machine), it falls inside the write loop: the last write
                    # waits for the snapshot.
                    assert joined.wait(PATIENCE), "the follower did not join"
                req = {"jsonrpc": "2.0", "id": i, "method": "tree.apply",
                       "params": {"session": s, "ops": writer_ops(i, template)}}
                writer.send_json_text(json.dumps(req))
                last = writer.recv_response(what=f"write {i}")
                assert "result" in last, f"write {i} failed: {last}"
            done["last"] = last["result"]
        except BaseException as e:  # reported by the main thread
            done["error"] = e

    t = threading.Thread(target=write, name="writer")
    t.start()
    assert go.wait(PATIENCE)
    # The writer keeps mutating as we join: subscribe, wait for the welcome, snapshot, then the queued events
    # after the snapshot. Events published before the subscription was live never reach us (the slow joiner
    # problem); the welcome guarantees the snapshot is taken after it was, so those are in the snapshot.
    follower = Follower(connection(engine), session=s)
    joined.set()
    raw: list[int] = []  # seqs as they come off the SUB, before the follower drops those the snapshot holds
    sub_next = follower.subscriber.next

    def counting_next(timeout=None):
        ev = sub_next(timeout)
        if ev is not None and not ev.is_sys:
            raw.append(ev.seq)
        return ev

    follower.subscriber.next = counting_next
    box = [None]
    try:
        t.join(2 * PATIENCE)
        assert not t.is_alive(), "the writer did not finish"
        assert "error" not in done, f"writer: {done.get('error')!r}"
        final = done["last"]["seq"]
        seqs, live, replayed, snapshots = drain(follower, box, final, timeout=60, validate_every=1)
    finally:
        follower.close()
    mirror = box[0]
    snap_seq = snapshots[0].snapshot["seq"]
    held = sum(1 for q in raw if q <= snap_seq)
    print(f"\nslow joiner: session seq {start_seq} -> {final}; joined at seq {snap_seq}; first live event "
          f"seq {raw[0] if raw else None}, {held} queued events already in the snapshot (dropped), {live} applied "
          f"live, {replayed} replayed; recoveries: {[r.describe() for r in follower.recoveries]}")
    assert len(snapshots) == 1 and not snapshots[0].resnapshot
    assert start_seq + JOIN_AFTER <= snap_seq < final, \
        f"the join should fall inside the write loop (snapshot seq {snap_seq}, writes {start_seq}..{final})"
    assert raw and raw[0] <= snap_seq + 1, \
        f"the subscription was live before the snapshot (welcome), so no event after it is missing: first {raw[:1]}"
    assert replayed == 0 and not follower.recoveries, "an unbounded subscriber loses nothing: no replay needed"
    assert sorted(set(raw)) == raw, "the SUB got no duplicate"
    assert seqs == list(range(snap_seq + 1, final + 1)), "every event after the snapshot, once, in order"
    assert mirror.revision == done["last"]["revision"]
    mirror.assert_equals_engine(client, s)


# ------------------------------------------------------------------------------------------ 2. flood

# The engine queues up to 100,000 messages per subscriber (its XPUB SNDHWM) before it drops. A flood of
# exactly 100,000 events is therefore (measured) almost entirely buffered: only ~50 trailing events are lost.
# To make the stalled subscriber really lose events -- more than a 1000-event ring holds -- the flood is
# 100,000 events plus 20,000 more.
FLOOD = 120_000
BASELINE = 40_000
STALLED_RCVHWM = 100
FLOOD_NODES = ["card", "header", "title", "button", "textField", "root"]


def flood_params(session: str):
    def make(i: int) -> dict:
        node = FLOOD_NODES[i % len(FLOOD_NODES)]
        return {"session": session, "ops": [{"op": "update", "id": node, "set": {"alpha": (i % 101) / 100}}]}
    return make


def stalled_flood(e, rate_label: str):
    """Creates a session, joins it with a Follower whose SUB has a small RCVHWM, stops reading, floods FLOOD
    events from a pipelining DEALER, and returns (session, follower, first snapshot item, seconds, last reply)."""
    c = e.client()
    s = new_session(c, "flood")
    follower = Follower(connection(e), session=s, rcvhwm=STALLED_RCVHWM)
    first = follower.next(timeout=PATIENCE)
    assert first is not None and first.kind == "snapshot"
    # The follower is not read from now on: its SUB fills up, then the engine's queue for it.
    seconds, last = pipeline(c.socket, flood_params(s), FLOOD)
    print(f"\n{rate_label}: {FLOOD} tree.apply with a stalled subscriber (RCVHWM {STALLED_RCVHWM}): "
          f"{seconds:.1f} s, {FLOOD / seconds:,.0f} requests/s")
    assert last["result"]["seq"] == first.snapshot["seq"] + FLOOD
    return c, s, follower, first, seconds, last["result"]


def test_a_stale_tick_changes_nothing_and_a_seq_gone_back_resnapshots(engine, client):
    """A $sys/tick published before the follower's snapshot can still wait on the subscription: its seq is below
    the snapshot's and nothing is missing, so nothing is replayed (replaying would hand out again the events
    queued behind it). A tick below because the session started over (deleted and created again) re-snapshots."""
    s = new_session(client, "tick")
    template = view_template(client.call("tree.get", session=s)["tree"])
    for i in range(3):
        client.call("tree.apply", session=s, ops=writer_ops(i, template))
    follower = Follower(connection(engine), session=s)
    try:
        assert follower.next(timeout=PATIENCE).kind == "snapshot"
        at = follower.last_seq
        assert at >= 4
        # An event after the snapshot, published behind the stale tick: it must come live, not be replayed.
        client.call("tree.apply", session=s, ops=writer_ops(3, template))
        injected: list[Event] = [Event("$sys/tick", {"sessions": {s: at - 2}})]
        live = follower.subscriber.next
        follower.subscriber.next = lambda timeout=None: injected.pop(0) if injected else live(timeout)
        item = follower.next(timeout=PATIENCE)
        assert item.kind == "sys" and item.event.topic == "$sys/tick"
        nxt = follower.next(timeout=PATIENCE)
        while nxt.kind == "sys":
            nxt = follower.next(timeout=PATIENCE)
        assert nxt.kind == "event" and nxt.event.seq == at + 1 and not nxt.replayed, "a stale tick replays nothing"
        assert follower.recoveries == []

        client.call("session.delete", session=s)
        client.call("session.create", session=s, tree=demo_tree())
        injected.append(Event("$sys/tick", {"sessions": {s: 1}}))
        assert follower.next(timeout=PATIENCE).kind == "snapshot"
        assert follower.recoveries and follower.recoveries[0].resnapshot
        assert "went back" in follower.recoveries[0].reason, follower.recoveries[0].reason
        assert follower.last_seq < at
    finally:
        follower.close()


def test_flood_stalled_subscriber_does_not_hold_the_engine_back_and_recovers_by_replay(engines):
    e = engines(args=["--replay-buffer", "200000", "--tick-ms", "200"])
    c = e.client()
    # Baseline: the same requests with no subscriber at all.
    base = new_session(c, "base")
    t_base, _ = pipeline(c.socket, flood_params(base), BASELINE)
    rate_base = BASELINE / t_base
    print(f"\nbaseline: {BASELINE} tree.apply, no subscriber: {t_base:.1f} s, {rate_base:,.0f} requests/s")

    c, s, follower, first, seconds, last = stalled_flood(e, "flood")
    rate_stalled = FLOOD / seconds
    ratio = rate_stalled / rate_base
    print(f"throughput: stalled subscriber {rate_stalled:,.0f} req/s vs none {rate_base:,.0f} req/s: "
          f"ratio {ratio:.2f}")
    assert ratio > 0.3, "a stalled subscriber must not hold the engine back"

    # Resume: the follower reads what was queued for it, notices the loss (a gap or a $sys/tick ahead of
    # it) and fetches the rest with trace.replay.
    box = [Mirror(first.snapshot)]
    t0 = time.perf_counter()
    try:
        seqs, live, replayed, snapshots = drain(follower, box, last["seq"], timeout=120, validate_every=1000)
    finally:
        follower.close()
    print(f"resume: {live} events were still queued for the subscriber, {replayed} recovered by trace.replay "
          f"({time.perf_counter() - t0:.1f} s); {[r.describe() for r in follower.recoveries]}")
    assert not snapshots, "the ring holds every event: no re-snapshot"
    assert seqs == list(range(first.snapshot["seq"] + 1, last["seq"] + 1)), "every event, once, in order"
    assert replayed > 0, "the stalled subscriber should have lost events (recovered by trace.replay)"
    assert any(r.kind == "recovered" for r in follower.recoveries)
    box[0].assert_equals_engine(c, s)


def test_flood_small_ring_gives_replay_expired_and_a_new_snapshot(engines):
    e = engines(args=["--replay-buffer", "1000", "--tick-ms", "200"])
    assert e.client().call("engine.info")["limits"]["replayBuffer"] == 1000
    c, s, follower, first, seconds, last = stalled_flood(e, "flood, 1000-event ring")

    box = [Mirror(first.snapshot)]
    try:
        seqs, live, replayed, snapshots = drain(follower, box, last["seq"], timeout=120, validate_every=1000)
    finally:
        follower.close()
    print(f"resume: {live} events queued, {replayed} replayed, then: "
          f"{[r.describe() for r in follower.recoveries]}")
    assert len(snapshots) == 1 and snapshots[0].resnapshot, "REPLAY_EXPIRED leads to exactly one new snapshot"
    resnap = snapshots[0]
    assert resnap.oldest == last["seq"] - 1000 + 1, f"the ring holds the last 1000 events: oldest {resnap.oldest}"
    assert resnap.lost is not None and resnap.lost[1] == resnap.snapshot["seq"]
    # Events until the loss came live, one by one; the rest is folded into the new snapshot.
    assert seqs == list(range(first.snapshot["seq"] + 1, resnap.lost[0])) + list(range(resnap.snapshot["seq"] + 1, last["seq"] + 1))
    box[0].assert_equals_engine(c, s)
    # The engine answers REPLAY_EXPIRED itself, with the documented details.
    err = c.error("trace.replay", session=s, after=first.snapshot["seq"])
    assert err.name == "REPLAY_EXPIRED" and err.data["oldest"] == last["seq"] - 999 and err.data["seq"] == last["seq"]


# ------------------------------------------------------------------------------ 3. ifNodeRevision

ROUNDS = 150


def test_concurrent_edits_of_separate_subtrees_never_conflict(engine, client):
    s = new_session(client, "subtrees")
    tree = client.call("tree.get", session=s)["tree"]
    subtrees = {"A": ["header", "title"], "B": ["card", "button", "textField"]}
    known = {n: find(tree, n)["revision"] for ids in subtrees.values() for n in ids}
    editors = {who: engine.client() for who in subtrees}
    barrier = threading.Barrier(2, timeout=PATIENCE)
    results: dict[str, list] = {"A": [], "B": []}
    failures: list = []

    def edit(who: str):
        c = editors[who]
        mine = dict((n, known[n]) for n in subtrees[who])
        try:
            for k in range(ROUNDS):
                node = subtrees[who][k % len(subtrees[who])]
                barrier.wait()  # both editors send at the same moment, every round
                resp = c.rpc("tree.apply", {"session": s, "ops": [
                    {"op": "update", "id": node, "ifNodeRevision": mine[node], "set": {"alpha": (k % 100) / 100}}]},
                    id=f"{who}-{k}")
                results[who].append((node, mine[node], resp))
                if "result" in resp:
                    mine[node] = resp["result"]["revision"]  # the node's revision is now the batch's
        except BaseException as e:
            failures.append(e)
            barrier.abort()

    threads = [threading.Thread(target=edit, args=(w,)) for w in subtrees]
    for t in threads:
        t.start()
    for t in threads:
        t.join(2 * PATIENCE)
    assert not failures, failures
    conflicts = [(who, r) for who in results for r in results[who] if "error" in r[2]]
    assert not conflicts, f"false conflicts on separate subtrees: {conflicts[:3]}"
    # The two editors really interleaved: their batches alternate in the session's history.
    events = client.call("trace.replay", session=s, after=0)["events"]
    order = [ev["event"]["cause"]["request"][0] for ev in events if ev["event"].get("change") == "apply"]
    switches = sum(1 for a, b in zip(order, order[1:]) if a != b)
    print(f"\nseparate subtrees: {2 * ROUNDS} guarded updates, 0 conflicts, {switches} switches between editors")
    assert len(order) == 2 * ROUNDS and switches >= ROUNDS // 2
    final = client.call("tree.get", session=s)["tree"]
    for who, ids in subtrees.items():
        for node in ids:
            last = [r for r in results[who] if r[0] == node][-1][2]["result"]
            assert find(final, node)["revision"] == last["revision"]


def test_same_node_same_if_node_revision_exactly_one_wins(engine, client):
    s = new_session(client, "samenode")
    editors = [engine.client(), engine.client()]
    wins = [0, 0]
    for k in range(20):
        before = client.call("tree.get", session=s, id="button")
        r = before["tree"]["revision"]
        barrier = threading.Barrier(2, timeout=PATIENCE)
        replies: list = [None, None]

        def edit(i: int):
            barrier.wait()
            replies[i] = editors[i].rpc("tree.apply", {"session": s, "ops": [
                {"op": "update", "id": "button", "ifNodeRevision": r, "set": {"alpha": 0.25 + 0.5 * i}}]})

        threads = [threading.Thread(target=edit, args=(i,)) for i in (0, 1)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(2 * PATIENCE)
        ok = [i for i in (0, 1) if "result" in replies[i]]
        assert len(ok) == 1, f"round {k}: exactly one of two equal ifNodeRevision updates wins: {replies}"
        winner, loser = ok[0], 1 - ok[0]
        wins[winner] += 1
        won = replies[winner]["result"]
        err = replies[loser]["error"]
        assert err["data"]["name"] == "REVISION_CONFLICT"
        assert err["data"]["id"] == "button" and err["data"]["revision"] == won["revision"], \
            f"the conflict names the node and its current revision: {err}"
        assert err["data"]["expected"] == r
        after = client.call("tree.get", session=s, id="button")
        assert after["tree"]["revision"] == won["revision"] and after["tree"]["alpha"] == 0.25 + 0.5 * winner
        assert after["seq"] == before["seq"] + 1, "the losing batch published nothing"
    print(f"\nsame node: 20 rounds, wins per editor {wins}")


# ------------------------------------------------------------------------------------- 4. causality

def test_reply_seq_range_is_exactly_the_events_of_the_request(engine, client):
    s = new_session(client, "cause")
    sub = engine.subscriber(f"{s}/")
    start = client.call("tree.get", session=s)["seq"]
    alpha, beta = engine.client(), engine.client()
    assert alpha.call("client.hello", name="alpha", kind="editor")["name"] == "alpha"
    assert beta.call("client.hello", name="beta", kind="tapper")["name"] == "beta"

    tf = client.call("tree.get", session=s, id="textField")["tree"]
    alpha_script = []
    for k in range(25):
        alpha_script += [
            ("responder.become", {"id": "textField"}),                                   # trace + focus
            ("tree.apply", {"ops": [{"op": "remove", "id": "textField"}]}),               # tree + trace + focus
            ("tree.apply", {"ops": [{"op": "insert", "parent": "card", "node": tf}]}),    # tree
            ("tree.apply", {"ops": [{"op": "remove", "id": "nothing-here"}]}),           # fails: nothing
            ("tree.get", {}),                                                             # reads: nothing
        ]
    beta_script = []
    for k in range(40):
        beta_script += [("event.tap", {"point": [100, 150]}),
                        ("tree.apply", {"ops": [{"op": "update", "id": "title", "set": {"alpha": k / 40}}]}),
                        ("event.motion", {"subtype": "shake", "phase": "began" if k % 2 == 0 else "ended"})]
    done: dict[str, list] = {}
    failures: list = []

    def run(who: str, c, script, make_id):
        out = []
        try:
            for n, (method, params) in enumerate(script):
                rid = make_id(n)
                out.append((rid, method, c.rpc(method, dict(params, session=s), id=rid)))
        except BaseException as e:
            failures.append(e)
        done[who] = out

    threads = [threading.Thread(target=run, args=("alpha", alpha, alpha_script, lambda n: f"a-{n}")),
               threading.Thread(target=run, args=("beta", beta, beta_script, lambda n: 1000 + n))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(2 * PATIENCE)
    assert not failures, failures
    last = client.call("tree.get", session=s)["seq"]

    by_cause: dict[tuple, list] = {}
    clients_in_order = []
    for _ in range(last - start):
        _, ev = sub.next()
        by_cause.setdefault((ev["cause"]["client"], ev["cause"]["request"]), []).append(ev["seq"])
        clients_in_order.append(ev["cause"]["client"])
    sub.nothing(0.3)

    expected = set()
    multi = 0
    for who in ("alpha", "beta"):
        for rid, method, resp in done[who]:
            got = by_cause.get((who, rid), [])
            if "error" in resp or resp["result"].get("seqRange") is None:
                assert got == [], f"{who} {rid} ({method}) published nothing, yet events {got} name it"
                continue
            first, lst = resp["result"]["seqRange"]
            assert got == list(range(first, lst + 1)), \
                f"{who} {rid} ({method}): seqRange {[first, lst]} but its events are {got}"
            assert resp["result"]["seq"] >= lst
            expected.add((who, rid))
            multi += lst > first
    assert set(by_cause) == expected, f"events with unknown causes: {set(by_cause) - expected}"
    switches = sum(1 for a, b in zip(clients_in_order, clients_in_order[1:]) if a != b)
    print(f"\ncausality: {len(done['alpha'])} + {len(done['beta'])} requests, {last - start} events, "
          f"{multi} requests with several events, {switches} switches between clients")
    assert multi > 0 and switches > 10, "the two clients' requests should interleave"


# ----------------------------------------------------------------------------------- 5. touch lease

def test_touch_lease(engine, client):
    s = new_session(client, "lease")
    a, b = engine.client(), engine.client()
    a_id, b_id = a.call("engine.info")["client"], b.call("engine.info")["client"]
    point = [100, 150]  # on the demo world's button
    a.call("event.touch", session=s, touches=[{"touch": 1, "phase": "began", "point": point}])
    before = client.call("session.snapshot", session=s)
    assert [(t["touch"], t["client"]) for t in before["liveTouches"]] == [(1, a_id)]
    sub = engine.subscriber(f"{s}/")

    for touches in ([{"touch": 1, "phase": "began", "point": point}],
                    [{"touch": 1, "phase": "moved", "point": [110, 150]}],
                    [{"touch": 1, "phase": "ended", "point": point}],
                    [{"touch": 2, "phase": "began", "point": point}, {"touch": 1, "phase": "cancelled"}]):
        err = b.error("event.touch", session=s, touches=touches)
        assert err.name == "TOUCH_IN_USE", f"{touches}: {err}"
        assert err.data.get("touch") == 1 and err.data.get("client") == a_id
    sub.nothing(0.3)
    assert client.call("session.snapshot", session=s) == before, "a refused touch changes nothing"

    a.call("event.touch", session=s, touches=[{"touch": 1, "phase": "ended", "point": point}])
    assert client.call("session.snapshot", session=s)["liveTouches"] == []
    b.call("event.touch", session=s, touches=[{"touch": 1, "phase": "began", "point": point}])
    assert [(t["touch"], t["client"]) for t in client.call("session.snapshot", session=s)["liveTouches"]] == [(1, b_id)]
    assert a.error("event.touch", session=s, touches=[{"touch": 1, "phase": "moved", "point": point}]).name == "TOUCH_IN_USE"
    b.call("event.touch", session=s, touches=[{"touch": 1, "phase": "ended", "point": point}])
    assert client.call("session.snapshot", session=s)["liveTouches"] == []


# ------------------------------------------------------------------------- 6. tick, session.clients

def test_tick_shows_last_seq_and_session_clients_lists_named_clients(engine, client):
    s = new_session(client, "tick")
    a, b = engine.client(), engine.client()
    a.call("client.hello", name="alpha-tool", kind="cli")
    b.call("client.hello", name="beta-tool", kind="inspector")
    a_id, b_id = a.call("engine.info")["client"], b.call("engine.info")["client"]
    r = a.call("tree.apply", session=s, ops=[{"op": "update", "id": "title", "set": {"hidden": True}}])
    b.call("tree.get", session=s)

    ticks = engine.subscriber("$sys/tick")
    _, tick = ticks.next("$sys/tick")
    assert tick["sessions"][s] == r["seq"], f"tick {tick} should show {s} at seq {r['seq']}"
    r2 = b.call("event.tap", session=s, point=[100, 150])
    # A tick published after the tap shows it; one already queued may still show the previous seq.
    deadline = time.monotonic() + PATIENCE
    while tick["sessions"][s] != r2["seq"]:
        assert tick["sessions"][s] == r["seq"] and time.monotonic() < deadline, f"unexpected tick {tick}"
        _, tick = ticks.next("$sys/tick")

    listed = client.call("session.clients", session=s)
    assert listed["session"] == s
    named = {c["client"]: (c["name"], c["kind"]) for c in listed["clients"] if c["client"] in (a_id, b_id)}
    assert named == {a_id: ("alpha-tool", "cli"), b_id: ("beta-tool", "inspector")}
    others = [c for c in listed["clients"] if c["client"] not in (a_id, b_id)]
    assert all(c["name"] is None for c in others), f"only the creating client besides: {others}"
