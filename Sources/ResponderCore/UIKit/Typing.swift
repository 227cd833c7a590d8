import ResponderProtocol

/// E4: what a hardware key means to text input. A key name of one character types it; a few names stand for
/// the keys that edit; anything else (a modifier alone, Escape, function keys) has no text meaning.
enum TextKey: Equatable {
    case characters(String)
    case delete, returnKey, leftArrow, rightArrow

    /// Names are matched without regard to case (`Return`, `return`); a single character is typed as it is.
    init?(_ name: String) {
        if name.count == 1 {
            guard let first = name.unicodeScalars.first, first.value >= 0x20, first.value != 0x7F else { return nil }
            self = .characters(name)
            return
        }
        switch name.lowercased() {
        case "return", "enter": self = .returnKey
        case "delete", "backspace": self = .delete
        case "leftarrow": self = .leftArrow
        case "rightarrow": self = .rightArrow
        case "space": self = .characters(" ")
        default: return nil
        }
    }
}

extension SessionState {
    /// E4: the text field or view that takes typing now: the press's responder, when it is a text input that
    /// is enabled and editable.
    func typingTarget(_ id: String?) -> String? {
        guard let id,
            let ok = world.read(
                id,
                { node in
                    let spec = node.pointee.spec
                    guard spec.uikitClass?.isTextInput == true else { return false }
                    return spec.isEditable && (spec.kind != .textField || spec.enabled)
                }), ok
        else { return nil }
        return id
    }

    /// E4, K12, K13: text input takes `key` in the text field or view `id`.
    mutating func type(_ key: TextKey, into id: String, trace: inout Trace) {
        guard let node = world[id]?.spec else { return }
        let units = Array(node.text.utf16)
        let r = node.selectedRange
        let location = min(r[0], units.count), end = min(r[0] + r[1], units.count)
        let isField = node.uikitClass == .UITextField
        switch key {
        case .characters(let s):
            replace(location..<end, with: s, in: id, units: units, trace: &trace)
        case .returnKey where isField:
            returnKey(in: id, trace: &trace)
        case .returnKey:
            replace(location..<end, with: "\n", in: id, units: units, trace: &trace)
        case .delete:
            if end > location {
                replace(location..<end, with: "", in: id, units: units, trace: &trace)
            } else if location > 0 {
                // One character before the caret: both halves of a surrogate pair.
                let pair =
                    location >= 2 && UTF16.isTrailSurrogate(units[location - 1])
                    && UTF16.isLeadSurrogate(units[location - 2])
                replace((location - (pair ? 2 : 1))..<location, with: "", in: id, units: units, trace: &trace)
            }
        case .leftArrow:
            let caret = end > location ? location : max(location - 1, 0)
            change(id, "selectedRange", \.uikit.selectedRange, to: [caret, 0], rule: .e4, trace: &trace)
        case .rightArrow:
            let caret = end > location ? end : min(location + 1, units.count)
            change(id, "selectedRange", \.uikit.selectedRange, to: [caret, 0], rule: .e4, trace: &trace)
        }
    }

    /// K12: an edit the delegate allows replaces `range` with `insert`, the caret after it, and a text field
    /// sends editingChanged. An edit that changes nothing (Delete at the start) sends nothing.
    private mutating func replace(
        _ range: Range<Int>, with insert: String, in id: String, units: [UInt16], trace: inout Trace
    ) {
        guard !range.isEmpty || !insert.isEmpty else { return }
        guard askDelegate(id, .shouldChangeCharacters, \.shouldChangeCharacters, rule: .k12, trace: &trace) else {
            return
        }
        let text =
            String(decoding: units[..<range.lowerBound], as: UTF16.self) + insert
            + String(decoding: units[range.upperBound...], as: UTF16.self)
        change(id, "text", \.uikit.text, to: text, rule: .e4, trace: &trace)
        change(
            id, "selectedRange", \.uikit.selectedRange, to: [range.lowerBound + insert.utf16.count, 0], rule: .e4,
            trace: &trace)
        sendEditingEvent(.editingChanged, from: id, trace: &trace)
    }

    /// K13: Return in a text field. The delegate's shouldReturn false ignores it; otherwise editingDidEndOnExit
    /// is sent, and a field with a target for it resigns (its session ends, K11).
    mutating func returnKey(in id: String, trace: inout Trace) {
        guard askDelegate(id, .shouldReturn, \.shouldReturn, rule: .k13, trace: &trace) else { return }
        sendEditingEvent(.editingDidEndOnExit, from: id, trace: &trace)
        let hasTarget = world.read(id) { $0.pointee.spec.targets.contains { $0.event == .editingDidEndOnExit } }
        // An action may already have resigned it (a nil-targeted resignFirstResponder).
        guard hasTarget == true, let window = world.responderWindow(of: id), firstResponderByWindow[window] == id,
            agreesToResign(id, rule: .k13, trace: &trace)
        else { return }
        firstResponderByWindow[window] = nil
        focusMoved(
            window: window, from: id, to: nil, reason: .returnKey, rule: .k13,
            endsEditing: profile.returnKeyEditingDidEnd == .sent, trace: &trace)
    }

    /// K12: K6's edits (paste:, cut:, delete:) are text input too: a text field that changed sends editingChanged.
    mutating func editedByCommand(_ id: String, textBefore: String, trace: inout Trace) {
        guard world.read(id, { $0.pointee.spec.text }) != textBefore else { return }
        sendEditingEvent(.editingChanged, from: id, trace: &trace)
    }
}
