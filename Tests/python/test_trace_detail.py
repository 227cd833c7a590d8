"""`trace: "none"` (Protocol/README.md 12.2, revision 1.8) against the real engine: the reply leaves out the trace
(and, for hitTest and action.canPerform, `visited`), everything else in it is what `"full"` answers, and what is
published does not change. Replies are validated against the method schemas by the harness, so the lighter
shapes must be ones the schemas admit."""

import pytest

from harness import new_session
from test_dispatch import readme_examples

# The demo world: button at window (32, 136, 326, 44), textField at (32, 196, 326, 44).
BUTTON = [100, 150]
TEXT_FIELD = [100, 210]
NOWHERE = [1000, 1000]


def without(reply: dict, *members: str) -> dict:
    return {k: v for k, v in reply.items() if k not in members}


@pytest.mark.parametrize("point", [BUTTON, TEXT_FIELD, NOWHERE])
def test_hit_test_none_is_the_answer_only(client, point):
    s = new_session(client, "hitnone")
    full = client.call("hitTest", session=s, point=point)
    light = client.call("hitTest", session=s, point=point, trace="none")
    assert list(light) == ["window", "view", "localPoint"], "a light hit test is {window, view, localPoint}, in order"
    assert light == without(full, "trace", "visited")
    assert client.call("hitTest", session=s, point=point, trace="full") == full, "\"full\" is the default"


def test_readme_light_hit_test_example_is_the_engines_reply(client):
    """12.3 `hitTest` shows the demo world's light hit test: the engine gives exactly that."""
    s = new_session(client, "readmehit")
    light = [(requests, documented) for requests, documented in readme_examples("`hitTest`")
             if requests[-1]["params"].get("trace") == "none"]
    assert len(light) == 1, "12.3 shows one hitTest with trace: none"
    [([request], documented)] = light
    assert client.call(request["method"], **{**request["params"], "session": s}) == documented


def test_queries_with_none(client):
    s = new_session(client, "qnone")
    chain = client.call("responderChain", session=s, id="button")
    assert client.call("responderChain", session=s, id="button", trace="none") == without(chain, "trace")
    for action in ["copy:", "buttonTapped:", "noSuchAction:"]:
        full = client.call("action.canPerform", session=s, action=action)
        light = client.call("action.canPerform", session=s, action=action, trace="none")
        assert list(light) == ["available", "by", "editingCommand"]
        assert light == without(full, "trace", "visited")


# A request that dispatches, after the setup requests that give it something to do (all with "full").
DISPATCHES = {
    "event.tap": ([], {"point": BUTTON}),
    "event.touch": ([], {"touches": [{"touch": "t", "phase": "began", "point": TEXT_FIELD},
                                     {"touch": "t", "phase": "ended"}]}),
    "clock.advance": ([("event.touch", {"touches": [{"touch": "h", "phase": "began", "point": BUTTON}]})],
                      {"by": 1.0}),
    "event.motion": ([("responder.become", {"id": "textField"})], {"phase": "began"}),
    "event.remoteControl": ([], {"subtype": "play"}),
    "event.press": ([("responder.become", {"id": "textField"})], {"press": "p", "key": "a", "phase": "began"}),
    "responder.become": ([], {"id": "textField"}),
    "responder.resign": ([("responder.become", {"id": "textField"})], {"id": "textField"}),
    "action.send": ([], {"action": "buttonTapped:", "target": None, "sender": "button"}),
}


def dispatch_in_fresh_session(engine, client, method, detail):
    """Runs DISPATCHES[method] in a fresh demo session; returns its reply, and the trace event it published."""
    setup, params = DISPATCHES[method]
    s = new_session(client, "dnone")
    for m, p in setup:
        client.call(m, session=s, **p)
    sub = engine.subscriber(f"{s}/trace")
    extra = {} if detail is None else {"trace": detail}
    reply = client.call(method, session=s, **params, **extra)
    _, event = sub.next(f"{s}/trace")
    sub.nothing(0.2, topic=f"{s}/trace")  # exactly one trace event, as always
    sub.close()
    return reply, event


@pytest.mark.parametrize("method", list(DISPATCHES))
def test_dispatch_with_none_publishes_the_same_trace_event(engine, client, method):
    full, full_event = dispatch_in_fresh_session(engine, client, method, None)
    light, light_event = dispatch_in_fresh_session(engine, client, method, "none")
    assert "trace" in full and "trace" not in light
    assert light == without(full, "trace"), "the outcome members, seq and seqRange are those of the full reply"
    assert light_event["trace"] == full_event["trace"] == full["trace"]
    assert light_event["request"] == full_event["request"], "the event's request leaves trace out"
    assert "trace" not in light_event["request"]["params"]
    assert light_event["seq"] == full_event["seq"] and light["seqRange"] == full["seqRange"]
    # The light reply is the event's outcome, then seq and seqRange (12.2).
    assert without(light, "seq", "seqRange") == light_event["trace"]["outcome"]


@pytest.mark.parametrize("method", list(DISPATCHES))
def test_an_unread_trace_is_replayed_as_if_it_had_been_published(engine, client, method):
    """With `trace: "none"` and nobody subscribed to the trace topic, the engine keeps the trace unwritten: the
    reply is the same, and `trace.replay` later gives the very event a subscriber would have received."""
    full, full_event = dispatch_in_fresh_session(engine, client, method, None)
    setup, params = DISPATCHES[method]
    s = new_session(client, "dunread")
    for m, p in setup:
        client.call(m, session=s, **p)
    light = client.call(method, session=s, **params, trace="none")
    assert light == without(full, "trace")
    first, last = light["seqRange"]
    replayed = client.call("trace.replay", session=s, after=first - 1)["events"]
    [event] = [e["event"] for e in replayed if e["topic"] == f"{s}/trace" and e["event"]["seq"] <= last]
    assert without(event, "session", "epoch", "cause") == without(full_event, "session", "epoch", "cause")
    assert event["trace"] == full["trace"]


def test_make_key_with_none(client):
    replies = []
    for detail in [None, "none"]:
        s = new_session(client, "keynone")
        replies.append(client.call("window.makeKey", session=s, id="window", **({} if detail is None else {"trace": detail})))
    full, light = replies
    assert list(light) == ["key", "previous", "revision", "seq", "seqRange"]
    assert light == without(full, "trace")


@pytest.mark.parametrize("method,params", [
    ("event.tap", {"point": BUTTON}),
    ("responder.become", {"id": "textField"}),
    ("window.makeKey", {"id": "window"}),
])
def test_dry_run_with_none(engine, client, method, params):
    s = new_session(client, "drynone")
    sub = engine.subscriber(f"{s}/")
    before = client.call("session.snapshot", session=s)
    full = client.call(method, session=s, dryRun=True, **params)
    light = client.call(method, session=s, dryRun=True, trace="none", **params)
    assert light["dryRun"] is True and light["seqRange"] is None and "trace" not in light
    assert light == without(full, "trace")
    sub.nothing(0.3)
    after = client.call("session.snapshot", session=s)
    assert (after["seq"], after["revision"]) == (before["seq"], before["revision"]), "a dry run changes nothing"


@pytest.mark.parametrize("value", ["partial", "NONE", "", True, 0, ["none"], {"detail": "none"}])
@pytest.mark.parametrize("method,params", [
    ("hitTest", {"point": BUTTON}),
    ("event.tap", {"point": BUTTON}),
    ("window.makeKey", {"id": "window"}),
])
def test_a_bad_trace_value_is_invalid_params_and_changes_nothing(engine, client, method, params, value):
    s = new_session(client, "badnone")
    sub = engine.subscriber(f"{s}/")
    before = client.call("session.snapshot", session=s)
    e = client.error(method, session=s, trace=value, **params)
    assert e.name == "INVALID_PARAMS" and e.data.get("field") == "trace"
    sub.nothing(0.3)
    after = client.call("session.snapshot", session=s)
    assert (after["seq"], after["revision"], after["liveTouches"]) == (before["seq"], before["revision"], before["liveTouches"])
    if method == "event.tap":
        # The tap counter did not move either: the next tap is the session's first.
        r = client.call("event.tap", session=s, point=BUTTON, trace="none")
        assert r["deliveries"][0]["touch"] == "tap-1"


def test_null_trace_is_absent(client):
    """null counts as absent for an optional param (section 5), so it is the default: full."""
    s = new_session(client, "nullnone")
    assert client.call("hitTest", session=s, point=BUTTON, trace=None) == client.call("hitTest", session=s, point=BUTTON)


def test_queries_without_trace_do_not_take_dry_run_or_unknown_members(client):
    s = new_session(client, "strict")
    e = client.error("hitTest", session=s, point=BUTTON, trace="none", traces="none")
    assert e.name == "INVALID_PARAMS" and e.data.get("field") == "traces"
    e = client.error("responder.first", session=s, trace="none")
    assert e.name == "INVALID_PARAMS" and e.data.get("field") == "trace", "responder.first has no trace to leave out"
