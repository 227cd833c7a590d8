"""Clients of the two stdio front doors, for test_mcp.py and test_bridge.py: the `responder mcp` server
driven by the official Python MCP SDK, and `responder bridge` driven by a Content-Length framed client written
here (the framing is simple enough that a test should own every byte of it)."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import subprocess
import threading
import time
from pathlib import Path

from harness import PATIENCE, REPO


def responder_path() -> Path:
    """The CLI: $RESPONDER_CLI, else .build/debug/responder."""
    env = os.environ.get("RESPONDER_CLI")
    return Path(env) if env else REPO / ".build" / "debug" / "responder"


def target_args(engine) -> list[str]:
    """Finds `engine` by its discovery file, as any CLI command would."""
    return ["--dir", str(engine.dir), "--name", engine.name, "--timeout", str(int(PATIENCE))]


# --------------------------------------------------------------------------------------------- MCP

@contextlib.asynccontextmanager
async def mcp_session(args: list[str], client_name: str = "pytest-mcp", on_message=None):
    """An initialized MCP ClientSession on `responder mcp <args>`; `on_message` gets every notification."""
    import mcp_types as types
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(command=str(responder_path()), args=["mcp", *args])

    async def handler(message):
        if on_message is not None:
            await on_message(message)

    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write, read_timeout_seconds=PATIENCE, message_handler=handler,
                                 client_info=types.Implementation(name=client_name, version="1.0")) as session:
            await session.initialize()
            yield session


# --------------------------------------------------------------------------------------------- bridge

def frame(message: dict | bytes) -> bytes:
    body = message if isinstance(message, bytes) else json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class Message(dict):
    """A message from the bridge, with `raw`: its body exactly as written."""
    raw: bytes = b""


class Bridge:
    """A running `responder bridge`. A reader thread splits its stdout into messages (checking the framing of
    every one) and queues them; `reply(id)` and `notification(method)` take the next one that matches,
    keeping the others for later calls."""

    def __init__(self, args: list[str], stderr_path: Path):
        self.stderr_path = stderr_path
        self._stderr = open(stderr_path, "wb")
        self.proc = subprocess.Popen([str(responder_path()), "bridge", *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self._stderr)
        self._queue: queue.Queue = queue.Queue()
        self._held: list[dict] = []
        self.framing_errors: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    # writing ------------------------------------------------------------------------------------------
    def write(self, data: bytes) -> None:
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, message: dict) -> None:
        self.write(frame(message))

    def request(self, method: str, params: dict | None = None, id=1) -> dict:
        """Sends a request and returns its reply (the whole response object)."""
        message = {"jsonrpc": "2.0", "id": id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return self.reply(id)

    def close_stdin(self) -> None:
        self.proc.stdin.close()

    # reading ------------------------------------------------------------------------------------------
    def _read(self) -> None:
        out = self.proc.stdout
        while True:
            header = b""
            while not header.endswith(b"\r\n\r\n"):
                byte = out.read(1)
                if not byte:
                    self._queue.put(None)
                    return
                header += byte
            lines = header[:-4].split(b"\r\n")
            lengths = [line.split(b":", 1)[1].strip() for line in lines if line.lower().startswith(b"content-length:")]
            if len(lengths) != 1 or not lengths[0].isdigit():
                self.framing_errors.append(f"bad header {header!r}")
                self._queue.put(None)
                return
            body = out.read(int(lengths[0]))
            try:
                message = Message(json.loads(body))
                message.raw = body
                self._queue.put(message)
            except ValueError:
                self.framing_errors.append(f"body is not JSON: {body[:200]!r}")

    def next(self, match, timeout: float = PATIENCE, what: str = "message") -> dict:
        """The next message `match` accepts, held ones first; the others are held in order."""
        for i, m in enumerate(self._held):
            if match(m):
                return self._held.pop(i)
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            try:
                if left <= 0:
                    raise queue.Empty
                m = self._queue.get(timeout=left)
            except queue.Empty:
                raise AssertionError(f"no {what} from the bridge within {timeout} s; held: {self._held[-5:]!r:.1500}\n"
                                     f"stderr: {self.stderr()[-2000:]}") from None
            if m is None:
                self._queue.put(None)  # stays closed for later calls
                raise AssertionError(f"the bridge closed stdout before a {what} (status {self.proc.poll()}); "
                                     f"framing errors: {self.framing_errors}; stderr: {self.stderr()[-2000:]}")
            if match(m):
                return m
            self._held.append(m)

    def reply(self, id, timeout: float = PATIENCE) -> dict:
        # `type` too: 1 and "1" are different ids, and 1 == 1.0 == True in Python.
        return self.next(lambda m: "method" not in m and "id" in m and m["id"] == id and type(m["id"]) is type(id),
                         timeout, f"reply with id {id!r}")

    def notification(self, method: str, timeout: float = PATIENCE) -> dict:
        return self.next(lambda m: m.get("method") == method and "id" not in m, timeout, f"{method} notification")

    def nothing(self, timeout: float) -> None:
        """Asserts that no message arrives within `timeout` (nor is held)."""
        assert not self._held, f"unexpected messages held: {self._held!r:.1500}"
        try:
            m = self._queue.get(timeout=timeout)
        except queue.Empty:
            return
        raise AssertionError(f"unexpected message from the bridge: {m!r:.1500}")

    def stderr(self) -> str:
        self._stderr.flush()
        return self.stderr_path.read_text(errors="replace")

    def wait(self, timeout: float = PATIENCE) -> int:
        return self.proc.wait(timeout)

    def stop(self) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(OSError):
                self.proc.stdin.close()
            try:
                self.proc.wait(PATIENCE)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self._stderr.close()
