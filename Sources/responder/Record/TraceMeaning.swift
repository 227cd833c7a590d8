import ResponderJSON
import ResponderOutput
import ResponderProtocol

/// What a trace came to, as a person reads it: which view each touch hit, who handled each message, which
/// actions ran and by whom, which control events fired, which recognizers recognized, what was dropped, what
/// changed and who became first responder. Two traces mean the same when these agree, however their steps
/// line up: another build of the app visits other views on the way and numbers its steps differently.
///
/// Nodes are compared by their key: the display name an import keeps (`UIButton "Sign in"`), else the id, so
/// that two dumps of the same screen, whose addresses differ, still agree.
struct TraceMeaning: Equatable {
    /// One aspect: its items as keys (compared) and as labels (shown).
    struct Aspect: Equatable {
        var keys: [String] = []
        var labels: [String] = []

        static func == (a: Aspect, b: Aspect) -> Bool { a.keys == b.keys }

        mutating func add(key: String, label: String) {
            guard !keys.contains(key) else { return }
            keys.append(key)
            labels.append(label)
        }

        var text: String { labels.isEmpty ? "none" : labels.joined(separator: ", ") }
    }

    var hit = Aspect()
    var handled = Aspect()
    var actions = Aspect()
    var controlEvents = Aspect()
    var gestures = Aspect()
    var dropped = Aspect()
    var changes = Aspect()
    var firstResponder = Aspect()
    /// A failed request: its error name (it has no trace).
    var error = Aspect()

    /// The aspects in the order a line names them.
    var aspects: [(name: String, value: Aspect)] {
        [
            ("error", error), ("hit", hit), ("handled by", handled), ("actions", actions),
            ("control events", controlEvents), ("recognized", gestures), ("dropped", dropped),
            ("changed", changes), ("first responder", firstResponder)
        ]
    }

    init() {}

    init(failure name: String) { error.add(key: name, label: name) }

    /// Reads a trace (`{kind, steps, outcome}`, as published and recorded).
    init(_ trace: JSON, names: NodeNames) {
        func key(_ id: JSON?) -> String {
            guard let id = id?.stringValue else { return "nil" }
            return names.byID[id] ?? id
        }
        func label(_ id: JSON?) -> String { id?.stringValue.map(names.label) ?? "nil" }
        func add(_ aspect: WritableKeyPath<TraceMeaning, Aspect>, _ key: String, _ label: String) {
            self[keyPath: aspect].add(key: key, label: label)
        }
        // The hit-test view of each touch: the last view a touch's hit test hit (the search returns from the
        // deepest one it reaches), or the delivery's own view where the outcome gives it.
        var lastHit: [(touch: String, id: JSON)] = []
        for step in trace["steps"]?.arrayValue ?? [] {
            let s = step["step"]?.stringValue ?? ""
            switch s {
            case "hitTest" where step["result"]?.stringValue == "hit":
                let touch = step["touch"]?.stringValue ?? ""
                if let i = lastHit.firstIndex(where: { $0.touch == touch }) {
                    lastHit[i].id = step["id"] ?? .null
                } else {
                    lastHit.append((touch, step["id"] ?? .null))
                }
            case "deliver":
                let disposition = step["disposition"]?.stringValue ?? ""
                guard disposition != "not-handled" else { continue }
                let message = step["message"]?.stringValue ?? "?"
                // An action message's handler is the action's `by` (the actions aspect).
                guard !message.hasSuffix(":") else { continue }
                add(\.handled, "\(message) \(key(step["to"]))", "\(message) by \(label(step["to"]))")
            case "action":
                let action = step["action"]?.stringValue ?? "?"
                if step["performed"]?.boolValue == true {
                    add(\.actions, "\(action) \(key(step["by"]))", "\(action) by \(label(step["by"]))")
                } else {
                    let why = step["reason"]?.stringValue ?? "not performed"
                    add(\.actions, "\(action) -\(why)", "\(action) not performed (\(why))")
                }
            case "gestureAction" where step["performed"]?.boolValue == true:
                let action = step["action"]?.stringValue ?? "?"
                add(
                    \.actions, "\(action) \(key(step["target"]))",
                    "\(action) by \(label(step["target"])) (recognizer \(label(step["recognizer"])))")
            case "controlEvent":
                let event = step["event"]?.stringValue ?? "?"
                add(\.controlEvents, "\(key(step["control"])) \(event)", "\(event) on \(label(step["control"]))")
            case "gesture":
                let to = step["to"]?.stringValue ?? ""
                guard ["recognized", "began", "ended"].contains(to) else { continue }
                add(\.gestures, "\(key(step["recognizer"])) \(to)", "\(label(step["recognizer"])) \(to)")
            case "discard":
                let reason = step["reason"]?.stringValue ?? "?"
                let message = step["message"]?.stringValue ?? "?"
                add(\.dropped, "\(message) \(reason)", "\(message) (\(reason))")
            case "change":
                let field = step["field"]?.stringValue ?? "?"
                let to = step["to"].map { String(decoding: JSONCodec.encode($0), as: UTF8.self) } ?? "?"
                add(\.changes, "\(key(step["id"])).\(field)=\(to)", "\(label(step["id"])).\(field) = \(to)")
            case "firstResponder":
                // The last change in a window is where it ends: earlier ones are replaced.
                let window = key(step["window"])
                if let i = firstResponder.keys.firstIndex(where: { $0.hasPrefix(window + " ") }) {
                    firstResponder.keys.remove(at: i)
                    firstResponder.labels.remove(at: i)
                }
                add(\.firstResponder, "\(window) \(key(step["to"]))", label(step["to"]))
            default: continue
            }
        }
        var hitViews: [String: JSON] = [:]
        for delivery in trace["outcome"]?["deliveries"]?.arrayValue ?? []
        where delivery["phase"]?.stringValue == "began" {
            if let touch = delivery["touch"]?.stringValue, let view = delivery["view"] { hitViews[touch] = view }
        }
        for (touch, id) in lastHit {
            let view = hitViews[touch] ?? id
            add(\.hit, key(view), label(view))
        }
    }

    /// `hit: a → b; actions: buttonTapped: by rootVC → none`: each aspect that differs, recorded → replayed.
    func differences(from recorded: TraceMeaning) -> String? {
        let parts = zip(recorded.aspects, aspects).compactMap { was, now -> String? in
            was.value == now.value ? nil : "\(now.name): \(was.value.text) → \(now.value.text)"
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }
}
