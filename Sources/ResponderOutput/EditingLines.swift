import ResponderProtocol

/// K11–K13: a text field's editing events, which no touch causes: `editing name: editingChanged (K12)
/// [actions: nameChanged: → formVC]`, one line per event, with the actions it sent.
extension DispatchReply {
    package static func editingLines(_ trace: Trace, names: NodeNames = .none) -> [String] {
        var out: [String] = []
        var actions: [String] = []
        var head: String?
        func flush() {
            guard let h = head else { return }
            out.append(h + (actions.isEmpty ? "" : " [actions: " + actions.joined(separator: "; ") + "]"))
            head = nil
            actions = []
        }
        for step in trace.steps {
            switch step {
            case .controlEvent(let control, let event, nil, let rule):
                flush()
                head = "editing \(names.label(control)): \(event.rawValue) (\(rule.rawValue))"
            case .action(let action, _, _, let performed, let by, _, _) where head != nil:
                actions.append(
                    performed ? by.map { "\(action) → \(names.label($0))" } ?? action : "\(action) not performed")
            case .controlEvent, .firstResponder, .check, .change:
                flush()
            default:
                break
            }
        }
        flush()
        return out
    }
}
