import ResponderCore
import ResponderJSON
import ResponderProtocol
import Testing

/// A key command as node JSON text.
private func command(_ input: String, _ action: String, _ flags: [String] = ["command"], priority: Bool = false)
    -> String
{
    let list = flags.map { "\"\($0)\"" }.joined(separator: ", ")
    return
        #"{"input": "\#(input)", "modifierFlags": [\#(list)], "action": "\#(action)", "wantsPriorityOverSystemBehavior": \#(priority)}"#
}

/// Fixture F with a text field TF in R; R can become first responder; `r`, `rvc`, `w` declare key commands.
private func keyWorld(
    r: [String] = [], rvc: [String] = [], w: [String] = [],
    handles: String = #"{"search:": "handle", "save:": "handle"}"#,
    text: String = ""
) -> String {
    func commands(_ list: [String]) -> String { #""keyCommands": [\#(list.joined(separator: ", "))]"# }
    let field = v("TF", 20, 100, 360, 40, kind: "textField", #""text": "\#(text)""#)
    return fixtureF(
        [field], rExtra: #""canBecomeFirstResponder": true, "# + commands(r),
        rvc: #""handles": \#(handles), "# + commands(rvc), w: commands(w))
}

/// Began then ended; the began's outcome.
private func press(
    _ s: inout SessionState, _ key: String, _ modifiers: [KeyModifier] = [], id: String = "k"
) throws -> Traced<PressOutcome> {
    let began = try s.press(.string(id), key: key, modifiers: modifiers, phase: .began, client: "c")
    _ = try s.press(.string(id), key: nil, phase: .ended, client: "c")
    return began
}

private func keySteps(_ d: Traced<PressOutcome>) -> [String] {
    d.trace.steps.compactMap { step in
        guard case .keyCommand(let k) = step else { return nil }
        return "\(k.id) \(k.action) \(k.result.rawValue)" + (k.by.map { " by \($0)" } ?? "")
    }
}

@Suite("Key commands (E5)")
struct KeyCommandTests {
    @Test("E5 the nearest responder's matching command wins; farthest under keyCommandClash")
    func nearestWins() throws {
        let tree = keyWorld(r: [command("k", "search:")], rvc: [command("k", "save:")])
        var s = try session(tree)
        _ = try s.become(["id": "R"])
        let d = try press(&s, "k", [.command])
        #expect(keySteps(d) == ["R search: matched", "RVC save: skipped", "R search: performed by RVC"])
        #expect(d.outcome.keyCommand?.action == "search:")
        #expect(!d.trace.steps.contains { if case .discard = $0 { return true } else { return false } })

        var profile = Profile.uikit
        profile.keyCommandClash = .farthest
        var far = try session(tree, profile: profile)
        _ = try far.become(["id": "R"])
        #expect(
            keySteps(try press(&far, "k", [.command])) == [
                "RVC save: matched", "R search: skipped", "RVC save: performed by RVC"
            ])
    }

    @Test("E5 modifier flags match exactly: no more, no fewer")
    func exactModifiers() throws {
        var s = try session(keyWorld(rvc: [command("k", "search:", ["command", "shift"])]))
        _ = try s.become(["id": "R"])
        #expect(try press(&s, "k", [.command]).outcome.keyCommand == nil)
        #expect(try press(&s, "k", [.command, .shift, .alternate]).outcome.keyCommand == nil)
        #expect(try press(&s, "k", [.shift, .command]).outcome.keyCommand?.performed == true)
    }

    @Test("E5 a command whose action nobody implements lets the press through to typing")
    func unperformedFallsThrough() throws {
        var s = try session(keyWorld(rvc: [command("j", "jump:", [], priority: true)]))
        _ = try s.become(["id": "TF"])
        let d = try press(&s, "j")
        #expect(keySteps(d) == ["RVC jump: matched", "RVC jump: not-performed"])
        #expect(d.outcome.textInput == "TF")
        #expect(s.world["TF"]?.spec.text == "j")
    }

    @Test("E5 text input first (default), priority commands and keyCommandsFirst before it")
    func order() throws {
        var s = try session(keyWorld(rvc: [command("s", "save:", [])]))
        _ = try s.become(["id": "TF"])
        let typed = try press(&s, "s")
        #expect(typed.outcome.textInput == "TF" && typed.outcome.keyCommand == nil)

        var priority = try session(keyWorld(rvc: [command("s", "save:", [], priority: true)]))
        _ = try priority.become(["id": "TF"])
        let taken = try press(&priority, "s")
        #expect(taken.outcome.keyCommand?.performed == true && taken.outcome.textInput == nil)
        #expect(priority.world["TF"]?.spec.text == "")

        var profile = Profile.uikit
        profile.keyCommandOrder = .keyCommandsFirst
        var first = try session(keyWorld(rvc: [command("s", "save:", [])]), profile: profile)
        _ = try first.become(["id": "TF"])
        #expect(try press(&first, "s").outcome.keyCommand?.by == "RVC")
        #expect(first.world["TF"]?.spec.text == "")
    }

    @Test("E5 ⌘C and ⌘V are the system's commands: copy: and paste: through A5 (K6)")
    func systemCommands() throws {
        var s = try session(keyWorld(text: "hello"))
        _ = try s.become(["id": "TF"])
        // Command combinations are never typed (E4): ⌘A selects all instead of typing "a".
        let all = try press(&s, "a", [.command])
        #expect(all.outcome.keyCommand?.system == true && all.outcome.keyCommand?.by == "TF")
        #expect(s.world["TF"]?.spec.selectedRange == [0, 5])
        _ = try press(&s, "c", [.command])
        #expect(s.world["app"]?.spec.uikit.pasteboard == "hello")
        _ = try s.press(.string("caret"), key: "rightArrow", phase: .began, client: "c")
        let pasted = try press(&s, "v", [.command])
        #expect(pasted.outcome.keyCommand?.action == "paste:")
        #expect(s.world["TF"]?.spec.text == "hellohello")
    }
}
