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
from responder_client import IdleTimer, ClientError, Connection, Follower, add_engine_arguments, discover  # noqa: E402

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
    return ARROW.join(ids) if ids else "(no responder)"


def _handled(handled) -> str:
    ids = _ids(handled)
    return f"handled by {', '.join(ids)}" if ids else "unhandled"


def _json(value) -> str:
    if value is None:
        return "nil"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _steps(steps, name: str) -> list:
    return [s for s in (steps or []) if isinstance(s, dict) and s.get("step") == name]


def _discard_reason(steps) -> str:
    discards = _steps(steps, "discard")
    return discards[-1].get("reason", "discarded") if discards else "discarded"


def _delivery(d: dict, label_touch: bool) -> str:
    """One touch delivery (12.5): delivered, undelivered or dropped."""
    message = d.get("message") or d.get("phase") or "touch"
    label = f"{d.get('touch')} {message}" if label_touch else message
    if d.get("dropped"):
        return f"{label}: dropped ({d.get('reason')})"
    if d.get("view") is None and d.get("reason"):
        return f"{label}: delivered to no one ({d.get('reason')})"
    if d.get("message") is None and d.get("reason") == "stationary":
        return f"{label}: stationary, nothing delivered"
    text = f"{label}: {_path(d.get('visited'))}, {_handled(d.get('handledBy'))}"
    extras = list(d.get("controlEvents") or [])
    for a in d.get("actions") or []:
        if isinstance(a, dict):
            extras.append(f"{a.get('action')} " + (f"performed by {a.get('by')}" if a.get("performed") else "not performed"))
    if extras:
        text += f" ({'; '.join(extras)})"
    if d.get("reason") and d.get("reason") != "stationary":
        text += f" [{d.get('reason')}]"
    return text


def _deliveries(deliveries: list) -> str:
    touches = {str(d.get("touch")) for d in deliveries if isinstance(d, dict)}
    label_each = len(touches) > 1
    parts = [_delivery(d, label_each) for d in deliveries if isinstance(d, dict)]
    text = "; ".join(parts)
    if not label_each and touches:
        text = f"{touches.pop()} {text}" if len(parts) > 1 else text
    return text


def describe_outcome(kind: str, outcome, steps=None) -> str:
    """One readable phrase for a trace outcome; falls back to the trace kind for shapes it does not know."""
    if not isinstance(outcome, dict):
        return kind
    # Touches: one delivery per touch and phase.
    deliveries = outcome.get("deliveries")
    if isinstance(deliveries, list):
        return _deliveries(deliveries) if deliveries else f"{kind}: no deliveries"
    # A tree change that cancelled touches or presses, or resigned first responders.
    if kind == "treeChange" or ("touches" in outcome and "resigned" in outcome):
        parts = []
        if outcome.get("touches"):
            parts.append(_deliveries(outcome["touches"]))
        for p in outcome.get("presses") or []:
            if isinstance(p, dict):
                parts.append(f"{p.get('press')} {p.get('message')}: {_path(p.get('visited'))}, {_handled(p.get('handledBy'))}")
        for r in outcome.get("resigned") or []:
            if isinstance(r, dict):
                parts.append(f"{r.get('from')} resigned (left window {r.get('window')})")
        return f"{kind}: " + ("; ".join(parts) if parts else "no consequences")
    # Actions: sendAction walks the responder chain to a target.
    if "performed" in outcome:
        actions = _steps(steps, "action")
        name = actions[-1].get("action") if actions else kind
        if outcome.get("performed"):
            verdict = f"performed by {_json(outcome.get('by'))}"
        else:
            verdict = "not performed" + (f" ({outcome['reason']})" if outcome.get("reason") else "")
        return f"{name} {_path(outcome.get('visited'))}, {verdict}"
    # Become/resign first responder.
    if "result" in outcome and ("reason" in outcome or "resigned" in outcome):
        checks = _steps(steps, "check")
        who = f" {checks[0].get('id')}" if checks and checks[0].get("id") else ""
        text = f"{kind}{who}: {_json(outcome.get('result'))}"
        if outcome.get("reason"):
            text += f" ({outcome['reason']})"
        resigned = _ids(outcome.get("resigned"))
        if resigned:
            text += f", resigned {', '.join(resigned)}"
        return text
    # Motion, remote control, presses: from a start responder up the chain.
    if "visited" in outcome or "handledBy" in outcome or "start" in outcome:
        message = outcome.get("message") or kind
        if outcome.get("press") is not None:
            message = f"{outcome.get('press')} {message}" + (f" {outcome['key']!r}" if outcome.get("key") else "")
        if outcome.get("start") is None and not _ids(outcome.get("visited")):
            return f"{message}: discarded ({_discard_reason(steps)})"
        return f"{message}: {_path(outcome.get('visited'))}, {_handled(outcome.get('handledBy'))}"
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
        return kind, describe_outcome(kind, trace.get("outcome"), trace.get("steps"))
    if stream == "focus":
        c = body.get("change") or {}
        return "focus", f"window {c.get('window')}: first responder {_json(c.get('from'))}{ARROW}{_json(c.get('to'))} ({c.get('reason')})"
    if stream == "tree":
        return "tree", describe_tree(body)
    return stream or "?", stream or "?"


def format_line(body: dict, replayed: bool = False) -> str:
    kind, text = describe_event(body)
    line = f"seq {body.get('seq'):>6}  {cause_text(body.get('cause')):<16} {kind:<13} {text}"
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
    if args.after is not None:
        print(f"# following session {args.session} after seq {args.after} (history from trace.replay)", flush=True)
    idle = IdleTimer(args.idle_exit)
    try:
        while not args.count or printed < args.count:
            if idle.expired:
                break  # --idle-exit: no session event for that long ($sys/ events do not count)
            item = follower.next(idle.wait())
            if item is None:
                continue
            if item.kind != "sys":
                idle.reset()
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
