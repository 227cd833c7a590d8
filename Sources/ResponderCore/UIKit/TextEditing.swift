import ResponderProtocol

/// K6: UITextField's and UITextView's editing-menu commands: when canPerformAction allows them, and what they
/// do to `text`, `selectedRange` and the application's `pasteboard`. Ranges are UTF-16 (NSRange).
extension SessionState {
    func canEdit(_ action: String, _ node: NodeSpec) -> Bool {
        let units = node.text.utf16.count
        let selection = node.selectedRange
        let editable = node.isEditable && (node.kind != .textField || node.enabled)
        switch action {
        case "paste:": return editable && world.root.spec.uikit.pasteboard != nil
        case "copy:": return selection[1] > 0 && !node.isSecureTextEntry
        case "cut:": return editable && selection[1] > 0 && !node.isSecureTextEntry
        case "delete:": return editable && selection[1] > 0
        case "select:": return units > 0 && selection[1] == 0
        case "selectAll:": return units > 0 && selection[1] < units
        default: return false
        }
    }

    mutating func performEdit(_ action: String, on id: String, trace: inout Trace) {
        guard let node = world[id]?.spec else { return }
        let units = Array(node.text.utf16)
        let r = node.selectedRange
        let location = min(r[0], units.count), end = min(r[0] + r[1], units.count)
        let selected = String(decoding: units[location..<end], as: UTF16.self)
        func replaceSelection(with insert: String) {
            let text =
                String(decoding: units[..<location], as: UTF16.self) + insert
                + String(decoding: units[end...], as: UTF16.self)
            change(id, "text", \.uikit.text, to: text, rule: .k6, trace: &trace)
            change(
                id, "selectedRange", \.uikit.selectedRange, to: [location + insert.utf16.count, 0], rule: .k6,
                trace: &trace)
        }
        switch action {
        case "copy:":
            change(World.rootID, "pasteboard", \.uikit.pasteboard, to: selected, rule: .k6, trace: &trace)
        case "cut:":
            change(World.rootID, "pasteboard", \.uikit.pasteboard, to: selected, rule: .k6, trace: &trace)
            replaceSelection(with: "")
        case "paste:":
            guard let pasted = world.root.spec.uikit.pasteboard else { return }
            replaceSelection(with: pasted)
        case "delete:":
            replaceSelection(with: "")
        case "select:":
            change(
                id, "selectedRange", \.uikit.selectedRange, to: Self.word(around: location, in: units), rule: .k6,
                trace: &trace)
        case "selectAll:":
            change(id, "selectedRange", \.uikit.selectedRange, to: [0, units.count], rule: .k6, trace: &trace)
        default:
            break
        }
    }

    /// select: the word at (or just before) the caret — a run of letters and digits; none: the caret stays.
    static func word(around location: Int, in units: [UInt16]) -> [Int] {
        func isWordUnit(_ i: Int) -> Bool {
            guard i >= 0, i < units.count, let scalar = Unicode.Scalar(units[i]) else { return false }
            return scalar.properties.isAlphabetic || scalar.properties.numericType != nil
        }
        var start = location
        if !isWordUnit(start) && isWordUnit(start - 1) { start -= 1 }
        guard isWordUnit(start) else { return [location, 0] }
        var end = start
        while isWordUnit(start - 1) { start -= 1 }
        while isWordUnit(end) { end += 1 }
        return [start, end - start]
    }
}
