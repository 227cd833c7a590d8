"""UIKit's own classes (rules K1–K10: docs/rules.md, Protocol/README.md 8.6 and 12.1) through the real engine
and the real CLI. Each example has its before (what a node without the class gives) and after (with it).
Replies and events are validated against Protocol/schemas like every other; the field changes a dispatch makes
arrive as a `dispatch` tree event before its trace event.
"""

from __future__ import annotations

import subprocess

from harness import new_session, unique_name
from stdio_harness import responder_path, target_args
from test_gestures import World, began, ended, moved, published, steps, world  # noqa: F401 (world: the fixture)
from test_scenarios import RVC, control, fixture_f, node, text_field, view

ACTIONS = {"handles": {"tapped:": "handle", "changed:": "handle", "save:": "handle", "primary:": "handle"}}


def changes(reply: dict) -> list[tuple]:
    return [(s["id"], s["field"], s["to"], s["rule"]) for s in steps(reply, "change")]


def control_events(reply: dict) -> list[str]:
    return [e for d in reply["deliveries"] for e in d["controlEvents"]]


def performed(reply: dict) -> list[tuple]:
    return [(a["action"], a["event"], a["by"]) for d in reply["deliveries"] for a in d["actions"] if a["performed"]]


def scroll_world(**scroll) -> dict:
    fields = {"class": "UIScrollView", "contentSize": [400, 1000], **scroll}
    content = view("C", (0, 0, 400, 1000), handles={m: "handle" for m in ("touchesBegan", "touchesMoved", "touchesEnded", "touchesCancelled")})
    return fixture_f(view("S", (0, 0, 400, 400), content, control("B", (0, 300, 400, 100)), **fields))


def presentation(style: str | None) -> dict:
    tf = text_field("TF", (0, 0, 300, 40), handles={"save:": "handle"})
    button = control("PB", (0, 0, 100, 44), targets=[{"event": "touchUpInside", "action": "save:", "target": None}])
    presented = node("PVC", "viewController", None, view("P", (0, 100, 400, 700), button), presentedBy=RVC,
                     handles={"save:": "handle"}, **({"modalPresentationStyle": style} if style else {}))
    world = fixture_f(tf)
    window = world["children"][1]
    window["children"].insert(0, presented)  # before its presenter in the tree: K9 puts it in front anyway
    return world


# ------------------------------------------------------------------------------------------ K1, K10: hit-testing

def test_K1_button_on_image_view_before_and_after(world):
    def on(**iv):
        return world(fixture_f(view("IV", (0, 0, 200, 200), control("B", (10, 10, 100, 44)), **iv)))
    assert on().call("hitTest", point=[20, 20])["view"] == "B", "before: a class-less view passes the touch on"
    hit = on(**{"class": "UIImageView"}).call("hitTest", point=[20, 20])
    assert hit["view"] == "R"
    (iv,) = [v for v in hit["visited"] if v["id"] == "IV"]
    assert (iv["result"], iv["reason"], iv["rule"]) == ("miss", "interaction-disabled", "K1")
    assert on(**{"class": "AvatarView", "baseClass": "UIImageView"}).call("hitTest", point=[20, 20])["view"] == "R"
    labelled = on(**{"class": "UILabel"})
    tree = labelled.call("tree.get", id="IV")["tree"]
    assert tree["userInteractionEnabled"] is False and tree["class"] == "UILabel", "the effective value is written"
    labelled.apply({"op": "update", "id": "IV", "set": {"userInteractionEnabled": True}})
    assert labelled.call("hitTest", point=[20, 20])["view"] == "B"


def test_K10_animating_views(world):
    def with_(**v):
        return world(fixture_f(view("V", (0, 0, 100, 100), **v))).call("hitTest", point=[10, 10])
    assert with_()["view"] == "V"
    hit = with_(animating={"allowUserInteraction": False})
    assert hit["view"] == "R" and [(v["reason"], v["rule"]) for v in hit["visited"] if v["id"] == "V"] == [("animating", "K10")]
    assert with_(animating={"allowUserInteraction": True})["view"] == "V"


# ------------------------------------------------------------------------------------------ K2–K5: controls

def test_K2_primary_action_before_and_after(world):
    targets = [{"event": "primaryActionTriggered", "action": "primary:", "target": None}]
    plain = world(fixture_f(control("B", (10, 10, 100, 44), targets=targets, **{"class": "UIControl"}), rvc=ACTIONS))
    assert performed(plain.tap(20, 20)) == [], "before: nothing sends primaryActionTriggered"
    button = world(fixture_f(control("B", (10, 10, 100, 44), targets=targets), rvc=ACTIONS))
    reply = button.tap(20, 20)
    assert performed(reply) == [("primary:", "primaryActionTriggered", RVC)]
    assert [(s["event"], s["rule"]) for s in steps(reply, "controlEvent")][-1] == ("primaryActionTriggered", "K2")


def test_K3_switch_toggles_and_publishes_a_dispatch_tree_event(world):
    targets = [{"event": "valueChanged", "action": "changed:", "target": None},
               {"event": "primaryActionTriggered", "action": "primary:", "target": None}]
    w = world(fixture_f(control("SW", (10, 10, 51, 31), targets=targets, **{"class": "UISwitch"}), rvc=ACTIONS))
    assert w.call("tree.get", id="SW")["tree"]["on"] is False
    revision = w.snapshot()["revision"]
    sub = w.subscribe()
    reply = w.tap(20, 20)
    assert changes(reply) == [("SW", "on", True, "K3")]
    assert control_events(reply)[-3:] == ["touchUpInside", "valueChanged", "primaryActionTriggered"]
    assert performed(reply) == [("changed:", "valueChanged", RVC), ("primary:", "primaryActionTriggered", RVC)]
    events = published(sub, w.session, reply)
    assert [(t.split("/")[1], e.get("change")) for t, e in events] == [("tree", "dispatch"), ("trace", None)]
    tree_event = events[0][1]
    assert tree_event["ops"] == [{"op": "update", "id": "SW", "set": {"on": True}}]
    assert tree_event["revision"] == revision + 1 and tree_event["cause"] == events[1][1]["cause"]
    node = w.call("tree.get", id="SW")
    assert node["tree"]["on"] is True and node["tree"]["revision"] == revision + 1
    # A dry run says what would change and changes nothing.
    dry = w.call("event.tap", point=[20, 20], dryRun=True)
    assert changes(dry) == [("SW", "on", False, "K3")] and w.snapshot()["revision"] == revision + 1


def test_K4_slider_drag_from_the_thumb(world):
    slider = control("SL", (0, 100, 400, 40), targets=[{"event": "valueChanged", "action": "changed:", "target": None}],
                     **{"class": "UISlider", "maximumValue": 4})
    w = world(fixture_f(slider, rvc=ACTIONS))
    away = w.touch(began("a", (300, 120)), moved("a", (350, 120)), ended("a", (350, 120)))
    assert changes(away) == [], "a touch beyond the thumb (and the slop) does not move it"
    drag = w.touch(began("b", (10, 120)), moved("b", (110, 120)), ended("b", (110, 120)))
    assert changes(drag) == [("SL", "value", 1, "K4")] and [a for a, _, _ in performed(drag)] == ["changed:"]


def test_K5_segmented_control_and_stepper(world):
    changed = [{"event": "valueChanged", "action": "changed:", "target": None}]
    w = world(fixture_f(
        control("SEG", (0, 0, 300, 30), targets=changed, **{"class": "UISegmentedControl", "numberOfSegments": 3}),
        control("ST", (0, 100, 100, 30), targets=changed, **{"class": "UIStepper", "value": 5, "stepValue": 2}), rvc=ACTIONS))
    assert changes(w.tap(150, 10)) == [("SEG", "selectedSegmentIndex", 1, "K5")]
    assert changes(w.tap(150, 10)) == [], "the selected segment again: nothing"
    assert changes(w.tap(10, 110)) == [("ST", "value", 3, "K5")]
    assert changes(w.tap(90, 110)) == [("ST", "value", 5, "K5")]


# ------------------------------------------------------------------------------------------ K6, K7: actions

def test_K6_paste_before_and_after_and_the_commands_edit(world):
    def field(cls: str) -> World:
        w = world(fixture_f(text_field("TF", (0, 0, 300, 40), **{"class": cls})))
        w.apply({"op": "update", "id": "app", "set": {"pasteboard": "hello"}})
        w.call("responder.become", id="TF")
        return w
    before = field("MyField").call("action.canPerform", action="paste:")
    assert before["available"] is False, "before: an unknown class implements nothing"
    w = field("UITextField")
    after = w.call("action.canPerform", action="paste:")
    assert after["available"] is True and after["by"] == "TF"
    assert [(s["to"], s["rule"]) for s in steps(after, "deliver")] == [("TF", "K6")]
    assert w.call("action.canPerform", action="copy:")["available"] is False, "an empty selection"
    sub = w.subscribe()
    paste = w.call("action.send", action="paste:")
    # The caret was at the end and stays there: only `text` changes (its effective selectedRange is [5, 0]).
    assert changes(paste) == [("TF", "text", "hello", "K6")]
    tree_event = published(sub, w.session, paste)[0][1]
    assert tree_event["change"] == "dispatch" and tree_event["ops"] == [{"op": "update", "id": "TF", "set": {"text": "hello"}}]
    assert w.call("tree.get", id="TF")["tree"]["selectedRange"] == [5, 0]
    assert changes(w.call("action.send", action="selectAll:")) == [("TF", "selectedRange", [0, 5], "K6")]
    w.apply({"op": "update", "id": "app", "set": {"pasteboard": "old"}})
    cut = w.call("action.send", action="cut:")
    assert changes(cut) == [("app", "pasteboard", "hello", "K6"), ("TF", "text", "", "K6"), ("TF", "selectedRange", [0, 0], "K6")]
    assert w.call("action.canPerform", action="selectAll:")["available"] is False, "no text"


def test_K7_nil_target_resign_dismisses_the_keyboard(world):
    w = world(fixture_f(text_field("TF", (0, 0, 300, 40))))
    w.call("responder.become", id="TF")
    sub = w.subscribe()
    sent = w.call("action.send", action="resignFirstResponder")
    assert sent["performed"] is True and sent["by"] == "TF"
    assert [(s["reason"], s["rule"]) for s in steps(sent, "firstResponder")] == [("resign", "F3")]
    events = published(sub, w.session, sent)
    assert [t.split("/")[1] for t, _ in events] == ["trace", "focus"]
    assert w.call("responder.first") is None
    become = w.call("action.send", action="becomeFirstResponder", target="TF")
    assert [(s["reason"], s["rule"]) for s in steps(become, "firstResponder")] == [("become", "K7")]
    # Before: an action nobody implements falls off the chain.
    w.call("responder.become", id="TF")
    unknown = w.call("action.send", action="endEditingNow:")
    assert unknown["performed"] is False and w.call("responder.first") == "TF"
    # A responder whose canPerformAction refuses it (the declarative form of an override) passes it on.
    vetoed = world(fixture_f(text_field("TF", (0, 0, 300, 40), vetoes=["resignFirstResponder"])))
    vetoed.call("responder.become", id="TF")
    assert vetoed.call("action.send", action="resignFirstResponder")["by"] == "R"
    assert vetoed.call("responder.first") == "TF"


# ------------------------------------------------------------------------------------------ K8: scroll views

def test_K8_scroll_view_pan_scrolls_and_plain_view_does_not(world):
    plain = world(scroll_world(**{"class": "UIView", "contentSize": None}))
    first = plain.touch(began("t", (200, 200), 0), moved("t", (200, 100), 0.05), ended("t", (200, 100), 0.05))
    assert changes(first) == [] and first["deliveries"][0]["handledBy"] == ["C"], "before: content at once, no scrolling"
    w = world(scroll_world())
    sub = w.subscribe()
    reply = w.touch(began("t", (200, 200), 0), moved("t", (200, 100), 0.05), moved("t", (200, -900), 0.1), ended("t", None, 0.1))
    assert [(g["recognizer"], g["to"]) for g in steps(reply, "gesture")][:2] == [("S.pan", "began"), ("S.pan", "changed")]
    assert changes(reply) == [("S", "boundsOrigin", [0, 100], "K8"), ("S", "boundsOrigin", [0, 600], "K8")]
    assert not [s for s in steps(reply, "deliver") if s["to"] == "C"], "the pan began first: the content never saw it"
    tree_event = published(sub, w.session, reply)[0][1]
    assert tree_event["ops"] == [{"op": "update", "id": "S", "set": {"boundsOrigin": [0, 600]}}]
    assert [r["recognizer"] for r in w.snapshot()["recognizers"]] == ["S.pan"]


def test_K8_delays_content_touches_by_scroll_delay_of_the_clock(world):
    w = world(scroll_world())
    held = w.touch(began("a", (100, 100), 1.0))
    assert held["deliveries"][0]["reason"] == "held" and held["deliveries"][0]["heldBy"] == ["S.pan"]
    tick = w.advance(to=1.15)
    (release,) = steps(tick, "release")
    assert (release["message"], release["rule"], release["by"]) == ("touchesBegan", "K8", None)
    assert [(g["reason"], g["rule"]) for g in tick["gestureDeliveries"]] == [("released", "K8")]
    w.touch(ended("a", None, 1.2))
    quick = w.touch(began("b", (100, 100), 2), ended("b", None, 2.05))
    assert [s["message"] for s in steps(quick, "deliver") if s["to"] == "C"] == ["touchesBegan", "touchesEnded"]
    slow = world(scroll_world(), profile={"scrollDelay": 0.5})
    slow.touch(began("c", (100, 100), 0))
    assert slow.advance(to=0.2)["gestureDeliveries"] == [], "scrollDelay is a profile value"


def test_K8_a_scroll_view_whose_content_fits_does_not_scroll_and_its_content_gets_the_drag(world):
    drag = (began("t", (200, 200), 0), moved("t", (200, 100), 0.05), ended("t", None, 0.05))
    scrolls = world(scroll_world()).touch(*drag)
    assert ("S.pan", "began") in [(g["recognizer"], g["to"]) for g in steps(scrolls, "gesture")], "before: content taller than S"
    fits = world(scroll_world(contentSize=[400, 400]))
    reply = fits.touch(*drag)
    # K19: the pan stays possible while the touch moves along axes S cannot scroll, and fails at its end.
    assert [(g["recognizer"], g["to"], g["rule"], g["reason"]) for g in steps(reply, "gesture")][0] == \
        ("S.pan", "failed", "K19", "cannot-scroll")
    assert changes(reply) == []
    assert [s["message"] for s in steps(reply, "deliver") if s["to"] == "C"] == \
        ["touchesBegan", "touchesMoved", "touchesEnded"], "the content gets the whole drag"
    # A text view without a class is a UITextView with contentSize [0, 0]: a drag on it is its own.
    text = world(fixture_f(node("TV", "textView", (0, 0, 400, 400))))
    reply = text.touch(*drag)
    assert ("TV.pan", "failed", "cannot-scroll") in [(g["recognizer"], g["to"], g["reason"]) for g in steps(reply, "gesture")]
    assert changes(reply) == []


def test_K8_G10_a_button_in_a_scroll_view_keeps_its_tap_from_a_tap_recognizer_above(world):
    # The button's touchesBegan is held by S.pan until the tap ends; the root's tap recognizer still fails (G10),
    # as without the scroll view, and the button's action is sent.
    dismiss = {"gestureRecognizers": [{"id": "dismiss", "kind": "tap", "cancelsTouchesInView": False,
                                        "targets": [{"target": RVC, "action": "tapped:"}]}]}
    button = {"targets": [{"event": "touchUpInside", "action": "save:", "target": None}]}
    for scroll in ({"class": "UIScrollView", "contentSize": [400, 1000]}, {}):
        w = world(fixture_f(view("S", (0, 0, 400, 400), control("B", (0, 300, 400, 100), **button), **scroll),
                            r=dismiss, rvc=ACTIONS))
        reply = w.tap(100, 350)
        if scroll:
            assert reply["deliveries"][0]["heldBy"] == ["S.pan"]
        assert ("dismiss", "failed", "G10", "B") in [(g["recognizer"], g["to"], g["rule"], g.get("by")) for g in steps(reply, "gesture")]
        assert not steps(reply, "gestureAction"), "dismiss sent nothing"
        assert performed(reply) == [("save:", "touchUpInside", RVC)]


def test_K8_can_cancel_content_touches_and_controls_keep_theirs(world):
    def after_delay(w: World, at):
        w.touch(began("t", at, 0))
        w.advance(to=0.2)
        return w.touch(moved("t", (at[0], at[1] - 100), 0.3))
    cancelled = after_delay(world(scroll_world()), (100, 200))
    assert [g["to"] for g in steps(cancelled, "gesture") if g["recognizer"] == "S.pan"] == ["began"]
    assert [s["message"] for s in steps(cancelled, "deliver") if s["to"] == "C"] == ["touchesCancelled"]
    kept = after_delay(world(scroll_world(canCancelContentTouches=False)), (100, 200))
    assert [(g["reason"], g["rule"], g["by"]) for g in steps(kept, "gesture")][0] == ("content-tracking", "K8", "C")
    button = after_delay(world(scroll_world()), (100, 350))
    assert [(g["reason"], g["by"]) for g in steps(button, "gesture")][0] == ("control-keeps-touch", "B")
    assert changes(button) == []


# ------------------------------------------------------------------------------------------ K9: presentation

def test_K9_presented_view_is_in_front_whatever_the_tree_order(world):
    w = world(presentation(None))
    hit = w.call("hitTest", point=[50, 500])
    assert hit["view"] == "P" and [v["id"] for v in hit["visited"]][:2] == ["W", "P"]
    # Before: the same view at the same place of the tree, not a presented controller's, is behind the root view.
    tree = presentation(None)
    window = tree["children"][1]
    window["children"][0] = window["children"][0]["children"][0]  # P itself instead of PVC
    assert world(tree).call("hitTest", point=[50, 500])["view"] == "R"


def test_K9_full_screen_resigns_the_presenters_first_responder_and_stops_it_stealing_actions(world):
    def presented(style: str) -> tuple[World, dict]:
        tree = presentation(style)
        window = tree["children"][1]
        pvc = window["children"].pop(0)
        w = world(tree)
        w.call("responder.become", id="TF")
        sub = w.subscribe()
        reply = w.apply({"op": "insert", "parent": "W", "node": pvc})
        return w, (reply, published(sub, w.session, reply))
    sheet, _ = presented("pageSheet")
    assert sheet.call("responder.first") == "TF"
    assert performed(sheet.tap(20, 110)) == [("save:", "touchUpInside", "TF")], "before: the presenter's field steals it"
    full, (reply, events) = presented("fullScreen")
    assert [t.split("/")[1] for t, _ in events] == ["tree", "trace", "focus"]
    (focus,) = [e for t, e in events if t.endswith("/focus")]
    assert focus["change"] == {"window": "W", "from": "TF", "to": None, "reason": "left-window"}
    assert full.call("responder.first") is None
    assert performed(full.tap(20, 110)) == [("save:", "touchUpInside", "PVC")]
    hit = full.call("hitTest", point=[50, 50])
    assert hit["view"] == "W" and [(v["reason"], v["rule"]) for v in hit["visited"] if v["id"] == "R"] == [("presented-over", "K9")]
    assert full.call("responder.become", id="TF")["reason"] == "not-in-window"


# ------------------------------------------------------------------------------------------ validation, CLI

def test_class_fields_are_validated_with_their_full_path(world, client):
    cases = [
        ({"class": "UIButton"}, "class"),
        ({"class": "Avatar", "baseClass": "UIWidget"}, "baseClass"),
        ({"on": True}, "on"),
        ({"class": "UIScrollView", "contentSize": [1]}, "contentSize"),
        ({"animating": {"allowUserInteraction": 1}}, "animating.allowUserInteraction"),
    ]
    for fields, field in cases:
        resp = client.rpc("session.create", {"session": unique_name("bad"), "tree": fixture_f(view("X", (0, 0, 1, 1), **fields))})
        assert resp["error"]["data"]["name"] == "INVALID_NODE", resp
        assert resp["error"]["data"]["field"] == f"tree.children[1].children[0].children[0].children[0].{field}", resp
    w = world(fixture_f(control("SW", (0, 0, 50, 30), **{"class": "UISwitch", "on": True})))
    err = w.error("tree.apply", ops=[{"op": "update", "id": "SW", "set": {"class": "UIButton"}}])
    assert err.data["field"] == "ops[0].set.on" and w.call("tree.get", id="SW")["tree"]["class"] == "UISwitch"
    err = w.error("tree.apply", ops=[{"op": "update", "id": "RVC", "set": {"modalPresentationStyle": "sideways"}}])
    assert err.data["field"] == "ops[0].set.modalPresentationStyle"
    err = w.error("tree.apply", ops=[{"op": "update", "id": "SW", "set": {"gestureRecognizers": []}},
                                     {"op": "update", "id": "R", "set": {"class": "UIScrollView"}},
                                     {"op": "update", "id": "SW", "set": {"gestureRecognizers": [{"id": "R.pan", "kind": "tap"}]}}])
    assert err.data["name"] == "DUPLICATE_ID", "a scroll view's built-in pan owns its id"


def test_cli_tree_and_hit_explain_show_the_demo_worlds_classes(engine, client):
    def run(*args: str) -> str:
        r = subprocess.run([str(responder_path()), *target_args(engine), *args], capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, r.stderr
        return r.stdout
    s = new_session(client, "cli")
    tree = run("tree", "--session", s)
    assert "photo  view  UIImageView  (16, 620, 170, 120)  [interaction off]" in tree
    assert "toggle  control  UISwitch  (300, 580, 51, 31)  [off]" in tree
    assert "⟨pan list.pan built-in⟩" in tree
    explain = run("hit", "100", "700", "--explain", "--session", s)
    assert explain.splitlines()[0].startswith("hit root ")
    assert any(line.split()[:3] == ["photo", "miss", "K1"] and "interaction-disabled" in line for line in explain.splitlines())
    toggled = run("tap", "320", "595", "--session", s)
    assert "change toggle.on: false → true (K3)" in toggled
    assert "[on]" in run("tree", "--session", s)


def uikit_traces(engine, client) -> list[dict]:
    """Traces in which every 1.6 step, rule and reason occurs: test_dispatch's coverage check adds them."""
    traces: list[dict] = []
    made: list[str] = []

    def world(tree: dict, **params) -> World:
        name = new_session(client, "uikitcov", tree=tree, **params)
        made.append(name)
        return World(engine, client, name)

    def keep(x: dict) -> dict:
        traces.append(x["trace"])
        return x

    hits = world(fixture_f(view("IV", (0, 0, 50, 50), **{"class": "UIImageView"}),
                           view("AN", (50, 0, 50, 50), animating={})))
    keep(hits.call("hitTest", point=[10, 10]))
    keep(hits.call("hitTest", point=[60, 10]))
    changed = [{"event": "valueChanged", "action": "changed:", "target": None}]
    controls = world(fixture_f(
        control("SW", (0, 100, 50, 30), targets=changed, **{"class": "UISwitch"}),
        control("SL", (0, 200, 400, 40), targets=changed, **{"class": "UISlider"}),
        control("SEG", (0, 300, 300, 30), targets=changed, **{"class": "UISegmentedControl", "numberOfSegments": 2}),
        text_field("TF", (0, 400, 300, 40), text="ab"), rvc=ACTIONS))
    keep(controls.tap(10, 110))
    keep(controls.touch(began("s", (10, 220)), moved("s", (110, 220)), ended("s", None)))
    keep(controls.tap(200, 310))
    controls.call("responder.become", id="TF")
    keep(controls.call("action.send", action="copy:"))  # vetoed (K6): an empty selection
    keep(controls.call("action.send", action="selectAll:"))
    keep(controls.call("action.send", action="resignFirstResponder"))
    keep(controls.call("action.send", action="becomeFirstResponder", target="TF"))
    for scroll, at in ((scroll_world(), (100, 200)), (scroll_world(canCancelContentTouches=False), (100, 200)), (scroll_world(), (100, 350))):
        w = world(scroll)
        keep(w.touch(began("t", at, 0)))
        keep(w.advance(to=0.2))
        keep(w.touch(moved("t", (at[0], at[1] - 100), 0.3), ended("t", None, 0.3)))
    fits = world(scroll_world(contentSize=[400, 400]))
    keep(fits.touch(began("t", (100, 200), 0), moved("t", (100, 100), 0.05), ended("t", None, 0.05)))
    full = presentation("fullScreen")
    keep(world(full).call("hitTest", point=[50, 50]))
    for name in made:
        client.rpc("session.delete", {"session": name}, validate=False)
    return traces
