"""Every foundation method against the real engine. Client.rpc validates each reply against
result-response.json / error-response.json and methods/<method>.result.json; the tests add the semantics."""

import pytest

from harness import demo_tree, find, ids, new_session, strip_revisions, unique_name

FOUNDATION = ["engine.info", "client.hello", "session.create", "session.list", "session.delete",
              "session.snapshot", "session.clients", "tree.get", "tree.load", "tree.apply", "trace.replay"]


def session_entry(client, name):
    entries = [s for s in client.call("session.list")["sessions"] if s["session"] == name]
    assert len(entries) == 1, f"session.list lists {name!r} {len(entries)} times"
    return entries[0]


# ----------------------------------------------------------------------------------------- engine

def test_engine_info_matches_discovery_and_flags(client, engine):
    info = client.call("engine.info")
    d = engine.discovery
    for key in ["name", "pid", "version", "protocol", "rpc", "events", "startedAt"]:
        assert info[key] == d[key], f"engine.info {key} differs from the discovery file"
    assert info["name"] == engine.name and info["pid"] == engine.proc.pid and info["protocol"] == 1
    assert set(FOUNDATION) <= set(info["methods"])
    assert info["sessions"] == len(client.call("session.list")["sessions"])


def test_fresh_engine_has_only_default_session(engines):
    e = engines(unique_name("fresh"))
    c = e.client()
    assert c.call("engine.info")["sessions"] == 1
    [entry] = c.call("session.list")["sessions"]
    assert entry["session"] == "default" and entry["nodes"] == 1 and entry["seq"] == 0
    got = c.call("tree.get")
    assert got["seq"] == 0 and got["revision"] == entry["revision"]
    app = got["tree"]
    assert app["id"] == "app" and app["kind"] == "application" and app["children"] == []
    assert app["class"] == "UIApplication" and app["receivesRemoteControlEvents"] is False
    same = c.call("tree.get", session="default")
    assert same == got, "session defaults to \"default\""


def test_client_hello_and_clients(engine):
    c = engine.client(routing_id=b"hello-test")
    assert c.call("engine.info")["client"] == b"hello-test".hex()
    assert c.call("client.hello", name="inspector", kind="inspector") == {"client": b"hello-test".hex(), "name": "inspector"}
    s = new_session(c)
    other = engine.client()
    other.call("engine.info")  # engine-wide: does not attach it to a session
    listed = c.call("session.clients", session=s)["clients"]
    assert [(e["client"], e["name"], e["kind"]) for e in listed] == [(b"hello-test".hex(), "inspector", "inspector")]


# ----------------------------------------------------------------------------------------- sessions

def test_session_lifecycle(client):
    name = unique_name("life")
    created = client.call("session.create", session=name, tree=demo_tree())
    assert created["session"] == name and created["profile"]["name"] == "uikit"
    assert created["seq"] == 1 and created["seqRange"] == [1, 1], "session.create publishes the first tree event"
    entry = session_entry(client, name)
    assert entry == {"session": name, "revision": created["revision"], "seq": 1, "nodes": len(ids(demo_tree()))}
    snap = client.call("session.snapshot", session=name)
    assert snap["session"] == name and snap["revision"] == created["revision"] and snap["seq"] == 1
    assert snap["detached"] == [] and snap["liveTouches"] == [] and snap["profile"] == created["profile"]
    assert all(v is None for v in snap["firstResponders"].values())
    assert strip_revisions(snap["tree"]) == strip_revisions(client.call("tree.get", session=name)["tree"])
    n = client.call("engine.info")["sessions"]
    assert client.call("session.delete", session=name) == {"session": name, "deleted": True}
    assert client.call("engine.info")["sessions"] == n - 1
    assert all(s["session"] != name for s in client.call("session.list")["sessions"])
    assert client.error("tree.get", session=name).name == "SESSION_NOT_FOUND"
    again = client.call("session.create", session=name)
    assert again["seq"] == 1, "a session created again starts its seq at 1"


def test_session_create_with_profile_switches(client):
    name = unique_name("prof")
    created = client.call("session.create", session=name, profile={"controlSlop": 0, "becomeOrder": "resignFirst"})
    p = created["profile"]
    assert p["name"] == "uikit" and p["controlSlop"] == 0 and p["becomeOrder"] == "resignFirst"
    assert p["alphaBoundary"] == "inclusive" and p["touchOnRemoval"] == "cancel", "omitted switches keep UIKit's"
    assert client.call("session.snapshot", session=name)["profile"] == p
    e = client.error("session.create", session=unique_name("prof"), profile={"controlSlop": 0, "slop": 1})
    assert e.name == "INVALID_PARAMS" and e.data["field"] == "profile.slop"
    e = client.error("session.create", session=unique_name("prof"), profile={"name": "winui"})
    assert e.name == "INVALID_PARAMS" and e.data["field"] == "profile.name"
    assert "uikit, android" in e.error["message"]


def test_session_create_android_profile_takes_only_its_timings(client):
    name = unique_name("prof")
    created = client.call("session.create", session=name, profile={"name": "android", "touchSlop": 16})
    assert created["profile"] == {"name": "android", "tapTimeout": 0.1, "longPressTimeout": 0.4, "touchSlop": 16,
                                  "doubleTapTimeout": 0.3}
    assert client.call("session.snapshot", session=name)["profile"] == created["profile"]
    # Each profile refuses the other's members, naming the member; nothing is created.
    for profile, field in [({"name": "android", "controlSlop": 0}, "profile.controlSlop"),
                           ({"tapTimeout": 0.2}, "profile.tapTimeout"),
                           ({"name": "android", "touchSlop": -1}, "profile.touchSlop")]:
        bad = unique_name("prof")
        e = client.error("session.create", session=bad, profile=profile)
        assert e.name == "INVALID_PARAMS" and e.data["field"] == field, (profile, e)
        assert client.error("session.snapshot", session=bad).name == "SESSION_NOT_FOUND"


def test_session_create_without_tree(client):
    name = unique_name("empty")
    created = client.call("session.create", session=name)
    assert created["seqRange"] == [1, 1]
    tree = client.call("tree.get", session=name)["tree"]
    assert tree["id"] == "app" and tree["children"] == []
    assert session_entry(client, name)["nodes"] == 1


def test_session_create_with_detached(client):
    name = unique_name("det")
    client.call("session.create", session=name, tree=demo_tree(),
                detached=[{"id": "spare", "kind": "view", "children": [{"id": "spareChild", "kind": "control"}]}])
    snap = client.call("session.snapshot", session=name)
    assert [d["id"] for d in snap["detached"]] == ["spare"]
    assert snap["detached"][0]["children"][0]["id"] == "spareChild"
    assert find(snap["tree"], "spare") is None
    assert session_entry(client, name)["nodes"] == len(ids(demo_tree())) + 2


def test_session_delete_and_recreate_default(engines):
    c = engines().client()
    assert c.call("session.delete", session="default")["deleted"] is True
    assert c.error("tree.get").name == "SESSION_NOT_FOUND"
    assert c.call("session.create")["session"] == "default"


# ----------------------------------------------------------------------------------------- tree.get

def test_tree_get_reports_every_field_with_defaults(client):
    s = new_session(client)
    got = client.call("tree.get", session=s)
    tree = got["tree"]
    assert got["revision"] == session_entry(client, s)["revision"]
    assert ids(tree) == ids(demo_tree()), "children keep their order"
    button = find(tree, "button")
    assert button["class"] == "UIButton" and button["frame"] == [16, 16, 326, 44]
    assert button["alpha"] == 1 and button["enabled"] is True and button["hidden"] is False
    assert button["userInteractionEnabled"] is True and button["canBecomeFirstResponder"] is False
    assert button["canResignFirstResponder"] is True and button["transform"] is None
    assert button["boundsOrigin"] == [0, 0] and button["gestureRecognizers"] == []
    assert button["hitTest"] == {"insets": [0, 0, 0, 0], "mode": "default", "redirect": None}
    assert button["targets"] == [{"event": "touchUpInside", "action": "buttonTapped:", "target": None}]
    field = find(tree, "textField")
    assert field["class"] == "UITextField" and field["canBecomeFirstResponder"] is True and field["enabled"] is True
    window = find(tree, "window")
    assert window["class"] == "UIWindow" and window["key"] is True and window["windowLevel"] == 0
    vc = find(tree, "rootVC")
    assert vc["class"] == "UIViewController" and vc["presentedBy"] is None
    assert vc["handles"] == {"buttonTapped:": "handle", "motionEnded": "handle", "dismissKeyboard:": "handle",
                             "cardLongPressed:": "handle", "toggled:": "handle"}  # toggled: the demo's switch (1.6)
    assert "frame" not in vc, "fields that do not apply are not listed"
    # A recognizer is written back with every member, its kind's parameters included.
    assert find(tree, "root")["gestureRecognizers"] == [{
        "id": "dismissTap", "kind": "tap", "enabled": True, "cancelsTouchesInView": False, "delaysTouchesBegan": False,
        "delaysTouchesEnded": True, "targets": [{"target": "rootVC", "action": "dismissKeyboard:"}], "requireToFail": [],
        "simultaneousWith": [], "shouldBegin": True, "shouldReceiveTouch": True, "numberOfTapsRequired": 1,
        "numberOfTouchesRequired": 1}]
    assert find(tree, "delegate")["class"] == "AppDelegate"
    assert find(tree, "title")["userInteractionEnabled"] is False
    assert find(tree, "root")["class"] == "UIView" and find(tree, "root")["multipleTouchEnabled"] is False
    assert {n["revision"] for n in [tree, button, field, window, vc]} == {got["revision"]}, \
        "after a load every node has the load's revision"


def test_tree_get_subtree(client):
    s = new_session(client)
    card = client.call("tree.get", session=s, id="card")["tree"]
    assert card["id"] == "card" and [c["id"] for c in card["children"]] == ["button", "textField"]


def test_tree_get_output_loads_back(client):
    s = new_session(client)
    out = client.call("tree.get", session=s)["tree"]
    t = new_session(client, "copy", tree=out)
    assert strip_revisions(client.call("tree.get", session=t)["tree"]) == strip_revisions(out)


# ----------------------------------------------------------------------------------------- tree.load

def test_tree_load_replaces_world(client):
    s = new_session(client)
    before = session_entry(client, s)
    tree = {"id": "app", "kind": "application", "children": [
        {"id": "w2", "kind": "window", "frame": [0, 0, 100, 100], "children": [
            {"id": "vc2", "kind": "viewController", "children": [{"id": "v2", "kind": "view"}]}]}]}
    r = client.call("tree.load", session=s, tree=tree, detached=[{"id": "d", "kind": "view"}])
    assert r["revision"] > before["revision"]
    assert r["seq"] == before["seq"] + 1 and r["seqRange"] == [r["seq"], r["seq"]]
    got = client.call("tree.get", session=s)
    assert ids(got["tree"]) == ["app", "w2", "vc2", "v2"] and got["revision"] == r["revision"]
    assert client.error("tree.get", session=s, id="button").name == "NODE_NOT_FOUND"
    assert [d["id"] for d in client.call("session.snapshot", session=s)["detached"]] == ["d"]
    r2 = client.call("tree.load", session=s, tree=demo_tree(), ifRevision=r["revision"])
    assert r2["revision"] > r["revision"] and client.call("session.snapshot", session=s)["detached"] == []


# ----------------------------------------------------------------------------------------- tree.apply

def test_apply_bumps_revision_by_one_and_sets_node_revisions(client):
    s = new_session(client)
    base = client.call("tree.get", session=s)
    rev0 = base["revision"]
    r1 = client.call("tree.apply", session=s, ops=[
        {"op": "insert", "parent": "card", "node": {"id": "badge", "kind": "view", "frame": [300, 8, 24, 24]}}])
    assert r1["revision"] == rev0 + 1
    assert r1["seq"] == base["seq"] + 1 and r1["seqRange"] == [r1["seq"], r1["seq"]]
    r2 = client.call("tree.apply", session=s, ifRevision=r1["revision"],
                     ops=[{"op": "update", "id": "title", "set": {"hidden": True}}])
    assert r2["revision"] == rev0 + 2 and r2["seqRange"] == [r1["seq"] + 1, r1["seq"] + 1]
    tree = client.call("tree.get", session=s)["tree"]
    assert find(tree, "badge")["revision"] == rev0 + 1
    assert find(tree, "title")["revision"] == rev0 + 2 and find(tree, "title")["hidden"] is True
    assert find(tree, "button")["revision"] == rev0, "untouched nodes keep their revision"
    assert find(tree, "card")["revision"] == rev0, "inserting a child does not change the parent's revision"
    assert [c["id"] for c in find(tree, "card")["children"]] == ["button", "textField", "badge"], \
        "insert without index puts the node at the end (front-most)"


def test_update_sets_and_null_resets(client):
    s = new_session(client)
    client.call("tree.apply", session=s, ops=[{"op": "update", "id": "button", "set": {
        "alpha": 0.5, "class": "MyButton", "enabled": False, "transform": [1, 0, 0, 1, 5, 5],
        "hitTest": {"insets": [-10, -10, -10, -10], "mode": "passThroughSelf", "redirect": {"to": "card"}},
        "targets": [], "vetoes": ["copy:"], "handles": {"touchesBegan": "handle+super"},
        "gestureRecognizers": [{"id": "press", "kind": "longPress", "minimumPressDuration": 1}]}}])
    b = client.call("tree.get", session=s, id="button")["tree"]
    assert b["alpha"] == 0.5 and b["class"] == "MyButton" and b["enabled"] is False
    assert b["transform"] == [1, 0, 0, 1, 5, 5] and b["targets"] == [] and b["vetoes"] == ["copy:"]
    assert b["hitTest"] == {"insets": [-10, -10, -10, -10], "mode": "passThroughSelf",
                            "redirect": {"to": "card", "when": "self"}}
    assert b["handles"] == {"touchesBegan": "handle+super"}
    assert b["gestureRecognizers"] == [{  # written back with every member, defaults included (8.2)
        "id": "press", "kind": "longPress", "enabled": True, "cancelsTouchesInView": True, "delaysTouchesBegan": False,
        "delaysTouchesEnded": True, "targets": [], "requireToFail": [], "simultaneousWith": [], "shouldBegin": True,
        "shouldReceiveTouch": True, "minimumPressDuration": 1, "numberOfTouchesRequired": 1, "allowableMovement": 10}]
    client.call("tree.apply", session=s, ops=[{"op": "update", "id": "button", "set": {
        "alpha": None, "class": None, "enabled": None, "transform": None, "hitTest": None, "vetoes": None,
        "handles": None, "gestureRecognizers": None, "targets": None}}])
    b = client.call("tree.get", session=s, id="button")["tree"]
    assert b["alpha"] == 1 and b["class"] == "UIControl" and b["enabled"] is True and b["transform"] is None
    assert b["hitTest"] == {"insets": [0, 0, 0, 0], "mode": "default", "redirect": None}
    assert b["vetoes"] == [] and b["handles"] == {} and b["gestureRecognizers"] == [] and b["targets"] == []


def test_insert_and_move_indexes(client):
    s = new_session(client)
    client.call("tree.apply", session=s, ops=[
        {"op": "insert", "parent": "card", "index": 0, "node": {"id": "back", "kind": "view"}},
        {"op": "insert", "parent": "card", "index": 1, "node": {"id": "mid", "kind": "view"}}])
    order = lambda: [c["id"] for c in client.call("tree.get", session=s, id="card")["tree"]["children"]]
    assert order() == ["back", "mid", "button", "textField"]
    client.call("tree.apply", session=s, ops=[{"op": "move", "id": "back", "parent": "card"}])
    assert order() == ["mid", "button", "textField", "back"], "move without index goes to the end"
    client.call("tree.apply", session=s, ops=[{"op": "move", "id": "back", "parent": "card", "index": 1}])
    assert order() == ["mid", "back", "button", "textField"]
    client.call("tree.apply", session=s, ops=[{"op": "move", "id": "button", "parent": "header", "index": 0}])
    assert order() == ["mid", "back", "textField"]
    assert [c["id"] for c in client.call("tree.get", session=s, id="header")["tree"]["children"]] == ["button", "title"]


def test_detached_subtrees(client):
    s = new_session(client)
    client.call("tree.apply", session=s, ops=[
        {"op": "insert", "parent": None, "node": {"id": "sheet", "kind": "view", "children": [
            {"id": "sheetButton", "kind": "control"}]}}])
    assert find(client.call("tree.get", session=s)["tree"], "sheet") is None
    assert client.call("tree.get", session=s, id="sheet")["tree"]["children"][0]["id"] == "sheetButton"
    assert [d["id"] for d in client.call("session.snapshot", session=s)["detached"]] == ["sheet"]
    client.call("tree.apply", session=s, ops=[{"op": "move", "id": "sheet", "parent": "root"}])
    assert find(client.call("tree.get", session=s)["tree"], "sheetButton") is not None
    assert client.call("session.snapshot", session=s)["detached"] == []
    client.call("tree.apply", session=s, ops=[{"op": "move", "id": "card", "parent": None}])
    snap = client.call("session.snapshot", session=s)
    assert [d["id"] for d in snap["detached"]] == ["card"] and find(snap["tree"], "button") is None
    detached_window = {"id": "w2", "kind": "window", "children": [
        {"id": "vc2", "kind": "viewController", "children": [{"id": "v2", "kind": "view"}]}]}
    client.call("tree.apply", session=s, ops=[{"op": "insert", "parent": None, "index": 0, "node": detached_window}])
    assert [d["id"] for d in client.call("session.snapshot", session=s)["detached"]] == ["w2", "card"]


def test_remove_takes_the_subtree(client):
    s = new_session(client)
    before = session_entry(client, s)["nodes"]
    client.call("tree.apply", session=s, ops=[{"op": "remove", "id": "card"}])
    for gone in ["card", "button", "textField"]:
        e = client.error("tree.get", session=s, id=gone)
        assert e.name == "NODE_NOT_FOUND" and e.data.get("id") == gone
    assert session_entry(client, s)["nodes"] == before - 3


def test_viewcontroller_and_root_view_in_one_batch(client):
    s = new_session(client)
    r = client.call("tree.apply", session=s, ops=[
        {"op": "insert", "parent": "root", "node": {"id": "childVC", "kind": "viewController"}},
        {"op": "insert", "parent": "childVC", "node": {"id": "childView", "kind": "view"}},
        {"op": "insert", "parent": "window", "node": {"id": "modal", "kind": "viewController", "presentedBy": "rootVC",
                                                      "children": [{"id": "modalView", "kind": "view"}]}}])
    assert r["seqRange"] is not None
    assert find(client.call("tree.get", session=s)["tree"], "modal")["presentedBy"] == "rootVC"


def test_if_node_revision_matches(client):
    s = new_session(client)
    rev = client.call("tree.get", session=s, id="title")["tree"]["revision"]
    client.call("tree.apply", session=s, ops=[{"op": "update", "id": "title", "ifNodeRevision": rev,
                                               "set": {"alpha": 0.5}}])
    card_rev = client.call("tree.get", session=s, id="card")["tree"]["revision"]
    client.call("tree.apply", session=s, ops=[{"op": "insert", "parent": "card", "ifNodeRevision": card_rev,
                                               "node": {"id": "x", "kind": "view"}}])


@pytest.mark.parametrize("node_id", ["ü-ßpäce and spaces/slashes.dots", "x" * 256])
def test_unusual_ids_round_trip(client, node_id):
    s = new_session(client)
    client.call("tree.apply", session=s, ops=[{"op": "insert", "parent": "root", "node": {"id": node_id, "kind": "view"}}])
    assert client.call("tree.get", session=s, id=node_id)["tree"]["id"] == node_id
