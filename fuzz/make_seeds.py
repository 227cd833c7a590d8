"""Writes the fuzz seed corpus: requests built from Protocol/examples (the demo worlds as tree.load and
session.create, each node inserted by tree.apply, updates and moves of its nodes) and the JSON examples of
Protocol/README.md. Usage: make_seeds.py <dir>."""

import json
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def nodes(tree):
    stack = [tree]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(n.get("children", []))


def seeds():
    for path in sorted((REPO / "Protocol" / "examples").glob("*.json")):
        world = json.loads(path.read_text())
        yield {"method": "tree.load", "params": world}
        yield {"method": "session.create", "params": {"session": "s", **world}}
        for n in list(nodes(world["tree"]))[1:12]:
            leaf = {k: v for k, v in n.items() if k != "children"}
            leaf["id"] = leaf["id"] + "2"
            yield {"method": "tree.apply", "params": {"ops": [{"op": "insert", "parent": "root", "node": leaf}]}}
            yield {"method": "tree.apply", "params": {"ops": [{"op": "update", "id": n["id"], "set": {"hidden": True}},
                                                              {"op": "move", "id": n["id"], "parent": None}]}}
    readme = (REPO / "Protocol" / "README.md").read_text()
    for block in re.findall(r"```json\n(.*?)```", readme, re.S):
        try:
            doc = json.loads(block)
        except ValueError:
            continue
        if isinstance(doc, dict) and "method" in doc:
            yield doc


def main(out: str):
    d = Path(out)
    d.mkdir(parents=True, exist_ok=True)
    for i, s in enumerate(seeds()):
        s = {"jsonrpc": "2.0", "id": i, **s}
        (d / f"seed-{i:03}.json").write_text(json.dumps(s, separators=(",", ":")))


if __name__ == "__main__":
    main(sys.argv[1])
