"""The MCP tools for what a person does besides a tap — `drag`, `long_press`, `touch`, `advance_clock` — and
`dry_run` on every tool that dispatches, driven by the official Python MCP SDK against a real engine: each
tool's structured content is the engine's reply and the trace published; its text says the outcome first with
display names and points to the traces resource; a dry run changes nothing and publishes nothing."""

from __future__ import annotations

import json

import pytest

from harness import new_session, unique_name
from stdio_harness import mcp_session, target_args
from test_import_variants import CONTROLLERS, SIGN_IN, SIGN_IN_LABEL, VIEWS
from test_mcp import failed, ok, raw, run

pytestmark = pytest.mark.filterwarnings("ignore:resources/subscribe is removed")

DISPATCHING = ["tap", "send_action", "choose_menu_item", "become_first_responder", "drag", "long_press", "touch", "advance_clock"]


def last_seq(client, s: str) -> int:
    return raw(client, "trace.replay", session=s, after=1 << 52)["seq"]


def test_the_input_tools_are_listed_with_dry_run_on_each_dispatching_tool(engine):
    async def body():
        async with mcp_session(target_args(engine)) as m:
            tools = {t.name: t for t in (await m.list_tools()).tools}
            for name in ["drag", "long_press", "touch", "advance_clock"]:
                assert name in tools and len(tools[name].description) > 200, name
                assert tools[name].annotations.read_only_hint is False, name
            for name, tool in tools.items():
                has = "dry_run" in tool.input_schema["properties"]
                assert has == (name in DISPATCHING), name
            assert tools["drag"].input_schema["required"] == ["x1", "y1", "x2", "y2"]
            assert tools["long_press"].input_schema["required"] == ["x", "y"]
            assert tools["touch"].input_schema["required"] == ["touches"]
    run(body)


def test_drag_long_press_touch_and_advance_clock_against_a_real_engine(engine, client):
    s = new_session(client, "mcpin")
    traces = engine.subscriber(f"{s}/trace")

    async def body():
        async with mcp_session(target_args(engine)) as m:
            # A hold on the card: its long-press recognizer begins once 0.5 s have passed, then ends (G2, G3).
            text, held = ok(await m.call_tool("long_press", {"x": 30, "y": 300, "duration": 1, "session": s}))
            assert traces.next(f"{s}/trace", validate=False)[1]["trace"] == held["trace"]
            assert [d["phase"] for d in held["deliveries"]] == ["began", "ended"]
            assert held["deliveries"][0]["touch"] == "hold-1"
            sent = [a for d in held["deliveries"] for a in d.get("gestureActions", [])]
            assert sent and sent[0]["recognizer"] == "cardHold" and sent[0]["action"] == "cardLongPressed:", held
            lines = text.splitlines()
            assert lines[0].startswith(f"long press at (30, 300) for 1 s as touch hold-1 (seq "), text
            assert "cardHold" in text and "cardLongPressed:" in text, text
            assert f"full trace: responder://{s}/traces" in text and "rules: " in text, text
            assert raw(client, "session.snapshot", session=s)["clock"] == 1

            # A drag across the card: began, ten moves, ended, over 0.25 s from the clock.
            text, drag = ok(await m.call_tool("drag", {"x1": 30, "y1": 300, "x2": 200, "y2": 300, "session": s}))
            assert traces.next(f"{s}/trace", validate=False)[1]["trace"] == drag["trace"]
            assert [d["phase"] for d in drag["deliveries"]] == ["began"] + ["moved"] * 10 + ["ended"]
            assert drag["deliveries"][0]["view"] == "card" and drag["deliveries"][0]["touch"] == "drag-1"
            assert text.startswith("drag (30, 300) → (200, 300) over 0.25 s as touch drag-1 (seq "), text
            moved = [l for l in text.splitlines() if "touch drag-1 moved" in l]
            # The first move makes the recognizers fail (said under it); the nine after it went the same way.
            assert len(moved) == 2 and moved[1].endswith("(×9)"), f"moves the same way read as one line: {text}"
            assert raw(client, "session.snapshot", session=s)["clock"] == 1.25

            # touch: phases as given; a touch left down stays live, and the next drag takes another id.
            text, down = ok(await m.call_tool("touch", {"touches": [{"touch": "f", "phase": "began",
                                                                     "point": [100, 150]}], "session": s}))
            assert traces.next(f"{s}/trace", validate=False)[1]["trace"] == down["trace"]
            assert down["deliveries"][0]["view"] == "button" and text.startswith("touch: 1 entry (seq "), text
            assert "touchDown" in text, text
            text, err = failed(await m.call_tool("touch", {"touches": [{"touch": "f", "phase": "began",
                                                                       "point": [1, 1]}], "session": s}))
            assert "TOUCH_IN_USE" in text, text
            text, up = ok(await m.call_tool("touch", {"touches": [{"touch": "f", "phase": "ended"}], "session": s}))
            assert traces.next(f"{s}/trace", validate=False)[1]["trace"] == up["trace"]
            assert up["deliveries"][0]["actions"][0]["by"] == "rootVC", up
            assert "buttonTapped:" in text and "rootVC" in text, text
            text, err = failed(await m.call_tool("touch", {"session": s}))
            assert err["error"]["data"]["field"] == "touches", text

            # advance_clock: by or to, never both; what fell due is said.
            text, clock = ok(await m.call_tool("advance_clock", {"by": 2, "session": s}))
            assert traces.next(f"{s}/trace", validate=False)[1]["trace"] == clock["trace"]
            assert (clock["from"], clock["time"]) == (1.25, 3.25), clock
            assert text.startswith("clock 1.25 s → 3.25 s (seq ") and "no deadline fell due" in text, text
            text, err = failed(await m.call_tool("advance_clock", {"by": 1, "to": 9, "session": s}))
            assert err["error"]["data"]["field"] == "to", text
            text, err = failed(await m.call_tool("advance_clock", {"to": 1, "session": s}))
            assert "INVALID_PARAMS" in text and err["error"]["data"]["field"] == "to", text
            text, err = failed(await m.call_tool("drag", {"x1": 1, "y1": 1, "x2": 2, "session": s}))
            assert err["error"]["data"]["field"] == "y2", text
    run(body)


def test_dry_run_on_every_dispatching_tool_changes_nothing_and_publishes_nothing(engine, client):
    s = new_session(client, "mcpdry")
    calls = [
        ("tap", {"x": 100, "y": 150}),
        ("tap", {"view": "button"}),
        ("send_action", {"action": "copy:", "sender": "button"}),
        ("become_first_responder", {"id": "textField"}),
        ("drag", {"x1": 30, "y1": 300, "x2": 200, "y2": 300}),
        ("long_press", {"x": 30, "y": 300}),
        ("touch", {"touches": [{"touch": 1, "phase": "began", "point": [100, 150]}]}),
        ("advance_clock", {"by": 5}),
    ]

    async def body():
        async with mcp_session(target_args(engine)) as m:
            before = raw(client, "session.snapshot", session=s)
            seq = last_seq(client, s)
            for name, args in calls:
                text, reply = ok(await m.call_tool(name, {**args, "dry_run": True, "session": s}))
                assert reply["dryRun"] is True, (name, reply)
                assert text.startswith("dry run: nothing changed and nothing was published\n"), text
                assert "responder://" not in text, "a dry run has no published trace to point at"
                assert last_seq(client, s) == seq, f"{name} published"
                after = raw(client, "session.snapshot", session=s)
                assert after == before, f"{name} changed the session"
            # What a dry run answers is what the real call does.
            text, dry = ok(await m.call_tool("become_first_responder", {"id": "textField", "dry_run": True,
                                                                        "session": s}))
            text, real = ok(await m.call_tool("become_first_responder", {"id": "textField", "session": s}))
            assert (dry["result"], dry["reason"]) == (real["result"], real["reason"]) == (True, "became")
            text, err = failed(await m.call_tool("why_not", {"view": "button", "dry_run": True, "session": s}))
            assert err["error"]["data"]["field"] == "dry_run", "a query takes no dry_run"
            text, err = failed(await m.call_tool("tap", {"x": 1, "y": 1, "dry_run": "yes", "session": s}))
            assert err["error"]["data"]["field"] == "dry_run", text
    run(body)


def test_an_agent_creates_a_session_imports_asks_why_not_taps_by_id_and_reads_the_traces(engine, client):
    """The whole hour of an agent on an imported screen: nodes named as a developer knows them, a dry run
    first, then the tap, a long press and a drag, and the traces resource holding exactly what was done."""
    s = unique_name("mcpagent")[:64]

    async def body():
        async with mcp_session(target_args(engine)) as m:
            ok(await m.call_tool("create_session", {"session": s}))
            ok(await m.call_tool("import_hierarchy", {"text": VIEWS + CONTROLLERS, "session": s}))
            text, why = ok(await m.call_tool("why_not", {"view": SIGN_IN_LABEL, "session": s}))
            assert why["ok"] is False and why["cause"]["culprit"] == SIGN_IN_LABEL, why
            text, why = ok(await m.call_tool("why_not", {"view": SIGN_IN, "session": s}))
            assert why["ok"] is True, why
            x, y = why["hittable"]["point"]

            text, dry = ok(await m.call_tool("tap", {"view": SIGN_IN, "dry_run": True, "session": s}))
            assert dry["dryRun"] is True and text.startswith("dry run:"), text
            text, tap = ok(await m.call_tool("tap", {"view": SIGN_IN, "session": s}))
            assert tap["deliveries"][0]["view"] == SIGN_IN and "touchUpInside" in text, text

            text, held = ok(await m.call_tool("long_press", {"x": x, "y": y, "duration": 0.2, "session": s}))
            assert held["deliveries"][0]["view"] == SIGN_IN
            assert f'{SIGN_IN} (UIButton "Sign in")' in text, f"the button by its display name: {text}"
            text, drag = ok(await m.call_tool("drag", {"x1": x, "y1": y, "x2": x + 5, "y2": y, "steps": 2,
                                                       "duration": 0.1, "session": s}))
            assert [d["phase"] for d in drag["deliveries"]] == ["began", "moved", "moved", "ended"]

            doc = json.loads((await m.read_resource(f"responder://{s}/traces")).contents[0].text)
            seqs = [t["seq"] for t in doc["traces"]]
            assert seqs == [tap["seqRange"][0], held["seqRange"][0], drag["seqRange"][0]], (seqs, doc)
            assert [t["trace"]["kind"] for t in doc["traces"]] == ["touch"] * 3
            assert all(t["cause"]["client"] == "mcp:pytest-mcp" for t in doc["traces"])
    run(body)
