import ResponderJSON
import ResponderProtocol

/// Draws a nested tree (as `tree.get` returns it) as indented lines with guide characters, one node per
/// line in child order. Iterative, so any depth draws; past `maxGuideDepth` the guides are abbreviated to
/// `┆ [depth N]` so that deep lines stay short instead of growing without bound.
package struct TreeDrawer {
    package var firstResponders: Set<String> = []
    package var maxGuideDepth = 48
    /// Recognizers' live states (session.snapshot), by recognizer id; shown when not idle.
    package var recognizerStates: [String: GestureRecognizerInfo] = [:]

    package init(
        firstResponders: Set<String> = [], maxGuideDepth: Int = 48,
        recognizerStates: [String: GestureRecognizerInfo] = [:]
    ) {
        self.firstResponders = firstResponders
        self.maxGuideDepth = maxGuideDepth
        self.recognizerStates = recognizerStates
    }

    /// Calls `emit` with each line of the subtree at `root`.
    package func draw(_ root: JSON, emit: (String) -> Void) {
        // Per ancestor level below the root: whether that ancestor has siblings still to come (draw "│").
        var guides: [Bool] = []
        var stack: [(node: JSON, depth: Int, last: Bool)] = [(root, 0, true)]
        while let (node, depth, last) = stack.popLast() {
            if guides.count > max(depth - 1, 0) { guides.removeLast(guides.count - max(depth - 1, 0)) }
            var prefix = ""
            if depth > 0 {
                if depth > maxGuideDepth {
                    prefix = "┆ [depth \(depth)] "
                } else {
                    for more in guides { prefix += more ? "│  " : "   " }
                }
                prefix += last ? "└─ " : "├─ "
            }
            emit(prefix + describe(node))
            let children = node["children"]?.arrayValue ?? []
            if depth > 0 { guides.append(!last) }
            for (i, child) in children.enumerated().reversed() {
                stack.append((child, depth + 1, i == children.count - 1))
            }
        }
    }

    /// `id  kind  class  (x, y, w, h)  [flags]  ⟨recognizer⟩…`; an imported node's id carries its display name,
    /// `0x7f8a5c514000 (UIButton "Sign in")`.
    package func describe(_ node: JSON) -> String {
        let id = node["id"]?.stringValue ?? "?"
        var parts = [NodeDisplayName.label(id, name: NodeDisplayName.of(node)), node["kind"]?.stringValue ?? "?"]
        if let cls = node["class"]?.stringValue {
            parts.append(cls + (node["baseClass"]?.stringValue.map { ": \($0)" } ?? ""))
        }
        if let frame = node["frame"]?.arrayValue {
            parts.append("(" + frame.map { Output.coordinate($0) }.joined(separator: ", ") + ")")
        }
        var flags: [String] = []
        if node["hidden"]?.boolValue == true { flags.append("hidden") }
        if let alpha = node["alpha"]?.doubleValue, alpha < 1 { flags.append("alpha \(Output.number(alpha))") }
        if node["userInteractionEnabled"]?.boolValue == false { flags.append("interaction off") }
        if node["enabled"]?.boolValue == false { flags.append("disabled") }
        if node["key"]?.boolValue == true { flags.append("key") }
        if node["clipsToBounds"]?.boolValue == true { flags.append("clips") }
        if firstResponders.contains(id) {
            flags.append("★ first responder")
            // K11: a text field or text view edits exactly while it is first responder.
            let kind = node["kind"]?.stringValue
            if kind == "textField" || kind == "textView" { flags.append("editing") }
        }
        flags += UIKitFlags.flags(node)
        if !flags.isEmpty { parts.append("[" + flags.joined(separator: ", ") + "]") }
        for recognizer in node["gestureRecognizers"]?.arrayValue ?? [] {
            parts.append(describe(recognizer: recognizer))
        }
        // E5: the responder's key commands, as `responder press` writes their keys.
        for command in node["keyCommands"]?.arrayValue ?? [] {
            let flags = (command["modifierFlags"]?.arrayValue ?? []).compactMap {
                $0.stringValue.flatMap(KeyModifier.init(rawValue:))
            }
            let key = TraceFormatter.shortcut(command["input"]?.stringValue ?? "?", flags)
            let priority = command["wantsPriorityOverSystemBehavior"]?.boolValue == true ? ", priority" : ""
            parts.append("⟨key \(key) → \(command["action"]?.stringValue ?? "?")\(priority)⟩")
        }
        // K8: a scroll view's built-in pan (listed by the snapshot, not in the node).
        for builtIn in recognizerStates.values where builtIn.view == id && builtIn.recognizer == id + ".pan" {
            parts.append(
                describe(recognizer: ["id": .string(builtIn.recognizer), "kind": "pan"]).replacingOccurrences(
                    of: "⟩", with: " built-in⟩"))
        }
        return parts.joined(separator: "  ")
    }

    /// `⟨longPress cardHold → rootVC.cardLongPressed:⟩`: kind, id, live state when not idle, parameters and
    /// switches that differ from UIKit's defaults, and the target-actions.
    package func describe(recognizer json: JSON) -> String {
        let id = json["id"]?.stringValue ?? "?"
        var text = "⟨" + (json["kind"]?.stringValue ?? "?") + " " + id
        if let live = recognizerStates[id], live.state != .possible || !live.touches.isEmpty || !live.waitingFor.isEmpty
        {
            var details: [String] = []
            if !live.touches.isEmpty {
                details.append("touches " + live.touches.map(Describe.id).joined(separator: ", "))
            }
            if !live.waitingFor.isEmpty { details.append("waiting for " + live.waitingFor.joined(separator: ", ")) }
            text += " " + live.state.rawValue + (details.isEmpty ? "" : " (" + details.joined(separator: "; ") + ")")
        }
        // A recognizer this client cannot read (a newer engine's member): its kind and id only.
        guard let spec = try? GestureRecognizerSpec(json: json, path: "") else { return text + "⟩" }
        let d = GestureRecognizerSpec(id: spec.id, kind: spec.kind)
        var extras: [String] = []
        func note<T: Equatable>(_ name: String, _ value: T, _ standard: T, _ shown: String) {
            if value != standard { extras.append("\(name) \(shown)") }
        }
        for parameter in spec.kind.parameters {
            switch parameter {
            case .numberOfTapsRequired:
                note(
                    parameter.rawValue, spec.numberOfTapsRequired, d.numberOfTapsRequired,
                    "\(spec.numberOfTapsRequired)")
            case .numberOfTouchesRequired:
                note(
                    parameter.rawValue, spec.numberOfTouchesRequired, d.numberOfTouchesRequired,
                    "\(spec.numberOfTouchesRequired)")
            case .minimumNumberOfTouches:
                note(
                    parameter.rawValue, spec.minimumNumberOfTouches, d.minimumNumberOfTouches,
                    "\(spec.minimumNumberOfTouches)")
            case .maximumNumberOfTouches:
                note(
                    parameter.rawValue, spec.maximumNumberOfTouches, d.maximumNumberOfTouches,
                    spec.maximumNumberOfTouches.map(String.init) ?? "unlimited")
            case .minimumPressDuration:
                note(
                    parameter.rawValue, spec.minimumPressDuration, d.minimumPressDuration,
                    Output.number(spec.minimumPressDuration))
            case .allowableMovement:
                note(
                    parameter.rawValue, spec.allowableMovement, d.allowableMovement,
                    Output.number(spec.allowableMovement))
            case .direction:
                note(
                    parameter.rawValue, spec.direction, d.direction,
                    spec.direction.map(\.rawValue).joined(separator: "+"))
            }
        }
        note("enabled", spec.enabled, d.enabled, "\(spec.enabled)")
        note("cancelsTouchesInView", spec.cancelsTouchesInView, d.cancelsTouchesInView, "\(spec.cancelsTouchesInView)")
        note("delaysTouchesBegan", spec.delaysTouchesBegan, d.delaysTouchesBegan, "\(spec.delaysTouchesBegan)")
        note("delaysTouchesEnded", spec.delaysTouchesEnded, d.delaysTouchesEnded, "\(spec.delaysTouchesEnded)")
        note("shouldBegin", spec.shouldBegin, d.shouldBegin, "\(spec.shouldBegin)")
        note("shouldReceiveTouch", spec.shouldReceiveTouch, d.shouldReceiveTouch, "\(spec.shouldReceiveTouch)")
        if !spec.requireToFail.isEmpty { extras.append("requireToFail " + spec.requireToFail.joined(separator: ", ")) }
        if !spec.simultaneousWith.isEmpty {
            extras.append("simultaneousWith " + spec.simultaneousWith.joined(separator: ", "))
        }
        if !extras.isEmpty { text += ", " + extras.joined(separator: ", ") }
        if !spec.targets.isEmpty {
            text += " → " + spec.targets.map { "\($0.target).\($0.action)" }.joined(separator: ", ")
        }
        return text + "⟩"
    }
}
