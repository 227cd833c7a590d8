"""The CLI's manners, against a real engine: `call` says an error once; "did you mean" for a mistyped
subcommand, method, node id, session and field; JSON errors with line and column; a missing file with the
system's reason; `--help` with the command's own options and an example before the connection options;
`responder engines` lists the engines that run; `watch` notices a gone engine at once."""

from __future__ import annotations

import json
import os
import pty
import select
import signal
import subprocess
import time

from harness import DEMO_WORLD, PATIENCE, new_session
from stdio_harness import responder_path
from test_import_record import cli


def on_a_terminal(engine, *args: str) -> str:
    """Runs the CLI with stdout and stderr on one pseudo-terminal, as a person sees it; returns what it shows."""
    main, sub = pty.openpty()
    proc = subprocess.Popen([str(responder_path()), "--dir", str(engine.dir), "--name", engine.name, *args],
                            stdin=subprocess.DEVNULL, stdout=sub, stderr=sub)
    os.close(sub)
    out = b""
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        ready, _, _ = select.select([main], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(main, 65536)
            except OSError:  # the terminal closed: the process ended
                break
            if not chunk:
                break
            out += chunk
        elif proc.poll() is not None:
            break
    proc.wait(timeout=PATIENCE)
    os.close(main)
    return out.decode()


def test_call_says_an_error_once(engine):
    shown = on_a_terminal(engine, "call", "hitTest", '{"point": [1]}')
    assert shown.count("point: expected [x, y]") == 1, shown
    piped = cli(engine, "call", "hitTest", '{"point": [1]}')
    assert piped.returncode == 1
    assert '"INVALID_PARAMS"' in piped.stdout and "error: INVALID_PARAMS" in piped.stderr, "stderr is read alone"
    assert piped.stderr.count("point: expected [x, y]") == 1, piped.stderr


def test_did_you_mean(engine):
    client = engine.client()
    s = new_session(client, "mean")
    client.close()
    r = cli(engine, "tapp", "1", "2")
    assert r.returncode == 64 and 'unknown command "tapp"; did you mean "tap"?' in r.stderr, r.stderr
    r = cli(engine, "session", "lsit")
    assert 'did you mean "list"?' in r.stderr and "responder session --help" in r.stderr, r.stderr
    r = cli(engine, "call", "hitTst")
    assert 'did you mean the method "hitTest"?' in r.stderr, r.stderr
    assert '"METHOD_NOT_FOUND"' in r.stdout, "the engine's reply is printed as it came"
    r = cli(engine, "--session", s, "chain", "buton")
    assert r.returncode == 1 and 'did you mean the node "button"?' in r.stderr, r.stderr
    r = cli(engine, "call", "responderChain", '{"id": "textFeild", "session": "%s"}' % s)
    assert 'did you mean the node "textField"?' in r.stderr, r.stderr
    r = cli(engine, "--session", "defualt", "tap", "1", "1")
    assert 'did you mean the session "default"?' in r.stderr, r.stderr
    r = cli(engine, "--session", s, "apply", "-", stdin='{"ops": [{"op": "update", "id": "button", "set": {"hiden": true}}]}')
    assert r.returncode == 1 and "field: ops[0].set.hiden" in r.stderr, r.stderr
    assert 'did you mean the field "hidden"?' in r.stderr, r.stderr
    # Nothing near enough: no guess.
    r = cli(engine, "--session", s, "chain", "zzzzzzzz")
    assert r.returncode == 1 and "did you mean" not in r.stderr, r.stderr


def test_unreadable_files_say_why_and_where(engine, tmp_path):
    r = cli(engine, "load", str(tmp_path / "missing.json"))
    assert r.returncode == 1, r.stderr
    assert f"cannot read {tmp_path / 'missing.json'}: No such file or directory" in r.stderr, r.stderr
    r = cli(engine, "load", str(tmp_path))
    assert r.returncode == 1 and "Is a directory" in r.stderr, r.stderr
    bad = tmp_path / "bad.json"
    bad.write_text('{\n  "tree": {\n    "id": "app",\n    "kind" "application"\n  }\n}\n')
    r = cli(engine, "load", str(bad))
    assert r.returncode == 1 and "line 4, column 12" in r.stderr, r.stderr
    r = cli(engine, "call", "tree.get", '{"id": }')
    assert r.returncode == 1 and "params is not valid JSON: line 1, column 8" in r.stderr, r.stderr


def test_help_shows_the_commands_own_options_and_an_example_before_the_connection_options(engine):
    r = subprocess.run([str(responder_path()), "tap", "--help"], capture_output=True, text=True, timeout=PATIENCE)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    options, example, connection = out.index("\nOPTIONS:"), out.index("\nEXAMPLE:"), out.index("\nCONNECTION OPTIONS:")
    assert options < example < connection, out
    own = out[options:example]
    assert "--view <id>" in own and "--dry-run" in own and "--name <name>" not in own, own
    assert "responder tap 100 150" in out[example:connection]
    shared = out[connection:]
    assert "--name <name>" in shared and "--connect <rpc,events>" in shared and "--view" not in shared, shared
    # `help tap` reads the same, and a command that has its own example keeps it.
    same = subprocess.run([str(responder_path()), "help", "tap"], capture_output=True, text=True, timeout=PATIENCE)
    assert same.stdout == out
    replay = subprocess.run([str(responder_path()), "replay", "--help"], capture_output=True, text=True,
                            timeout=PATIENCE).stdout
    assert "--world <file>" in replay[:replay.index("CONNECTION OPTIONS:")] and "\nEXAMPLE:" not in replay


def test_engines_lists_the_engines_that_run(engines):
    first = engines()
    second = engines(runtime_dir=first.runtime_dir)

    def listed() -> list[str]:
        r = subprocess.run([str(responder_path()), "engines", "--dir", str(first.dir)], capture_output=True,
                           text=True, timeout=PATIENCE)
        assert r.returncode == 0, r.stderr
        return r.stdout.splitlines()

    lines = listed()
    assert lines[0].split() == ["NAME", "PID", "VERSION", "STARTED", "RPC"], lines
    rows = {l.split()[0]: l.split() for l in lines[1:]}
    assert set(rows) == {first.name, second.name}, lines
    assert rows[first.name][1] == str(first.proc.pid) and rows[first.name][4] == first.discovery["rpc"]
    # A killed engine leaves its files behind: it is no longer listed, and the leftovers are said.
    second.send_signal(signal.SIGKILL)
    second.wait()
    r = subprocess.run([str(responder_path()), "engines", "--dir", str(first.dir), "--json"], capture_output=True,
                       text=True, timeout=PATIENCE)
    assert [e["name"] for e in json.loads(r.stdout)] == [first.name], r.stdout
    assert f"note: {second.name}: its engine (pid {second.proc.pid}) is gone" in r.stderr, r.stderr


def test_watch_notices_a_gone_engine_at_once(engines):
    e = engines(args=["--world", str(DEMO_WORLD)])
    watch = subprocess.Popen([str(responder_path()), "--dir", str(e.dir), "--name", e.name, "watch"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = watch.stdout.readline()
        assert first.startswith("following default"), first
        e.send_signal(signal.SIGKILL)
        e.wait()
        gone = time.monotonic()
        watch.wait(timeout=PATIENCE)
        waited = time.monotonic() - gone
    finally:
        if watch.poll() is None:
            watch.kill()
    err = watch.stderr.read()
    assert watch.returncode == 1 and f"the engine (pid {e.proc.pid}) is gone: watch stops" in err, err
    # It checks every quarter second; the engine's tick alone (every second) would take several.
    assert waited < 3, f"watch took {waited:.2f} s to notice"


def test_responderd_says_where_a_world_file_is_wrong_and_why_it_cannot_be_read(engines, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"tree":\n  {"id" "app"}}')
    e = engines(args=["--world", str(bad)], wait=False)
    assert e.wait() == 1
    assert f"responderd: --world {bad}: not valid JSON: line 2, column 9: " in e.stderr_text(), e.stderr_text()
    missing = tmp_path / "missing.json"
    e = engines(args=["--world", str(missing)], wait=False)
    assert e.wait() == 1
    assert e.stderr_text().startswith(f"responderd: --world {missing}: cannot read the file: No such file or directory")
