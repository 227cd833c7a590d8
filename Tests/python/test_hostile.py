"""A careless operator and a hostile peer: signals, pipes, endpoints taken or named loosely, a held client id."""

import os
import signal
import subprocess
import time

import pytest

from harness import DEMO_WORLD, PATIENCE, Engine


def wait_for(condition, what: str, timeout: float = PATIENCE):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def test_sighup_is_logged_and_ignored(engines):
    e = engines()
    e.send_signal(signal.SIGHUP)
    wait_for(lambda: "ignored: the engine keeps running" in e.stderr_text(), "the SIGHUP note in the log")
    assert e.proc.poll() is None
    assert e.client().call("engine.info")["name"] == e.name


def test_sigalrm_stops_cleanly(engines):
    e = engines()
    e.send_signal(signal.SIGALRM)
    assert e.wait() == 0, e.stderr_text()[-2000:]
    assert not e.discovery_path.exists(), "a stopped engine left its discovery file"
    assert "stopping" in e.stderr_text()


@pytest.mark.parametrize("sig", [signal.SIGUSR1, signal.SIGUSR2])
def test_a_deadly_signal_removes_the_discovery_file(engines, sig):
    e = engines()
    e.send_signal(sig)
    assert e.wait() == -sig
    assert not e.discovery_path.exists(), "a crashed engine left its discovery file: clients would be sent to it"
    # The next start under the name takes over what is left (lock, socket files) and is found.
    again = Engine(e.ctx, e.runtime_dir, e.name).start()
    try:
        assert again.client().call("engine.info")["pid"] == again.proc.pid
    finally:
        again.stop()


def test_a_gone_log_reader_does_not_kill_the_engine(engines, tmp_path):
    """`responderd … | tee log` where tee ends: every later log line is written to a closed pipe."""
    e = engines(start=False)
    e.runtime_dir.mkdir(parents=True, exist_ok=True)
    from harness import responderd_path
    e.proc = subprocess.Popen([str(responderd_path()), "--name", e.name, "--ephemeral"], env=e.env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    wait_for(lambda: e.discovery_path.exists(), "the discovery file")
    e.wait_ready()
    e.proc.stdout.close()
    e.proc.stderr.close()
    # Each of these writes a log line to the closed pipe.
    for _ in range(3):
        e.send_signal(signal.SIGHUP)
    c = e.client()
    c.call("client.hello", name="after the reader left")
    assert c.call("engine.info")["pid"] == e.proc.pid
    assert e.proc.poll() is None


def test_tcp_localhost_is_accepted_with_insecure_tcp(engines):
    e = engines(args=["--rpc", "tcp://localhost:*", "--events", "tcp://localhost:*", "--insecure-tcp"])
    assert e.rpc_endpoint.startswith("tcp://127.0.0.1:")
    assert e.client().call("engine.info")["name"] == e.name


def test_an_ipc_path_a_live_engine_listens_on_is_refused(engines, tmp_path):
    path = f"/tmp/rsp-shared-{os.getpid()}-{time.monotonic_ns() % 100000}.rpc"
    first = engines(args=["--rpc", f"ipc://{path}"])
    try:
        second = engines(args=["--rpc", f"ipc://{path}"], start=False)
        second.start(wait=False)
        assert second.wait() == 1
        assert "another process" in second.stderr_text() and path in second.stderr_text()
        # The first keeps its socket and its clients.
        assert first.client().call("engine.info")["pid"] == first.proc.pid
    finally:
        first.stop()
        if os.path.exists(path):
            os.unlink(path)


def test_an_ipc_path_left_by_a_dead_engine_is_taken_over(engines):
    path = f"/tmp/rsp-left-{os.getpid()}-{time.monotonic_ns() % 100000}.rpc"
    first = engines(args=["--rpc", f"ipc://{path}"])
    first.stop(signal.SIGKILL)
    assert os.path.exists(path)
    try:
        second = engines(args=["--rpc", f"ipc://{path}"])
        assert second.client().call("engine.info")["pid"] == second.proc.pid
    finally:
        if os.path.exists(path):
            os.unlink(path)


def test_a_held_client_id_is_named_when_touch_gets_no_reply(engines):
    """`responder touch` uses a fixed client id; another connection holding it makes the engine ignore the CLI's."""
    from stdio_harness import responder_path
    e = engines(args=["--world", str(DEMO_WORLD)])
    holder = e.client(routing_id=b"held-by-a-test")
    holder.call("engine.info")
    out = subprocess.run([str(responder_path()), "--dir", str(e.dir), "--name", e.name, "--timeout", "2",
                          "--client-id", "held-by-a-test", "touch", "1:began:60,150"],
                         capture_output=True, text=True, timeout=PATIENCE)
    assert out.returncode == 1
    assert 'another connection may hold client id "held-by-a-test"' in out.stderr, out.stderr
    assert "--client-id" in out.stderr


def test_a_peer_choosing_the_next_generated_routing_id_cannot_abort_the_engine(engines):
    """libzmq 4.3.4's ROUTER asserts (socket_base.cpp, add_out_pipe) when the routing id it generates for a new
    anonymous peer is already held by a peer that chose it. The attack: take one's own client id plus one. The
    engine shows generated ids through a keyed permutation, so that value is not the next one."""
    e = engines()
    mine = int(e.client().call("engine.info")["client"], 16)
    squatter = e.client(routing_id=(mine + 1).to_bytes(5, "big"))
    squatter.call("engine.info")
    for _ in range(3):
        newcomer = e.client(timeout=5)
        try:
            answered = newcomer.call("engine.info")["pid"] == e.proc.pid
        except Exception:
            answered = False
        if not answered:
            wait_for(lambda: e.proc.poll() is not None, "the engine to die after not answering")
    assert answered and e.proc.poll() is None, "the engine aborted"


def test_generated_client_ids_tell_nothing_about_the_next_one(engines):
    """Consecutive anonymous connections get consecutive routing ids from libzmq; their client ids keep libzmq's
    form (a zero byte and four more) and stay distinct, but are not consecutive, nor close."""
    e = engines()
    ids = [e.client().call("engine.info")["client"] for _ in range(20)]
    assert len(set(ids)) == len(ids)
    assert all(len(i) == 10 and i.startswith("00") for i in ids), ids
    values = [int(i, 16) for i in ids]
    steps = [abs(b - a) for a, b in zip(values, values[1:])]
    assert sum(step < 1000 for step in steps) <= 1, f"client ids follow each other: {ids}"
    # A chosen routing id is shown as it is.
    assert e.client(routing_id=b"chosen").call("engine.info")["client"] == b"chosen".hex()
