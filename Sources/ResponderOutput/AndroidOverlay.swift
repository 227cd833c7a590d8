import ResponderClient
import ResponderJSON
import ResponderPicture
import ResponderProtocol

/// Android has no hit test to draw: a DOWN goes from the DecorView down, each group offering it to its children
/// front to back until one consumes it (AD4, AD5, AD6). This reads that search out of an `event.tap` trace
/// (Protocol/README.md 12.10) into the overlay the picture already draws: every view the search reached, in the
/// order it reached it; the consumer of the DOWN as the view hit and the groups holding it as its path; the
/// children skipped (invisible, gone, outside-bounds) and those offered that answered false as missed, with
/// their reasons; the groups that intercepted marked; the click's listener and the Activity's part as notes.
package enum AndroidOverlay {
    /// `event.tap` at `point` under android (`dryRun`: on a copy, nothing changes).
    package static func tap(_ connection: ResponderConnection, session: String, point: Point, dryRun: Bool)
        throws(ClientError) -> Overlay
    {
        let tapped = try OverlayReplies.tapTrace(connection, session: session, point: point, dryRun: dryRun)
        var overlay = touch(trace: tapped.trace, point: point)
        overlay.title = tapped.title
        return overlay
    }

    /// The search of a touch trace's first DOWN, and what the whole gesture did, in words.
    package static func touch(trace: JSON, point: Point?) -> Overlay {
        let all = trace["steps"]?.arrayValue ?? []
        let deliveries = trace["outcome"]?["deliveries"]?.arrayValue ?? []
        let touch = all.first { $0["touch"] != nil }?["touch"]
        let steps = all.filter { $0["touch"] == touch }
        var overlay = Overlay(notes: notes(steps: steps, deliveries: deliveries), profile: "android")
        let down = deliveries.first { $0["message"]?.stringValue == "ACTION_DOWN" }
        let consumer = down?["view"]?.stringValue
        let visits = search(steps: steps, consumer: consumer)
        if !visits.isEmpty, let p = point ?? visits.first?.point {
            overlay.hit = HitPath(
                point: p, window: down?["window"]?.stringValue ?? visits.first?.id, view: consumer, visited: visits)
        }
        return overlay
    }

    /// The views the DOWN's search reached, in order. A view's `result`: `hit` for the consumer and the groups
    /// that hold it as targets (AD6), `miss` for a child skipped (its candidate step's reason) or a view offered
    /// the DOWN that answered false (`declined`), or a group that intercepted and did not consume (`intercepted`).
    static func search(steps: [JSON], consumer: String?) -> [Visit] {
        var visits: [Visit] = []
        var index: [String: Int] = [:]
        var onPath = Set<String>()
        var pathRule: [String: String] = [:]
        func visit(_ id: String, rule: String, point: Point? = nil) -> Int {
            if let i = index[id] { return i }
            index[id] = visits.count
            visits.append(Visit(id: id, result: "miss", reason: "declined", rule: rule, point: point))
            return visits.count - 1
        }
        var searching = true
        for s in steps {
            let step = s["step"]?.stringValue
            let action = s["action"]?.stringValue
            let rule = s["rule"]?.stringValue ?? "?"
            // The search is the DOWN's: it ends with the first step of a later event.
            if let action, action != "down" && action != "pointerDown" {
                if step == "intercept" || step == "offer" { searching = false }
                continue
            }
            guard searching else { continue }
            switch step {
            case "intercept":
                guard let group = s["group"]?.stringValue else { continue }
                let i = visit(group, rule: rule)
                if s["result"]?.boolValue == true {
                    visits[i].intercepted = true
                    visits[i].reason = "intercepted"
                    visits[i].rule = rule
                }
            case "candidate":
                guard let child = s["child"]?.stringValue else { continue }
                let xy = (s["point"]?.arrayValue ?? []).compactMap(\.doubleValue)
                let point = xy.count == 2 ? Point(xy[0], xy[1]) : nil
                let i = visit(child, rule: rule, point: point)
                if s["result"]?.stringValue == "skipped" {
                    visits[i].reason = s["reason"]?.stringValue ?? "skipped"
                    visits[i].rule = rule
                }
            case "offer":
                guard let to = s["to"]?.stringValue else { continue }
                let i = visit(to, rule: rule)
                if !visits[i].intercepted || s["result"]?.boolValue == true { visits[i].rule = rule }
            case "target":
                guard s["change"]?.stringValue == "added" else { continue }
                for key in ["group", "child"] {
                    guard let id = s[key]?.stringValue else { continue }
                    onPath.insert(id)
                    if key == "group" { pathRule[id] = rule }
                }
            default:
                continue
            }
        }
        if let consumer { onPath.insert(consumer) }
        for i in visits.indices where onPath.contains(visits[i].id) {
            visits[i].result = "hit"
            visits[i].reason = nil
            if visits[i].id != consumer, let rule = pathRule[visits[i].id], !visits[i].intercepted {
                visits[i].rule = rule
            }
        }
        return visits
    }

    /// What happened after the search, in words with rule ids: each event's consumer, listener calls, the
    /// Activity's fallback and what was discarded.
    static func notes(steps: [JSON], deliveries: [JSON]) -> [String] {
        var lines: [String] = []
        for d in deliveries {
            let message = d["message"]?.stringValue ?? d["phase"]?.stringValue ?? "?"
            if let view = d["view"]?.stringValue {
                lines.append("\(message): consumed by \(view)")
            } else {
                let rule = d["rule"]?.stringValue.map { " (\($0))" } ?? ""
                lines.append("\(message): nothing consumed it\(rule)")
            }
        }
        for s in steps {
            let rule = s["rule"]?.stringValue ?? "?"
            switch s["step"]?.stringValue {
            case "click", "longClick":
                let kind = s["step"]?.stringValue == "click" ? "click" : "long click"
                let view = s["view"]?.stringValue ?? "?"
                let listener = s["listener"]?.stringValue ?? "none"
                guard listener != "none" else {
                    lines.append("\(kind) on \(view): no listener (\(rule))")
                    continue
                }
                let call = [s["action"]?.stringValue, s["target"]?.stringValue.map { "on \($0)" }].compactMap { $0 }
                let performed = s["performed"]?.boolValue == true ? "performed" : "not performed"
                lines.append(
                    "\(kind) on \(view): its \(listener) listener calls \(call.joined(separator: " ")), \(performed) (\(rule))"
                )
            case "intercept" where s["result"]?.boolValue == true:
                lines.append(
                    "\(s["group"]?.stringValue ?? "?") intercepted the \(s["action"]?.stringValue ?? "event") (\(rule))"
                )
            case "activity" where s["method"]?.stringValue == "onTouchEvent":
                lines.append(
                    "the Activity \(s["id"]?.stringValue ?? "?")'s onTouchEvent got the \(s["action"]?.stringValue ?? "event") (\(rule))"
                )
            case "discard":
                lines.append(
                    "\(s["action"]?.stringValue ?? "event") discarded: \(s["reason"]?.stringValue ?? "?") (\(rule))")
            case "mapping":
                lines.append("\(s["id"]?.stringValue ?? "?"): \(s["note"]?.stringValue ?? "") (\(rule))")
            default:
                continue
            }
        }
        return lines
    }
}
