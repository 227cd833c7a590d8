"""Support for the security tests: a second user to act as (or against), and running the real binaries as
either user. Creating a user needs root (CI runs as root on a fresh Debian machine); elsewhere the tests that
need one are skipped with the reason."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from harness import PATIENCE, responderd_path
from stdio_harness import responder_path

OTHER_USER = "responder-sec"


@dataclass
class Actor:
    """Someone who runs the binaries: root (this process) or the second user (through runuser)."""
    name: str
    uid: int
    gid: int
    bindir: Path

    @property
    def is_root(self) -> bool:
        return self.uid == 0

    def command(self, args: list[str], env: dict[str, str], umask: int | None = None) -> list[str]:
        """`args` (a binary name first: responderd or responder) as this actor, with exactly `env`."""
        argv = [str(self.bindir / args[0]), *args[1:]]
        if args[0] == "responderd":
            # These tests are about the runtime directory and peers: no state directory (the second user has
            # no home, and root's must not be written).
            argv.append("--ephemeral")
        if umask is not None:
            argv = ["sh", "-c", f'umask {umask:03o}; exec "$@"', "sh", *argv]
        full_env = {"PATH": "/usr/bin:/bin", "HOME": "/nonexistent" if not self.is_root else "/root", **env}
        argv = ["env", "-i", *[f"{k}={v}" for k, v in full_env.items()], *argv]
        return argv if self.is_root else ["runuser", "-u", self.name, "--", *argv]

    def run(self, args: list[str], env: dict[str, str] | None = None, timeout: float = PATIENCE) -> subprocess.CompletedProcess:
        return subprocess.run(self.command(args, env or {}), capture_output=True, text=True, timeout=timeout)

    def start(self, args: list[str], env: dict[str, str] | None = None, umask: int | None = None, log: Path | None = None) -> subprocess.Popen:
        err = open(log, "w+b") if log else subprocess.DEVNULL
        return subprocess.Popen(self.command(args, env or {}, umask), stdout=subprocess.DEVNULL, stderr=err,
                                stdin=subprocess.DEVNULL)


def make_other_user() -> tuple[pwd.struct_passwd, bool]:
    if os.geteuid() != 0:
        pytest.skip("needs root: the test creates a second user (useradd) and runs the binaries as it (runuser); "
                    "CI runs as root")
    for tool in ["useradd", "userdel", "runuser"]:
        if not shutil.which(tool):
            pytest.skip(f"needs {tool} to act as a second user")
    try:
        return pwd.getpwnam(OTHER_USER), False
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", OTHER_USER],
                       check=True, capture_output=True)
        return pwd.getpwnam(OTHER_USER), True


def binaries_for(user: pwd.struct_passwd, scratch: Path) -> Path:
    """The directory of responderd and responder, reachable by `user`: the build's own when it can run them
    (a clone under /root is not), else copies in `scratch`."""
    bindir = responderd_path().parent
    probe = subprocess.run(["runuser", "-u", user.pw_name, "--", "test", "-x", str(bindir / "responder")])
    if probe.returncode == 0:
        return bindir
    copy = scratch / "bin"
    copy.mkdir(mode=0o755)
    for binary in [responderd_path(), responder_path()]:
        shutil.copy2(binary, copy / binary.name)
        os.chmod(copy / binary.name, 0o755)
    return copy


def shared_scratch() -> Path:
    """A directory both users can reach (not write): what each test makes inside it, it hands to its owner."""
    d = Path(tempfile.mkdtemp(prefix="rsec-", dir="/tmp"))
    os.chmod(d, 0o755)
    return d


def owned_dir(path: Path, actor: Actor, mode: int = 0o700) -> Path:
    path.mkdir()
    os.chown(path, actor.uid, actor.gid)
    os.chmod(path, mode)
    return path


def tree_listing(path: Path) -> list[str]:
    return sorted(str(p.relative_to(path)) for p in path.rglob("*"))
