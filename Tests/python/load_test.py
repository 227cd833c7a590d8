#!/usr/bin/env python3
"""Load test: many clients pipelining mixed requests at one real engine. Every request must be answered exactly
once, with a result. Prints the rate, the latency percentiles and the engine's peak memory.

Full size, with a release build for real figures:
    swift build -c release --product responderd
    RESPONDERD=.build/release/responderd python3 Tests/python/load_test.py --clients 64 --requests 5000
Tests/python/test_load.py runs a smaller size in CI.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

import zmq

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import PATIENCE, Engine, demo_tree, unique_name  # noqa: E402
from procstat import peak_rss_mb  # noqa: E402


def mixed_request(rng: random.Random, session: str, n: int) -> tuple[str, dict]:
    """One request of the mix: reads, dispatch and tree changes, all valid for the demo world."""
    kinds = [
        ("tree.get", {"id": "card"}),
        ("hitTest", {"point": [rng.uniform(0, 390), rng.uniform(0, 844)]}),
        ("responderChain", {"id": "textField"}),
        ("tree.apply", {"ops": [{"op": "update", "id": "button", "set": {"alpha": round(rng.random(), 3)}}]}),
        ("event.tap", {"point": [60, 150]}),
        ("responder.become", {"id": "textField"}),
        ("responder.first", {}),
        ("session.snapshot", {}),
        ("engine.info", None),
    ]
    method, params = kinds[n % len(kinds)] if n < len(kinds) else rng.choice(kinds)
    if params is None:
        return method, {}
    return method, {"session": session, **params}


def run(endpoint: str, clients: int, requests: int, window: int = 16, seed: int = 14,
        progress: bool = False) -> dict:
    """Drives `clients` DEALERs, each with up to `window` requests in flight, until each has had `requests`
    answered. Returns the figures; raises AssertionError on a lost, duplicate or failed reply."""
    ctx = zmq.Context()
    rng = random.Random(seed)
    socks = []
    try:
        for c in range(clients):
            s = ctx.socket(zmq.DEALER)
            s.setsockopt(zmq.LINGER, 0)
            s.connect(endpoint)
            socks.append(s)
        # One session per client, so the mix never conflicts; created before the clock starts.
        sessions = []
        for c, s in enumerate(socks):
            name = f"load-{c}-{rng.randrange(1 << 30):x}"
            s.send_multipart([b"", json.dumps({"jsonrpc": "2.0", "id": "setup", "method": "session.create",
                                               "params": {"session": name, "tree": demo_tree()}}).encode()])
            assert s.poll(int(PATIENCE * 1000)), f"client {c}: no reply to session.create"
            reply = json.loads(s.recv_multipart()[-1])
            assert "result" in reply, reply
            sessions.append(name)
        poller = zmq.Poller()
        for s in socks:
            poller.register(s, zmq.POLLIN)
        index = {s: c for c, s in enumerate(socks)}
        sent = [0] * clients
        pending: dict[str, float] = {}
        latencies: list[float] = []
        answered: set[str] = set()

        def send(c: int) -> None:
            method, params = mixed_request(rng, sessions[c], sent[c])
            rid = f"{c}-{sent[c]}"
            sent[c] += 1
            pending[rid] = time.perf_counter()
            socks[c].send_multipart([b"", json.dumps({"jsonrpc": "2.0", "id": rid, "method": method,
                                                      "params": params}).encode()])

        start = time.perf_counter()
        for c in range(clients):
            for _ in range(min(window, requests)):
                send(c)
        total = clients * requests
        last_progress = start
        while len(answered) < total:
            ready = dict(poller.poll(int(PATIENCE * 1000)))
            assert ready, f"no reply within {PATIENCE} s; {total - len(answered)} requests unanswered"
            for s in ready:
                c = index[s]
                while s.get(zmq.EVENTS) & zmq.POLLIN:
                    reply = json.loads(s.recv_multipart()[-1])
                    rid = reply.get("id")
                    assert rid not in answered, f"request {rid} answered twice"
                    assert rid in pending, f"a reply to a request never sent: {str(reply)[:300]}"
                    assert "result" in reply, f"request {rid} failed: {str(reply)[:300]}"
                    latencies.append(time.perf_counter() - pending.pop(rid))
                    answered.add(rid)
                    if sent[c] < requests:
                        send(c)
            if progress and time.perf_counter() - last_progress > 5:
                last_progress = time.perf_counter()
                print(f"  {len(answered)}/{total} answered", file=sys.stderr)
        elapsed = time.perf_counter() - start
        # Nothing more may come: every request was answered exactly once.
        extra = poller.poll(300)
        assert not extra, "a reply arrived after every request had been answered"
        latencies.sort()
        pick = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000
        return {"requests": total, "clients": clients, "seconds": elapsed, "rate": total / elapsed,
                "p50_ms": pick(0.50), "p99_ms": pick(0.99), "max_ms": latencies[-1] * 1000}
    finally:
        for s in socks:
            s.close(0)
        ctx.term()


def report(figures: dict, peak_mb: float) -> str:
    return (f"{figures['requests']} requests from {figures['clients']} clients in {figures['seconds']:.1f} s: "
            f"{figures['rate']:.0f} requests/s; latency p50 {figures['p50_ms']:.1f} ms, p99 {figures['p99_ms']:.1f} ms, "
            f"max {figures['max_ms']:.1f} ms; engine peak RSS {peak_mb:.0f} MiB")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=64)
    parser.add_argument("--requests", type=int, default=5000, help="requests per client")
    parser.add_argument("--window", type=int, default=16, help="requests in flight per client")
    args = parser.parse_args()
    runtime = Path(tempfile.mkdtemp(prefix="rsp-", dir="/tmp"))
    ctx = zmq.Context()
    engine = Engine(ctx, runtime, unique_name("load"))
    try:
        engine.start()
        figures = run(engine.rpc_endpoint, args.clients, args.requests, args.window, progress=True)
        print(report(figures, peak_rss_mb(engine.proc.pid)))
    finally:
        engine.stop()
        ctx.term()
        shutil.rmtree(runtime, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
