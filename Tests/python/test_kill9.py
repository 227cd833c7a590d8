"""The kill -9 test at a size that fits CI (kill9_soak.py has the procedure; its full size is one command,
README "Security and durability")."""

import os

from kill9_soak import soak


def test_acknowledged_mutations_survive_random_sigkills(capsys):
    mutations = int(os.environ.get("KILL9_MUTATIONS", "2000"))
    kills = int(os.environ.get("KILL9_KILLS", "6"))
    figures, errors = soak(clients=4, mutations=mutations, kills=kills, seed=int.from_bytes(os.urandom(4), "little"))
    with capsys.disabled():
        print("\n" + figures.line())
    assert not errors, "\n".join(errors[:20])
    assert figures.acknowledged >= mutations and figures.kills >= kills + 1
