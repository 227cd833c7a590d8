"""Memory a peer can make the engine hold (docs/limits.md): each attack of memory_attacks.py, scaled down, against
the real engine. The peer is cut or refused with its reason logged, another peer is served as before, and the
engine's resident memory (/proc VmRSS) stays under the bound plus a margin and comes back near its start once the
peer is gone. bench/memory_soak.py runs the same attacks at full size."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import zmq

from harness import PATIENCE, new_session
from memory_attacks import slow_load
from procstat import peak_rss_mb, rss_mb

ATTACKS = Path(__file__).with_name("memory_attacks.py")
# Allocator slack, libzmq's buffers and what the engine reads while it reacts.
MARGIN_MB = 48


def eventually(what: str, condition) -> None:
    deadline = time.monotonic() + PATIENCE
    while not condition():
        assert time.monotonic() < deadline, f"not within {PATIENCE} s: {what}"
        time.sleep(0.05)


def reset_peak(pid: int) -> None:
    """Starts VmHWM again from the current resident size."""
    Path(f"/proc/{pid}/clear_refs").write_text("5")


def attacker(*args: str) -> subprocess.Popen:
    p = subprocess.Popen([sys.executable, str(ATTACKS), *args], stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "sent", "the attacker did not send"
    return p


def stop(p: subprocess.Popen) -> None:
    p.kill()
    p.wait()


def served(e, sub, client) -> None:
    """The other peer still gets the events of a new session."""
    s = new_session(client, "after")
    topic, body = sub.next(f"{s}/tree", timeout=PATIENCE)
    assert body["change"] == "load"


def test_subscriptions_past_the_bounds_cut_the_subscriber_and_their_memory_comes_back(engines):
    e = engines(args=["--ephemeral", "--max-subscription-bytes", "4000", "--subscription-bytes", "200000"])
    pid = e.proc.pid
    sub = e.subscriber("after")
    client = e.client()
    start = rss_mb(pid)
    reset_peak(pid)
    # Unbounded, 5,000 distinct 4,000-byte topics hold about 640 MB of libzmq's trie.
    p = attacker("subscribe", e.events_endpoint, "5000", "4000")
    try:
        eventually("the subscriber is cut", lambda: "bytes of subscriptions (--subscription-bytes 200000)"
                   in e.stderr_text())
        served(e, sub, client)
        peak = peak_rss_mb(pid)
        # 200,000 bytes of topics in the trie, and what libzmq filed before the engine read and cut: a 640 MB
        # attack held to a tenth.
        assert peak < start + 200000 * 32 / 2**20 + 2 * MARGIN_MB, f"{start:.0f} MB → peak {peak:.0f} MB"
        print(f"subscriptions: {start:.0f} MB → peak {peak:.0f} MB")
    finally:
        stop(p)
    eventually(f"RSS back near {start:.0f} MB (now {rss_mb(pid):.0f})", lambda: rss_mb(pid) < start + 16)
    served(e, sub, client)


def test_too_many_subscriptions_on_one_connection_or_in_all_cut_the_subscriber(engines):
    e = engines(args=["--ephemeral", "--max-subscriptions", "300", "--max-subscriptions-total", "400"])
    sub = e.subscriber("after")
    client = e.client()
    p = attacker("subscribe", e.events_endpoint, "2000", "40")
    try:
        eventually("the subscriber is cut", lambda: "subscriptions (--max-subscriptions 300)" in e.stderr_text())
        served(e, sub, client)
    finally:
        stop(p)
    # Two connections of 250 each: neither is over its own bound, together they are over the total.
    first = attacker("subscribe", e.events_endpoint, "250", "40")
    second = attacker("subscribe", e.events_endpoint, "250", "40")
    try:
        eventually("a subscriber is cut", lambda: "(--max-subscriptions-total 400)" in e.stderr_text())
        served(e, sub, client)
    finally:
        stop(first)
        stop(second)


def test_requests_queued_behind_a_slow_one_are_refused_past_the_bound(engines):
    e = engines(args=["--ephemeral", "--max-queued-bytes", str(32 << 20)])
    pid = e.proc.pid
    other = e.client()
    start = rss_mb(pid)
    reset_peak(pid)
    s = e.ctx.socket(zmq.DEALER)
    s.setsockopt(zmq.LINGER, 0)
    s.setsockopt(zmq.SNDHWM, 0)
    s.connect(e.rpc_endpoint)
    try:
        # A large load that fails only once read: slow, and it leaves nothing behind. What reading it costs alone
        # is measured first.
        slow = json.loads(slow_load(200_000))
        slow["params"]["tree"]["children"][0]["children"][-1]["kind"] = "no-such-kind"
        slow = json.dumps(slow).encode()
        s.send(slow)
        assert s.poll(int(PATIENCE * 1000)) and json.loads(s.recv())["id"] == "slow"
        alone = peak_rss_mb(pid) - start
        # Reading a large request leaves some of the heap in use (arenas, capacities kept): the attack is measured
        # from there.
        start = rss_mb(pid)
        print(f"queue: after the slow request alone {start:.0f} MB")
        reset_peak(pid)
        s.send(slow)
        # Unbounded, 24 requests of 8 MiB behind it are held whole: 192 MiB.
        for i in range(24):
            s.send(b'{"jsonrpc":"2.0","id":%d,"method":"engine.info","pad":"' % i + b"x" * (8 << 20) + b'"}')
        replies = []
        while len(replies) < 25:
            assert s.poll(int(PATIENCE * 1000)), f"only {len(replies)} of 25 replies"
            replies.append(json.loads(s.recv()))
        refused = [r for r in replies if r.get("error", {}).get("data", {}).get("limit") == "queuedBytes"]
        assert len(refused) >= 20, replies[:3]
        assert all(r["id"] is None and r["error"]["data"]["max"] == 32 << 20 for r in refused)
        # The slow request is answered first: each client's replies keep their order.
        assert replies[0]["id"] == "slow"
        assert other.call("engine.info")["name"] == e.name
        eventually("the refusal is logged", lambda: "refused" in e.stderr_text()
                   and "--max-queued-bytes 33554432" in e.stderr_text())
        peak = peak_rss_mb(pid)
        # What reading the slow request costs, and at most 32 MiB queued behind it.
        assert peak < start + alone + 32 + MARGIN_MB, f"{start:.0f} MB → peak {peak:.0f} MB ({alone:.0f} alone)"
        print(f"queue: {start:.0f} MB → peak {peak:.0f} MB ({alone:.0f} MB reading the slow request alone)")
    finally:
        s.close(0)
    eventually(f"RSS back near {start:.0f} MB (now {rss_mb(pid):.0f})", lambda: rss_mb(pid) < start + 16)


def test_replay_rings_are_bounded_in_bytes_together(engines):
    e = engines(args=["--ephemeral", "--replay-bytes", str(1 << 20), "--replay-bytes-total", str(2 << 20)])
    c = e.client()
    names = [new_session(c, "ring", tree={"id": "app", "kind": "application"}) for _ in range(6)]
    note = "n" * 50_000
    for s in names:
        for i in range(15):
            c.call("tree.apply", session=s, ops=[{"op": "insert", "parent": None, "node": {
                "id": f"d{i}", "kind": "view", "annotations": {"note": note}}}])
    held = 0
    for s in names:
        last = c.call("session.snapshot", session=s)["seq"]
        err = c.rpc("trace.replay", dict(session=s, after=0))
        oldest = err["error"]["data"]["oldest"] if "error" in err else 1
        events = c.call("trace.replay", session=s, after=oldest - 1)["events"]
        assert events[-1]["event"]["seq"] == last, "the newest event is always kept"
        held += sum(len(x["topic"]) + len(json.dumps(x["event"], separators=(",", ":"))) for x in events)
    # Each session alone may hold 1 MiB (6 MiB in all); together they hold at most 2 MiB, plus what each keeps
    # of its newest event.
    assert held <= (2 << 20) + 6 * 60_000, f"{held} bytes held"
    assert held > (1 << 20), f"{held} bytes held: the rings keep what fits"
