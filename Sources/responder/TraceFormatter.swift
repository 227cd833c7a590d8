import ResponderProtocol

/// Turns dispatch outcomes and traces into readable paths, e.g.
/// `touchesBegan: E → C → A → R → RVC → W → App → AD, handled by RVC`. Used by the dispatch commands
/// (on their replies) and by `watch` (on `trace` events, whose `trace` is `{kind, steps, outcome}`).
enum TraceFormatter {
    /// One line per delivery of an outcome: touches (`deliveries`), actions (`performed`/`by`), or a single
    /// path (`visited`/`handledBy` for motion, remote control and presses). `message` names the path when
    /// the outcome does not.
    static func lines(outcome: JSON, message: String? = nil) -> [String] {
        if let deliveries = outcome["deliveries"]?.arrayValue {
            if deliveries.isEmpty { return ["no deliveries"] }
            return deliveries.map(delivery)
        }
        if outcome["performed"] != nil { return [action(outcome, message: message)] }
        if outcome["visited"] != nil || outcome["handledBy"] != nil {
            return [path(message: outcome["message"]?.stringValue ?? message, start: outcome["start"],
                         visited: outcome["visited"], handledBy: outcome["handledBy"])]
        }
        return []
    }

    /// A trace event's `trace` on one line: the outcome's paths joined with "; ", else the step count.
    static func summary(trace: JSON) -> String {
        let kind = trace["kind"]?.stringValue ?? "dispatch"
        let outcome = trace["outcome"] ?? .null
        let text = lines(outcome: outcome, message: outcome["message"]?.stringValue ?? kind).joined(separator: "; ")
        if !text.isEmpty { return "\(kind): \(text)" }
        let steps = trace["steps"]?.arrayValue?.count ?? 0
        return "\(kind): \(steps) step\(steps == 1 ? "" : "s")"
    }

    /// `touch 1 began on E: touchesBegan: E → C → …, handled by RVC [control events: touchDown] [actions: …]`.
    static func delivery(_ d: JSON) -> String {
        var head: [String] = []
        if let touch = d["touch"] { head.append("touch \(Output.plain(touch))") }
        if let phase = d["phase"]?.stringValue { head.append(phase) }
        if let view = d["view"], !view.isNull { head.append("on \(Describe.id(view))") }
        var text = head.isEmpty ? "" : head.joined(separator: " ") + ": "
        text += path(message: d["message"]?.stringValue, start: nil, visited: d["visited"], handledBy: d["handledBy"])
        if let events = d["controlEvents"]?.arrayValue, !events.isEmpty {
            text += " [control events: " + events.map(Output.plain).joined(separator: ", ") + "]"
        }
        if let actions = d["actions"]?.arrayValue, !actions.isEmpty {
            text += " [actions: " + actions.map(actionEntry).joined(separator: "; ") + "]"
        }
        return text
    }

    /// `message: a → b → c, handled by X` or `…, discarded (no responder handled it)`.
    static func path(message: String?, start: JSON?, visited: JSON?, handledBy: JSON?) -> String {
        var steps = visited?.arrayValue ?? []
        if steps.isEmpty, let start, !start.isNull { steps = [start] }
        var text = message.map { "\($0): " } ?? ""
        text += steps.isEmpty ? "(no responders)" : Describe.path(steps)
        let handlers = ids(handledBy)
        text += handlers.isEmpty ? ", discarded (no responder handled it)" : ", handled by " + handlers.joined(separator: ", ")
        return text
    }

    /// `copy: A → B, performed by B` or `copy: A → B, not performed (no responder can perform it)`.
    static func action(_ outcome: JSON, message: String?) -> String {
        let name = outcome["action"]?.stringValue ?? message
        var text = name.map { "\($0): " } ?? ""
        let visited = outcome["visited"]?.arrayValue ?? []
        text += visited.isEmpty ? "(no responders)" : Describe.path(visited)
        if outcome["performed"]?.boolValue == true {
            let by = ids(outcome["by"])
            text += ", performed by " + (by.isEmpty ? "?" : by.joined(separator: ", "))
        } else {
            text += ", not performed (no responder can perform it)"
        }
        return text
    }

    /// An entry of a delivery's `actions`: `save: → VC` or `save: (not performed)`.
    static func actionEntry(_ a: JSON) -> String {
        guard a.objectMembers != nil else { return Output.plain(a) }
        let name = a["action"]?.stringValue ?? "?"
        if a["performed"]?.boolValue == false { return "\(name) (not performed)" }
        let by = ids(a["by"] ?? a["target"])
        return by.isEmpty ? name : "\(name) → \(by.joined(separator: ", "))"
    }

    /// Ids from null, a string, an object with `id`, or an array of those.
    static func ids(_ value: JSON?) -> [String] {
        guard let value, !value.isNull else { return [] }
        if let a = value.arrayValue { return a.filter { !$0.isNull }.map { Describe.id($0) } }
        if value.boolValue != nil { return [] }
        return [Describe.id(value)]
    }
}
