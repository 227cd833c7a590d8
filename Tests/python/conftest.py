"""pytest fixtures: one engine per test module (own XDG_RUNTIME_DIR, unique --name), clients, subscribers,
and a factory for extra engines. The machinery lives in harness.py."""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
from pathlib import Path

import pytest
import zmq

from harness import SCHEMAS, Client, Engine, Schemas, unique_name


@pytest.fixture(scope="session", autouse=True)
def no_leftovers_in_the_real_runtime_dir():
    """Tests own their directories: at the end of the run, nothing named by this run (harness.unique_name puts
    the pid in every engine name) may remain in the real default directory /tmp/responder-<uid>. What does is
    removed and reported as an error."""
    shared = Path(f"/tmp/responder-{os.getuid()}")
    yield
    left = sorted(shared.glob(f"*-{os.getpid()}-*")) if shared.exists() else []
    for path in left:
        path.unlink(missing_ok=True)
    assert not left, f"tests left files in {shared}: {[p.name for p in left]}"


@pytest.fixture(scope="session")
def schemas() -> Schemas:
    return SCHEMAS


@pytest.fixture(scope="session")
def ctx():
    c = zmq.Context()
    yield c
    c.destroy(linger=0)


@pytest.fixture(scope="module")
def runtime_dir():
    """A short private directory to serve as XDG_RUNTIME_DIR (ipc paths must stay under ~100 bytes)."""
    d = Path(tempfile.mkdtemp(prefix="rsp-", dir="/tmp"))
    yield d
    shutil.rmtree(d, ignore_errors=True)


@pytest.fixture(scope="module")
def engine_args() -> list[str]:
    """Extra responderd flags for the module's engine; a module overrides this fixture to change them."""
    return []


@pytest.fixture(scope="module")
def engine(ctx, runtime_dir, engine_args, request):
    """The module's engine: its own runtime dir and a unique --name."""
    e = Engine(ctx, runtime_dir, unique_name(request.module.__name__.split(".")[-1]), engine_args)
    e.start()
    yield e
    e.stop()


@pytest.fixture
def engines(ctx, tmp_path_factory):
    """A factory for extra engines in a test; every engine it made is stopped at the end of the test.
    make(name=None, runtime_dir=None, args=(), start=True, xdg=True)."""
    made: list[Engine] = []
    dirs: list[Path] = []

    def make(name: str | None = None, runtime_dir: Path | None = None, args=(), start: bool = True,
             wait: bool = True, xdg: bool = True) -> Engine:
        if runtime_dir is None:
            runtime_dir = Path(tempfile.mkdtemp(prefix="rsp-", dir="/tmp"))
            dirs.append(runtime_dir)
        e = Engine(ctx, runtime_dir, name or unique_name("extra"), list(args), xdg=xdg)
        made.append(e)
        if start:
            e.start(wait=wait)
        return e

    yield make
    for e in made:
        e.stop(signal.SIGKILL if e.proc and e.proc.poll() is None else signal.SIGTERM)
    for d in dirs:
        shutil.rmtree(d, ignore_errors=True)


@pytest.fixture
def client(engine) -> Client:
    c = engine.client()
    yield c
    c.close()


