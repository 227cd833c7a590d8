import ResponderJSON

/// A2, G3: why the app would terminate. UIKit raises NSInvalidArgumentException when an action reaches an
/// explicit target that does not implement it ("unrecognized selector sent to instance").
public enum CrashReason: String, WireEnum {
    case unrecognizedSelector = "unrecognized-selector"
}

/// A2, G3: the crash a dispatch ended in (reply member `crashed`). Nothing after it in that dispatch is carried
/// out; the session itself stays as the crash left it, so a tool can inspect it.
public struct Crash: Sendable, Equatable, Codable {
    public var reason: CrashReason
    public var target: String
    public var action: String
    /// The control or node that sent the action (A2); nil for a recognizer's action.
    @OmitNil public var sender: String?
    /// The recognizer whose action it was (G3).
    @OmitNil public var recognizer: String?
    public var rule: Rule

    public init(
        reason: CrashReason = .unrecognizedSelector, target: String, action: String, sender: String? = nil,
        recognizer: String? = nil, rule: Rule
    ) {
        self.reason = reason
        self.target = target
        self.action = action
        self.sender = sender
        self.recognizer = recognizer
        self.rule = rule
    }
}

extension Crash {
    /// The members in `Codable`'s order, for the hand-written touch outcome.
    public var json: JSON {
        var members: [(String, JSON)] = [
            ("reason", .string(reason.rawValue)), ("target", .string(target)), ("action", .string(action))
        ]
        if let sender { members.append(("sender", .string(sender))) }
        if let recognizer { members.append(("recognizer", .string(recognizer))) }
        members.append(("rule", .string(rule.rawValue)))
        return .object(members)
    }
}
