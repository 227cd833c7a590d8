"""A node's `android` object (Protocol/README.md 8.7) through the real engine: every way a node arrives takes it,
every way it leaves writes it back exactly as given, bad input is INVALID_NODE naming the member's path and
changes nothing, and under the `uikit` profile it changes no dispatch. Replies and events are validated against
Protocol/schemas by the harness.
"""

from __future__ import annotations

import copy
import json
import re

import pytest

from harness import SCHEMAS, unique_name
from test_durability import durable, restart
from test_spec import README

BUTTON = {
    "class": "Button", "visibility": "visible", "enabled": True, "clickable": True, "longClickable": True,
    "focusable": True, "focusableInTouchMode": False, "shouldDelayChildPressedState": False,
    "elevation": 2, "translationZ": 0.5,
    "touchDelegate": {"bounds": [-8, -8, 116, 60], "delegate": "B"},
    "handles": {"onTouchEvent": {"down": "consume", "move": "pass", "*": "super"},
                "dispatchTouchEvent": "super",
                "onInterceptTouchEvent": {"atEvent": 2},
                "requestDisallowIntercept": {"afterSlop": {"axis": "horizontal"}}},
    "listeners": {"touch": {"down": "pass", "cancel": "consume"},
                  "click": {"target": "RVC", "method": "save"},
                  "clickXml": "onSave",
                  "longClick": {"target": "RVC", "method": "menu", "returns": True}},
    "allowClickWhenDisabled": True, "nestedScrollingEnabled": False, "tooltip": True, "temporarilyDetached": False,
}
GROUP = {"class": "ScrollView", "visibility": "invisible", "splitMotionEvents": False, "nestedScrollingEnabled": True,
         "handles": {"onInterceptTouchEvent": {"afterSlop": {"axis": "vertical"}}, "onTouchEvent": "consume"}}


def world(android: bool = True) -> dict:
    button = {"id": "B", "kind": "control", "frame": [10, 10, 100, 44], "handles": {"touchesBegan": "handle"},
              "targets": [{"event": "touchUpInside", "action": "save:", "target": None}]}
    group = {"id": "G", "kind": "view", "frame": [0, 0, 400, 400], "children": [button]}
    rvc = {"id": "RVC", "kind": "viewController", "handles": {"save:": "handle"}, "children": [group]}
    if android:
        button["android"] = copy.deepcopy(BUTTON)
        group["android"] = copy.deepcopy(GROUP)
        rvc["android"] = {"class": "MainActivity"}
    return {"id": "app", "kind": "application", "children": [
        {"id": "W", "kind": "window", "key": True, "frame": [0, 0, 400, 800], "children": [rvc]}]}


def node(tree: dict, id: str) -> dict:
    if tree["id"] == id:
        return tree
    for child in tree.get("children", []):
        found = node(child, id)
        if found is not None:
            return found
    return None


def snapshot(client, s):
    resp = client.rpc("session.snapshot", {"session": s}, validate=False)
    return resp["result"]


def test_a_tree_with_android_objects_reads_back_identical(engine, client):
    s = unique_name("and")
    sub = engine.subscriber(f"{s}/tree")
    client.call("session.create", session=s, tree=world())
    _, load = sub.next(f"{s}/tree")
    for source in (client.call("tree.get", session=s)["tree"], snapshot(client, s)["tree"], load["tree"]):
        assert node(source, "B")["android"] == BUTTON
        assert node(source, "G")["android"] == GROUP
        assert node(source, "RVC")["android"] == {"class": "MainActivity"}
        assert "android" not in node(source, "W") and "android" not in source, "only the nodes that give it"
    # tree.load takes it too.
    client.call("tree.load", session=s, tree=world())
    assert node(client.call("tree.get", session=s)["tree"], "B")["android"] == BUTTON


def test_insert_and_update_take_it_and_tree_events_carry_it(engine, client):
    s = unique_name("and")
    client.call("session.create", session=s, tree=world(android=False))
    sub = engine.subscriber(f"{s}/tree")
    inserted = {"id": "N", "kind": "view", "frame": [0, 0, 10, 10], "android": {"visibility": "gone"}}
    client.call("tree.apply", session=s, ops=[{"op": "insert", "parent": "G", "node": inserted},
                                              {"op": "update", "id": "B", "set": {"android": BUTTON}}])
    _, event = sub.next(f"{s}/tree")
    assert event["ops"][0]["node"]["android"] == {"visibility": "gone"}
    assert event["ops"][1]["set"]["android"] == BUTTON
    tree = client.call("tree.get", session=s)["tree"]
    assert node(tree, "N")["android"] == {"visibility": "gone"} and node(tree, "B")["android"] == BUTTON
    # null takes it away; the node then writes no android member.
    client.call("tree.apply", session=s, ops=[{"op": "update", "id": "B", "set": {"android": None}}])
    assert "android" not in node(client.call("tree.get", session=s)["tree"], "B")


def test_durable_state_keeps_it(engines, tmp_path):
    e = durable(engines, tmp_path / "state")
    c = e.client()
    c.call("session.create", session="s", tree=world())
    c.call("tree.apply", session="s", ops=[{"op": "update", "id": "G", "set": {"android": {"elevation": 8}}}])
    before = c.call("tree.get", session="s")
    e = restart(engines, e)
    after = e.client().call("tree.get", session="s")
    assert after == before and node(after["tree"], "G")["android"] == {"elevation": 8}


def test_the_uikit_profile_ignores_it(client):
    replies = []
    for android in (False, True):
        s = unique_name("and")
        client.call("session.create", session=s, tree=world(android))
        tap = client.call("event.tap", session=s, point=[20, 20])
        drag = client.call("event.touch", session=s, touches=[
            {"touch": 1, "phase": "began", "point": [300, 300]}, {"touch": 1, "phase": "moved", "point": [300, 200]},
            {"touch": 1, "phase": "ended"}])
        become = client.call("responder.become", session=s, id="B")
        replies.append((client.call("hitTest", session=s, point=[-5, -5]), tap, drag, become))
    assert replies[0] == replies[1]


BAD = [
    ({"bogus": 1}, "android.bogus"),
    ({"handles": {"onTouchEvent": "maybe"}}, "android.handles.onTouchEvent"),
    ({"handles": {"onTouchEvent": {"down": "maybe"}}}, "android.handles.onTouchEvent.down"),
    ({"visibility": "blurry"}, "android.visibility"),
    ({"handles": {"onInterceptTouchEvent": {"afterSlop": {"axis": "diagonal"}}}},
     "android.handles.onInterceptTouchEvent.afterSlop.axis"),
    ({"handles": {"requestDisallowIntercept": "always"}}, "android.handles.requestDisallowIntercept"),
    ({"listeners": {"longClick": {"target": "RVC", "method": "menu"}}}, "android.listeners.longClick.returns"),
    ({"listeners": {"click": {"target": "RVC", "method": "save", "extra": True}}}, "android.listeners.click.extra"),
    ({"touchDelegate": {"bounds": [0, 0, -1, 4], "delegate": "B"}}, "android.touchDelegate.bounds"),
    ({"allowClickWhenDisabled": "yes"}, "android.allowClickWhenDisabled"),
    ({"splitMotionEvents": 0}, "android.splitMotionEvents"),
    ({"nestedScrollingEnabled": "vertical"}, "android.nestedScrollingEnabled"),
    ({"tooltip": "Save the file"}, "android.tooltip"),
    ({"temporarilyDetached": [True]}, "android.temporarilyDetached"),
]


IN_TREE = "tree.children[0].children[0].children[0].children[0]."  # B: app › W › RVC › G › B


@pytest.mark.parametrize("android,field", BAD)
def test_bad_input_names_the_path_and_changes_nothing(client, android, field):
    s = unique_name("and")
    client.call("session.create", session=s, tree=world())
    before = snapshot(client, s)

    bad = world()
    node(bad, "B")["android"] = android
    e = client.error("tree.load", session=s, tree=bad)
    assert (e.name, e.data.get("field"), e.data.get("id")) == ("INVALID_NODE", IN_TREE + field, "B")

    e = client.error("tree.apply", session=s, ops=[{"op": "update", "id": "B", "set": {"android": android}}])
    assert (e.name, e.data.get("field"), e.data.get("id")) == ("INVALID_NODE", "ops[0].set." + field, "B")

    inserted = {"id": "N", "kind": "view", "android": android}
    e = client.error("tree.apply", session=s, ops=[{"op": "insert", "parent": "G", "node": inserted}])
    assert (e.name, e.data.get("field"), e.data.get("id")) == ("INVALID_NODE", "ops[0].node." + field, "N")

    after = snapshot(client, s)
    assert (after["revision"], after["seq"], after["tree"]) == (before["revision"], before["seq"], before["tree"])

    other = unique_name("and")
    e = client.error("session.create", session=other, tree=bad)
    assert (e.name, e.data.get("field")) == ("INVALID_NODE", IN_TREE + field)
    assert client.error("tree.get", session=other).name == "SESSION_NOT_FOUND"


def test_the_android_profile_reads_it(client):
    """The same tree under `android`: G's `android` object makes it invisible (AD5), so the tap at B reaches
    nobody; without the object G is visible and B, a Button whose touchUpInside action names no target, clicks
    into RVC's save: method through android:onClick's lookup on the Activity (AX2). (B's UIKit touchesBegan
    handler is dropped there: it would read as an onTouchEvent that consumes the DOWN without pressing.)"""
    taps = []
    for android in (True, False):
        s = unique_name("and")
        tree = world(android)
        if not android:
            del node(tree, "B")["handles"]
        client.call("session.create", session=s, tree=tree, profile={"name": "android"})
        resp = client.rpc("event.tap", {"session": s, "point": [20, 20]}, validate=False)
        taps.append(resp["result"])
    hidden, plain = taps
    assert [d["handledBy"] for d in hidden["deliveries"]] == [[], []]
    assert any(st["step"] == "candidate" and st["child"] == "G" and st.get("reason") == "invisible"
               for st in hidden["trace"]["steps"])
    assert plain["deliveries"][0]["handledBy"] == ["B"]
    assert plain["deliveries"][1]["actions"] == [{"action": "save:", "target": "RVC", "performed": True, "by": "RVC"}]


def test_the_spec_example_is_valid_and_reads_back(client):
    text = re.search(r"^### 8\.7 Android views.*?```json\n(.*?)```", README, re.S | re.M).group(1)
    example = json.loads(text)
    assert SCHEMAS.errors("node.json", example) == []
    for android, _ in BAD:
        assert SCHEMAS.errors("node.json", {**example, "android": android}), android
    s = unique_name("and")
    tree = {"id": "app", "kind": "application", "children": [
        {"id": "W", "kind": "window", "children": [{"id": "act", "kind": "viewController", "children": [example]}]}]}
    client.call("session.create", session=s, tree=tree)
    assert node(client.call("tree.get", session=s)["tree"], "save")["android"] == example["android"]
