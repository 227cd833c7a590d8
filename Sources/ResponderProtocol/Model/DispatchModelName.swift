/// The dispatch model a session runs (`profile.name`): which platform's rules turn input into outcomes.
public enum DispatchModelName: String, Sendable, CaseIterable {
    /// UIKit's responder chain, hit-testing, first responder, target-action and gestures (docs/rules.md).
    case uikit
}
