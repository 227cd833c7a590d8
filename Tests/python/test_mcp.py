"""`responder mcp` driven by the official Python MCP SDK over stdio, against a real engine shared with
pyzmq clients and `responder watch`: initialize, the tools and their schemas, each tool's text and structured
content, errors as isError results naming the field, resources with subscriptions, a missing engine, and a tap
made through MCP showing up in `watch` with its cause naming the MCP client."""

from __future__ import annotations

import base64
import json
import shutil
import struct
import subprocess
import time
import xml.etree.ElementTree as ET

import anyio
import anyio.to_thread
import mcp  # noqa: F401  (the official Python SDK, the client under test: pip install mcp)
import pytest

from harness import DEMO_WORLD, PATIENCE, SCHEMAS, demo_tree, find, new_session, unique_name
from stdio_harness import mcp_session, responder_path, target_args
from test_import_variants import CELL_LABEL, CONTROLLERS, SIGN_IN, SIGN_IN_LABEL, SWITCH, VIEWS

# The SDK warns that resources/subscribe is gone from its newest (stateless) protocol revision; this server
# speaks the handshake revisions (2025-11-25), where it is how a client hears of changes.
pytestmark = pytest.mark.filterwarnings("ignore:resources/subscribe is removed")

TOOLS = ["hit_test", "why_not", "tap", "responder_chain", "send_action", "choose_menu_item",
         "can_perform", "become_first_responder",
         "get_world", "apply_ops", "load_world", "create_session", "import_hierarchy", "drag", "long_press", "touch",
         "advance_clock", "draw", "compare"]


def run(fn):
    """Runs an async test body (anyio comes with the MCP SDK), failing rather than hanging."""
    async def bounded():
        with anyio.fail_after(4 * PATIENCE):
            return await fn()
    return anyio.run(bounded)


def ok(result) -> tuple[str, dict]:
    """The text and structured content of a successful tool result."""
    text = "\n".join(c.text for c in result.content if c.type == "text")
    assert not result.is_error, f"tool failed: {text}"
    return text, result.structured_content


def raw(client, method: str, **params):
    """The engine's result, unvalidated: the tools hand it on unchanged, whatever revision of the schemas."""
    resp = client.rpc(method, params, validate=False)
    assert "result" in resp, resp
    return resp["result"]


def failed(result) -> tuple[str, dict]:
    text = "\n".join(c.text for c in result.content if c.type == "text")
    assert result.is_error, f"expected an error, got: {text}"
    return text, result.structured_content


# ----------------------------------------------------------------------------------------------- tools

def test_initialize_lists_every_tool_with_a_schema_and_a_description(engine):
    common = SCHEMAS.documents["common.json"]["$defs"]

    async def body():
        async with mcp_session(target_args(engine)) as s:
            assert s.server_info.name == "responder"
            caps = s.server_capabilities
            assert caps.tools is not None and caps.resources is not None and caps.resources.subscribe is True
            assert "rule" in (s.instructions or "")
            tools = (await s.list_tools()).tools
            assert [t.name for t in tools] == TOOLS
            for t in tools:
                schema = t.input_schema
                assert len(t.description) > 200, f"{t.name}: a description a model can act on"
                assert schema["type"] == "object" and schema["additionalProperties"] is False, t.name
                assert set(schema["required"]) <= set(schema["properties"]), t.name
                # Derived from the protocol's own definitions, and still agreeing with them.
                assert schema["properties"]["session"]["pattern"] == common["sessionName"]["pattern"], t.name
                for name, prop in schema["properties"].items():
                    if name in ("id", "target", "sender", "subtree"):
                        assert (prop["minLength"], prop["maxLength"]) == \
                            (common["nodeId"]["minLength"], common["nodeId"]["maxLength"]), f"{t.name}.{name}"
            by_name = {t.name: t for t in tools}
            assert by_name["hit_test"].input_schema["required"] == ["x", "y"]
            assert by_name["hit_test"].annotations.read_only_hint is True
            assert by_name["tap"].annotations.read_only_hint is False
            send = SCHEMAS.documents["methods/action.send.params.json"]["properties"]
            assert by_name["send_action"].input_schema["properties"]["action"]["minLength"] == send["action"]["minLength"]
    run(body)


def test_every_tool_against_a_real_engine(engine, client, tmp_path):
    """Each tool's structured content is the engine's reply, unchanged: the same as a direct request for the
    queries, the same trace as the published event for the dispatching tools."""
    s = new_session(client, "mcp")
    traces = engine.subscriber(f"{s}/trace")

    async def body():
        async with mcp_session(target_args(engine)) as m:
            # hit_test: the same reply as the engine's own hitTest, and text naming the view and the rules.
            text, hit = ok(await m.call_tool("hit_test", {"x": 60, "y": 150, "session": s}))
            assert hit == raw(client, "hitTest", session=s, point=[60, 150])
            assert "hit button in window window" in text and "H2" in text and "outside-bounds" in text, text

            text, tap = ok(await m.call_tool("tap", {"x": 60, "y": 150, "session": s}))
            assert traces.next(f"{s}/trace", validate=False)[1]["trace"] == tap["trace"]
            assert tap["deliveries"][1]["actions"][0]["by"] == "rootVC"
            assert "touchUpInside" in text and "buttonTapped: → rootVC" in text, text
            assert "rules: H2, H3, T3" in text, text

            text, chain = ok(await m.call_tool("responder_chain", {"id": "textField", "session": s}))
            assert chain["chain"] == ["textField", "card", "root", "rootVC", "window", "app", "delegate"]
            assert "rootVC → window N2" in text and "rules: N1, N2, N3" in text, text

            # can_perform: who would, changing nothing (no trace is published).
            text, can = ok(await m.call_tool("can_perform", {"action": "buttonTapped:", "sender": "button", "session": s}))
            assert can == raw(client, "action.canPerform", session=s, action="buttonTapped:", sender="button")
            assert can["available"] is True and can["by"] == "rootVC", can
            assert text.startswith("buttonTapped: button → ") and "available: rootVC would perform it" in text, text

            text, become = ok(await m.call_tool("become_first_responder", {"id": "textField", "session": s}))
            assert traces.next(f"{s}/trace", validate=False)[1]["trace"] == become["trace"]
            assert become["result"] is True and become["reason"] == "became"
            assert "textField became first responder" in text and "F2" in text, text
            assert raw(client, "responder.first", session=s) == "textField"

            text, action = ok(await m.call_tool("send_action", {"action": "copy:", "session": s}))
            assert traces.next(f"{s}/trace", validate=False)[1]["trace"] == action["trace"]
            assert action["performed"] is True and action["by"] == "textField"
            assert "copy: textField, performed by textField" in text and "A4" in text, text

            # choose_menu_item: under uikit the menu command's nil-target action, from the first responder.
            text, menu = ok(await m.call_tool("choose_menu_item", {"item": "copy:", "session": s}))
            assert traces.next(f"{s}/trace", validate=False)[1]["trace"] == menu["trace"]
            assert (menu["performed"], menu["by"]) == (True, "textField")
            assert "copy: textField, performed by textField" in text, text

            text, world = ok(await m.call_tool("get_world", {"session": s}))
            assert world == raw(client, "session.snapshot", session=s)
            assert world["firstResponders"] == {"window": "textField"}
            assert "button  control  UIButton" in text and "[★ first responder, editing]" in text, text
            text, card = ok(await m.call_tool("get_world", {"session": s, "subtree": "card"}))
            assert card == raw(client, "tree.get", session=s, id="card") and text.splitlines()[1].startswith("card  view  UIView"), text

            ops = [{"op": "insert", "parent": "card", "node": {"id": "badge", "kind": "view", "frame": [8, 8, 24, 24]}}]
            text, applied = ok(await m.call_tool("apply_ops", {"ops": ops, "session": s}))
            assert applied["revision"] == raw(client, "tree.get", session=s)["revision"]
            assert f"applied 1 op to {s}: revision {applied['revision']}" in text, text
            assert raw(client, "tree.get", session=s, id="badge")["tree"]["frame"] == [8, 8, 24, 24]

            small = {"id": "app", "kind": "application", "children": [{"id": "W", "kind": "window", "key": True}]}
            text, loaded = ok(await m.call_tool("load_world", {"tree": small, "session": s}))
            assert f"loaded 2 nodes into {s}" in text, text
            assert [c["id"] for c in raw(client, "tree.get", session=s)["tree"]["children"]] == ["W"]
            world_file = tmp_path / "world.json"
            world_file.write_text(json.dumps({"tree": demo_tree()}))
            text, loaded = ok(await m.call_tool("load_world", {"file": str(world_file), "session": s}))
            assert f"from {world_file}" in text and loaded["revision"] > 0, text
            assert raw(client, "tree.get", session=s, id="textField")["tree"]["kind"] == "textField"

            # import_hierarchy: lldb's dumps become the world; ids are the addresses; a bad line is reported.
            dump = "\n".join([
                "<UIWindow: 0x7f01; frame = (0 0; 390 844); gestureRecognizers = <NSArray: 0x6001>; layer = <UIWindowLayer: 0x6002>>",
                "   | <UIView: 0x7f02; frame = (0 0; 390 844); layer = <CALayer: 0x6003>>",
                "   |    | <MyApp.AvatarView: 0x7f03; frame = (20 100; 80 80); layer = <CALayer: 0x6004>>",
                "   |    |    | <UIButton: 0x7f04; frame = (10 10; 60 30); opaque = NO; layer = <CALayer: 0x6005>>",
                "   |    | this line is not a view",
                "<UIViewController 0x7e01>, state: appeared, view: <UIView 0x7f02>",
            ])
            text, imported = ok(await m.call_tool("import_hierarchy", {"text": dump, "session": s}))
            assert f"imported" in text and "skipped lines:" in text and "text:5:" in text, text
            assert "6 nodes: 1 window, 1 controller, 1 control" in text, text
            assert imported["revision"] == raw(client, "tree.get", session=s)["revision"]
            hit = raw(client, "hitTest", session=s, point=[45, 125])
            assert hit["view"] == "0x7f04", hit
            chain = raw(client, "responderChain", session=s, id="0x7f04")["chain"]
            assert chain[:4] == ["0x7f04", "0x7f03", "0x7f02", "0x7e01"], chain
            text, err = failed(await m.call_tool("import_hierarchy", {"text": "nothing to see", "session": s}))
            assert err["error"]["data"]["field"] == "text", text
    run(body)


def test_draw_gives_the_svg_as_text_and_the_png_as_an_image_with_why_not_drawn(engine, client):
    s = new_session(client, "mcpdraw")
    svg_ns = "{http://www.w3.org/2000/svg}"
    seq = raw(client, "session.snapshot", session=s)["seq"]

    async def body():
        async with mcp_session(target_args(engine)) as m:
            result = await m.call_tool("draw", {"session": s, "why": "photoButton"})
            assert not result.is_error, result.content
            texts = [c.text for c in result.content if c.type == "text"]
            svg = [t for t in texts if t.startswith("<svg")]
            assert len(svg) == 1, "the SVG as text"
            root = ET.fromstring(svg[0])
            (group,) = [g for g in root.iter(f"{svg_ns}g") if g.get("class") == "why"]
            answer = raw(client, "whyNot", session=s, view="photoButton")
            assert (group.get("data-culprit"), group.get("data-rule")) == ("photo", "K1") == \
                (answer["cause"]["culprit"], answer["cause"]["rule"])
            # The words are why_not's own, first in the result for the model to read.
            why_text, _ = ok(await m.call_tool("why_not", {"session": s, "view": "photoButton"}))
            assert texts[0].splitlines()[:2] == why_text.splitlines()[:2], (texts[0], why_text)
            structured = result.structured_content
            assert structured["whyNot"]["cause"] == answer["cause"] and structured["svgBytes"] == len(svg[0].encode())
            images = [c for c in result.content if c.type == "image"]
            if shutil.which("chromium"):
                (image,) = images
                png = base64.b64decode(image.data)
                assert image.mime_type == "image/png" and png[:8] == b"\x89PNG\r\n\x1a\n"
                assert struct.unpack(">II", png[16:24]) == (structured["width"], structured["height"]) != (0, 0)
                assert structured["png"] is True
            else:
                assert not images and "no PNG" in texts[0]
            # A hit test drawn instead, and why with x and y refused naming the argument.
            text, hit = ok(await m.call_tool("draw", {"session": s, "x": 60, "y": 150}))
            assert "hit button at (60, 150)" in text, text
            text, _ = failed(await m.call_tool("draw", {"session": s, "x": 60, "y": 150, "why": "button"}))
            assert "why" in text
            assert raw(client, "session.snapshot", session=s)["seq"] == seq, "drawing changed nothing"

    run(body)


def test_engine_errors_are_tool_errors_naming_the_error_and_the_field(engine, client):
    s = new_session(client, "mcperr")
    before = raw(client, "tree.get", session=s)["revision"]

    async def body():
        async with mcp_session(target_args(engine)) as m:
            typo = [{"op": "update", "id": "button", "set": {"hiden": True}}]
            text, err = failed(await m.call_tool("apply_ops", {"ops": typo, "session": s}))
            assert "INVALID_NODE" in text and "field: ops[0].set.hiden" in text, text
            assert err["error"]["data"] == {"name": "INVALID_NODE", "field": "ops[0].set.hiden", "id": "button", "opIndex": 0}
            assert raw(client, "tree.get", session=s)["revision"] == before, "a failed batch changes nothing"

            # The engine's `id` is get_world's `subtree`: the error names the argument the model gave.
            text, err = failed(await m.call_tool("get_world", {"subtree": "nope", "session": s}))
            assert "NODE_NOT_FOUND" in text and err["error"]["data"]["field"] == "subtree", text

            text, err = failed(await m.call_tool("tap", {"x": 1, "y": 2, "session": "no-such-session"}))
            assert "SESSION_NOT_FOUND" in text and err["error"]["data"]["field"] == "session", text

            # Arguments are read as strictly as the engine reads params.
            text, err = failed(await m.call_tool("hit_test", {"x": "left", "y": 2, "session": s}))
            assert err["error"]["data"] == {"name": "INVALID_PARAMS", "field": "x"} and "field: x" in text, text
            text, err = failed(await m.call_tool("responder_chain", {"id": "card", "depth": 3, "session": s}))
            assert err["error"]["data"]["field"] == "depth", text
            text, err = failed(await m.call_tool("load_world", {"session": s}))
            assert err["error"]["data"]["field"] == "tree", text
            text, err = failed(await m.call_tool("become_first_responder", {"session": s}))
            assert err["error"]["data"]["field"] == "id", text
    run(body)


# ----------------------------------------------------------------------------------------------- the target question

def test_an_agent_imports_a_dump_into_its_own_session_asks_why_not_and_taps_by_id(engine, client):
    """The first hour of an agent: a session of its own, the app's screen from lldb, why a view does not get
    the tap (its culprit and rule), a tap on a view by id where the tap is its own, and the traces it made."""
    s = unique_name("mcpwhy")[:64]

    async def body():
        async with mcp_session(target_args(engine)) as m:
            text, created = ok(await m.call_tool("create_session", {"session": s}))
            assert created["session"] == s and f"created session {s} with 1 node" in text, text
            text, err = failed(await m.call_tool("create_session", {"session": s}))
            assert "SESSION_EXISTS" in text and err["error"]["data"]["field"] == "session", text
            text, err = failed(await m.call_tool("create_session", {}))
            assert err["error"]["data"]["field"] == "session", "the default session exists already: a name is needed"

            text, imported = ok(await m.call_tool("import_hierarchy", {"text": VIEWS + CONTROLLERS, "session": s}))
            assert f"into {s}: revision" in text and "a new session" not in text, text
            assert imported["revision"] == raw(client, "tree.get", session=s)["revision"]

            # A label UIKit prints with userInteractionEnabled = NO: the label itself is to blame (H2).
            text, why = ok(await m.call_tool("why_not", {"view": SIGN_IN_LABEL, "session": s}))
            assert why == raw(client, "whyNot", session=s, view=SIGN_IN_LABEL), "the engine's answer, unchanged"
            assert why["ok"] is False and why["hittable"] == {"fraction": 0, "point": None}
            assert (why["cause"]["rule"], why["cause"]["reason"], why["cause"]["culprit"]) == \
                ("H2", "interaction-disabled", SIGN_IN_LABEL), why
            lines = text.splitlines()
            # Views are named as the CLI names them: the address and the display name the import kept.
            label = f'{SIGN_IN_LABEL} (UIButtonLabel "Sign in")'
            assert lines[0].startswith(f"{label}: not ok (H2, interaction-disabled): "), text
            assert lines[-1] == "hittable nowhere", text
            # The same question at a point, and one about an action: the arguments reach the engine.
            text, at = ok(await m.call_tool("why_not", {"view": CELL_LABEL, "x": 60, "y": 122, "session": s}))
            assert at == raw(client, "whyNot", session=s, view=CELL_LABEL, point=[60, 122]) and at["ok"] is False
            text, err = failed(await m.call_tool("why_not", {"view": CELL_LABEL, "x": 60, "session": s}))
            assert err["error"]["data"]["field"] == "y", text
            text, err = failed(await m.call_tool("why_not", {"view": "0xnope", "session": s}))
            assert "NODE_NOT_FOUND" in text and err["error"]["data"]["field"] == "view", text

            # A tap on the label's view is no tap: the answer is why not, and nothing is published.
            before = raw(client, "trace.replay", session=s, after=1 << 52)["seq"]
            text, declined = failed(await m.call_tool("tap", {"view": SIGN_IN_LABEL, "session": s}))
            assert text.splitlines()[0] == f"did not tap {label}: no point of it is a tap its own", text
            assert "(H2, interaction-disabled)" in text and declined == why, text
            assert raw(client, "trace.replay", session=s, after=1 << 52)["seq"] == before, "nothing was tapped"

            # The button around it is tappable: tapped by id where the tap is its own.
            text, asked = ok(await m.call_tool("why_not", {"view": SIGN_IN, "session": s}))
            button = f'{SIGN_IN} (UIButton "Sign in")'
            assert asked["ok"] is True and asked["cause"] is None and text.startswith(f"{button}: ok"), text
            x, y = asked["hittable"]["point"]
            text, tap = ok(await m.call_tool("tap", {"view": SIGN_IN, "session": s}))
            assert text.startswith(f"tap at ({x:.10g}, {y:.10g}) on {SIGN_IN}"), text
            assert f"touch tap-1 began on {button}: " in text and "touchUpInside" in text, text
            assert tap["trace"]["kind"] == "touch" and tap["trace"]["steps"][0]["point"] is not None
            text, err = failed(await m.call_tool("tap", {"view": SIGN_IN, "x": 1, "y": 1, "session": s}))
            assert err["error"]["data"]["field"] == "view", text

            # The traces resource holds that tap, caused by this client.
            traces = json.loads((await m.read_resource(f"responder://{s}/traces")).contents[0].text)
            assert [t["seq"] for t in traces["traces"]] == [tap["seqRange"][0]], traces
            assert traces["traces"][0]["cause"]["client"] == "mcp:pytest-mcp" and "note" not in traces
    run(body)


def test_import_hierarchy_creates_the_session_it_names(engine, client):
    s = unique_name("mcpnew")[:64]

    async def body():
        async with mcp_session(target_args(engine)) as m:
            text, imported = ok(await m.call_tool("import_hierarchy", {"text": VIEWS + CONTROLLERS, "session": s}))
            assert f"into a new session {s}: revision" in text, text
            assert raw(client, "hitTest", session=s, point=[340, 121])["view"] == SWITCH
            # A load that waits on a revision is only a load: there is no session to wait on.
            other = unique_name("mcpnone")[:64]
            text, err = failed(await m.call_tool("import_hierarchy",
                                                 {"text": VIEWS, "session": other, "ifRevision": 1}))
            assert "SESSION_NOT_FOUND" in text, text
    run(body)


def test_imported_recognizers_and_targets_through_mcp_and_answers_name_views_by_display_name(engine, client):
    """import_hierarchy reads the recognizer and target sections as `responder import` does, says what the dump
    does not show, and every answer names the imported views by their display names, as the CLI does."""
    from test_import_recognizers import CHIP, LINK_LABEL, OBJC_TARGETS, SETTINGS_VC, descriptions, objc_recognizers
    s = unique_name("mcpnames")[:64]
    text_in = VIEWS + CONTROLLERS + objc_recognizers(LINK_LABEL, descriptions()) + OBJC_TARGETS

    async def body():
        async with mcp_session(target_args(engine)) as m:
            text, _ = ok(await m.call_tool("import_hierarchy", {"text": text_in, "session": s}))
            assert "3 recognizers, 2 control targets" in text, text
            assert "5 views have gesture recognizers whose kinds the dump does not show" in text, text
            assert [r["id"] for r in raw(client, "tree.get", session=s, id=LINK_LABEL)["tree"]["gestureRecognizers"]] \
                == ["0x600003a0c000", "0x600003a0c100", "0x600003a0c200"]
            chip = f"{CHIP} (MyApp.ThemeChip)"
            text, _ = ok(await m.call_tool("hit_test", {"x": 300, "y": 620, "session": s}))
            assert text.splitlines()[0].startswith(f"hit {chip} in window 0x7f8a5c500000 (UIWindow), at "), text
            assert "0x7f8a5c510000 (MyApp.BadgeView) miss (outside-bounds) H3" in text, text
            text, _ = ok(await m.call_tool("responder_chain", {"id": SIGN_IN, "session": s}))
            assert text.startswith(f'chain of {SIGN_IN} (UIButton "Sign in"): {SIGN_IN} (UIButton "Sign in") → '), text
            assert f"{SETTINGS_VC} (MyApp.SettingsViewController)" in text, text
            # The chip's target, read from the dump, receives its action.
            text, tap = ok(await m.call_tool("tap", {"x": 300, "y": 620, "session": s}))
            assert f"chipTapped: → {SETTINGS_VC} (MyApp.SettingsViewController)" in text, text
            text, can = ok(await m.call_tool("can_perform", {"action": "chipTapped:", "sender": CHIP, "session": s}))
            assert can["by"] == SETTINGS_VC and f"available: {SETTINGS_VC} (MyApp.SettingsViewController)" in text, text
    run(body)


def test_the_traces_resource_of_a_world_engines_default_session(engines):
    """`responderd --world` (how `./dev run` starts it) gives the default session a world that is in no event:
    the engine replays none of its events from seq 0, and the resource reads those it can."""
    e = engines(args=["--world", str(DEMO_WORLD)])

    async def body():
        async with mcp_session(target_args(e)) as m:
            uri = "responder://default/traces"
            empty = json.loads((await m.read_resource(uri)).contents[0].text)
            assert empty["traces"] == [] and empty["seq"] == 0, empty
            taps = [ok(await m.call_tool("tap", {"view": "button"}))[1] for _ in range(3)]
            traces = json.loads((await m.read_resource(uri)).contents[0].text)
            seqs = [t["seq"] for t in traces["traces"]]
            held = [t["seqRange"][0] for t in taps if t["seqRange"][0] > 1]
            assert seqs == held and len(held) >= 2, (seqs, taps)
            assert all(t["trace"]["kind"] == "touch" for t in traces["traces"])
            # Only an event 1 the engine cannot replay is left out, and then the resource says so.
            assert ("note" in traces) == (taps[0]["seqRange"][0] == 1), traces
    run(body)


# ----------------------------------------------------------------------------------------------- resources

def test_resources_read_and_notify_on_change(engine, client):
    s = new_session(client, "mcpres")
    world_uri, traces_uri = f"responder://{s}/world", f"responder://{s}/traces"
    updates: list[str] = []
    changed = anyio.Event

    async def body():
        seen = {"event": changed()}

        async def on_message(message):
            uri = getattr(getattr(message, "params", None), "uri", None)
            if getattr(message, "method", None) == "notifications/resources/updated" and uri:
                updates.append(str(uri))
                seen["event"].set()

        async def wait_for(uri: str):
            while uri not in updates:
                seen["event"] = changed()
                with anyio.fail_after(PATIENCE):
                    await seen["event"].wait()

        async with mcp_session(target_args(engine), on_message=on_message) as m:
            listed = {str(r.uri) for r in (await m.list_resources()).resources}
            assert {world_uri, traces_uri} <= listed and "responder://default/world" in listed
            templates = {t.uri_template for t in (await m.list_resource_templates()).resource_templates}
            assert templates == {"responder://{session}/world", "responder://{session}/traces"}

            world = json.loads((await m.read_resource(world_uri)).contents[0].text)
            assert world == raw(client, "session.snapshot", session=s)

            ok(await m.call_tool("tap", {"x": 60, "y": 150, "session": s}))
            traces = json.loads((await m.read_resource(traces_uri)).contents[0].text)
            last = traces["traces"][-1]
            assert last["cause"]["client"] == "mcp:pytest-mcp" and last["trace"]["kind"] == "touch"
            assert last["summary"].startswith("touch: touch tap-"), last["summary"]

            await m.subscribe_resource(world_uri)
            await m.subscribe_resource(traces_uri)
            # A tap by another client changes both; a tree change only the world.
            raw(client, "event.tap", session=s, point=[60, 150])
            await wait_for(world_uri)
            await wait_for(traces_uri)
            updates.clear()
            raw(client, "tree.apply", session=s, ops=[{"op": "update", "id": "title", "set": {"hidden": True}}])
            await wait_for(world_uri)
            world = json.loads((await m.read_resource(world_uri)).contents[0].text)
            assert find(world["tree"], "title")["hidden"] is True

            with pytest.raises(Exception, match="no resource"):
                await m.read_resource("responder://no-such-session/world")
    run(body)


# ----------------------------------------------------------------------------------------------- the shared session

def test_a_tap_through_mcp_appears_in_watch_with_the_mcp_client_as_its_cause(engine, client, tmp_path):
    """The MCP server is one more client of the live session the CLI watches."""
    s = new_session(client, "mcpwatch")
    sub = engine.subscriber(f"{s}/trace")
    out = open(tmp_path / "watch.out", "w+")
    watch = subprocess.Popen([str(responder_path()), "watch", "--session", s, *target_args(engine)],
                             stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)

    def watched(pattern: str) -> str:
        deadline = time.monotonic() + PATIENCE
        while time.monotonic() < deadline:
            lines = (tmp_path / "watch.out").read_text().splitlines()
            hits = [line for line in lines if pattern in line]
            if hits:
                return hits[0]
            assert watch.poll() is None, f"watch exited: {lines}"
            time.sleep(0.05)
        raise AssertionError(f"watch printed no line with {pattern!r}: {(tmp_path / 'watch.out').read_text()}")

    try:
        watched(f"following {s} from seq")

        async def body():
            async with mcp_session(target_args(engine), client_name="editor-agent") as m:
                ok(await m.call_tool("tap", {"x": 60, "y": 150, "session": s}))
        run(body)
        line = watched("(mcp:editor-agent)")
        assert line.startswith("#2 trace (mcp:editor-agent) touch: touch tap-1 began on button"), line
        topic, event = sub.next(f"{s}/trace", validate=False)
        assert event["cause"]["client"] == "mcp:editor-agent"
        clients = raw(client, "session.clients", session=s)["clients"]
        assert any(c["name"] == "mcp:editor-agent" and c["kind"] == "mcp" for c in clients), clients
    finally:
        watch.terminate()
        watch.wait(PATIENCE)
        out.close()


def test_without_an_engine_tools_say_how_to_start_one(engines, tmp_path):
    name = unique_name("mcp-later")
    e = engines(name=name, runtime_dir=tmp_path / "rt", start=False)

    async def body():
        async with mcp_session(target_args(e)) as m:
            # The server starts (an editor can list its tools) and every call says what is wrong.
            assert [t.name for t in (await m.list_tools()).tools] == TOOLS
            text, err = failed(await m.call_tool("tap", {"x": 1, "y": 1}))
            assert f"no engine named \"{name}\" is running" in text and f"responderd --name {name}" in text, text
            assert "message" in err["error"]
            # Found by discovery at each call: once an engine runs, the same server reaches it.
            await anyio.to_thread.run_sync(e.start)
            text, hit = ok(await m.call_tool("hit_test", {"x": 1, "y": 1}))
            assert hit["view"] is None and "no view at (1, 1)" in text, text
    run(body)
