"""The published spec is consistent with itself: schemas are valid draft 2020-12 and every $ref resolves,
errors.json agrees with error-response.json and the README, the demo world is a valid tree, and the node
schema encodes the field-applicability table. No engine needed."""

import json
import re

import pytest
from jsonschema import Draft202012Validator

from harness import DEMO_WORLD, PROTOCOL, SCHEMA_BASE, SCHEMAS, ids

ERRORS = json.loads((PROTOCOL / "errors.json").read_text())
README = (PROTOCOL / "README.md").read_text()

FOUNDATION = ["engine.info", "client.hello", "session.create", "session.list", "session.delete",
              "session.snapshot", "session.clients", "tree.get", "tree.load", "tree.apply", "trace.replay"]
DISPATCH = ["hitTest", "responderChain", "event.touch", "event.tap", "event.motion", "event.remoteControl",
            "event.press", "responder.become", "responder.resign", "responder.first", "window.makeKey",
            "action.send", "action.canPerform", "clock.advance", "whyNot", "event.menuItem"]


@pytest.mark.parametrize("name", sorted(SCHEMAS.documents))
def test_schema_is_valid_and_refs_resolve(name):
    doc = SCHEMAS.documents[name]
    Draft202012Validator.check_schema(doc)
    assert doc["$id"] == SCHEMA_BASE + name, "the $id must match the file's place"
    resolver = SCHEMAS.registry.resolver(base_uri=doc["$id"])
    stack = [doc]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if "$ref" in node:
                resolver.lookup(node["$ref"])  # raises if it does not resolve
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)


@pytest.mark.parametrize("method", FOUNDATION + DISPATCH)
def test_every_method_has_params_and_result_schemas(method):
    assert SCHEMAS.has(f"methods/{method}.params.json")
    assert SCHEMAS.has(f"methods/{method}.result.json")
    assert f"`{method}`" in README, f"{method} is not documented in Protocol/README.md"


def test_errors_json_is_well_formed():
    names = [e["name"] for e in ERRORS]
    codes = [e["code"] for e in ERRORS]
    assert len(set(names)) == len(names) and len(set(codes)) == len(codes)
    for e in ERRORS:
        assert set(e) == {"name", "code", "meaning"}
        assert re.fullmatch(r"[A-Z][A-Z_]+", e["name"])
        assert isinstance(e["code"], int) and e["meaning"]
        assert -32768 <= e["code"] <= -32000


def test_errors_json_agrees_with_error_response_schema():
    doc = SCHEMAS.documents["error-response.json"]
    assert doc["properties"]["error"]["properties"]["data"]["properties"]["name"]["enum"] == [e["name"] for e in ERRORS]
    for e in ERRORS:
        good = {"jsonrpc": "2.0", "id": 1, "error": {"code": e["code"], "message": "m", "data": {
            "name": e["name"], "field": "f", "id": "x", "revision": 1, "expected": 2, "limit": "nodes", "max": 1,
            "oldest": 1, "seq": 2, "session": "s", "client": "00ab", "path": "/state/state.db"}}}
        assert SCHEMAS.errors("error-response.json", good) == []
        bad = json.loads(json.dumps(good))
        bad["error"]["code"] = e["code"] - 1000
        assert SCHEMAS.errors("error-response.json", bad), f"{e['name']} must be tied to code {e['code']}"


def test_errors_json_agrees_with_readme_table():
    for e in ERRORS:
        assert re.search(rf"\|\s*{e['code']}\s*\|\s*`{e['name']}`\s*\|", README), \
            f"README error table lacks {e['code']} {e['name']}"


@pytest.mark.parametrize("name,required", [
    ("LIMIT_EXCEEDED", ["limit", "max"]), ("REVISION_CONFLICT", ["revision", "expected"]),
    ("INVALID_NODE", ["field"]), ("INVALID_PARAMS", ["field"]), ("NODE_NOT_FOUND", ["id"]),
    ("SESSION_OWNED", ["session", "field"]), ("CLIENT_ID_IN_USE", ["client"]), ("STORAGE_FULL", ["path"]),
])
def test_error_schema_requires_details(name, required):
    code = next(e["code"] for e in ERRORS if e["name"] == name)
    resp = {"jsonrpc": "2.0", "id": None, "error": {"code": code, "message": "m", "data": {"name": name}}}
    errors = SCHEMAS.errors("error-response.json", resp)
    for r in required:
        assert any(repr(r) in e for e in errors), f"{name} without {r} must be rejected: {errors}"


def test_demo_world():
    world = json.loads(DEMO_WORLD.read_text())
    assert list(world) == ["tree"]
    tree = world["tree"]
    SCHEMAS.validate("node.json", tree, "demo world")
    all_ids = ids(tree)
    assert len(all_ids) == len(set(all_ids))
    assert tree["id"] == "app" and tree["kind"] == "application"
    kinds = {c["kind"] for c in tree["children"]}
    assert kinds == {"appDelegate", "window"}
    window = next(c for c in tree["children"] if c["kind"] == "window")
    assert window["id"] == "window" and window["key"] is True and window["frame"] == [0, 0, 390, 844]
    [root_vc] = window["children"]
    assert root_vc["id"] == "rootVC" and root_vc["kind"] == "viewController"
    assert root_vc["handles"] == {"buttonTapped:": "handle", "motionEnded": "handle", "dismissKeyboard:": "handle",
                                  "cardLongPressed:": "handle", "toggled:": "handle"}  # toggled: the switch (1.6)
    [root] = root_vc["children"]
    assert root["id"] == "root" and root["frame"] == [0, 0, 390, 844]
    # The README tour's recognizers: tap anywhere to dismiss the keyboard (leaving views their taps), and a
    # long press on the card; both send their actions to rootVC, which handles them.
    assert root["gestureRecognizers"] == [{"id": "dismissTap", "kind": "tap", "cancelsTouchesInView": False,
                                           "targets": [{"target": "rootVC", "action": "dismissKeyboard:"}]}]
    from harness import find
    button = find(tree, "button")
    assert button["kind"] == "control" and button["class"] == "UIButton"
    assert button["targets"] == [{"event": "touchUpInside", "action": "buttonTapped:", "target": None}]
    assert find(tree, "textField")["kind"] == "textField"
    assert find(tree, "card")["gestureRecognizers"] == [{"id": "cardHold", "kind": "longPress",
                                                          "targets": [{"target": "rootVC", "action": "cardLongPressed:"}]}]
    card = find(tree, "card")
    assert {c["id"] for c in card["children"]} == {"button", "textField"}


@pytest.mark.parametrize("kind,field,ok", [
    ("view", "frame", True), ("viewController", "frame", False), ("application", "alpha", False),
    ("control", "targets", True), ("textField", "enabled", True), ("textView", "enabled", False),
    ("view", "targets", False), ("window", "key", True), ("view", "key", False),
    ("viewController", "presentedBy", True), ("window", "presentedBy", False),
    ("application", "receivesRemoteControlEvents", True), ("appDelegate", "receivesRemoteControlEvents", False),
    ("appDelegate", "handles", True), ("application", "vetoes", True),
])
def test_node_schema_encodes_applicability(kind, field, ok):
    values = {"frame": [0, 0, 1, 1], "alpha": 0.5, "targets": [], "enabled": False, "key": True,
              "presentedBy": "x", "receivesRemoteControlEvents": True, "handles": {}, "vetoes": []}
    node = {"id": "n", "kind": kind, field: values[field]}
    assert (SCHEMAS.errors("node.json", node) == []) == ok


@pytest.mark.parametrize("node", [
    {"id": "n", "kind": "view", "hiden": True},
    {"id": "n", "kind": "view", "alpha": 1.5},
    {"id": "n", "kind": "view", "frame": [0, 0, -1, 1]},
    {"id": "", "kind": "view"},
    {"id": "n", "kind": "widget"},
    {"id": "n", "kind": "view", "children": [{"id": "m", "kind": "view", "hiden": False}]},
    {"id": "n", "kind": "view", "hitTest": {"mode": "sometimes"}},
    {"id": "n", "kind": "control", "targets": [{"event": "tap", "action": "a:"}]},
    {"id": "n", "kind": "view", "gestureRecognizers": [{"kind": "tap"}]},                       # id required
    {"id": "n", "kind": "view", "gestureRecognizers": [{"id": "", "kind": "tap"}]},
    {"id": "n", "kind": "view", "gestureRecognizers": [{"id": "g", "kind": "swirl"}]},
    {"id": "n", "kind": "view", "gestureRecognizers": [{"id": "g", "kind": "tap", "type": "x"}]},  # closed
    {"id": "n", "kind": "view", "gestureRecognizers": [{"id": "g", "kind": "tap", "minimumPressDuration": 1}]},
    {"id": "n", "kind": "view", "gestureRecognizers": [{"id": "g", "kind": "pinch", "numberOfTouchesRequired": 2}]},
    {"id": "n", "kind": "view", "gestureRecognizers": [{"id": "g", "kind": "tap", "numberOfTapsRequired": 0}]},
    {"id": "n", "kind": "view", "gestureRecognizers": [{"id": "g", "kind": "longPress", "minimumPressDuration": -1}]},
    {"id": "n", "kind": "view", "gestureRecognizers": [{"id": "g", "kind": "swipe", "direction": "sideways"}]},
    {"id": "n", "kind": "view", "gestureRecognizers": [{"id": "g", "kind": "swipe", "direction": []}]},
    {"id": "n", "kind": "view", "gestureRecognizers": [{"id": "g", "kind": "pan", "targets": [{"target": "v"}]}]},
    {"id": "n", "kind": "view", "gestureRecognizers": [{"id": "g", "kind": "pan", "targets": [{"target": None, "action": "a:"}]}]},
    {"id": "n", "kind": "viewController", "gestureRecognizers": []},
])
def test_node_schema_rejects(node):
    assert SCHEMAS.errors("node.json", node)


def test_node_schema_takes_every_recognizer_kind_with_its_own_parameters():
    recognizers = [
        {"id": "t", "kind": "tap", "numberOfTapsRequired": 2, "numberOfTouchesRequired": 1, "requireToFail": ["p"],
         "targets": [{"target": "n", "action": "tapped:"}], "enabled": False, "shouldBegin": False},
        {"id": "l", "kind": "longPress", "minimumPressDuration": 0.2, "numberOfTouchesRequired": 1, "allowableMovement": 0,
         "delaysTouchesBegan": True, "delaysTouchesEnded": False, "cancelsTouchesInView": False},
        {"id": "p", "kind": "pan", "minimumNumberOfTouches": 1, "maximumNumberOfTouches": None, "simultaneousWith": ["t"]},
        {"id": "s", "kind": "swipe", "direction": "left", "numberOfTouchesRequired": 2, "shouldReceiveTouch": False},
        {"id": "s2", "kind": "swipe", "direction": ["up", "down"]},
        {"id": "n", "kind": "pinch"}, {"id": "r", "kind": "rotation"}]
    assert SCHEMAS.errors("node.json", {"id": "n", "kind": "window", "gestureRecognizers": recognizers}) == []
    state = SCHEMAS.documents["node-state.json"]["$defs"]["gestureRecognizer"]
    assert {"id", "kind", "targets", "requireToFail", "simultaneousWith"} <= set(state["required"])


def test_op_schema():
    assert SCHEMAS.errors("op.json", {"op": "insert", "parent": None, "node": {"id": "a", "kind": "view"}}) == []
    assert SCHEMAS.errors("op.json", {"op": "insert", "node": {"id": "a", "kind": "view"}}), "parent is required"
    assert SCHEMAS.errors("op.json", {"op": "update", "id": "a", "set": {"alpha": None}}) == []
    assert SCHEMAS.errors("op.json", {"op": "update", "id": "a", "set": {"id": "b"}})
    assert SCHEMAS.errors("op.json", {"op": "remove", "id": "a", "index": 0})
    assert SCHEMAS.errors("op.json", {"op": "explode", "id": "a"})


# ------------------------------------------------------------------------------------------ versioning

def section(title_prefix: str) -> str:
    """The text of the README's `## <title_prefix>…` section, up to the next `## ` heading."""
    m = re.search(rf"^## {re.escape(title_prefix)}.*?$(.*?)(?=^## |\Z)", README, re.S | re.M)
    assert m, f"README has no section '## {title_prefix}…'"
    return m.group(1)


def test_readme_is_versioned_with_a_changelog():
    assert re.search(r"^## Protocol version 1$", README, re.M), "a 'Protocol version 1' header"
    current = re.search(r"Document revision (\d+\.\d+)", README)
    assert current, "the header names the document revision"
    revisions = re.findall(r"^- \*\*(\d+\.\d+)\*\* — ", section("16. Changelog"), re.M)
    assert revisions and revisions[0] == current.group(1), "the changelog starts with the current revision"
    assert revisions == sorted(revisions, key=lambda r: tuple(map(int, r.split("."))), reverse=True)
    discovery = SCHEMAS.documents["discovery.json"]
    assert discovery["properties"]["protocol"].get("const", 1) == 1


def test_nothing_is_provisional_any_more():
    outside_changelog = README.replace(section("16. Changelog"), "")
    assert "provisional" not in outside_changelog.lower()
    for name, doc in SCHEMAS.documents.items():
        assert "provisional" not in json.dumps(doc).lower(), f"{name} still says provisional"


# ------------------------------------------------------------------------------------------ dispatch: README ↔ schemas

def enum_values(schema) -> set:
    """Every string in `enum`/`const` anywhere under a schema."""
    out, stack = set(), [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for k, v in node.items():
                if k == "enum":
                    out |= {x for x in v if isinstance(x, str)}
                elif k == "const" and isinstance(v, str):
                    out.add(v)
                else:
                    stack.append(v)
        elif isinstance(node, list):
            stack.extend(node)
    return out


def test_every_trace_value_is_documented():
    """Each step kind, result, reason, disposition, rule id, check and outcome reason the trace schema allows is
    explained in README section 12."""
    dispatch = section("12. Dispatch methods")
    trace = SCHEMAS.documents["trace.json"]
    values = enum_values(trace)
    assert {"hitTest", "deliver", "discard", "keyWindow", "view-left-window", "consumed-by-control"} <= values
    missing = sorted(v for v in values
                     if f"`{v}`" not in dispatch and f'"{v}"' not in dispatch and not re.fullmatch(r"[A-Z]\d+", v))
    assert not missing, f"README section 12 does not mention: {missing}"
    rules = sorted(v for v in values if re.fullmatch(r"[A-Z]\d+", v))
    assert rules and all(re.search(rf"^\| {r} \|", dispatch, re.M) for r in rules), "every rule id in the 12.1 table"


def test_profile_switches_are_documented():
    profiles = section("12. Dispatch methods").split("### 12.7")[1].split("### 12.8")[0]
    profile = SCHEMAS.documents["common.json"]["$defs"]["profile"]
    for member, schema in profile["properties"].items():
        assert re.search(rf"^\| `{member}` \|", profiles, re.M), f"12.7 lacks {member}"
        for value in enum_values(schema):
            assert f'`"{value}"`' in profiles, f"12.7 lacks {member} = {value}"
    state = SCHEMAS.documents["common.json"]["$defs"]["profileState"]
    assert set(state["required"]) == set(profile["properties"])


def test_joining_section_covers_the_procedure():
    join = section("14. Joining a session without missing an event")
    for needle in ["`<session>/`", "`$sys/`", "`$sys/welcome`", "`session.snapshot`", "`trace.replay`",
                   "`complete`", "`REPLAY_EXPIRED`", "`$sys/tick`", "`cause: {client, request}`", "`seqRange`", "`ifRevision`",
                   "`ifNodeRevision`", "`client.hello`", "`session.clients`", "`TOUCH_IN_USE`", "`PRESS_IN_USE`",
                   "--replay-buffer", "10,000", "responder_client.py", "SessionFollower.swift"]:
        assert needle in join, f"section 14 does not mention {needle}"
