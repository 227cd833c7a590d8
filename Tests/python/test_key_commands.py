"""Key commands (rule E5: docs/rules.md, Protocol/README.md 12.1) through the real engine. Responders declare
`keyCommands`; a press carries `modifiers`; every reply is validated against Protocol/schemas by the harness.
"""

from __future__ import annotations

from test_gestures import World, steps, world  # noqa: F401 (world: the fixture)
from test_scenarios import APP, R, RVC, W, fixture_f, text_field
from test_text_editing import text_of


def command(input: str, action: str, *flags: str, **extra) -> dict:
    return {"input": input, "modifierFlags": list(flags), "action": action, **extra}


def press(w: World, key: str, *modifiers: str, press_id: str = "k") -> dict:
    params = {"press": press_id, "key": key, "phase": "began"}
    if modifiers:
        params["modifiers"] = list(modifiers)
    began = w.call("event.press", **params)
    w.call("event.press", press=press_id, phase="ended")
    return began


def key_steps(reply: dict) -> list[tuple]:
    return [(s["id"], s["action"], s["result"], s.get("by")) for s in steps(reply, "keyCommand")]


def discarded(reply: dict) -> bool:
    return any(s["reason"] == "end-of-chain" and s["message"] == "pressesBegan" for s in steps(reply, "discard"))


def screen(field: dict | None = None, *, rvc_commands=(), r_commands=(), w_commands=(), handles=None) -> dict:
    """Fixture F with an optional text field `TF` in R; the controller RVC handles `handles` (default every
    action the commands name)."""
    actions = {c["action"] for c in [*rvc_commands, *r_commands, *w_commands]}
    rvc = {"handles": {a: "handle" for a in (actions if handles is None else handles)}}
    if rvc_commands:
        rvc["keyCommands"] = list(rvc_commands)
    r = {"keyCommands": list(r_commands)} if r_commands else None
    win = {"keyCommands": list(w_commands)} if w_commands else None
    return fixture_f(*([field] if field else []), r=r, rvc=rvc, w=win)


def tf(**fields) -> dict:
    return text_field("TF", (20, 100, 360, 40), **fields)


# ------------------------------------------------------------------------------------------------------- E5

def test_E5_the_nearest_responders_command_wins_and_its_action_is_performed_nil_targeted(world):
    w = world(screen(r_commands=[command("k", "search:", "command")],
                     w_commands=[command("k", "palette:", "command")]))
    w.call("tree.apply", ops=[{"op": "update", "id": W, "set": {"handles": {"palette:": "handle"}}}])
    reply = press(w, "k", "command")
    # No first responder: the search starts at the key window (E3); R is not on that chain, W is.
    assert reply["start"] == W
    assert key_steps(reply) == [(W, "palette:", "matched", None), (W, "palette:", "performed", W)]
    # With R's subtree on the chain (R first responder), R's command is nearest.
    w.call("tree.apply", ops=[{"op": "update", "id": R, "set": {"canBecomeFirstResponder": True}}])
    w.call("responder.become", id=R)
    reply = press(w, "k", "command")
    assert key_steps(reply) == [(R, "search:", "matched", None), (W, "palette:", "skipped", None),
                                (R, "search:", "performed", RVC)]
    assert reply["keyCommand"] == {"responder": R, "input": "k", "modifierFlags": ["command"], "action": "search:",
                                   "performed": True, "by": RVC, "system": False}
    # Performed: the press is consumed, not discarded, and the action is listed as sent.
    assert not discarded(reply)
    assert [(s["action"], s["performed"], s["by"]) for s in steps(reply, "action")] == [("search:", True, RVC)]


def test_E5_keyCommandClash_farthest_lets_the_responder_furthest_up_win(world):
    tree = screen(r_commands=[command("k", "search:", "command")], w_commands=[command("k", "palette:", "command")])
    tree["children"][1]["children"][0]["children"][0]["canBecomeFirstResponder"] = True
    w = world(tree, profile={"keyCommandClash": "farthest"})
    w.call("responder.become", id=R)
    reply = press(w, "k", "command")
    assert key_steps(reply) == [(W, "palette:", "matched", None), (R, "search:", "skipped", None),
                                (W, "palette:", "performed", RVC)]


def test_E5_modifier_flags_must_match_exactly(world):
    w = world(screen(rvc_commands=[command("k", "search:", "command")]))
    w.call("tree.apply", ops=[{"op": "update", "id": R, "set": {"canBecomeFirstResponder": True}}])
    w.call("responder.become", id=R)
    for extra in (["command", "shift"], [], ["control"], ["alternate", "command"]):
        reply = press(w, "k", *extra)
        assert "keyCommand" not in reply and key_steps(reply) == [], extra
        assert discarded(reply), extra
    reply = press(w, "K", "command")  # the key's case does not matter
    assert reply["keyCommand"]["performed"] is True


def test_E5_a_command_whose_action_nobody_implements_lets_the_press_through_to_typing(world):
    # wantsPriorityOverSystemBehavior puts the command before text input; nobody implements its action, so the
    # press goes on as if there were no command and the field types it.
    w = world(screen(tf(text=""), rvc_commands=[command("j", "jump:", wantsPriorityOverSystemBehavior=True)],
                     handles={}))
    w.call("responder.become", id="TF")
    reply = press(w, "j")
    assert key_steps(reply) == [(RVC, "jump:", "matched", None), (RVC, "jump:", "not-performed", None)]
    assert reply["keyCommand"]["performed"] is False
    assert reply["textInput"] == "TF"
    assert text_of(w, "TF")[0] == "j"
    # A command key nobody performs falls off the end of the chain, discarded as before.
    w.call("tree.apply", ops=[{"op": "update", "id": RVC, "set": {
        "keyCommands": [command("j", "jump:", "command")]}}])
    reply = press(w, "j", "command")
    assert reply["keyCommand"]["performed"] is False and discarded(reply)
    assert text_of(w, "TF")[0] == "j"


def test_E5_text_input_goes_first_unless_the_command_wants_priority_or_the_profile_puts_commands_first(world):
    plain = [command("s", "save:")]
    w = world(screen(tf(text=""), rvc_commands=plain))
    w.call("responder.become", id="TF")
    # textInputFirst (default): the field takes "s"; the command never runs.
    reply = press(w, "s")
    assert reply["textInput"] == "TF" and "keyCommand" not in reply and key_steps(reply) == []
    assert text_of(w, "TF")[0] == "s"
    # Without a field taking it, the same press runs the command.
    w.call("tree.apply", ops=[{"op": "update", "id": R, "set": {"canBecomeFirstResponder": True}}])
    w.call("responder.become", id=R)
    assert press(w, "s")["keyCommand"]["performed"] is True
    # wantsPriorityOverSystemBehavior: before text input; performed, nothing is typed.
    w.call("tree.apply", ops=[{"op": "update", "id": RVC, "set": {
        "keyCommands": [command("s", "save:", wantsPriorityOverSystemBehavior=True)]}}])
    w.call("responder.become", id="TF")
    reply = press(w, "s")
    assert reply["keyCommand"]["performed"] is True and "textInput" not in reply
    assert text_of(w, "TF")[0] == "s"
    assert not discarded(reply)


def test_E5_keyCommandsFirst_runs_every_command_before_text_input(world):
    w = world(screen(tf(text=""), rvc_commands=[command("s", "save:")]), profile={"keyCommandOrder": "keyCommandsFirst"})
    w.call("responder.become", id="TF")
    reply = press(w, "s")
    assert reply["keyCommand"]["by"] == RVC and "textInput" not in reply
    assert text_of(w, "TF")[0] == ""
    # A key no command matches is still typed.
    assert press(w, "t")["textInput"] == "TF"
    assert text_of(w, "TF")[0] == "t"


def test_E5_cmd_c_and_cmd_v_on_a_text_field_with_a_selection_go_through_A5(world):
    tree = screen(tf(text="hello world", selectedRange=[0, 5]))
    w = world(tree)
    w.call("responder.become", id="TF")
    copied = press(w, "c", "command")
    assert copied["keyCommand"] == {"responder": APP, "input": "c", "modifierFlags": ["command"], "action": "copy:",
                                    "performed": True, "by": "TF", "system": True}
    assert [s["rule"] for s in steps(copied, "keyCommand")] == ["E5", "E5"]
    assert all(s.get("system") is True for s in steps(copied, "keyCommand"))
    app = w.call("tree.get")["tree"]
    assert app["pasteboard"] == "hello"
    # Move the caret to the end and paste: the text changes as K6 says, and "c" was never typed.
    w.call("tree.apply", ops=[{"op": "update", "id": "TF", "set": {"selectedRange": [11, 0]}}])
    pasted = press(w, "v", "command")
    assert pasted["keyCommand"]["action"] == "paste:" and pasted["keyCommand"]["by"] == "TF"
    assert text_of(w, "TF") == ("hello worldhello", [16, 0])
    # ⌘A selects all; ⌘X cuts it to the pasteboard.
    press(w, "a", "command")
    assert text_of(w, "TF")[1] == [0, 16]
    press(w, "x", "command")
    assert text_of(w, "TF")[0] == ""
    assert w.call("tree.get")["tree"]["pasteboard"] == "hello worldhello"
    # ⌘C with an empty selection: copy: is not available (K6), so nothing performs it and the press falls off.
    nothing = press(w, "c", "command")
    assert nothing["keyCommand"]["performed"] is False and discarded(nothing)


def test_E5_a_responder_that_handles_pressesBegan_keeps_the_press_from_key_commands(world):
    tree = screen(rvc_commands=[command("k", "search:", "command")])
    tree["children"][1]["handles"] = {"pressesBegan": "handle"}  # W
    w = world(tree)
    w.call("tree.apply", ops=[{"op": "update", "id": R, "set": {"canBecomeFirstResponder": True}}])
    w.call("responder.become", id=R)
    reply = press(w, "k", "command")
    assert reply["handledBy"] == [W] and "keyCommand" not in reply


def test_E5_keyCommands_are_validated_with_their_field_paths(world):
    w = world(screen())
    for bad, field in [
        ([{"input": "k"}], "keyCommands[0].action"),
        ([{"input": "", "action": "a:"}], "keyCommands[0].input"),
        ([{"input": "k", "action": "a:", "modifierFlags": ["hyper"]}], "keyCommands[0].modifierFlags[0]"),
        ([{"input": "k", "action": "a:", "extra": 1}], "keyCommands[0].extra"),
        ({"input": "k"}, "keyCommands"),
    ]:
        err = w.error("tree.apply", ops=[{"op": "update", "id": RVC, "set": {"keyCommands": bad}}])
        assert err.name == "INVALID_NODE", bad
        assert err.data["field"].endswith(field), (bad, err.data)
    bad_press = w.error("event.press", press="p", key="k", modifiers=["meta"], phase="began")
    assert bad_press.name == "INVALID_PARAMS"
    # The field round-trips, in canonical order, and null resets it.
    w.call("tree.apply", ops=[{"op": "update", "id": RVC, "set": {
        "keyCommands": [command("z", "redo:", "command", "shift", title="Redo")]}}])
    rvc = w.call("tree.get")["tree"]["children"][1]["children"][0]
    assert rvc["keyCommands"] == [{"input": "z", "modifierFlags": ["shift", "command"], "action": "redo:",
                                   "wantsPriorityOverSystemBehavior": False, "title": "Redo"}]
    w.call("tree.apply", ops=[{"op": "update", "id": RVC, "set": {"keyCommands": None}}])
    assert "keyCommands" not in w.call("tree.get")["tree"]["children"][1]["children"][0]


def test_E5_the_guides_compose_screen_runs_as_written(engine, client, tmp_path):
    """docs/gestures-and-uikit-classes.md, "Key commands": its compose.json and every command of its console
    block, run with the real CLI; each prints what the guide shows."""
    import re
    import subprocess

    from stdio_harness import REPO, responder_path, target_args

    guide = (REPO / "docs" / "gestures-and-uikit-classes.md").read_text()
    section = guide.split("## Key commands", 1)[1].split("\n## ", 1)[0]
    world_text = re.search(r"```json\n(.*?)```", section, re.S).group(1)
    console = re.search(r"```console\n(.*?)```", section, re.S).group(1)
    (tmp_path / "compose.json").write_text(world_text)
    client.rpc("session.delete", {"session": "compose"}, validate=False)
    runs = [(block.split("\n", 1)[0], block.split("\n", 1)[1] if "\n" in block else "")
            for block in console.split("$ responder ")[1:]]
    assert len(runs) == 7
    assert any("key command cmd+return of composeVC (E5) [actions: send: → composeVC]" in out for _, out in runs)
    try:
        for command, expected in runs:
            r = subprocess.run([str(responder_path()), *target_args(engine), *command.split()], cwd=tmp_path,
                               capture_output=True, text=True, timeout=60)
            assert r.returncode == 0, (command, r.stderr)
            assert r.stdout == expected, f"responder {command}"
    finally:
        client.rpc("session.delete", {"session": "compose"}, validate=False)
