#!/usr/bin/env python3
"""Sample subscriber: prints the events of one session and warns when seqs are missing.

Finds the engine through its discovery file (--name, --dir; RESPONDER_RPC + RESPONDER_EVENTS override),
subscribes to "<session>/" and "$sys/", waits for the $sys/welcome, reads the session's current seq from
session.snapshot and then prints every event. Session events carry a seq that grows by exactly 1 per event
(across all streams), so a jump -- or a $sys/tick naming a later seq than the last one seen -- means events were
lost (e.g. this subscriber was too slow and its queue overflowed). This sample only *reports* the loss; see
trace_tail.py and record.py for recovering it with trace.replay.

    python3 clients/python/subscriber.py --session default
"""

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from responder_client import (IdleTimer, ClientError, Connection, Subscriber, add_engine_arguments, discover,  # noqa: E402
                              format_seqs)


def summary(body: dict, width: int) -> str:
    rest = {k: v for k, v in body.items() if k not in ("session", "stream", "seq", "revision", "cause")}
    text = json.dumps(rest, separators=(",", ":"))
    return text if width <= 0 or len(text) <= width else text[: width - 1] + "\u2026"


def cause_text(cause) -> str:
    if not isinstance(cause, dict):
        return "-"
    client, request = cause.get("client"), cause.get("request")
    return f"{client}#{request}" if request is not None else str(client)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_engine_arguments(parser)
    parser.add_argument("--rcvhwm", type=int, default=0, help="receive high-water mark (0: unlimited)")
    parser.add_argument("--slow", type=float, default=0.0, help="sleep this many seconds after each event (to provoke loss)")
    parser.add_argument("--count", type=int, default=0, help="exit after this many session events (0: run until Ctrl-C)")
    parser.add_argument("--idle-exit", type=float, default=0.0, help="exit after this many seconds without any event (0: never)")
    parser.add_argument("--width", type=int, default=160, help="truncate each event's payload to this many characters (0: never)")
    parser.add_argument("--ticks", action="store_true", help="print $sys/tick events too")
    args = parser.parse_args(argv)

    try:
        address = discover(args.name, args.dir)
        conn = Connection(address)
        sub = Subscriber(address, [f"{args.session}/"], rcvhwm=args.rcvhwm)
        # Subscribed first, snapshot second: every event after this seq reaches us (unless we drop it).
        snap = conn.call("session.snapshot", {"session": args.session})
    except ClientError as e:
        print(f"subscriber: {e}", file=sys.stderr)
        return 1
    last = snap["seq"]
    print(f"joined session {args.session} at seq {last} (revision {snap['revision']}) via {address.source}", flush=True)

    missed_total = 0
    seen = 0

    def warn_gap(first: int, through: int, how: str) -> None:
        nonlocal missed_total
        n = through - first + 1
        missed_total += n
        print(f"WARNING: missed seq {format_seqs(first, through)} ({n} event{'s' if n != 1 else ''}) on session "
              f"{args.session} [{how}]; use trace.replay to recover them (see trace_tail.py)", file=sys.stderr, flush=True)

    idle = IdleTimer(args.idle_exit)
    try:
        while True:
            if idle.expired:
                break  # --idle-exit: no session event for that long ($sys/ events do not count)
            event = sub.next(idle.wait())
            if event is None:
                continue
            if not event.is_sys:
                idle.reset()
            if event.is_sys:
                if event.topic == "$sys/tick":
                    latest = (event.body.get("sessions") or {}).get(args.session)
                    if isinstance(latest, int) and latest > last:
                        warn_gap(last + 1, latest, f"$sys/tick shows seq {latest}")
                        last = latest
                    if args.ticks:
                        print(f"tick {json.dumps(event.body.get('sessions'))}", flush=True)
                else:
                    print(f"{event.topic} {json.dumps(event.body)}", flush=True)
                continue
            seq = event.seq
            if event.session != args.session or not isinstance(seq, int) or seq <= last:
                continue
            if seq > last + 1:
                warn_gap(last + 1, seq - 1, f"got seq {seq} after {last}")
            last = seq
            seen += 1
            body = event.body
            print(f"seq {seq:>6}  {event.topic:<20} rev {body.get('revision')}  cause {cause_text(body.get('cause'))}  "
                  f"{summary(body, args.width)}", flush=True)
            if args.slow:
                time.sleep(args.slow)
            if args.count and seen >= args.count:
                break
    except KeyboardInterrupt:
        pass
    finally:
        sub.close()
        conn.close()
    print(f"done: {seen} events printed, last seq {last}, {missed_total} missed", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
