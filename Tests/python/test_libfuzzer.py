"""The libFuzzer target (fuzz/run) for 30 s in CI: the request decoder, the tree validator and the dispatch
methods in-process, with their properties (fuzz/FuzzRequests.swift). Longer runs: `fuzz/run 600`."""

import shutil
import subprocess

import pytest

from harness import REPO


def test_the_fuzz_target_finds_nothing_in_30_seconds():
    if shutil.which("swiftc") is None:
        pytest.skip("swiftc is needed to build the fuzz target")
    # Building it takes minutes on a busy machine; the run itself takes 30 s.
    run = subprocess.run([str(REPO / "fuzz" / "run"), "30"], cwd=REPO, capture_output=True, text=True, timeout=1800,
                         stdin=subprocess.DEVNULL)
    output = run.stdout + run.stderr
    assert run.returncode == 0, output[-6000:]
    done = [line for line in output.splitlines() if line.startswith("Done ")]
    assert done, output[-3000:]
    print(done[-1])
