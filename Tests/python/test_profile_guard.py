"""The instruction-count regression guard: `responder-bench profile --save` records callgrind counts per
request, `--against` compares a new run with them and fails when one grew past `--tolerance`. Real valgrind, real
engine process; the light request alone keeps it short."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from harness import responderd_path

BENCH = responderd_path().parent / "responder-bench"
# Two runs of 20 and 120 light requests, each engine under valgrind (a debug build starts slowly there); a
# hundred requests between them, as fewer let one-off work (a first lookup, a table grown) swing the count by 10%.
DEADLINE = 900
COMMON = ["profile", "--requests-only", "--only", "light", "--top", "0", "--requests", "120"]


def profile(*args: str) -> subprocess.CompletedProcess:
    assert shutil.which("valgrind"), "valgrind is not installed (./dev test installs it)"
    assert BENCH.exists(), f"{BENCH} is not built (swift build)"
    return subprocess.run([str(BENCH), *COMMON, *args], capture_output=True, text=True, timeout=DEADLINE)


def test_counts_saved_then_held_to_and_a_grown_count_fails_naming_the_request(tmp_path: Path):
    saved = tmp_path / "counts.json"
    first = profile("--save", str(saved))
    assert first.returncode == 0, first.stdout + first.stderr
    baseline = json.loads(saved.read_text())
    assert baseline["scope"] == "requests-only" and baseline["durability"] == "none" and baseline["requests"] == 120
    assert baseline["build"] in ("debug", "release")
    assert set(baseline["counts"]) == {"light"} and baseline["counts"]["light"] > 1000

    # The same engine again: within the tolerance (counts inside request processing repeat to about 1%).
    same = profile("--against", str(saved), "--tolerance", "5")
    assert same.returncode == 0, same.stdout + same.stderr
    assert "within 5% of the baseline" in same.stdout

    # A baseline a third lower: the run is a regression against it, and says which request and by how much.
    lower = tmp_path / "lower.json"
    lower.write_text(json.dumps({**baseline, "counts": {"light": baseline["counts"]["light"] * 2 // 3}}))
    grown = profile("--against", str(lower), "--tolerance", "5")
    assert grown.returncode == 1, grown.stdout + grown.stderr
    assert "more than 5% over the baseline: light +" in grown.stdout


def test_a_baseline_of_another_mode_or_a_bad_file_is_refused_before_any_count(tmp_path: Path):
    build = "debug" if "/debug/" in str(BENCH) else "release"
    whole = tmp_path / "whole.json"
    whole.write_text(json.dumps({"format": 1, "scope": "whole-engine", "durability": "none", "build": build, "requests": 300,
                                 "counts": {"light": 18000}}))
    r = profile("--against", str(whole))
    assert r.returncode != 0
    assert f"holds counts of whole-engine, durability none, {build} build, this run counts requests-only" in r.stderr
    assert "instructions per request" not in r.stdout

    typo = tmp_path / "typo.json"
    typo.write_text(json.dumps({"format": 1, "scope": "requests-only", "durability": "none", "build": build,
                                "requests": 300, "counts": {"lihgt": 7000}}))
    r = profile("--against", str(typo))
    assert r.returncode != 0 and "counts.lihgt: not a request that profile counts" in r.stderr

    r = profile("--against", str(tmp_path / "missing.json"))
    assert r.returncode != 0 and "cannot read" in r.stderr

    r = subprocess.run([str(BENCH), "profile", "--only", "light,lite"], capture_output=True, text=True, timeout=60)
    assert r.returncode != 0 and '--only: "lite" is not one of' in r.stderr
