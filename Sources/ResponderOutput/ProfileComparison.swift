import ResponderJSON
import ResponderProtocol

/// The same input on one tree under the `uikit` and the `android` profile, side by side: one row per input
/// (began/DOWN, moved/MOVE, …) with what each dispatch model made of it, the first row where they part marked,
/// and a line per model citing the rules that decided. Built from the two `event.tap`/`event.touch` replies as
/// they came (JSON), so that `responder compare` and the MCP `compare` tool print the same thing.
package struct ProfileComparison: Sendable {
    /// One input as the two models took it.
    package struct Row: Sendable, Equatable {
        /// `began/DOWN`, with the touch id in front when the input has more than one touch.
        package var event: String
        package var uikit: String
        package var android: String
        /// Whether the two models disagree on who handled the input, which actions it sent or whom it
        /// cancelled.
        package var differs: Bool
    }

    package var rows: [Row]
    /// The index in `rows` of the first row that differs; nil when the models agree on every input.
    package var firstDifference: Int?
    /// What decided, per model, each citing rule ids.
    package var uikitWhy: String
    package var androidWhy: String

    /// The marker in front of the first row that differs.
    package static let marker = "≠"

    /// `uikit` and `android`: the two replies (`deliveries` and `trace`); `names` names the nodes.
    package init(uikit: JSON, android: JSON, names: NodeNames = .none) {
        let ui = uikit["deliveries"]?.arrayValue ?? []
        let an = android["deliveries"]?.arrayValue ?? []
        let uiSteps = uikit["trace"]?["steps"]?.arrayValue ?? []
        let anSteps = android["trace"]?["steps"]?.arrayValue ?? []
        let perEvent = Self.androidSteps(anSteps, deliveries: an)
        let touches = Set((ui + an).compactMap { $0["touch"].map(Output.plain) })
        rows = (0..<max(ui.count, an.count)).map { i in
            let u: JSON? = i < ui.count ? ui[i] : nil
            let a: JSON? = i < an.count ? an[i] : nil
            let steps = i < perEvent.count ? perEvent[i] : []
            let phase = (u ?? a)?["phase"]?.stringValue
            var event = Self.phaseLabel(phase)
            if touches.count > 1, let touch = (u ?? a)?["touch"] { event = "\(Output.plain(touch)) " + event }
            let uCell = u.map { Self.uikitCell($0, names: names) } ?? "-"
            let aCell = a.map { Self.androidCell($0, steps: steps, names: names) } ?? "-"
            let differs = u.map(Self.uikitKey) != a.map { Self.androidKey($0, steps: steps) }
            return Row(event: event, uikit: uCell, android: aCell, differs: differs)
        }
        firstDifference = rows.firstIndex { $0.differs }
        uikitWhy = Self.uikitWhy(deliveries: ui, steps: uiSteps, names: names)
        androidWhy = Self.androidWhy(steps: perEvent, deliveries: an, uikitSteps: uiSteps, names: names)
    }

    // MARK: - Text

    /// The table (a header, then a row per input, the first difference marked), the line naming the first
    /// difference, and the two why-lines.
    package func lines() -> [String] {
        let header = Row(event: "event", uikit: "uikit", android: "android", differs: false)
        let eventWidth = ([header] + rows).map(\.event.count).max() ?? 0
        let uikitWidth = ([header] + rows).map(\.uikit.count).max() ?? 0
        func line(_ row: Row, mark: String) -> String {
            var text =
                mark + " " + row.event.padding(toLength: eventWidth, withPad: " ", startingAt: 0) + " | "
                + row.uikit.padding(toLength: uikitWidth, withPad: " ", startingAt: 0) + " | " + row.android
            while text.last == " " { text.removeLast() }
            return text
        }
        var out = [line(header, mark: " ")]
        for (i, row) in rows.enumerated() { out.append(line(row, mark: i == firstDifference ? Self.marker : " ")) }
        if let i = firstDifference {
            let row = rows[i]
            out.append("first difference: \(row.event) — uikit: \(row.uikit), android: \(row.android)")
        } else {
            out.append("no difference: both models handle every event alike")
        }
        out.append("why uikit:   " + uikitWhy)
        out.append("why android: " + androidWhy)
        return out
    }

    /// `--json`: both replies and the index of the first difference (`null` when none).
    package static func json(uikit: JSON, android: JSON, firstDifference: Int?) -> JSON {
        .object([
            ("uikit", uikit), ("android", android),
            ("firstDifference", firstDifference.map { JSON($0) } ?? .null)
        ])
    }

    /// `began/DOWN`.
    static func phaseLabel(_ phase: String?) -> String {
        switch phase {
        case "began": "began/DOWN"
        case "moved": "moved/MOVE"
        case "ended": "ended/UP"
        case "cancelled": "cancelled/CANCEL"
        case let other?: other
        case nil: "?"
        }
    }

    // MARK: - UIKit column

    /// `Btn (touchDown)`, `Title → Card (touchUpInside) → open`, `R, unhandled`, `Btn held by SV.pan (G8)`.
    static func uikitCell(_ d: JSON, names: NodeNames) -> String {
        let view = d["view"]?.stringValue
        let handledBy = strings(d["handledBy"])
        var text: String
        switch d["reason"]?.stringValue {
        case "held":
            text = "\(names.label(view)) held by \(strings(d["heldBy"]).joined(separator: ", "))" + cite(d["rule"])
        case let reason? where reason.hasSuffix("-by-gesture"):
            text = "\(names.label(view)) \(reason)" + cite(d["rule"])
        case let reason? where view == nil:
            text = "nobody: \(reason)" + cite(d["rule"])
        default:
            text = names.label(view)
            if !handledBy.isEmpty, handledBy != [view].compactMap({ $0 }) {
                text += " → " + names.list(handledBy)
            }
            let events = strings(d["controlEvents"])
            if !events.isEmpty { text += " (" + events.joined(separator: ", ") + ")" }
            if handledBy.isEmpty { text += ", unhandled" }
        }
        text += actions(d["actions"], names: names)
        for g in d["gestures"]?.arrayValue ?? [] where ["began", "recognized"].contains(g["to"]?.stringValue) {
            text += ", \(g["recognizer"].map(Output.plain) ?? "?") \(g["to"]?.stringValue ?? "")"
        }
        for a in d["gestureActions"]?.arrayValue ?? [] where a["performed"]?.boolValue == true {
            text += ", \(a["recognizer"].map(Output.plain) ?? "?") → \(a["action"].map(Output.plain) ?? "?")"
        }
        for g in d["gestureDeliveries"]?.arrayValue ?? [] {
            let to = names.label(g["view"]?.stringValue)
            switch g["reason"]?.stringValue {
            case "cancelled-by-gesture": text += ", \(to) cancelled" + cite(g["rule"])
            case "released": text += ", released to \(to)" + cite(g["rule"])
            default: break
            }
            text += actions(g["actions"], names: names)
        }
        return text
    }

    /// What a row is compared by under `uikit`: who handled it, the actions it sent, whom it cancelled.
    static func uikitKey(_ d: JSON) -> Key {
        var actions = performed(d["actions"])
        var cancelled: [String] = []
        for g in d["gestureDeliveries"]?.arrayValue ?? [] {
            actions += performed(g["actions"])
            if g["reason"]?.stringValue == "cancelled-by-gesture", let v = g["view"]?.stringValue {
                cancelled.append(v)
            }
        }
        actions += (d["gestureActions"]?.arrayValue ?? []).filter { $0["performed"]?.boolValue == true }
            .compactMap { $0["action"]?.stringValue }
        return Key(handler: strings(d["handledBy"]).first, actions: actions.sorted(), cancelled: cancelled.sorted())
    }

    /// `hit Btn (H2); Veil passed over (H2, alpha); Card took it over (T3); save → RVC (A2)`.
    static func uikitWhy(deliveries: [JSON], steps: [JSON], names: NodeNames) -> String {
        var parts: [String] = []
        let hitView = deliveries.first { $0["phase"]?.stringValue == "began" }?["view"]?.stringValue
        if let hitView,
            let hit = steps.first(where: {
                $0["step"]?.stringValue == "hitTest" && $0["id"]?.stringValue == hitView
                    && $0["result"]?.stringValue == "hit"
            })
        {
            parts.append("hit \(names.label(hitView))" + cite(hit["rule"]))
        } else if let first = deliveries.first, first["view"]?.stringValue == nil {
            parts.append("hit nothing" + cite(first["rule"], first["reason"]))
        }
        for s in steps where s["step"]?.stringValue == "hitTest" && s["result"]?.stringValue != "hit" {
            guard let reason = s["reason"]?.stringValue, reason != "outside-bounds" else { continue }
            parts.append("\(names.label(s["id"]?.stringValue)) passed over" + cite(s["rule"], s["reason"]))
        }
        var takers: [String] = []
        for d in deliveries {
            for h in strings(d["handledBy"]) where h != d["view"]?.stringValue && !takers.contains(h) {
                takers.append(h)
                // The hit view let the phase go up the chain (T2) to the responder that took it.
                if let view = d["view"]?.stringValue,
                    let passed = steps.first(where: {
                        $0["step"]?.stringValue == "deliver" && $0["to"]?.stringValue == view
                            && $0["disposition"]?.stringValue == "not-handled"
                    })
                {
                    parts.append("\(names.label(view)) passed it on" + cite(passed["rule"]))
                }
                let deliver = steps.first {
                    $0["step"]?.stringValue == "deliver" && $0["to"]?.stringValue == h
                        && $0["disposition"]?.stringValue != "not-handled"
                }
                parts.append("\(names.label(h)) took it over" + cite(deliver?["rule"]))
            }
        }
        if deliveries.allSatisfy({ strings($0["handledBy"]).isEmpty }),
            let discard = steps.first(where: {
                $0["step"]?.stringValue == "discard" && $0["reason"]?.stringValue?.hasSuffix("-by-gesture") == false
            })
        {
            parts.append("nobody handled it" + cite(discard["rule"], discard["reason"]))
        }
        for s in steps where s["step"]?.stringValue == "gesture" {
            guard let to = s["to"]?.stringValue, ["began", "recognized"].contains(to) else { continue }
            parts.append("\(s["recognizer"].map(Output.plain) ?? "?") \(to)" + cite(s["rule"]))
        }
        for s in steps where s["step"]?.stringValue == "discard" && s["reason"]?.stringValue == "taken-by-gesture" {
            parts.append("the view never got \(s["message"].map(Output.plain) ?? "it")" + cite(s["rule"], s["reason"]))
            break
        }
        for s in steps where s["step"]?.stringValue == "action" {
            let target = s["target"]?.stringValue.map(names.label) ?? "nil target"
            let done = s["performed"]?.boolValue == true ? "" : " not performed"
            parts.append("\(s["action"].map(Output.plain) ?? "?") → \(target)\(done)" + cite(s["rule"]))
        }
        if !parts.contains(where: { $0.contains(" → ") }) { parts.append("no action") }
        return parts.joined(separator: "; ")
    }

    // MARK: - Android column

    /// `Veil consumed, click → dismiss`, `SV intercepted; Btn cancelled (intercept)`, `unhandled (AR7)`.
    static func androidCell(_ d: JSON, steps: [JSON], names: NodeNames) -> String {
        var parts: [String] = []
        for s in steps where s["step"]?.stringValue == "intercept" && s["result"]?.boolValue == true {
            guard s["reason"]?.stringValue == nil, let group = s["group"]?.stringValue else { continue }
            parts.append("\(names.label(group)) intercepted")
        }
        var cancelled: Set<String> = []
        for s in steps where s["step"]?.stringValue == "cancel" {
            if let to = s["to"]?.stringValue { cancelled.insert(to) }
            parts.append("\(names.label(s["to"]?.stringValue)) cancelled (\(s["cause"].map(Output.plain) ?? "?"))")
        }
        if let view = d["view"]?.stringValue {
            // A target that took the CANCEL is said once, as cancelled.
            if !cancelled.contains(view) { parts.append("\(names.label(view)) consumed") }
        } else if parts.isEmpty || d["reason"]?.stringValue == "unhandled" {
            parts.append("unhandled" + cite(d["rule"]))
        }
        var text = parts.joined(separator: "; ")
        for a in d["actions"]?.arrayValue ?? [] {
            let done = a["performed"]?.boolValue == false ? " not performed" : ""
            text += ", click → \(a["action"].map(Output.plain) ?? "?")\(done)"
        }
        for s in steps where ["click", "longClick"].contains(s["step"]?.stringValue) {
            guard s["listener"]?.stringValue == "none" else { continue }
            text += ", \(s["step"]?.stringValue ?? "click") by \(names.label(s["view"]?.stringValue)): no listener"
        }
        return text
    }

    /// What a row is compared by under `android`.
    static func androidKey(_ d: JSON, steps: [JSON]) -> Key {
        let cancelled = steps.filter { $0["step"]?.stringValue == "cancel" }.compactMap { $0["to"]?.stringValue }
        return Key(
            handler: strings(d["handledBy"]).first, actions: performed(d["actions"]).sorted(),
            cancelled: cancelled.sorted())
    }

    /// `Veil offered (AD5: alpha is not tested), consumed (AC4); click → dismiss (AX1)`: the candidates and
    /// handlers that decided the DOWN, then what later events changed (intercepts, cancels, clicks).
    static func androidWhy(steps perEvent: [[JSON]], deliveries: [JSON], uikitSteps: [JSON], names: NodeNames)
        -> String
    {
        // What UIKit passed over for a reason Android does not test: said beside the candidate it offered.
        var uikitExclusions: [String: String] = [:]
        for s in uikitSteps where s["step"]?.stringValue == "hitTest" && s["result"]?.stringValue != "hit" {
            if let id = s["id"]?.stringValue, let reason = s["reason"]?.stringValue,
                let untested = untested[reason]
            {
                uikitExclusions[id] = untested
            }
        }
        // Each part: its text, the candidate it is about, and whether it is said (a candidate offered is said
        // when a handler of it answered or UIKit passed it over).
        var parts: [(text: String, candidate: String?, said: Bool)] = []
        func say(_ text: String) { parts.append((text, nil, true)) }
        for (i, steps) in perEvent.enumerated() {
            let phase = i < deliveries.count ? deliveries[i]["phase"]?.stringValue : nil
            for s in steps {
                switch s["step"]?.stringValue {
                case "candidate":
                    guard let child = s["child"]?.stringValue else { continue }
                    if s["result"]?.stringValue == "skipped" {
                        if s["reason"]?.stringValue != "outside-bounds" {
                            say("\(names.label(child)) skipped" + cite(s["rule"], s["reason"]))
                        }
                    } else {
                        let note = uikitExclusions[child]
                        parts.append(
                            (
                                "\(names.label(child)) offered" + cite(s["rule"], note.map(JSON.string)), child,
                                note != nil
                            ))
                    }
                case "offer" where phase == "began":
                    // The DOWN names every view asked and its answer; later events go to the target (AD9).
                    guard let to = s["to"]?.stringValue else { continue }
                    let answer = (s["result"]?.boolValue == true ? "consumed" : "refused") + cite(s["rule"])
                    if let k = parts.lastIndex(where: { $0.candidate == to }) {
                        parts[k].text += ", " + answer
                        parts[k].said = true
                    } else {
                        say("\(names.label(to)) " + answer)
                    }
                case "intercept":
                    guard s["result"]?.boolValue == true, s["reason"]?.stringValue == nil else { continue }
                    say("\(names.label(s["group"]?.stringValue)) intercepted the \(phaseWord(phase))" + cite(s["rule"]))
                case "cancel":
                    say("\(names.label(s["to"]?.stringValue)) cancelled" + cite(s["rule"], s["cause"]))
                case "click", "longClick":
                    let kind = s["step"]?.stringValue ?? "click"
                    let view = names.label(s["view"]?.stringValue)
                    if s["listener"]?.stringValue == "contextMenu" {
                        let items = strings(s["items"]).joined(separator: ", ")
                        say("\(view) long press → context menu (\(items))" + cite(s["rule"]))
                    } else if s["performed"]?.boolValue == true {
                        let target = s["target"]?.stringValue.map { " on " + names.label($0) } ?? ""
                        // AC14: a long press a tooltip handled names the tooltip instead of a method.
                        let what = s["action"].map(Output.plain) ?? s["listener"]?.stringValue ?? "?"
                        say("\(view) \(kind) → \(what)\(target)" + cite(s["rule"]))
                    } else {
                        say("\(view) \(kind), no listener" + cite(s["rule"]))
                    }
                case "discard":
                    say("the \(phaseWord(phase)) unhandled" + cite(s["rule"]))
                default:
                    continue
                }
            }
        }
        var said = parts.filter(\.said).map(\.text)
        if !said.contains(where: { $0.contains(" → ") || $0.contains("click") }) { said.append("no click") }
        return said.joined(separator: "; ")
    }

    /// The UIKit exclusions (hitTest reasons) that Android's dispatch does not look at (AD5).
    static let untested: [String: String] = [
        "alpha": "alpha is not tested",
        "interaction-disabled": "userInteractionEnabled is not tested",
        "disabled-control": "enabled is not tested"
    ]

    static func phaseWord(_ phase: String?) -> String {
        switch phase {
        case "began": "DOWN"
        case "moved": "MOVE"
        case "ended": "UP"
        case "cancelled": "CANCEL"
        default: "event"
        }
    }

    /// The steps of an android trace split by input: an input's dispatch starts at its window's
    /// `intercept` (the DecorView is asked first); the steps before it (a new DOWN's cancels, deadlines that
    /// fired) belong to it too, and so do the `press`/`longClick` steps of a deadline that fired after the
    /// previous input's Activity step.
    static func androidSteps(_ steps: [JSON], deliveries: [JSON]) -> [[JSON]] {
        let windows = Set(deliveries.compactMap { $0["window"]?.stringValue })
        var groups: [[JSON]] = [[]]
        var started = false
        var ended = false
        var carried: [JSON] = []
        for s in steps {
            let kind = s["step"]?.stringValue
            if kind == "intercept", let group = s["group"]?.stringValue, windows.contains(group) {
                if started, groups.count < deliveries.count {
                    groups.append(carried)
                } else {
                    groups[groups.count - 1] += carried
                }
                carried = []
                started = true
                ended = false
                groups[groups.count - 1].append(s)
                continue
            }
            if kind == "activity", s["method"]?.stringValue == "dispatchTouchEvent" { ended = true }
            if ended, kind == "press" || kind == "longClick" {
                carried.append(s)
            } else {
                groups[groups.count - 1].append(s)
            }
        }
        groups[groups.count - 1] += carried
        return groups
    }

    // MARK: - Shared

    /// What decides whether two rows differ.
    struct Key: Equatable {
        var handler: String?
        var actions: [String]
        var cancelled: [String]
    }

    static func strings(_ value: JSON?) -> [String] { (value?.arrayValue ?? []).compactMap(\.stringValue) }

    static func performed(_ value: JSON?) -> [String] {
        (value?.arrayValue ?? []).filter { $0["performed"]?.boolValue == true }.compactMap { $0["action"]?.stringValue }
    }

    /// ` → save`, ` → save not performed`, for each action.
    static func actions(_ value: JSON?, names: NodeNames) -> String {
        (value?.arrayValue ?? []).map { a in
            " → \(a["action"].map(Output.plain) ?? "?")" + (a["performed"]?.boolValue == false ? " not performed" : "")
        }.joined()
    }

    /// ` (H2)`, ` (H2, alpha)`, ` (AD5: alpha is not tested)`; empty without a rule.
    static func cite(_ rule: JSON?, _ detail: JSON? = nil) -> String {
        guard let rule = rule?.stringValue else { return detail.map { " (\(Output.plain($0)))" } ?? "" }
        guard let detail else { return " (\(rule))" }
        let text = Output.plain(detail)
        return text.contains(" ") ? " (\(rule): \(text))" : " (\(rule), \(text))"
    }
}

extension ProfileComparison {
    /// The `event.touch` entries of a one-finger drag from (x1, y1) to (x2, y2): began at `start`, `steps` moves
    /// spread evenly along the line and over `duration` seconds, ended at the second point.
    package static func drag(
        touch: String, from: (x: Double, y: Double), to: (x: Double, y: Double), steps: Int, duration: Double,
        start: Double = 0
    ) -> JSON {
        func entry(_ phase: String, _ x: Double, _ y: Double, _ t: Double) -> JSON {
            // Times rounded to the microsecond, so that they read cleanly in traces.
            let time = start + (t * 1_000_000).rounded() / 1_000_000
            return .object([
                ("touch", .string(touch)), ("phase", .string(phase)), ("point", [.number(x), .number(y)]),
                ("time", .number(time))
            ])
        }
        var entries = [entry("began", from.x, from.y, 0)]
        for k in 1...max(steps, 1) {
            let f = Double(k) / Double(max(steps, 1))
            entries.append(
                entry("moved", from.x + (to.x - from.x) * f, from.y + (to.y - from.y) * f, duration * f))
        }
        entries.append(entry("ended", to.x, to.y, duration))
        return .array(entries)
    }

    /// A session name no one uses: `compare-uikit-3f9a0c1e`.
    package static func scratchSession(_ profile: String) -> String {
        "compare-\(profile)-" + String(UInt32.random(in: 0 ... .max), radix: 16)
    }

    /// The profiles compared, in column order. A tree read with `tree.get` goes to `session.create` as it
    /// came: its `revision` members are accepted and ignored on input (Protocol/README.md 8.2).
    package static let profiles = ["uikit", "android"]

    /// `session.create`'s params for the scratch session `name` holding `tree` (and `detached`) under `profile`.
    package static func createParams(_ name: String, profile: String, tree: JSON, detached: JSON?) -> JSON {
        var create: [(key: String, value: JSON)] = [
            ("session", .string(name)), ("profile", ["name": .string(profile)]), ("tree", tree)
        ]
        if let detached { create.append(("detached", detached)) }
        return .object(create)
    }
}
