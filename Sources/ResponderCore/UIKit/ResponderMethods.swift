import ResponderProtocol

/// K6/K7: the action methods UIKit's classes implement without the app declaring them (`handles` overrides
/// them): whether a responder implements one, and whether its canPerformAction allows it now.
extension SessionState {
    /// `textInput`: whether the responder is a text field or view; only then is its spec read (a walk asks
    /// this of every responder it passes, and copying each one's spec, or the state, for it would be most of a hop).
    func builtInAction(_ action: String, on id: String, textInput: Bool, responders: Responders) -> (
        available: Bool, rule: Rule
    )? {
        switch action {
        case "becomeFirstResponder", "resignFirstResponder":
            return (true, .k7)  // every responder implements both
        default:
            guard textInput, editingCommands.contains(action), let spec = responders.node(id, in: world)?.spec else {
                return nil
            }
            return (canEdit(action, spec), .k6)
        }
    }

    /// Performs a built-in action the walk (or an explicit target) chose.
    mutating func performBuiltIn(_ action: String, on id: String, trace: inout Trace) {
        switch action {
        case "becomeFirstResponder": _ = becomeFirstResponder(id, focusReason: .become, rule: .k7, trace: &trace)
        case "resignFirstResponder": _ = resignFirstResponder(id, trace: &trace)
        default:
            let before = world.read(id) { $0.pointee.spec.text } ?? ""
            performEdit(action, on: id, trace: &trace)
            editedByCommand(id, textBefore: before, trace: &trace)
        }
    }
}
