"""Dispatch methods (issue 3, provisional shapes) on the demo world. Replies are validated against the
permissive schemas (documented top-level members required); the assertions are the UIKit rules of
uikit-semantics.md that the documented members expose."""

import pytest

from harness import new_session

# The demo world: button at window (32, 136, 326, 44), textField at (32, 196, 326, 44).
BUTTON = [100, 150]
TEXT_FIELD = [100, 210]
NOWHERE = [1000, 1000]


def unvalidated(client, method, **params):
    """The result without schema validation: the schema is checked once per method in
    test_dispatch_result_schema, so that the semantics are checked even while a shape is in question."""
    resp = client.rpc(method, params, validate=False)
    assert "result" in resp, resp
    return resp["result"]


@pytest.fixture
def demo(engine, client):
    s = new_session(client, "disp")
    return s, engine.subscriber(f"{s}/")


def test_hit_test(client, demo):
    s, _ = demo
    r = unvalidated(client, "hitTest", session=s, point=BUTTON)
    assert (r["window"], r["view"], r["localPoint"]) == ("window", "button", [68, 14])
    order = [v["id"] for v in r["visited"]]
    assert order == ["window", "root", "card", "textField", "button"], "front-most subviews first (H2)"
    assert [v["result"] for v in r["visited"]] == ["hit", "hit", "hit", "miss", "hit"]
    assert "header" not in order, "views behind the winner are never asked"
    r = unvalidated(client, "hitTest", session=s, point=NOWHERE)
    assert r["window"] is None and r["view"] is None and r["localPoint"] is None


def test_responder_chain(client, demo):
    s, _ = demo
    assert unvalidated(client, "responderChain", session=s, id="button")["chain"] == \
        ["button", "card", "root", "rootVC", "window", "app", "delegate"]
    e = client.error("responderChain", session=s, id="ghost")
    assert e.name == "NODE_NOT_FOUND" and e.data.get("id") == "ghost"


def test_tap_publishes_its_trace(client, demo):
    s, sub = demo
    r = client.call("event.tap", session=s, point=BUTTON)
    assert r["seqRange"] is not None and r["seqRange"][1] == r["seq"]
    _, event = sub.next(f"{s}/trace")
    assert event["seq"] == r["seqRange"][0] and event["trace"] == r["trace"]


def test_nil_target_action_walks_to_the_view_controller(client, demo):
    s, sub = demo
    r = client.call("action.send", session=s, action="buttonTapped:", target=None, sender="button")
    assert r["performed"] is True and r["by"] == "rootVC"
    assert r["visited"] == ["button", "card", "root", "rootVC"]
    _, event = sub.next(f"{s}/trace")
    assert event["trace"] == r["trace"]
    r = client.call("action.send", session=s, action="buttonTapped:", target="card", sender="button")
    assert r["performed"] is False, "an explicit target that does not implement the action fails (A2)"
    r = client.call("action.send", session=s, action="nobodyHasThis:", target=None, sender="button")
    assert r["performed"] is False and r["by"] is None


def test_first_responder(client, demo):
    s, sub = demo
    assert client.call("responder.first", session=s) is None
    r = client.call("responder.become", session=s, id="textField")
    assert r["result"] is True
    assert client.call("responder.first", session=s) == "textField"
    assert client.call("responder.first", session=s, window="window") == "textField"
    assert client.call("session.snapshot", session=s)["firstResponders"] == {"window": "textField"}
    _, focus = sub.next(f"{s}/focus")
    assert focus["seq"] <= r["seq"]
    r = client.call("responder.become", session=s, id="button")
    assert r["result"] is False, "canBecomeFirstResponder is false for a button (F1)"
    assert client.call("responder.first", session=s) == "textField", "and the first responder is untouched (F2)"
    r = client.call("responder.resign", session=s, id="textField")
    assert r["result"] is True and client.call("responder.first", session=s) is None


def test_tapping_a_text_field_focuses_it(client, demo):
    s, _ = demo
    client.call("event.tap", session=s, point=TEXT_FIELD)
    assert client.call("responder.first", session=s) == "textField"
    client.call("event.tap", session=s, point=BUTTON)
    assert client.call("responder.first", session=s) == "textField", "tapping a button does not move focus (F5)"


def test_removing_the_first_responder_resigns_it(client, demo):
    s, sub = demo
    client.call("responder.become", session=s, id="textField")
    r = client.call("tree.apply", session=s, ops=[{"op": "remove", "id": "card"}])
    first, last = r["seqRange"]
    assert last > first, "the tree event is followed by the forced resignation (F6)"
    assert client.call("responder.first", session=s) is None
    streams = set()
    while True:
        _, e = sub.next()
        if e["seq"] >= first:
            streams.add(e["stream"])
        if e["seq"] == last:
            break
    assert {"tree", "focus"} <= streams


def test_motion_remote_press(client, demo):
    s, sub = demo
    for method, params in [("event.motion", {"subtype": "shake", "phase": "began"}),
                           ("event.motion", {"subtype": "shake", "phase": "ended"}),
                           ("event.remoteControl", {"subtype": "play"}),
                           ("event.press", {"press": "p1", "key": "a", "phase": "began"}),
                           ("event.press", {"press": "p1", "key": "a", "phase": "ended"})]:
        r = client.call(method, session=s, **params)
        _, event = sub.next(f"{s}/trace")
        assert event["trace"] == r["trace"] and event["seq"] == r["seq"]


def test_touch_phases_and_errors(client, demo):
    s, _ = demo
    client.call("event.touch", session=s, touches=[{"touch": "t1", "phase": "began", "point": BUTTON}])
    live = client.call("session.snapshot", session=s)["liveTouches"]
    assert len(live) == 1
    e = client.error("event.touch", session=s, touches=[{"touch": "t1", "phase": "began", "point": BUTTON}])
    assert e.name == "TOUCH_IN_USE"
    e = client.error("event.touch", session=s, touches=[{"touch": "t9", "phase": "moved", "point": BUTTON}])
    assert e.name == "TOUCH_NOT_FOUND"
    client.call("event.touch", session=s, touches=[{"touch": "t1", "phase": "moved", "point": NOWHERE}])
    client.call("event.touch", session=s, touches=[{"touch": "t1", "phase": "ended", "point": NOWHERE}])
    assert client.call("session.snapshot", session=s)["liveTouches"] == []


def test_press_errors(client, demo):
    s, _ = demo
    client.call("event.press", session=s, press="k", key="a", phase="began")
    assert client.error("event.press", session=s, press="k", key="a", phase="began").name == "PRESS_IN_USE"
    assert client.error("event.press", session=s, press="z", key="a", phase="ended").name == "PRESS_NOT_FOUND"


def test_make_key(client, demo):
    s, _ = demo
    unvalidated(client, "window.makeKey", session=s, id="window")
    e = client.error("window.makeKey", session=s, id="title")
    assert e.name == "WRONG_KIND" and e.data.get("id") == "title"


@pytest.mark.parametrize("method,params", [
    ("hitTest", {"point": BUTTON}),
    ("responderChain", {"id": "button"}),
    ("event.touch", {"touches": [{"touch": "t", "phase": "began", "point": BUTTON}]}),
    ("event.tap", {"point": BUTTON}),
    ("event.motion", {"subtype": "shake", "phase": "began"}),
    ("event.remoteControl", {"subtype": "play"}),
    ("event.press", {"press": "p", "key": "a", "phase": "began"}),
    ("responder.become", {"id": "textField"}),
    ("responder.resign", {"id": "textField"}),
    ("responder.first", {}),
    ("window.makeKey", {"id": "window"}),
    ("action.send", {"action": "buttonTapped:", "target": None, "sender": "button"}),
    ("action.canPerform", {"action": "copy:"}),
])
def test_dispatch_result_schema(client, demo, method, params):
    s, _ = demo
    client.call(method, session=s, **params)  # validated against methods/<method>.result.json
