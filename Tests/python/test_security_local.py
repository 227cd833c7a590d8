"""Security on one machine (Protocol/README.md §3 "The directory", §2.1 ipc): what another local user planted
is refused with a clear message and nothing is written outside the engine's directory; ipc peers of another uid
are refused unless --allow-uid. Each test runs with root and with an unprivileged second user as the engine's
user (the other one is the adversary), so the checks do not lean on root's powers."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time

import pytest

import responder_client_path  # noqa: F401  (puts clients/python on sys.path)
import responder_client as rc
from harness import PATIENCE, unique_name
from security_support import Actor, binaries_for, make_other_user, owned_dir, shared_scratch, tree_listing


@pytest.fixture(scope="module")
def users():
    """(root, second user) as Actors, and the shared scratch directory; the user is removed if we made it."""
    user, created = make_other_user()
    scratch = shared_scratch()
    bindir = binaries_for(user, scratch)
    root = Actor("root", 0, 0, bindir)
    other = Actor(user.pw_name, user.pw_uid, user.pw_gid, bindir)
    yield root, other, scratch
    shutil.rmtree(scratch, ignore_errors=True)
    if created:
        subprocess.run(["userdel", user.pw_name], capture_output=True)


@pytest.fixture(params=["root", "unprivileged"])
def cast(request, users, tmp_path_factory):
    """(engine's user, adversary, a fresh directory both can reach) for each of the two casts."""
    root, other, scratch = users
    actor, adversary = (root, other) if request.param == "root" else (other, root)
    base = scratch / unique_name(request.param)
    base.mkdir(mode=0o755)
    os.chmod(base, 0o755)
    yield actor, adversary, base
    shutil.rmtree(base, ignore_errors=True)


def refused(result: subprocess.CompletedProcess, *phrases: str) -> str:
    assert result.returncode != 0, f"should have been refused:\n{result.stdout}\n{result.stderr}"
    for phrase in phrases:
        assert phrase in result.stderr, f"{phrase!r} not in the message:\n{result.stderr}"
    return result.stderr


def test_a_directory_planted_by_another_user_is_refused(cast):
    actor, adversary, base = cast
    planted = owned_dir(base / "rt", adversary, 0o777)
    result = actor.run(["responderd", "--name", "x", "--dir", str(planted)])
    refused(result, "refusing runtime directory", str(planted), f"belongs to uid {adversary.uid}")
    assert tree_listing(planted) == [], "nothing is written into a refused directory"


def test_a_directory_others_may_write_is_refused_even_if_ours(cast):
    actor, _, base = cast
    shared = owned_dir(base / "rt", actor, 0o777)
    refused(actor.run(["responderd", "--name", "x", "--dir", str(shared)]), "group or others may write")
    assert tree_listing(shared) == []
    assert (os.stat(shared).st_mode & 0o777) == 0o777, "a refused directory is left as it was"


def test_a_symlinked_runtime_directory_is_refused(cast):
    actor, _, base = cast
    real = owned_dir(base / "real", actor)
    (base / "rt").symlink_to(real)
    refused(actor.run(["responderd", "--name", "x", "--dir", str(base / "rt")]), "symbolic link")
    assert tree_listing(real) == []


def test_the_default_directory_in_tmp_planted_first_is_refused(users):
    """The realistic attack: /tmp/responder-<uid> is a name anyone can create first in world-writable /tmp."""
    _, other, _ = users
    default = f"/tmp/responder-{other.uid}"
    shutil.rmtree(default, ignore_errors=True)
    os.mkdir(default, 0o777)
    os.chmod(default, 0o777)
    try:
        refused(other.run(["responderd", "--name", "x"]), f"refusing runtime directory {default}", "belongs to uid 0")
        assert os.listdir(default) == []
        # And the client does not trust a discovery file found there.
        with open(f"{default}/x.json", "w") as f:
            json.dump({"rpc": "ipc:///tmp/evil.rpc", "events": "ipc:///tmp/evil.events", "pid": os.getpid()}, f)
        refused(other.run(["responder", "--name", "x", "info"]), "refusing engine directory", "belongs to uid 0")
    finally:
        shutil.rmtree(default, ignore_errors=True)


def test_a_symlinked_lock_file_is_refused_and_nothing_outside_is_written(cast):
    actor, _, base = cast
    rt = owned_dir(base / "rt", actor)
    outside = owned_dir(base / "outside", actor, 0o755)
    precious = outside / "precious"
    precious.write_text("precious\n")
    os.chown(precious, actor.uid, actor.gid)  # the engine could write it, if it followed the link
    (rt / "x.lock").symlink_to(precious)
    refused(actor.run(["responderd", "--name", "x", "--dir", str(rt)]), "refusing lock file", "symbolic link")
    (rt / "y.lock").symlink_to(outside / "not-there")
    refused(actor.run(["responderd", "--name", "y", "--dir", str(rt)]), "symbolic link")
    assert precious.read_text() == "precious\n"
    assert tree_listing(outside) == ["precious"], "nothing created through the links"
    assert tree_listing(rt) == ["x.lock", "y.lock"], "no socket, no discovery file"


def test_a_planted_discovery_link_is_replaced_not_followed(cast):
    actor, _, base = cast
    rt = owned_dir(base / "rt", actor)
    outside = owned_dir(base / "outside", actor, 0o755)
    (rt / "x.json").symlink_to(outside / "written-through-link.json")
    proc = actor.start(["responderd", "--name", "x", "--dir", str(rt)])
    try:
        deadline = time.monotonic() + PATIENCE
        while not ((rt / "x.json").is_file() and not (rt / "x.json").is_symlink()):
            assert proc.poll() is None and time.monotonic() < deadline, "the engine should start and write its own file"
            time.sleep(0.02)
        assert tree_listing(outside) == []
        assert (os.stat(rt / "x.json").st_mode & 0o777) == 0o600 and os.stat(rt / "x.json").st_uid == actor.uid
    finally:
        proc.terminate()
        proc.wait(PATIENCE)


def test_clients_refuse_a_discovery_file_planted_by_another_user(cast):
    actor, adversary, base = cast
    rt = owned_dir(base / "rt", actor)
    planted = rt / "x.json"
    planted.write_text(json.dumps({"name": "x", "pid": os.getpid(), "protocol": 1,
                                   "rpc": f"ipc://{base}/evil.rpc", "events": f"ipc://{base}/evil.events"}))
    os.chown(planted, adversary.uid, adversary.gid)
    os.chmod(planted, 0o644)
    refused(actor.run(["responder", "--dir", str(rt), "--name", "x", "info"]),
            "refusing discovery file", f"belongs to uid {adversary.uid}")
    # Writable by others, though ours: refused too.
    os.chown(planted, actor.uid, actor.gid)
    os.chmod(planted, 0o666)
    refused(actor.run(["responder", "--dir", str(rt), "--name", "x", "info"]), "group or others may write")
    if actor.is_root:  # the Python sample client, in this process
        with pytest.raises(rc.NoEngineError, match="group or others may write"):
            rc.discover("x", str(rt))
        os.chown(planted, adversary.uid, adversary.gid)
        with pytest.raises(rc.NoEngineError, match=f"belongs to uid {adversary.uid}"):
            rc.discover("x", str(rt))


def wait_for_line(path, text: str, proc) -> str:
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        content = path.read_text(errors="replace") if path.exists() else ""
        if text in content:
            return content
        assert proc.poll() is None, f"the engine exited:\n{content}"
        time.sleep(0.05)
    raise AssertionError(f"{text!r} never appeared in {path}")


@pytest.mark.parametrize("allowed", [False, True], ids=["refused", "allow-uid"])
def test_ipc_peers_of_another_uid_are_refused_unless_allowed(cast, allowed):
    """Socket files the adversary could open (umask 000, in a directory anyone can enter): only the ZAP
    handler's uid check stands between them and the engine."""
    actor, adversary, base = cast
    rt = owned_dir(base / "rt", actor)
    sockets = owned_dir(base / "sockets", actor, 0o755)
    endpoints = [f"ipc://{sockets}/x.rpc", f"ipc://{sockets}/x.events"]
    log = base / "engine.log"
    extra = ["--allow-uid", str(adversary.uid)] if allowed else []
    proc = actor.start(["responderd", "--name", "x", "--dir", str(rt), "--rpc", endpoints[0], "--events", endpoints[1], *extra],
                       umask=0, log=log)
    try:
        wait_for_line(log, "listening", proc)
        assert (os.stat(f"{sockets}/x.rpc").st_mode & 0o777) == 0o777, "the adversary can open the socket file"
        connect = ["--connect", ",".join(endpoints)]
        mine = actor.run(["responder", *connect, "info"])
        assert mine.returncode == 0 and "engine    x" in mine.stdout, mine.stderr
        theirs = adversary.run(["responder", *connect, "info"])
        if allowed:
            assert theirs.returncode == 0 and "engine    x" in theirs.stdout, theirs.stderr
        else:
            # Refused at the handshake, and the CLI says so at once (no waiting for a reply that cannot come).
            refused(theirs, "the engine refused this client", f"--allow-uid {adversary.uid}")
            content = wait_for_line(log, f":{adversary.uid}:", proc)
            assert f"uid {adversary.uid} is not allowed" in content
    finally:
        proc.terminate()
        proc.wait(PATIENCE)
