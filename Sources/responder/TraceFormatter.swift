import ResponderProtocol

/// Turns dispatch outcomes and traces into readable paths, e.g.
/// `touchesBegan: E → C → A → R → RVC → W → App → AD, handled by RVC`. Used by the dispatch commands
/// (on their replies) and by `watch` (on `trace` events, whose `trace` is `{kind, steps, outcome}`).
enum TraceFormatter {
    /// One line per delivery of an outcome: touches (`deliveries`), actions (`performed`/`by`), a single
    /// path (`visited`/`handledBy`: motion, remote control, presses), or a tree change's consequences.
    /// `message` names the path when the outcome does not; `trace` supplies discard reasons.
    static func lines(outcome: JSON, message: String? = nil, trace: JSON? = nil) -> [String] {
        if let deliveries = outcome["deliveries"]?.arrayValue {
            return deliveries.isEmpty ? ["no deliveries"] : deliveries.map(delivery)
        }
        if outcome["performed"] != nil { return [action(outcome, message: message)] }
        if outcome["visited"] != nil || outcome["handledBy"] != nil {
            var head = ""
            if let press = outcome["press"] {
                head = "press \(Output.plain(press))" + (outcome["key"]?.stringValue.map { " (\($0))" } ?? "") + ": "
            }
            return [head + path(message: outcome["message"]?.stringValue ?? message, start: outcome["start"],
                                visited: outcome["visited"], handledBy: outcome["handledBy"], discard: discard(in: trace))]
        }
        if outcome["touches"] != nil || outcome["presses"] != nil || outcome["resigned"] != nil {
            return treeChange(outcome)
        }
        return []
    }

    /// A trace event's `trace` on one line: `kind: ` and the outcome's paths joined with "; ".
    static func summary(trace: JSON) -> String {
        let kind = trace["kind"]?.stringValue ?? "dispatch"
        let outcome = trace["outcome"] ?? .null
        var parts = lines(outcome: outcome, message: outcome["message"]?.stringValue, trace: trace)
        if parts.isEmpty, kind == "become" || kind == "resign" {
            parts = [FirstResponderReply.summary(outcome, verb: kind, id: subject(of: trace, kind: kind))]
        }
        if parts.isEmpty {
            let steps = trace["steps"]?.arrayValue?.count ?? 0
            parts = ["\(steps) step\(steps == 1 ? "" : "s")"]
        }
        return "\(kind): " + parts.joined(separator: "; ")
    }

    /// `touch 1 began on E: touchesBegan: E → C → …, handled by RVC [control events: touchDown] [actions: …]`.
    static func delivery(_ d: JSON) -> String {
        var head: [String] = []
        if let touch = d["touch"] { head.append("touch \(Output.plain(touch))") }
        if let phase = d["phase"]?.stringValue { head.append(phase) }
        if let view = d["view"], !view.isNull { head.append("on \(Describe.id(view))") }
        var text = head.isEmpty ? "" : head.joined(separator: " ") + ": "
        let reason = d["reason"]?.stringValue
        let visited = d["visited"]?.arrayValue ?? []
        if d["dropped"]?.boolValue == true {
            text += "dropped (\(reason ?? "?"))"
        } else if d["message"]?.isNull ?? true, let reason {
            text += "nothing delivered (\(reason))"
        } else if visited.isEmpty, let reason {
            let rule = d["rule"]?.stringValue.map { ", \($0)" } ?? ""
            let hit = d["hitView"].flatMap { $0.isNull ? nil : " at \(Describe.id($0))" } ?? ""
            text += "delivered to no one (\(reason)\(rule))\(hit)"
        } else {
            text += path(message: d["message"]?.stringValue, start: nil, visited: d["visited"], handledBy: d["handledBy"], discard: nil)
            if let reason { text += " (\(reason))" }
        }
        if let events = d["controlEvents"]?.arrayValue, !events.isEmpty {
            text += " [control events: " + events.map(Output.plain).joined(separator: ", ") + "]"
        }
        if let actions = d["actions"]?.arrayValue, !actions.isEmpty {
            text += " [actions: " + actions.map(actionEntry).joined(separator: "; ") + "]"
        }
        return text
    }

    /// `message: a → b → c, handled by X` or `…, discarded (no responder handled it)`; a message that never
    /// started (`start` null, nothing visited) shows the trace's discard reason.
    static func path(message: String?, start: JSON?, visited: JSON?, handledBy: JSON?, discard: String?) -> String {
        var steps = visited?.arrayValue ?? []
        if steps.isEmpty, let start, !start.isNull { steps = [start] }
        var text = message.map(label) ?? ""
        if steps.isEmpty {
            return text + "discarded" + (discard.map { " (\($0))" } ?? " (no responder)")
        }
        text += Describe.path(steps)
        let handlers = ids(handledBy)
        text += handlers.isEmpty ? ", discarded (no responder handled it)" : ", handled by " + handlers.joined(separator: ", ")
        return text
    }

    /// `copy: A → B, performed by B` or `copy: A → B, not performed (end-of-chain)`.
    static func action(_ outcome: JSON, message: String?) -> String {
        let name = outcome["action"]?.stringValue ?? message
        var text = name.map(label) ?? ""
        let visited = outcome["visited"]?.arrayValue ?? []
        text += visited.isEmpty ? "(no responders)" : Describe.path(visited)
        if outcome["performed"]?.boolValue == true {
            let by = ids(outcome["by"])
            text += ", performed by " + (by.isEmpty ? "?" : by.joined(separator: ", "))
        } else {
            text += ", not performed (" + (outcome["reason"]?.stringValue ?? "no responder performed it") + ")"
        }
        return text
    }

    /// An entry of a delivery's `actions`: `save: → VC` or `save: (not performed: end-of-chain)`.
    static func actionEntry(_ a: JSON) -> String {
        guard a.objectMembers != nil else { return Output.plain(a) }
        let name = a["action"]?.stringValue ?? "?"
        if a["performed"]?.boolValue == false {
            return "\(name) not performed" + (a["reason"]?.stringValue.map { " (\($0))" } ?? "")
        }
        let by = ids(a["by"])
        return by.isEmpty ? name : "\(name) → \(by.joined(separator: ", "))"
    }

    /// A `treeChange` outcome: cancelled touches, cancelled presses, forced resignations.
    static func treeChange(_ outcome: JSON) -> [String] {
        var out = (outcome["touches"]?.arrayValue ?? []).map(delivery)
        for p in outcome["presses"]?.arrayValue ?? [] {
            let reason = p["reason"]?.stringValue.map { " (\($0))" } ?? ""
            out.append("press \(Output.plain(p["press"] ?? "?")): "
                + path(message: p["message"]?.stringValue, start: p["responder"], visited: p["visited"], handledBy: p["handledBy"], discard: nil) + reason)
        }
        for r in outcome["resigned"]?.arrayValue ?? [] {
            out.append("\(Describe.id(r["from"])) resigned first responder of \(Describe.id(r["window"])) (left its window)")
        }
        return out
    }

    /// Who a become/resign trace is about: the responder that changed, else the first node checked.
    static func subject(of trace: JSON, kind: String) -> String? {
        let steps = trace["steps"]?.arrayValue ?? []
        if let change = steps.first(where: { $0["step"]?.stringValue == "firstResponder" }),
           let id = change[kind == "become" ? "to" : "from"]?.stringValue { return id }
        return steps.first(where: { $0["step"]?.stringValue == "check" })?["id"]?.stringValue
    }

    /// The reason of the first `discard` step of a trace (`no-key-window, E3`).
    static func discard(in trace: JSON?) -> String? {
        guard let step = trace?["steps"]?.arrayValue?.first(where: { $0["step"]?.stringValue == "discard" }) else { return nil }
        let reason = step["reason"]?.stringValue ?? "?"
        return step["rule"]?.stringValue.map { "\(reason), \($0)" } ?? reason
    }

    /// `touchesBegan: ` — or `copy: ` for a selector that already ends in a colon.
    static func label(_ message: String) -> String { message.hasSuffix(":") ? message + " " : message + ": " }

    /// Ids from null, a string, an object with `id`, or an array of those.
    static func ids(_ value: JSON?) -> [String] {
        guard let value, !value.isNull else { return [] }
        if let a = value.arrayValue { return a.filter { !$0.isNull }.map { Describe.id($0) } }
        if value.boolValue != nil { return [] }
        return [Describe.id(value)]
    }
}
