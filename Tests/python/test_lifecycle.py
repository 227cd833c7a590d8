"""Discovery file, runtime directory, one engine per name, crash takeover and clean shutdown."""

import json
import os
import re
import signal
import stat
import time
from pathlib import Path

import pytest

from harness import SCHEMAS, unique_name


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def socket_path(endpoint: str) -> Path:
    assert endpoint.startswith("ipc://")
    return Path(endpoint[len("ipc://"):])


def test_discovery_file(engine):
    path = engine.discovery_path
    assert mode(engine.dir) == 0o700, f"{engine.dir} must be mode 0700, is {oct(mode(engine.dir))}"
    assert mode(path) == 0o600, f"{path} must be mode 0600, is {oct(mode(path))}"
    d = json.loads(path.read_text())
    SCHEMAS.validate("discovery.json", d, "discovery file")
    assert d["name"] == engine.name and d["pid"] == engine.proc.pid and d["protocol"] == 1
    assert d["rpc"] == f"ipc://{engine.dir}/{engine.name}.rpc"
    assert d["events"] == f"ipc://{engine.dir}/{engine.name}.events"
    leftovers = {p.name for p in engine.dir.iterdir()} - {f"{engine.name}.{x}" for x in ["json", "lock", "rpc", "events"]}
    assert not leftovers, f"unexpected files in the runtime directory (temporary discovery file?): {leftovers}"


def test_directory_mode_is_tightened(engines, tmp_path):
    runtime = Path(f"/tmp/rsp-mode-{os.getpid()}")
    (runtime / "responder").mkdir(parents=True, exist_ok=True)
    os.chmod(runtime / "responder", 0o755)
    try:
        e = engines(runtime_dir=runtime)
        assert mode(e.dir) == 0o700
    finally:
        import shutil
        shutil.rmtree(runtime, ignore_errors=True)


@pytest.fixture
def real_runtime_dir():
    """The real default directory /tmp/responder-<uid> (other engines may live there), for a test that must use
    it: every file a test engine leaves there (its name holds this run's pid, harness.unique_name) is removed
    afterwards, and the directory too if it did not exist before."""
    shared = Path(f"/tmp/responder-{os.getuid()}")
    existed = shared.exists()
    yield shared
    for leftover in shared.glob(f"*-{os.getpid()}-*"):
        leftover.unlink(missing_ok=True)
    if not existed:
        try:
            shared.rmdir()
        except OSError:
            pass


def test_fallback_directory_without_xdg(engines, real_runtime_dir):
    e = engines(unique_name("noxdg"), xdg=False)
    try:
        assert e.dir == real_runtime_dir
        assert e.discovery_path.exists() and mode(e.dir) == 0o700
        assert e.discovery["rpc"] == f"ipc://{e.dir}/{e.name}.rpc"
        assert e.client().call("engine.info")["name"] == e.name
        assert e.stop() == 0
        assert not e.discovery_path.exists()
        # What a clean shutdown leaves: the lock file at most (Protocol/README.md, "The lock"), which the
        # fixture removes.
        assert [p.name for p in real_runtime_dir.glob(f"{e.name}.*")] in ([], [f"{e.name}.lock"])
    finally:
        e.stop(signal.SIGKILL)


@pytest.mark.parametrize("secure", [True, False], ids=["curve", "insecure-tcp"])
def test_tcp_wildcard_endpoints_are_resolved(engines, secure):
    # tcp uses CURVE unless --insecure-tcp (Protocol/README.md 2.1); either way the ports are resolved.
    e = engines(args=["--rpc", "tcp://127.0.0.1:*", "--events", "tcp://127.0.0.1:*"] + ([] if secure else ["--insecure-tcp"]))
    for key in ["rpc", "events"]:
        assert re.fullmatch(r"tcp://127\.0\.0\.1:\d+", e.discovery[key]), e.discovery[key]
    assert ("curveServerKey" in e.discovery) == secure
    curve = e.authorize_client() if secure else None
    c = e.client(curve=curve)
    info = c.call("engine.info")
    assert info["rpc"] == e.discovery["rpc"] and info["events"] == e.discovery["events"]
    e.subscriber("$sys/", curve=curve)


def test_second_engine_with_same_name_is_refused(engines):
    first = engines()
    before = first.discovery_path.read_text()
    second = engines(first.name, runtime_dir=first.runtime_dir, wait=False)
    try:
        rc = second.wait()
    except Exception:
        pytest.fail("a second engine with the same name must exit")
    assert rc != 0, "the second engine must exit with a non-zero status"
    assert first.name in second.stderr_text() or "already" in second.stderr_text().lower(), \
        f"the second engine should say why: {second.stderr_text()!r}"
    assert first.discovery_path.read_text() == before, "the running engine's discovery file must be untouched"
    assert first.proc.poll() is None
    fresh = first.client()  # a new connection: the socket files must still be the first engine's
    assert fresh.call("engine.info")["pid"] == first.proc.pid
    first.subscriber("$sys/")


def test_same_name_in_another_directory_is_fine(engines):
    a = engines()
    b = engines(a.name)
    assert a.client().call("engine.info")["pid"] == a.proc.pid
    assert b.client().call("engine.info")["pid"] == b.proc.pid


def test_crashed_engine_is_taken_over(engines):
    first = engines()
    first.client().call("session.create", session="leftover")
    first.stop(signal.SIGKILL)
    assert first.discovery_path.exists(), "precondition: SIGKILL leaves the discovery file"
    assert first.lock_path.exists()
    stale = json.loads(first.discovery_path.read_text())
    second = engines(first.name, runtime_dir=first.runtime_dir)
    d = second.discovery
    assert d["pid"] == second.proc.pid != stale["pid"]
    assert mode(second.discovery_path) == 0o600
    c = second.client()
    info = c.call("engine.info")
    assert info["pid"] == second.proc.pid and info["rpc"] == stale["rpc"]
    assert [s["session"] for s in c.call("session.list")["sessions"]] == ["default"], "a new engine starts empty"
    second.subscriber("$sys/")


def test_sigterm_removes_discovery_file(engines):
    e = engines()
    rpc, events = socket_path(e.discovery["rpc"]), socket_path(e.discovery["events"])
    e.client().call("engine.info")
    assert e.stop(signal.SIGTERM) == 0, f"clean shutdown exits 0; stderr: {e.stderr_text()[-500:]}"
    assert not e.discovery_path.exists()
    assert not rpc.exists() and not events.exists(), "ipc socket files are removed on clean shutdown"


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_signal_as_soon_as_ready_is_a_clean_shutdown(engines, sig):
    """Once the discovery file exists, a signal must already be handled (no window after start-up in which
    it kills the engine and leaves its files behind)."""
    e = engines()
    assert e.stop(sig) == 0, f"exit status after {sig.name} right after start-up"
    assert not e.discovery_path.exists()


def test_discovery_appears_only_when_ready(engines):
    """Whenever the discovery file exists, the engine answers at once."""
    e = engines(wait=False)
    deadline = time.monotonic() + 30
    while not e.discovery_path.exists():
        assert time.monotonic() < deadline and e.proc.poll() is None
        time.sleep(0.005)
    e.wait_ready()
    c = e.client(timeout=2)
    assert c.call("engine.info")["pid"] == e.proc.pid
