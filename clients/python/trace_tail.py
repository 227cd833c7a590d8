#!/usr/bin/env python3
"""Live, readable traces of one session, one line per trace event, never silently missing one.

Each trace line shows the seq, the cause (client#request), the trace kind and, when the trace has an outcome
this tool knows, the path the event took, e.g.

    seq     57  ui-test#12    touch     touchesBegan: E \u2192 C \u2192 A, handled by A

It follows the session with responder_client.Follower: a seq gap (or a $sys/tick showing a later seq) is filled
with trace.replay and reported as "recovered 37 events (seq 120\u2013156)"; if the engine no longer holds them
(REPLAY_EXPIRED) it takes a new snapshot and says so.

    python3 clients/python/trace_tail.py                     # trace events of session "default"
    python3 clients/python/trace_tail.py --streams all       # tree and focus changes too
    python3 clients/python/trace_tail.py --after 0           # the history the engine still holds, then live
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from responder_client import ClientError, Connection, Follower, add_engine_arguments, discover  # noqa: E402

ARROW = " \u2192 "


def _ids(value) -> list:
    """handledBy / visited / by may be a list of ids, one id, or null."""
    if value is None or value is False:
        return []
    if isinstance(value, list):
        return [str(v) for v in value if v is not None]
    return [str(value)]


def _path(visited) -> str:
    ids = _ids(visited)
    return ARROW.join(ids) if ids else "(nothing visited)"


def _handled(handled) -> str:
    ids = _ids(handled)
    return f"handled by {', '.join(ids)}" if ids else "unhandled"


def describe_outcome(kind: str, outcome) -> str:
    """One readable phrase for a trace outcome; falls back to the trace kind for shapes it does not know."""
    if not isinstance(outcome, dict):
        return kind
    # Touches: one delivery per touch and phase.
    deliveries = outcome.get("deliveries")
    if isinstance(deliveries, list):
        if not deliveries:
            return f"{kind}: no deliveries"
        parts = []
        for d in deliveries:
            if not isinstance(d, dict):
                continue
            message = d.get("message") or d.get("phase") or kind
            label = f"{message}" + (f" [{d.get('touch')}]" if len(deliveries) > 1 and d.get("touch") is not None else "")
            parts.append(f"{label}: {_path(d.get('visited'))}, {_handled(d.get('handledBy'))}")
        return "; ".join(parts) if parts else kind
    # Actions: sendAction walks the responder chain to a target.
    if "performed" in outcome:
        by = _ids(outcome.get("by"))
        verdict = f"performed by {', '.join(by)}" if outcome.get("performed") and by else (
            "performed" if outcome.get("performed") else "not performed")
        visited = outcome.get("visited")
        return f"{kind}: {_path(visited)}, {verdict}" if visited is not None else f"{kind}: {verdict}"
    # Become/resign first responder.
    if "result" in outcome and ("reason" in outcome or "resigned" in outcome):
        text = f"{kind}: {outcome.get('result')}"
        if outcome.get("reason"):
            text += f" ({outcome['reason']})"
        resigned = _ids(outcome.get("resigned"))
        if resigned:
            text += f", resigned {', '.join(resigned)}"
        return text
    # Motion, remote control, presses: a start responder, the chain visited and who handled it.
    if "visited" in outcome or "handledBy" in outcome:
        start = outcome.get("start")
        text = f"{kind}: {_path(outcome.get('visited'))}, {_handled(outcome.get('handledBy'))}"
        if start is not None and not _ids(outcome.get("visited")):
            text = f"{kind}: from {start}, {_handled(outcome.get('handledBy'))}"
        return text
    return kind


def cause_text(cause) -> str:
    if not isinstance(cause, dict):
        return "-"
    client, request = cause.get("client"), cause.get("request")
    return f"{client}#{request}" if request is not None else str(client)


def describe_tree(body: dict) -> str:
    change = body.get("change")
    if change != "apply":
        return f"tree {change}"
    parts = []
    for op in body.get("ops") or []:
        name = op.get("op")
        if name == "insert":
            node = op.get("node") or {}
            parts.append(f"insert {node.get('kind')} {node.get('id')} under {op.get('parent')}")
        elif name == "move":
            parts.append(f"move {op.get('id')} to {op.get('parent')}")
        elif name == "update":
            parts.append(f"update {op.get('id')} {', '.join((op.get('set') or {}).keys())}")
        else:
            parts.append(f"{name} {op.get('id')}")
    shown = "; ".join(parts[:3]) + (f"; \u2026 ({len(parts)} ops)" if len(parts) > 3 else "")
    return f"tree apply: {shown}" if shown else "tree apply"


def describe_event(body: dict) -> tuple:
    """(kind column, text) for one session event."""
    stream = body.get("stream")
    if stream == "trace":
        trace = body.get("trace") or {}
        kind = trace.get("kind") or "trace"
        return kind, describe_outcome(kind, trace.get("outcome"))
    if stream == "focus":
        c = body.get("change") or {}
        return "focus", f"window {c.get('window')}: {c.get('from')}{ARROW}{c.get('to')} ({c.get('reason')})"
    if stream == "tree":
        return "tree", describe_tree(body)
    return stream or "?", stream or "?"


def format_line(body: dict, replayed: bool = False) -> str:
    kind, text = describe_event(body)
    line = f"seq {body.get('seq'):>6}  {cause_text(body.get('cause')):<14} {kind:<9} {text}"
    return line + ("  [replayed]" if replayed else "")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_engine_arguments(parser)
    parser.add_argument("--streams", default="trace",
                        help="comma-separated streams to print: trace, focus, tree, or all (default: trace)")
    parser.add_argument("--after", type=int, default=None,
                        help="start after this seq with trace.replay instead of from a snapshot (0: all history held)")
    parser.add_argument("--count", type=int, default=0, help="exit after printing this many events (0: run until Ctrl-C)")
    parser.add_argument("--rcvhwm", type=int, default=0, help="receive high-water mark of the subscription (0: unlimited)")
    parser.add_argument("--idle-exit", type=float, default=0.0, help="exit after this many seconds without events (0: never)")
    args = parser.parse_args(argv)
    streams = None if args.streams == "all" else set(s.strip() for s in args.streams.split(",") if s.strip())

    try:
        conn = Connection(discover(args.name, args.dir))
        follower = Follower(conn, args.session, after=args.after, rcvhwm=args.rcvhwm)
    except ClientError as e:
        print(f"trace_tail: {e}", file=sys.stderr)
        return 1

    printed = 0
    try:
        while not args.count or printed < args.count:
            item = follower.next(args.idle_exit or None)
            if item is None:
                break
            if item.kind == "snapshot":
                print(f"# {item.describe()}" if item.resnapshot else
                      f"# following session {args.session} from {item.describe()}", flush=True)
                if item.resnapshot:
                    print(f"trace_tail: {item.describe()}", file=sys.stderr, flush=True)
            elif item.kind == "recovered":
                print(f"# {item.describe()}", flush=True)
            elif item.kind == "event":
                body = item.event.body
                if streams is None or body.get("stream") in streams:
                    print(format_line(body, item.replayed), flush=True)
                    printed += 1
    except KeyboardInterrupt:
        pass
    except ClientError as e:
        print(f"trace_tail: {e}", file=sys.stderr)
        return 1
    finally:
        follower.close()
        conn.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
