#!/usr/bin/env python3
"""Records one session's events to a JSONL file, gap-free, and resumes where it stopped.

The file holds one JSON object per line, in seq order:

    {"snapshot": {"session": ..., "seq": S, "revision": ..., "tree": ..., ...}}   the state to start from
    {"session": ..., "stream": "tree", "seq": S+1, "revision": ..., "cause": ..., ...}   then each event as published
    {"session": ..., "stream": "trace", "seq": S+2, ...}

A new file starts with a snapshot line. Restarted on an existing file, the recorder reads the last seq in it
and fetches what it missed with trace.replay(after: that seq), so the file stays contiguous with no
duplicates. If the engine no longer holds those events (REPLAY_EXPIRED) -- or the session restarted -- it writes
a new {"snapshot": ...} line and says so loudly on stderr: the events in between are lost for good.
Each line is flushed as it is written; a half-written last line (the recorder was killed mid-write) is
dropped on restart.

    python3 clients/python/record.py default.jsonl                  # until Ctrl-C
    python3 clients/python/record.py default.jsonl --count 100      # stop after 100 events
"""

import argparse
import json
import os
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from responder_client import IdleTimer, ClientError, Connection, Follower, add_engine_arguments, discover, format_seqs  # noqa: E402


def log(message: str) -> None:
    print(f"record: {message}", file=sys.stderr, flush=True)


def line_seq(obj: dict):
    """The seq a line ends at: an event's seq, or the seq of a snapshot."""
    if "snapshot" in obj and isinstance(obj["snapshot"], dict):
        return obj["snapshot"].get("seq")
    return obj.get("seq")


def read_resume_point(path: str, session: str):
    """The seq after which to resume, or None for a new (or empty) file. Drops a torn last line."""
    if not os.path.exists(path):
        return None
    with open(path, "rb") as f:
        data = f.read()
    good_end = 0        # byte offset just past the last complete, valid line
    last = None
    pos = 0
    while pos < len(data):
        nl = data.find(b"\n", pos)
        if nl < 0:
            break  # no newline: a torn write
        raw = data[pos:nl].strip()
        if raw:
            try:
                obj = json.loads(raw)
            except ValueError:
                break
            seq = line_seq(obj)
            if not isinstance(seq, int):
                raise SystemExit(f"record: {path}: line at byte {pos} has no seq; not a recording of this tool")
            owner = obj["snapshot"].get("session") if "snapshot" in obj else obj.get("session")
            if owner is not None and owner != session:
                raise SystemExit(f'record: {path} records session "{owner}", not "{session}"; use another file '
                                 "or --session " + str(owner))
            last = seq
        good_end = nl + 1
        pos = nl + 1
    if good_end < len(data):
        log(f"dropping a torn last line of {path} ({len(data) - good_end} bytes after byte {good_end})")
        with open(path, "r+b") as f:
            f.truncate(good_end)
    return last


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("output", help="the JSONL file to write (appended to, and resumed from, if it exists)")
    add_engine_arguments(parser)
    parser.add_argument("--until-seq", type=int, default=0, help="stop once the event with this seq is written")
    parser.add_argument("--count", type=int, default=0, help="stop after writing this many events (this run)")
    parser.add_argument("--idle-exit", type=float, default=0.0, help="stop after this many seconds without events (0: never)")
    args = parser.parse_args(argv)

    # SIGTERM stops like Ctrl-C: every written line is already flushed.
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))

    resume_after = read_resume_point(args.output, args.session)
    try:
        conn = Connection(discover(args.name, args.dir))
        conn.hello("record", kind="recorder")
        follower = Follower(conn, args.session, after=resume_after)
    except ClientError as e:
        log(str(e))
        return 1

    if resume_after is None:
        log(f"recording session {args.session} to {args.output}")
    else:
        log(f"resuming {args.output} after seq {resume_after}")

    written = 0
    first_seq = None
    last_seq = resume_after
    out = open(args.output, "a", encoding="utf-8")

    def write(obj: dict) -> None:
        out.write(json.dumps(obj, separators=(",", ":"), ensure_ascii=False) + "\n")
        out.flush()

    idle = IdleTimer(args.idle_exit)
    try:
        while True:
            if args.until_seq and last_seq is not None and last_seq >= args.until_seq:
                break
            if args.count and written >= args.count:
                break
            if idle.expired:
                break  # --idle-exit: no session event for that long ($sys/ events do not count)
            item = follower.next(idle.wait())
            if item is None:
                continue
            if item.kind != "sys":
                idle.reset()
            if item.kind == "snapshot":
                write({"snapshot": item.snapshot})
                last_seq = item.snapshot["seq"]
                if item.resnapshot:
                    log("!" * 72)
                    log(f"!!! GAP IN THE RECORDING: {item.describe()}")
                    log(f"!!! wrote a new snapshot line at seq {last_seq} to {args.output}"
                        + (f"; events seq {format_seqs(*item.lost)} are not in the file" if item.lost else ""))
                    log("!" * 72)
                else:
                    log(f"wrote the starting snapshot (seq {last_seq}, revision {item.snapshot.get('revision')})")
            elif item.kind == "recovered":
                log(item.describe())
            elif item.kind == "event":
                body = item.event.body
                write(body)
                last_seq = body["seq"]
                first_seq = first_seq if first_seq is not None else last_seq
                written += 1
    except KeyboardInterrupt:
        pass
    except ClientError as e:
        log(str(e))
        return 1
    finally:
        out.close()
        follower.close()
        conn.close()
    span = f" (seq {format_seqs(first_seq, last_seq)})" if written else ""
    log(f"wrote {written} event{'s' if written != 1 else ''}{span} to {args.output}; last seq {last_seq}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
