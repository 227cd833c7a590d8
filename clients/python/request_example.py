#!/usr/bin/env python3
"""Request example: engine.info, tree.get, a tree.apply that inserts a view, and an error with data.name.

    python3 clients/python/request_example.py            # against the engine named "default"

Running it again changes nothing new: the view has a fixed id and is updated when it is already there. It sits
at the back of the first window (index 0, behind the window's other children), so it hides nothing from
hit-testing and does not show up in `responder hit … --explain`.
"""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from responder_client import ClientError, Connection, RPCError, add_engine_arguments, discover  # noqa: E402


def outline(node: dict, depth: int = 0, out=None) -> list:
    """One line per node: kind, id and frame, indented by depth."""
    out = [] if out is None else out
    frame = node.get("frame")
    out.append("  " * depth + f"{node.get('kind')} {node.get('id')}" + (f" frame={frame}" if frame else ""))
    for child in node.get("children", []):
        outline(child, depth + 1, out)
    return out


VIEW_ID = "request-example"


def first_window(node: dict):
    if node.get("kind") == "window":
        return node
    for child in node.get("children", []):
        found = first_window(child)
        if found:
            return found
    return None


def find(node: dict, node_id: str):
    """The node with `node_id` in a nested tree, or None."""
    stack = [node]
    while stack:
        n = stack.pop()
        if n.get("id") == node_id:
            return n
        stack.extend(n.get("children", []))
    return None


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_engine_arguments(parser)
    args = parser.parse_args(argv)
    session = args.session

    try:
        conn = Connection(discover(args.name, args.dir))
    except ClientError as e:
        print(f"request_example: {e}", file=sys.stderr)
        return 1

    with conn:
        # Events this client causes carry cause.client = "request-example".
        conn.hello("request-example", kind="sample")

        info = conn.call("engine.info")
        print(f"engine.info: {info['name']} {info['version']} (protocol {info['protocol']}, pid {info['pid']}), "
              f"{info['sessions']} session(s), methods: {', '.join(info['methods'])}")

        got = conn.call("tree.get", {"session": session})
        print(f"tree.get: revision {got['revision']}, seq {got['seq']}")
        for line in outline(got["tree"]):
            print("  " + line)

        # Insert a view at the back of the first window (index 0: every other child is in front of it, so it
        # hides nothing), or a new window under the application when there is none. When it is already there
        # (an earlier run), put it back there and update it instead: running this again adds nothing.
        window = first_window(got["tree"])
        present = find(got["tree"], VIEW_ID) is not None
        if window and window["id"] != VIEW_ID:
            parent, node = window["id"], {"id": VIEW_ID, "kind": "view", "frame": [20, 20, 100, 44]}
        else:
            parent, node = "app", {"id": VIEW_ID, "kind": "window", "frame": [0, 0, 390, 844], "key": True}
        if present:
            ops = [{"op": "move", "id": VIEW_ID, "parent": parent, "index": 0},
                   {"op": "update", "id": VIEW_ID, "set": {"frame": node["frame"]}}]
        else:
            ops = [{"op": "insert", "parent": parent, "index": 0, "node": node}]
        applied = conn.call("tree.apply", {"session": session, "ops": ops})
        print(f"tree.apply: {'updated' if present else 'inserted'} {VIEW_ID} under {parent} (at the back) -> "
              f"revision {applied['revision']}, seq {applied['seq']}, seqRange {applied['seqRange']}")

        # Errors are JSON-RPC errors whose data.name is the stable name to match on.
        try:
            conn.call("tree.apply", {"session": session,
                                     "ops": [{"op": "remove", "id": "no-such-view"}]})
        except RPCError as e:
            print(f"error example: data.name={e.name} code={e.code} message={e.message!r} "
                  f"data={json.dumps(e.data)}")
        else:
            print("error example: expected NODE_NOT_FOUND, got success", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
