import ResponderJSON

/// E5: a modifier key held with a press, by UIKeyModifierFlags' names.
public enum KeyModifier: String, WireEnum {
    case shift, control, alternate, command

    /// The spellings `responder press` accepts before a `+` (`cmd+k`, `shift+ctrl+tab`).
    public init?(shorthand: String) {
        switch shorthand.lowercased() {
        case "shift", "⇧": self = .shift
        case "control", "ctrl", "⌃": self = .control
        case "alternate", "alt", "option", "opt", "⌥": self = .alternate
        case "command", "cmd", "⌘": self = .command
        default: return nil
        }
    }

    /// A set of modifiers in one order (shift, control, alternate, command), each once.
    public static func canonical(_ modifiers: [KeyModifier]) -> [KeyModifier] {
        allCases.filter(modifiers.contains)
    }
}

/// E5: one `UIKeyCommand` a responder declares in its `keyCommands`.
public struct KeyCommand: Sendable, Equatable {
    /// The key, as `event.press` names it: one character, or a special key's name (`escape`, `upArrow`,
    /// `return`, `tab`, …).
    public var input: String
    /// The modifiers that must be held, no more and no fewer (canonical order).
    public var modifierFlags: [KeyModifier]
    /// The action sent nil-targeted from the first responder when the command wins.
    public var action: String
    /// Before text input, in place of after it (iOS 15's order).
    public var wantsPriorityOverSystemBehavior: Bool
    /// What the discoverability panel shows; dispatch does not use it.
    public var title: String?

    public init(
        input: String, modifierFlags: [KeyModifier], action: String, wantsPriorityOverSystemBehavior: Bool = false,
        title: String? = nil
    ) {
        self.input = input
        self.modifierFlags = KeyModifier.canonical(modifierFlags)
        self.action = action
        self.wantsPriorityOverSystemBehavior = wantsPriorityOverSystemBehavior
        self.title = title
    }

    /// Key names compared as the press's charactersIgnoringModifiers: case aside, with the aliases E4 accepts
    /// (`enter` is `return`, `backspace` is `delete`, `space` is " ").
    public static func keyName(_ name: String) -> String {
        switch name.lowercased() {
        case "enter": return "return"
        case "backspace": return "delete"
        case " ": return "space"
        case "esc": return "escape"
        case let n: return n
        }
    }

    /// Whether a press of `key` with exactly `modifiers` matches this command.
    public func matches(key: String, modifiers: [KeyModifier]) -> Bool {
        Self.keyName(input) == Self.keyName(key) && modifierFlags == KeyModifier.canonical(modifiers)
    }

    /// `cmd+return`: the form `responder press` accepts.
    public var shortcut: String {
        (modifierFlags.map(\.shorthand) + [input]).joined(separator: "+")
    }

    /// Reads one entry of `keyCommands` (`path` ends with its index and a dot).
    static func read(_ value: JSON, path: String) throws(RPCError) -> KeyCommand {
        var r = try ParamReader(value, path: path, errorName: .invalidNode)
        guard let input = try r.string("input"), !input.isEmpty else {
            throw r.error("input", "expected a non-empty key name")
        }
        guard let action = try r.string("action"), !action.isEmpty else {
            throw r.error("action", "expected a non-empty action name")
        }
        var flags: [KeyModifier] = []
        if let list = try r.array("modifierFlags") {
            for (i, element) in list.enumerated() {
                guard let name = element.stringValue, let flag = KeyModifier(rawValue: name) else {
                    let all = KeyModifier.allCases.map(\.rawValue).joined(separator: ", ")
                    throw r.error("modifierFlags[\(i)]", "expected one of \(all)")
                }
                flags.append(flag)
            }
        }
        let priority = try r.bool("wantsPriorityOverSystemBehavior") ?? false
        let title = try r.string("title")
        try r.finish()
        return KeyCommand(
            input: input, modifierFlags: flags, action: action, wantsPriorityOverSystemBehavior: priority,
            title: title)
    }

    func write(to w: inout JSONWriter) {
        w.beginObject()
        w.key("input"); w.string(input)
        w.key("modifierFlags")
        w.beginArray()
        for f in modifierFlags { w.string(f.rawValue) }
        w.endArray()
        w.key("action"); w.string(action)
        w.key("wantsPriorityOverSystemBehavior"); w.bool(wantsPriorityOverSystemBehavior)
        if let title { w.key("title"); w.string(title) }
        w.endObject()
    }

    /// E5: the system's own key commands (Cut, Copy, Paste, Select All), sent through A5.
    public static let system: [KeyCommand] = [
        KeyCommand(input: "x", modifierFlags: [.command], action: "cut:"),
        KeyCommand(input: "c", modifierFlags: [.command], action: "copy:"),
        KeyCommand(input: "v", modifierFlags: [.command], action: "paste:"),
        KeyCommand(input: "a", modifierFlags: [.command], action: "selectAll:")
    ]
}

extension KeyModifier {
    /// The short spelling written before a key: `cmd`, `shift`, `alt`, `ctrl`.
    public var shorthand: String {
        switch self {
        case .shift: return "shift"
        case .control: return "ctrl"
        case .alternate: return "alt"
        case .command: return "cmd"
        }
    }
}

extension NodeSpec {
    /// E5: the key commands this responder declares (UIResponder.keyCommands), in declaration order.
    public var keyCommands: [KeyCommand] { uikit.keyCommands ?? [] }
}

extension NodeField {
    /// E5: `keyCommands` on any responder, written only when set.
    static let keyCommandFields: [NodeField] = [
        field(
            "keyCommands", \.uikit.keyCommands, \.uikit.keyCommands, on: anyKind,
            read: { (v, bad) throws(RPCError) in
                guard let list = v.arrayValue else {
                    throw bad(
                        "expected an array of {input, modifierFlags, action, wantsPriorityOverSystemBehavior, title}")
                }
                var out: [KeyCommand] = []
                for (i, element) in list.enumerated() {
                    out.append(try KeyCommand.read(element, path: "\(bad.field)[\(i)]."))
                }
                return out
            },
            write: { v, w in
                guard let v else { return w.null() }
                w.beginArray()
                for c in v { c.write(to: &w) }
                w.endArray()
            }, written: { $0.uikit.keyCommands?.isEmpty == false })
    ]
}
