"""The amended rules T5/G1 (recognizers ignore exclusiveTouch), G3 (a recognizer's target-action pairs), A2 (an
explicit target lacking the action crashes the app) and K5 (UIStepper's halves, autorepeat, continuous and wraps)
through the real engine (docs/rules.md). Time is the session clock only (G11). Replies are checked against
Protocol/schemas by the harness.
"""

from __future__ import annotations

from test_gestures import began, ended, moved, rec, steps, tap_rec, target, world  # noqa: F401 (world: fixture)
from test_scenarios import R, RVC, control, fixture_f, text_field, view

HANDLES = {"tapped:": "handle", "pinched:": "handle", "stepped:": "handle", "other:": "handle"}


def tree(*children, r: dict | None = None) -> dict:
    return fixture_f(*children, rvc={"handles": HANDLES}, r=r)


def actions(reply: dict) -> list[tuple]:
    return [(s["action"], s.get("target"), s["performed"], s.get("reason")) for s in steps(reply, "action")]


def gesture_actions(reply: dict) -> list[tuple]:
    return [(s["recognizer"], s["action"], s["performed"], s.get("reason")) for s in steps(reply, "gestureAction")]


# ------------------------------------------------------------------------------------------------- T5, G1

def exclusive_pair(r: dict | None = None, **y) -> dict:
    """X (exclusive) and Y side by side in R."""
    return tree(view("X", (0, 0, 100, 100), exclusiveTouch=True), view("Y", (200, 0, 100, 100), **y), r=r)


def test_T5_G1_a_touch_exclusiveTouch_withholds_from_its_view_is_still_observed_and_recognized(world):
    w = world(exclusive_pair(gestureRecognizers=[tap_rec("tapY", targets=[target(RVC, "tapped:")])]))
    w.touch(began(1, (50, 50)))
    r = w.touch(began(2, (250, 50)), ended(2))
    # Y itself gets nothing of touch 2 (T5)…
    assert [(d["reason"], d["rule"]) for d in r["deliveries"]] == [("exclusive-touch", "T5")] * 2
    # …but its recognizer observes it (G1) and recognizes.
    assert [(s["recognizer"], s["observes"]) for s in steps(r, "observe")] == [("tapY", True)]
    assert gesture_actions(r) == [("tapY", "tapped:", True, None)]


def test_T5_G1_G7_a_recognizer_fed_a_withheld_touch_cancels_the_exclusive_views_touch(world):
    w = world(exclusive_pair(r={"gestureRecognizers": [rec("pinch", "pinch", targets=[target(RVC, "pinched:")])]}))
    w.touch(began(1, (50, 50)))
    r = w.touch(began(2, (250, 50)), moved(2, (350, 50)))
    assert [g["to"] for g in r["deliveries"][-1]["gestures"]] == ["began"]
    # G7: X, which did get touch 1, has it cancelled; touch 2 was never X's or Y's.
    cancelled = r["deliveries"][-1]["gestureDeliveries"]
    assert [(d["touch"], d["view"], d["message"], d["rule"]) for d in cancelled] == [
        (1, "X", "touchesCancelled", "G7")]


def test_T5_G1_whyNot_still_names_exclusiveTouch_when_a_recognizer_observes_the_touch(world):
    # The dry-run tap is observed by Y's recognizer now, but Y itself still gets nothing of it: T5 is the cause.
    w = world(exclusive_pair(gestureRecognizers=[tap_rec("tapY", targets=[target(RVC, "tapped:")])]))
    w.touch(began(1, (50, 50)))
    r = w.call("whyNot", view="Y")
    assert r["ok"] is False and (r["cause"]["rule"], r["cause"]["reason"], r["cause"]["culprit"]) == (
        "T5", "exclusive-touch", "X")


# ------------------------------------------------------------------------------------------------- G3, A2

def test_G3_A2_whyNot_names_the_crash_that_keeps_the_touch_from_the_view(world):
    w = world(tree(view("V", (0, 0, 200, 200), gestureRecognizers=[
        tap_rec("t", cancelsTouchesInView=False, targets=[target(RVC, "missing:")])])))
    r = w.call("whyNot", view="V")
    assert r["ok"] is False
    assert (r["cause"]["rule"], r["cause"]["reason"], r["cause"]["culprit"], r["cause"]["recognizer"]) == (
        "G3", "unrecognized-selector", RVC, "t")

def test_G3_a_pair_listed_twice_is_held_once_and_sent_once(world):
    w = world(tree(view("V", (0, 0, 200, 200), gestureRecognizers=[
        tap_rec("t", targets=[target(RVC, "tapped:"), target(RVC, "tapped:"), target(RVC, "other:")])])))
    assert gesture_actions(w.tap(50, 50)) == [("t", "tapped:", True, None), ("t", "other:", True, None)]


def test_G3_A2_a_recognizer_target_lacking_the_action_crashes_and_ends_the_dispatch(world):
    w = world(tree(view("V", (0, 0, 200, 200), handles={"touchesEnded": "handle"}, gestureRecognizers=[
        tap_rec("t", cancelsTouchesInView=False, targets=[target(RVC, "missing:"), target(RVC, "tapped:")])])))
    r = w.tap(50, 50)
    assert r["crashed"] == {"reason": "unrecognized-selector", "target": RVC, "action": "missing:",
                            "recognizer": "t", "rule": "G3"}
    # Nothing after the crash: not the second target, not the view's touchesEnded.
    assert gesture_actions(r) == [("t", "missing:", False, "unrecognized-selector")]
    assert (r["deliveries"][-1]["reason"], r["deliveries"][-1]["rule"]) == ("crashed", "G3")
    assert not [s for s in steps(r, "deliver") if s["message"] == "touchesEnded"]
    # The session keeps working for inspection.
    assert w.call("responder.first") is None


def test_G3_A2_profile_ignore_fails_quietly_and_goes_on(world):
    w = world(tree(view("V", (0, 0, 200, 200), gestureRecognizers=[
        tap_rec("t", targets=[target(RVC, "missing:"), target(RVC, "tapped:")])])),
        profile={"unrecognizedSelector": "ignore"})
    r = w.tap(50, 50)
    assert "crashed" not in r
    assert gesture_actions(r) == [("t", "missing:", False, "not-implemented"), ("t", "tapped:", True, None)]


def test_A2_sendAction_to_a_target_lacking_the_action_is_a_crash(world):
    def began(action: str) -> list[dict]:
        return [{"event": "editingDidBegin", "action": action, "target": RVC}]
    w = world(tree(view("V", (0, 0, 100, 100)), text_field("TF", (0, 200, 200, 40), targets=began("tapped:")),
                   text_field("TF0", (0, 300, 200, 40), targets=began("missing:"))))
    r = w.call("action.send", action="missing:", target=RVC, sender="V")
    assert (r["performed"], r["reason"]) == (False, "unrecognized-selector")
    assert r["crashed"] == {"reason": "unrecognized-selector", "target": RVC, "action": "missing:", "sender": "V",
                            "rule": "A2"}
    assert actions(r) == [("missing:", RVC, False, "unrecognized-selector")]
    # A crash belongs to its request (here a become whose editingDidBegin action crashes): the next request
    # dispatches as usual.
    assert actions(w.call("responder.become", id="TF0")) == [("missing:", RVC, False, "unrecognized-selector")]
    assert actions(w.call("responder.become", id="TF")) == [("tapped:", RVC, True, None)]
    ignored = world(tree(view("V", (0, 0, 100, 100))), profile={"unrecognizedSelector": "ignore"})
    r = ignored.call("action.send", action="missing:", target=RVC, sender="V")
    assert (r["performed"], r["reason"], "crashed" in r) == (False, "not-implemented", False)
    assert ignored.call("session.snapshot")["profile"]["unrecognizedSelector"] == "ignore"


def test_A2_a_control_action_that_crashes_stops_the_actions_after_it(world):
    targets = [{"event": "touchUpInside", "action": "missing:", "target": RVC},
               {"event": "touchUpInside", "action": "tapped:", "target": RVC},
               {"event": "touchUpInside", "action": "other:", "target": None}]
    w = world(tree(control("B", (0, 0, 100, 50), targets=targets)))
    r = w.tap(50, 25)
    assert actions(r) == [("missing:", RVC, False, "unrecognized-selector")]
    assert r["crashed"]["sender"] == "B" and r["crashed"]["rule"] == "A2"
    # A later request is dispatched as usual.
    assert w.tap(300, 300)["deliveries"][0]["view"] == R


def test_A2_a_control_target_action_registered_twice_is_sent_once(world):
    twice = {"event": "touchUpInside", "action": "tapped:", "target": RVC}
    w = world(tree(control("B", (0, 0, 100, 50), targets=[twice, dict(twice)])))
    assert actions(w.tap(50, 25)) == [("tapped:", RVC, True, None)]


# ------------------------------------------------------------------------------------------------------- K5

def stepper(**fields) -> dict:
    """A UIStepper at (100, 100, 94, 32): − on x 100…147, + on x 147…194; valueChanged → RVC stepped:."""
    targets = [{"event": "valueChanged", "action": "stepped:", "target": RVC}]
    return tree(control("S", (100, 100, 94, 32), targets=targets, **{"class": "UIStepper", **fields}))


PLUS, MINUS, FAR = (180, 116), (110, 116), (100, 600)


def value(w) -> float:
    return w.call("tree.get", id="S")["tree"]["value"]


def stepped(reply: dict) -> int:
    return len([a for a in actions(reply) if a[0] == "stepped:"])


def test_K5_a_short_press_steps_once_at_touch_up_and_nothing_at_touch_down(world):
    w = world(stepper(value=5))
    down = w.touch(began(1, PLUS))
    assert stepped(down) == 0 and not steps(down, "change")
    up = w.touch(ended(1, PLUS, time=0.2))
    assert stepped(up) == 1 and value(w) == 6
    w.tap(*MINUS)
    assert value(w) == 5


def test_K5_the_highlight_follows_the_touch_to_the_other_half_or_off_the_control(world):
    w = world(stepper(value=5))
    w.touch(began(1, PLUS), moved(1, MINUS), ended(1, MINUS))
    assert value(w) == 4
    r = w.touch(began(2, PLUS), moved(2, FAR), ended(2, FAR))
    assert stepped(r) == 0 and value(w) == 4


def test_K5_a_disabled_half_at_the_bound_does_nothing_and_wraps_goes_round(world):
    w = world(stepper())
    assert stepped(w.tap(*MINUS)) == 0 and value(w) == 0
    wrapping = world(stepper(value=100, wraps=True))
    assert stepped(wrapping.tap(*PLUS)) == 1 and value(wrapping) == 0
    assert stepped(wrapping.tap(*MINUS)) == 1 and value(wrapping) == 100


def test_K5_held_down_the_timer_steps_at_half_seconds_then_faster(world):
    w = world(stepper())
    w.touch(began(1, PLUS))
    r = w.call("clock.advance", to=2.65)
    assert [(e["time"], e["event"], len(e["actions"])) for e in r["controlEvents"]] == [
        (t, "valueChanged", 1) for t in (0.5, 1.0, 1.5, 2.0, 2.5, 2.6)]
    assert value(w) == 6
    # The timer has stepped: touch-up adds no step.
    up = w.touch(ended(1, PLUS))
    assert stepped(up) == 0 and value(w) == 6


def test_K5_a_tick_off_the_control_steps_nothing_and_restarts_the_acceleration(world):
    w = world(stepper())
    w.touch(began(1, PLUS))
    w.touch(moved(1, FAR, time=0.7), moved(1, PLUS, time=1.2))
    assert value(w) == 1
    r = w.call("clock.advance", to=3.55)
    assert [e["time"] for e in r["controlEvents"]] == [1.5, 2.0, 2.5, 3.0, 3.5]
    r = w.call("clock.advance", to=3.65)
    assert [e["time"] for e in r["controlEvents"]] == [3.6]


def test_K5_the_timer_stops_at_the_bound_and_autorepeat_false_steps_only_at_touch_up(world):
    w = world(stepper(value=98))
    w.touch(began(1, PLUS))
    assert "controlEvents" in w.call("clock.advance", to=5)
    assert value(w) == 100
    still = world(stepper(autorepeat=False))
    still.touch(began(1, PLUS))
    assert "controlEvents" not in still.call("clock.advance", to=3)
    assert stepped(still.touch(ended(1, PLUS))) == 1 and value(still) == 1


def test_K5_continuous_false_sends_one_valueChanged_at_touch_up(world):
    w = world(stepper(continuous=False))
    w.touch(began(1, PLUS))
    r = w.call("clock.advance", to=1.2)
    assert "controlEvents" not in r and [s["to"] for s in steps(r, "change")] == [1, 2]
    assert stepped(w.touch(ended(1, PLUS))) == 1 and value(w) == 2


def test_K5_stepper_fields_and_profile_values(world):
    w = world(stepper(), profile={"stepperRepeatDelay": 1, "stepperFastRepeatInterval": 0.25})
    node = w.call("tree.get", id="S")["tree"]
    assert (node["autorepeat"], node["wraps"], node["continuous"]) == (True, False, True)
    w.touch(began(1, PLUS))
    assert [e["time"] for e in w.call("clock.advance", to=5.6)["controlEvents"]] == [1, 2, 3, 4, 5, 5.25, 5.5]
    bad = w.error("tree.apply", ops=[{"op": "update", "id": "S", "set": {"wraps": "yes"}}])
    assert bad.name == "INVALID_NODE" and "wraps" in str(bad.data)
    slider = w.error("tree.apply", ops=[{"op": "insert", "parent": R, "node": {
        "id": "SL", "kind": "control", "class": "UISlider", "frame": [0, 0, 10, 10], "autorepeat": False}}])
    assert slider.name == "INVALID_NODE" and "autorepeat" in str(slider.data)
    zero = w.error("session.create", session="h33bad", profile={"stepperFastRepeatInterval": 0})
    assert "stepperFastRepeatInterval" in str(zero.data)


# ------------------------------------------------------------------------------------------------------ guide

def test_K5_A2_guide_stepper_example_runs_as_written(engine, client, tmp_path):
    """docs/gestures-and-uikit-classes.md, "A stepper held down…": its cart.json and every command of its console
    block, run with the real CLI; each prints what the guide shows."""
    import re
    import subprocess

    from stdio_harness import REPO, responder_path, target_args

    guide = (REPO / "docs" / "gestures-and-uikit-classes.md").read_text()
    section = guide.split("### A stepper held down", 1)[1].split("\n## ", 1)[0]
    world_text = re.search(r"```json\n(.*?)```", section, re.S).group(1)
    console = re.search(r"```console\n(.*?)```", section, re.S).group(1)
    (tmp_path / "cart.json").write_text(world_text)
    client.rpc("session.delete", {"session": "cart"}, validate=False)
    runs = [(block.split("\n", 1)[0], block.split("\n", 1)[1] if "\n" in block else "")
            for block in console.split("$ responder ")[1:]]
    assert len(runs) == 4
    try:
        for command, expected in runs:
            r = subprocess.run([str(responder_path()), *target_args(engine), *command.split()], cwd=tmp_path,
                               capture_output=True, text=True, timeout=60)
            assert r.returncode == 0, (command, r.stderr)
            assert r.stdout == expected, f"responder {command}"
    finally:
        client.rpc("session.delete", {"session": "cart"}, validate=False)
