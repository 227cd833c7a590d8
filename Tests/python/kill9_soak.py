"""The kill -9 test: several clients drive acknowledged mutations while the engine is killed with
SIGKILL at random moments and restarted over the same state directory. After every restart:

- every acknowledged change is there (each client's batches, its first responder),
- nothing unacknowledged is half-applied (each batch inserts two nodes and removes the two of an older batch,
  so the world stays small: after a kill the world is exactly the acknowledged one, or that plus the whole
  batch whose reply was lost),
- seq never goes back (the session's seq is at least the last one a reply reported), and it goes on after.

Full size (README "Security and durability"):
    RESPONDERD=.build/debug/responderd python3 Tests/python/kill9_soak.py --mutations 10000 --kills 20
pytest runs a smaller size (test_kill9.py)."""

from __future__ import annotations

import argparse
import json
import random
import shutil
import signal
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import zmq

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import PATIENCE, Engine, unique_name  # noqa: E402


WINDOW = 50  # batch k removes the nodes of batch k - WINDOW


@dataclass
class Model:
    """What one client knows of its session: the batches whose nodes are there, its first responder, the
    request in flight (whose reply a kill may have lost) and the last seq it was told."""
    session: str
    present: set[int] = field(default_factory=set)
    first_responder: str | None = None
    in_flight: tuple[str, int | str] | None = None  # ("apply", k) or ("become", node id)
    last_seq: int = 0
    parked: bool = False

    def applied(self, k: int) -> tuple[set[int], str | None]:
        """The batches present and the first responder once batch k is applied (F6: a removed first responder
        resigns)."""
        old = k - WINDOW
        first = None if self.first_responder == nodes(old)[0] else self.first_responder
        return (self.present | {k}) - {old}, first


@dataclass
class Figures:
    acknowledged: int = 0
    kills: int = 0
    lost_replies_applied: int = 0
    lost_replies_not_applied: int = 0
    checks: int = 0
    seconds: float = 0.0
    seed: int = 0
    slowest_restart: float = 0.0

    def line(self) -> str:
        return (f"kill -9 test: {self.acknowledged} acknowledged mutations, {self.kills} kills, all present after "
                f"every restart; {self.lost_replies_applied + self.lost_replies_not_applied} requests in flight at a "
                f"kill ({self.lost_replies_applied} applied whole, {self.lost_replies_not_applied} not at all, none "
                f"half); seq never went back ({self.checks} session checks); slowest restart {self.slowest_restart:.2f} s; "
                f"{self.seconds:.1f} s in all (seed {self.seed})")


def nodes(k: int) -> tuple[str, str]:
    return f"n{k}a", f"n{k}b"


class Soak:
    def __init__(self, ctx: zmq.Context, runtime: Path, state: Path, clients: int, mutations: int, kills: int, seed: int):
        self.ctx, self.runtime, self.state = ctx, runtime, state
        self.mutations, self.kills = mutations, kills
        self.random = random.Random(seed)
        self.name = unique_name("kill9")
        self.models = [Model(session=f"c{i}") for i in range(clients)]
        self.figures = Figures(seed=seed)
        self.generation = 0
        self.lock = threading.Lock()
        self.paused = threading.Event()   # set: clients must let go of their sockets
        self.resumed = threading.Event()  # set: the engine is up and checked
        self.errors: list[str] = []
        self.engine: Engine | None = None

    # ---------------------------------------------------------------------------------------------- engine

    def start(self) -> None:
        self.engine = Engine(self.ctx, self.runtime, self.name, ["--state-dir", str(self.state)]).start()

    def rpc(self, method: str, **params):
        s = self.ctx.socket(zmq.DEALER)
        s.setsockopt(zmq.LINGER, 0)
        s.connect(self.engine.rpc_endpoint)
        try:
            s.send(json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).encode())
            if not s.poll(int(PATIENCE * 1000)):
                raise AssertionError(f"{method}: no reply within {PATIENCE} s")
            reply = json.loads(s.recv())
        finally:
            s.close(0)
        if "error" in reply:
            raise AssertionError(f"{method}: {reply['error']}")
        return reply["result"]

    # ---------------------------------------------------------------------------------------------- clients

    def client(self, model: Model) -> None:
        k = 0
        sock = None
        generation = -1
        while True:
            with self.lock:
                if self.figures.acknowledged >= self.mutations:
                    break
            if self.paused.is_set():
                if sock is not None:
                    sock.close(0)
                    sock = None
                model.parked = True
                self.resumed.wait()
                model.parked = False
                continue
            if sock is None or generation != self.generation:
                sock = self.ctx.socket(zmq.DEALER)
                sock.setsockopt(zmq.LINGER, 0)
                sock.connect(self.engine.rpc_endpoint)
                generation = self.generation
            k += 1
            if k % 5 == 0 and model.present:
                target = nodes(max(model.present))[0]
                request = {"method": "responder.become", "params": {"session": model.session, "id": target}}
                model.in_flight = ("become", target)
            else:
                a, b = nodes(k)
                old_a, old_b = nodes(k - WINDOW)
                ops = [{"op": "insert", "parent": "w", "node": {"id": a, "kind": "textField", "frame": [0, 0, 10, 10]}},
                       {"op": "insert", "parent": "w", "node": {"id": b, "kind": "view", "frame": [0, 10, 10, 10]}}]
                if k - WINDOW in model.present:
                    ops += [{"op": "remove", "id": old_a}, {"op": "remove", "id": old_b}]
                request = {"method": "tree.apply", "params": {"session": model.session, "ops": ops}}
                model.in_flight = ("apply", k)
            sock.send(json.dumps({"jsonrpc": "2.0", "id": k, **request}).encode())
            reply = None
            while reply is None and not self.paused.is_set():
                if sock.poll(50):
                    reply = json.loads(sock.recv())
            if reply is None:
                continue  # the engine was killed: the restart check decides what became of the request
            if "error" in reply:
                self.errors.append(f"{model.session} #{k}: {reply['error']}")
                return
            result = reply["result"]
            if result["seq"] < model.last_seq:
                self.errors.append(f"{model.session}: seq went back from {model.last_seq} to {result['seq']}")
            model.last_seq = max(model.last_seq, result["seq"])
            kind, what = model.in_flight
            if kind == "become":
                model.first_responder = what
            else:
                model.present, model.first_responder = model.applied(what)
            model.in_flight = None
            with self.lock:
                self.figures.acknowledged += 1
        if sock is not None:
            sock.close(0)

    # ---------------------------------------------------------------------------------------------- checks

    def check(self) -> None:
        """Every session against its client's model, right after a restart: exactly the acknowledged state, or
        that with the whole request whose reply the kill lost."""
        for m in self.models:
            snap = self.rpc("session.snapshot", session=m.session)
            self.figures.checks += 1
            if snap["seq"] < m.last_seq:
                self.errors.append(f"{m.session}: seq went back from {m.last_seq} to {snap['seq']} after a restart")
            m.last_seq = snap["seq"]
            have = {c["id"] for c in snap["tree"]["children"][0]["children"]}
            found = {int(i[1:-1]) for i in have}
            half = [k for k in found if (nodes(k)[0] in have) != (nodes(k)[1] in have)]
            if half:
                self.errors.append(f"{m.session}: batches half-applied: {half[:10]}")
            state = (found, snap["firstResponders"].get("w"))
            acknowledged = (m.present, m.first_responder)
            options = [acknowledged]
            if m.in_flight and m.in_flight[0] == "apply":
                options.append(m.applied(m.in_flight[1]))
            elif m.in_flight:
                options.append((m.present, m.in_flight[1]))
            if state not in options:
                lost = sorted(m.present - found)[:10]
                self.errors.append(f"{m.session}: after a restart {len(found)} batches (acknowledged but missing: {lost}; "
                                   f"never acknowledged: {sorted(found - m.present)[:10]}), first responder {state[1]} "
                                   f"(acknowledged: {m.first_responder}, in flight: {m.in_flight})")
            elif m.in_flight:
                if state != acknowledged:
                    self.figures.lost_replies_applied += 1
                else:
                    self.figures.lost_replies_not_applied += 1
            m.present, m.first_responder = state
            m.in_flight = None
            if snap["liveTouches"]:
                self.errors.append(f"{m.session}: live touches after a restart")

    def kill_and_restart(self) -> None:
        self.paused.set()
        self.resumed.clear()
        self.engine.proc.send_signal(signal.SIGKILL)
        self.engine.proc.wait(PATIENCE)
        self.figures.kills += 1
        deadline = time.monotonic() + PATIENCE
        while not all(m.parked or not t.is_alive() for m, t in zip(self.models, self.threads)):
            assert time.monotonic() < deadline, "a client did not let go of its socket"
            time.sleep(0.005)
        self.generation += 1
        started = time.monotonic()
        self.start()
        self.figures.slowest_restart = max(self.figures.slowest_restart, time.monotonic() - started)
        self.check()
        self.paused.clear()
        self.resumed.set()

    # ---------------------------------------------------------------------------------------------- run

    def run(self) -> Figures:
        started = time.monotonic()
        self.start()
        for m in self.models:
            self.rpc("session.create", session=m.session, tree={"id": "app", "kind": "application", "children": [
                {"id": "w", "kind": "window", "frame": [0, 0, 390, 844], "key": True}]})
        self.threads = [threading.Thread(target=self.client, args=(m,), daemon=True) for m in self.models]
        for t in self.threads:
            t.start()
        # Kills spread over the run: each after a random share of the mutations still to come.
        for i in range(self.kills):
            goal = self.mutations * (i + self.random.uniform(0.3, 1.0)) / (self.kills + 1)
            while self.figures.acknowledged < goal and any(t.is_alive() for t in self.threads) and not self.errors:
                time.sleep(0.005)
            if self.errors or not any(t.is_alive() for t in self.threads):
                break
            self.kill_and_restart()
        for t in self.threads:
            t.join(PATIENCE * 10)
        # One last kill with everything acknowledged: the whole run is there.
        self.kill_and_restart()
        self.engine.stop()
        self.figures.seconds = time.monotonic() - started
        return self.figures


def soak(clients: int, mutations: int, kills: int, seed: int) -> tuple[Figures, list[str]]:
    ctx = zmq.Context()
    runtime = Path(tempfile.mkdtemp(prefix="k9-", dir="/tmp"))
    try:
        s = Soak(ctx, runtime, runtime / "state", clients, mutations, kills, seed)
        try:
            figures = s.run()
        finally:
            if s.engine and s.engine.proc and s.engine.proc.poll() is None:
                s.engine.stop(signal.SIGKILL)
        return figures, s.errors
    finally:
        ctx.destroy(linger=0)
        shutil.rmtree(runtime, ignore_errors=True)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--clients", type=int, default=4)
    p.add_argument("--mutations", type=int, default=10_000, help="acknowledged mutations in all")
    p.add_argument("--kills", type=int, default=20)
    p.add_argument("--seed", type=int, default=int(time.time()))
    args = p.parse_args()
    figures, errors = soak(args.clients, args.mutations, args.kills, args.seed)
    print(figures.line())
    for e in errors:
        print("FAILED:", e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
