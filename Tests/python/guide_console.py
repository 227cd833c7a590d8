"""Runs a section of docs/gestures-and-uikit-classes.md the way a reader would: its world file written where the
section's `cat > /tmp/<name>.json <<'JSON'` puts it, then every `$ responder …` line of its console blocks in a
shell whose `responder` is the real CLI aimed at the test's engine. Returns the lines whose output differs."""

from __future__ import annotations

import subprocess
from pathlib import Path

from harness import REPO
from stdio_harness import responder_path, target_args


def guide_section(heading: str) -> str:
    guide = (REPO / "docs" / "gestures-and-uikit-classes.md").read_text()
    return guide.split(heading)[1].split("\n## ")[0]


def run_console(engine, tmp_path: Path, section: str, world_file: str) -> int:
    """Creates the section's world as `world_file` (the name its `cat >` uses under /tmp), runs every console line,
    asserts each prints what the guide shows, and returns how many ran."""
    (tmp_path / world_file).write_text(section.split("<<'JSON'\n")[1].split("\nJSON\n")[0])
    shell = f'responder() {{ {responder_path()} {" ".join(target_args(engine))} "$@"; }}\ncd {tmp_path}\n'

    def run(command: str) -> str:
        done = subprocess.run(["bash", "-c", shell + command.replace(f"/tmp/{world_file}", world_file)],
                              capture_output=True, text=True, timeout=120)
        return done.stdout

    session = world_file.removesuffix(".json")
    assert run(f"responder session create {session} /tmp/{world_file}").startswith(f"created session {session}")
    ran = 0
    for block in [b.split("```")[0] for b in section.split("```console\n")[1:]]:
        for chunk in block.split("$ ")[1:]:
            command, _, expected = chunk.partition("\n")
            assert run(command) == expected, command
            ran += 1
    return ran
