"""Text-field editing (rules K11–K13, E4, F8, F9 and the amended F3: docs/rules.md) through the real engine.
A form of two text fields whose editing events go to the controller; every reply is validated against
Protocol/schemas by the harness.
"""

from __future__ import annotations

from test_gestures import World, published, steps, world  # noqa: F401 (world: the fixture)
from test_scenarios import APP, RVC, W, fixture_f, node, text_field, view

EDITING = ["editingDidBegin", "editingChanged", "editingDidEnd", "editingDidEndOnExit"]
HANDLERS = {f"{e}:": "handle" for e in EDITING}


def field(id: str, y: int, *, exit_target: bool = False, **fields) -> dict:
    """A text field whose editing events send `<event>:` to the controller (and editingDidEndOnExit too when
    `exit_target`)."""
    events = EDITING if exit_target else [e for e in EDITING if e != "editingDidEndOnExit"]
    targets = [{"event": e, "action": f"{e}:", "target": RVC} for e in events]
    return text_field(id, (20, y, 360, 40), targets=targets, **fields)


def form(*fields: dict, r: dict | None = None) -> dict:
    return fixture_f(*fields, rvc={"handles": HANDLERS}, r=r)


def sent(reply: dict) -> list[tuple[str, str]]:
    """(action, sender) of every action a request sent, in order."""
    return [(s["action"].rstrip(":"), s["sender"]) for s in steps(reply, "action") if s["performed"]]


def focus(reply: dict) -> list[tuple]:
    return [(s["from"], s["to"], s["reason"], s["rule"]) for s in steps(reply, "firstResponder")]


def text_of(w: World, id: str) -> tuple[str, list[int]]:
    n = _node(w, id)
    return n.get("text", ""), n.get("selectedRange")


def _node(w: World, id: str) -> dict:
    def find(n):
        if n["id"] == id:
            return n
        for c in n.get("children", []):
            hit = find(c)
            if hit:
                return hit
        return None
    return find(w.call("tree.get")["tree"])


def press(w: World, key: str, press_id: str = "k") -> dict:
    began = w.call("event.press", press=press_id, key=key, phase="began")
    w.call("event.press", press=press_id, phase="ended")
    return began


def type_text(w: World, text: str) -> list[dict]:
    return [press(w, ch, f"k{i}") for i, ch in enumerate(text)]


# ------------------------------------------------------------------------------------------------------- K11

def test_K11_every_path_to_and_from_first_responder_begins_and_ends_the_editing_session(world):
    w = world(form(field("TF1", 100), field("TF2", 200)))
    became = w.call("responder.become", id="TF1")
    assert sent(became) == [("editingDidBegin", "TF1")]
    assert steps(became, "controlEvent") == [
        {"step": "controlEvent", "control": "TF1", "event": "editingDidBegin", "rule": "K11"}]
    # Another field becoming first responder: the old one's end comes before the new one's begin.
    switched = w.call("responder.become", id="TF2")
    assert sent(switched) == [("editingDidEnd", "TF1"), ("editingDidBegin", "TF2")]
    # A tap on a text field (F5), the K7 action, and resign (F3).
    tapped = w.tap(200, 120)
    assert sent(tapped) == [("editingDidEnd", "TF2"), ("editingDidBegin", "TF1")]
    resigned = w.call("action.send", action="resignFirstResponder", target=None)
    assert sent(resigned)[-1] == ("editingDidEnd", "TF1")
    assert w.call("responder.first") is None
    # Already first responder: nothing happens (F2.1), so no second begin.
    w.call("responder.become", id="TF2")
    assert sent(w.call("responder.become", id="TF2")) == []


def test_K11_a_field_removed_from_its_window_ends_editing_by_force_F6(world):
    w = world(form(field("TF1", 100, textDelegate={"shouldEndEditing": False}), view("Box", (0, 300, 400, 100),
                   field("TF2", 0))))
    w.call("responder.become", id="TF2")
    sub = w.subscribe()
    reply = w.apply({"op": "remove", "id": "Box"})
    events = published(sub, w.session, reply)
    traces = [e["trace"] for t, e in events if t.endswith("/trace") and e["trace"]["kind"] == "treeChange"]
    assert traces, events
    acts = [(s["action"], s["sender"]) for s in traces[0]["steps"] if s["step"] == "action"]
    assert acts == [("editingDidEnd:", "TF2")]
    assert w.call("responder.first") is None


def test_K11_delegate_shouldBeginEditing_false_keeps_the_current_first_responder(world):
    w = world(form(field("TF1", 100), field("TF2", 200, textDelegate={"shouldBeginEditing": False})))
    w.call("responder.become", id="TF1")
    refused = w.call("responder.become", id="TF2")
    assert (refused["result"], refused["reason"]) == (False, "cannot-become")
    assert steps(refused, "check", check="shouldBeginEditing") == [
        {"step": "check", "id": "TF2", "check": "shouldBeginEditing", "value": False, "rule": "K11"}]
    assert sent(refused) == [] and w.call("responder.first") == "TF1"
    # A tap on it does not focus it either.
    assert sent(w.tap(200, 220)) == [] and w.call("responder.first") == "TF1"


def test_K11_delegate_shouldEndEditing_false_refuses_a_voluntary_resign_but_not_a_forced_end(world):
    w = world(form(field("TF1", 100, textDelegate={"shouldEndEditing": False}), field("TF2", 200)))
    w.call("responder.become", id="TF1")
    refused = w.call("responder.resign", id="TF1")
    assert (refused["result"], refused["reason"]) == (False, "cannot-resign")
    assert steps(refused, "check", check="shouldEndEditing")[0]["value"] is False
    other = w.call("responder.become", id="TF2")
    assert (other["result"], other["reason"]) == (False, "current-cannot-resign")
    assert sent(other) == [] and w.call("responder.first") == "TF1"
    forced = w.call("responder.endEditing", id=W, force=True)
    assert (forced["result"], forced["resigned"]) == (True, "TF1")
    assert sent(forced) == [("editingDidEnd", "TF1")]
    assert steps(forced, "check", check="shouldEndEditing") == [], "a forced end asks nothing"


def test_K11_a_text_view_has_a_session_but_sends_no_control_events(world):
    tv = node("TV", "textView", (20, 300, 360, 200), textDelegate={"shouldBeginEditing": False})
    w = world(form(field("TF1", 100), tv))
    refused = w.call("responder.become", id="TV")
    assert refused["result"] is False
    w.apply({"op": "update", "id": "TV", "set": {"textDelegate": None}})
    became = w.call("responder.become", id="TV")
    assert became["result"] is True and steps(became, "controlEvent") == []


# ------------------------------------------------------------------------------------------------- F3 amended

def test_F3_resigning_a_responder_that_is_not_first_responder_answers_true_and_changes_nothing(world):
    w = world(form(field("TF1", 100), field("TF2", 200)))
    w.call("responder.become", id="TF1")
    reply = w.call("responder.resign", id="TF2")
    assert (reply["result"], reply["reason"], reply["resigned"]) == (True, "not-first-responder", None)
    assert focus(reply) == [] and sent(reply) == []
    assert w.call("responder.first") == "TF1"


# ----------------------------------------------------------------------------------------------- E4 and K12

def test_E4_K12_typing_edits_the_first_responder_and_sends_editingChanged(world):
    w = world(form(field("TF1", 100), field("TF2", 200)))
    w.call("responder.become", id="TF1")
    replies = type_text(w, "hi!")
    assert all(r["textInput"] == "TF1" for r in replies)
    assert [sent(r) for r in replies] == [[("editingChanged", "TF1")]] * 3
    assert steps(replies[0], "discard") == [], "a typed press is not discarded at the end of the chain"
    # The caret follows the text's end, where UIKit puts it by default: only `text` changes.
    assert [(s["field"], s["to"], s["rule"]) for s in steps(replies[0], "change")] == [("text", "h", "E4")]
    assert text_of(w, "TF1") == ("hi!", [3, 0])
    press(w, "LeftArrow")
    press(w, "LeftArrow")
    type_text(w, "X")
    assert text_of(w, "TF1") == ("hXi!", [2, 0])
    deleted = press(w, "Delete")
    assert sent(deleted) == [("editingChanged", "TF1")]
    assert text_of(w, "TF1") == ("hi!", [1, 0])
    press(w, "RightArrow")
    assert text_of(w, "TF1") == ("hi!", [2, 0])
    # A key with no text meaning is not typed: it falls off the end of the chain as before.
    escape = press(w, "Escape")
    assert "textInput" not in escape and steps(escape, "discard")
    # Delete at the start changes nothing and sends nothing.
    w.apply({"op": "update", "id": "TF2", "set": {"text": "", "selectedRange": [0, 0]}})
    w.call("responder.become", id="TF2")
    assert sent(press(w, "Delete")) == []


def test_E4_a_responder_that_consumes_pressesBegan_stops_typing(world):
    w = world(form(field("TF1", 100), r={"handles": {"pressesBegan": "handle"}}))
    w.call("responder.become", id="TF1")
    reply = press(w, "a")
    assert reply["handledBy"] == ["R"] and "textInput" not in reply
    assert text_of(w, "TF1")[0] == ""
    # handle+super passes it on: it reaches text input.
    w.apply({"op": "update", "id": "R", "set": {"handles": {"pressesBegan": "handle+super"}}})
    reply = press(w, "a")
    assert reply["textInput"] == "TF1" and text_of(w, "TF1")[0] == "a"


def test_E4_a_disabled_or_read_only_field_or_no_field_types_nothing(world):
    w = world(form(field("TF1", 100, enabled=False), field("TF2", 200, editable=False)))
    for id in ("TF1", "TF2"):
        w.call("responder.become", id=id)
        reply = press(w, "a")
        assert "textInput" not in reply and text_of(w, id)[0] == ""
    w.call("responder.resign", id="TF2")
    assert "textInput" not in press(w, "a")


def test_E4_profile_textInputPress_firstResponder_takes_the_key_before_the_chain(world):
    w = world(form(field("TF1", 100), r={"handles": {"pressesBegan": "handle"}}),
              profile={"textInputPress": "firstResponder"})
    w.call("responder.become", id="TF1")
    reply = press(w, "a")
    assert reply["visited"] == ["TF1"] and reply["handledBy"] == ["TF1"] and reply["textInput"] == "TF1"
    assert steps(reply, "deliver", message="pressesBegan") == [{"step": "deliver", "to": "TF1", "message": "pressesBegan",
                                        "disposition": "handled", "rule": "E4", "press": "k"}]
    assert text_of(w, "TF1")[0] == "a"


def test_K12_shouldChangeCharacters_false_changes_nothing_and_programmatic_text_sends_nothing(world):
    w = world(form(field("TF1", 100, textDelegate={"shouldChangeCharacters": False})))
    w.call("responder.become", id="TF1")
    reply = press(w, "a")
    assert steps(reply, "check", check="shouldChangeCharacters")[0]["value"] is False
    assert sent(reply) == [] and text_of(w, "TF1")[0] == ""
    applied = w.apply({"op": "update", "id": "TF1", "set": {"text": "set in code"}})
    assert "trace" not in applied or sent(applied) == []


def test_K12_paste_and_cut_performed_on_a_field_send_editingChanged(world):
    w = world(form(field("TF1", 100, text="abc", selectedRange=[0, 3])))
    w.apply({"op": "update", "id": APP, "set": {"pasteboard": "xyz"}})
    w.call("responder.become", id="TF1")
    cut = w.call("action.send", action="cut:", target=None)
    assert sent(cut) == [("cut", None), ("editingChanged", "TF1")]
    assert text_of(w, "TF1")[0] == ""
    paste = w.call("action.send", action="paste:", target=None)
    assert sent(paste) == [("paste", None), ("editingChanged", "TF1")]
    assert text_of(w, "TF1")[0] == "abc", "cut put the selection on the pasteboard"


# ------------------------------------------------------------------------------------------------------- K13

def test_K13_return_with_an_editingDidEndOnExit_target_ends_editing(world):
    w = world(form(field("TF1", 100, exit_target=True), field("TF2", 200)))
    w.call("responder.become", id="TF1")
    reply = press(w, "Return")
    assert reply["textInput"] == "TF1"
    assert sent(reply) == [("editingDidEndOnExit", "TF1"), ("editingDidEnd", "TF1")]
    assert focus(reply) == [("TF1", None, "return-key", "K13")]
    assert w.call("responder.first") is None and text_of(w, "TF1")[0] == ""


def test_K13_return_without_a_target_stays_and_shouldReturn_false_ignores_it(world):
    w = world(form(field("TF1", 100), field("TF2", 200, exit_target=True, textDelegate={"shouldReturn": False})))
    w.call("responder.become", id="TF1")
    assert sent(press(w, "Return")) == [] and w.call("responder.first") == "TF1"
    w.call("responder.become", id="TF2")
    ignored = press(w, "Return")
    assert steps(ignored, "check", check="shouldReturn")[0]["value"] is False
    assert sent(ignored) == [] and w.call("responder.first") == "TF2"


def test_K13_profile_returnKeyEditingDidEnd_suppressed_leaves_out_editingDidEnd(world):
    w = world(form(field("TF1", 100, exit_target=True)), profile={"returnKeyEditingDidEnd": "suppressed"})
    w.call("responder.become", id="TF1")
    reply = press(w, "Return")
    assert sent(reply) == [("editingDidEndOnExit", "TF1")] and w.call("responder.first") is None


def test_K13_return_in_a_text_view_types_a_new_line(world):
    w = world(form(node("TV", "textView", (20, 300, 360, 200), text="a")))
    w.call("responder.become", id="TV")
    press(w, "Return")
    assert text_of(w, "TV")[0] == "a\n" and w.call("responder.first") == "TV"


# ------------------------------------------------------------------------------------------------------- F8

def test_F8_endEditing_asks_unless_forced_and_finds_only_a_first_responder_inside(world):
    w = world(form(view("Box", (0, 0, 400, 300), field("TF1", 100, canResignFirstResponder=False)),
                   view("Other", (0, 400, 400, 300))))
    w.call("responder.become", id="TF1")
    elsewhere = w.call("responder.endEditing", id="Other", force=True)
    assert (elsewhere["result"], elsewhere["reason"]) == (False, "no-first-responder-inside")
    asked = w.call("responder.endEditing", id="Box")
    assert (asked["result"], asked["reason"]) == (False, "cannot-resign") and w.call("responder.first") == "TF1"
    forced = w.call("responder.endEditing", id="Box", force=True)
    assert (forced["result"], forced["reason"], forced["resigned"]) == (True, "resigned", "TF1")
    assert focus(forced) == [("TF1", None, "end-editing", "F8")]
    assert sent(forced) == [("editingDidEnd", "TF1")]
    none = w.call("responder.endEditing", id=W)
    assert (none["result"], none["reason"]) == (False, "no-first-responder-inside")


def test_F8_endEditing_on_the_window_without_force_resigns_a_willing_field(world):
    w = world(form(field("TF1", 100)))
    w.call("responder.become", id="TF1")
    reply = w.call("responder.endEditing", id=W)
    assert (reply["result"], reply["resigned"]) == (True, "TF1") and sent(reply) == [("editingDidEnd", "TF1")]


# ------------------------------------------------------------------------------------------------------- F9

def test_F9_hiding_the_first_responder_changes_nothing_by_default(world):
    w = world(form(field("TF1", 100), field("TF2", 200)))
    w.call("responder.become", id="TF1")
    w.apply({"op": "update", "id": "TF1", "set": {"hidden": True}})
    assert w.call("responder.first") == "TF1"
    # It keeps editing: typing still reaches it.
    assert press(w, "a")["textInput"] == "TF1"


def test_F9_profile_nextKeyView_moves_the_first_responder_past_the_hidden_subtree(world):
    w = world(form(view("Box", (0, 0, 400, 300), field("TF1", 100)), field("TF2", 400), field("TF3", 500)),
              profile={"hiddenFirstResponder": "nextKeyView"})
    w.call("responder.become", id="TF1")
    sub = w.subscribe()
    reply = w.apply({"op": "update", "id": "Box", "set": {"hidden": True}})
    assert w.call("responder.first") == "TF2"
    events = published(sub, w.session, reply)
    trace = [e["trace"] for t, e in events if t.endswith("/trace")][0]
    moves = [(s["from"], s["to"], s["reason"], s["rule"]) for s in trace["steps"] if s["step"] == "firstResponder"]
    assert moves == [("TF1", None, "hidden", "F9"), (None, "TF2", "hidden", "F9")]
    acts = [(s["action"], s["sender"]) for s in trace["steps"] if s["step"] == "action"]
    assert acts == [("editingDidEnd:", "TF1"), ("editingDidBegin:", "TF2")]
    # Showing it again restores nothing.
    w.apply({"op": "update", "id": "Box", "set": {"hidden": False}})
    assert w.call("responder.first") == "TF2"


# ------------------------------------------------------------------------------------- coverage (test_dispatch)

def editing_traces(engine, client) -> list[dict]:
    """Traces in which every 1.13 step value, rule and reason occurs: test_dispatch's coverage check adds them."""
    from harness import new_session

    traces: list[dict] = []
    made: list[str] = []

    def world_(tree: dict, **params) -> World:
        name = new_session(client, "editcov", tree=tree, **params)
        made.append(name)
        return World(engine, client, name)

    def keep(x: dict) -> dict:
        traces.append(x["trace"])
        return x

    delegate = {"shouldBeginEditing": True, "shouldEndEditing": True, "shouldReturn": True,
                "shouldChangeCharacters": True}
    w = world_(form(field("TF1", 100, exit_target=True, textDelegate=delegate), field("TF2", 200)),
               profile={"hiddenFirstResponder": "nextKeyView"})
    keep(w.call("responder.become", id="TF1"))  # K11 checks and editingDidBegin
    keep(w.call("event.press", press="a", key="a", phase="began"))  # E4 change, K12 check and editingChanged
    keep(w.call("event.press", press="r", key="Return", phase="began"))  # K13: shouldReturn, exit, return-key
    keep(w.call("responder.become", id="TF1"))
    keep(w.call("responder.endEditing", id=W))  # F8
    keep(w.call("responder.endEditing", id=W))  # F8: none inside now
    keep(w.call("responder.become", id="TF1"))
    sub = w.subscribe()
    hidden = w.apply({"op": "update", "id": "TF1", "set": {"hidden": True}})  # F9
    traces += [e["trace"] for t, e in published(sub, w.session, hidden) if t.endswith("/trace")]
    first = world_(form(field("TF1", 100)), profile={"textInputPress": "firstResponder"})
    first.call("responder.become", id="TF1")
    keep(first.call("event.press", press="a", key="a", phase="began"))  # E4 deliver step
    for name in made:
        client.rpc("session.delete", {"session": name}, validate=False)
    return traces


# --------------------------------------------------------------------------------------------- the guide

def test_K11_K12_K13_E4_the_guides_form_example_runs_as_written(engine, client, tmp_path):
    """docs/gestures-and-uikit-classes.md, "Text-field editing": its form.json and every command of its console
    block, run with the real CLI; each prints what the guide shows."""
    import re
    import subprocess

    from stdio_harness import REPO, responder_path, target_args

    guide = (REPO / "docs" / "gestures-and-uikit-classes.md").read_text()
    section = guide.split("## Text-field editing", 1)[1]
    world_text = re.search(r"```json\n(.*?)```", section, re.S).group(1)
    console = re.search(r"```console\n(.*?)```", section, re.S).group(1)
    (tmp_path / "form.json").write_text(world_text)
    client.rpc("session.delete", {"session": "form"}, validate=False)
    runs = [(block.split("\n", 1)[0], block.split("\n", 1)[1] if "\n" in block else "")
            for block in console.split("$ responder ")[1:]]
    assert len(runs) == 6
    try:
        for command, expected in runs:
            r = subprocess.run([str(responder_path()), *target_args(engine), *command.split()], cwd=tmp_path,
                               capture_output=True, text=True, timeout=60)
            assert r.returncode == 0, (command, r.stderr)
            assert r.stdout == expected, f"responder {command}"
    finally:
        client.rpc("session.delete", {"session": "form"}, validate=False)
