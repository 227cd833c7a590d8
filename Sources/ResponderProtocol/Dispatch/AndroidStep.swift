import ResponderJSON

/// The trace steps of the `android` profile (12.10): what Android's View system asks and answers.
public enum AndroidStepKind: String, WireEnum {
    case mapping, activity, intercept, candidate, offer, target, cancel, disallow, press, click, longClick, focus
    case discard, fragment, nestedScroll
}

/// One step of an `android` trace: its kind, its members in the order they are written, its rule and the touch
/// it is about. The members are kept as JSON because Android's steps are many small shapes read only when
/// written; the constructors below are the one place each shape is defined, so a step cannot be written two ways.
public struct AndroidStep: Sendable, Equatable {
    public var kind: AndroidStepKind
    public var members: [(key: String, value: JSON)]
    public var rule: Rule
    public var touch: EventID?
    /// The key press the step is about (AK7–AK12), instead of a touch.
    public var press: EventID?

    public init(_ kind: AndroidStepKind, _ members: [(key: String, value: JSON)], rule: Rule, touch: EventID? = nil) {
        self.kind = kind
        self.members = members
        self.rule = rule
        self.touch = touch
    }

    public static func == (a: AndroidStep, b: AndroidStep) -> Bool {
        a.kind == b.kind && a.rule == b.rule && a.touch == b.touch && a.press == b.press
            && JSON.object(a.members) == JSON.object(b.members)
    }

    /// The step about key press `id` rather than a touch.
    public func about(press id: EventID) -> AndroidStep {
        var step = self
        step.touch = nil
        step.press = id
        return step
    }

    public subscript(key: String) -> JSON? { members.first { $0.key == key }?.value }

    private static func text(_ s: String?) -> JSON { s.map(JSON.string) ?? .null }

    /// A UIKit field Android has no counterpart for, ignored (never silently).
    public static func mapping(id: String, field: String, note: String, rule: Rule) -> AndroidStep {
        AndroidStep(.mapping, [("id", .string(id)), ("field", .string(field)), ("note", .string(note))], rule: rule)
    }

    /// AR4, AR6, AK10: one of the Activity's methods and what it returned.
    public static func activity(id: String, method: String, action: String, result: Bool, rule: Rule, touch: EventID?)
        -> AndroidStep
    {
        AndroidStep(
            .activity,
            [("id", .string(id)), ("method", .string(method)), ("action", .string(action)), ("result", .bool(result))],
            rule: rule, touch: touch)
    }

    /// AX3, AX4: one of the Activity's menu callbacks asked about `item` (`action` is `select`).
    public static func activity(id: String, method: String, item: String, result: Bool, rule: Rule) -> AndroidStep {
        AndroidStep(
            .activity,
            [
                ("id", .string(id)), ("method", .string(method)), ("action", .string("select")),
                ("item", .string(item)), ("result", .bool(result))
            ],
            rule: rule)
    }

    /// AK10, AX3, AX4: a fragment (a view controller of the Activity's other than its root) asked: its back
    /// callback, or a menu callback about `item`.
    public static func fragment(id: String, method: String, item: String?, result: Bool, rule: Rule) -> AndroidStep {
        var m: [(key: String, value: JSON)] = [("id", .string(id)), ("method", .string(method))]
        if let item { m.append(("item", .string(item))) }
        m.append(("result", .bool(result)))
        return AndroidStep(.fragment, m, rule: rule)
    }

    /// AI1–AI5: a group's onInterceptTouchEvent; `reason` when it was not called.
    public static func intercept(
        group: String, action: String, result: Bool, reason: String?, rule: Rule, touch: EventID
    )
        -> AndroidStep
    {
        var m: [(key: String, value: JSON)] = [
            ("group", .string(group)), ("action", .string(action)), ("result", .bool(result))
        ]
        if let reason { m.append(("reason", .string(reason))) }
        return AndroidStep(.intercept, m, rule: rule, touch: touch)
    }

    /// AD4, AD5: a child of a group searched for the DOWN: offered, or skipped and why.
    public static func candidate(
        group: String, child: String, offered: Bool, reason: String?, point: Point?, rule: Rule, touch: EventID
    ) -> AndroidStep {
        var m: [(key: String, value: JSON)] = [
            ("group", .string(group)), ("child", .string(child)), ("result", .string(offered ? "offered" : "skipped"))
        ]
        if let reason { m.append(("reason", .string(reason))) }
        if let point { m.append(("point", .array([.number(point.x), .number(point.y)]))) }
        return AndroidStep(.candidate, m, rule: rule, touch: touch)
    }

    /// AV1, AC2, AC4, AD6, AD7, AC11: one handler of a view asked, and its answer.
    public static func offer(to: String, action: String, via: String, result: Bool, rule: Rule, touch: EventID?)
        -> AndroidStep
    {
        AndroidStep(
            .offer,
            [("to", .string(to)), ("action", .string(action)), ("via", .string(via)), ("result", .bool(result))],
            rule: rule, touch: touch)
    }

    /// AD6, AI4, AL1, AD12: a group's touch targets changed.
    public static func target(group: String, child: String, added: Bool, rule: Rule, touch: EventID) -> AndroidStep {
        AndroidStep(
            .target,
            [("group", .string(group)), ("child", .string(child)), ("change", .string(added ? "added" : "removed"))],
            rule: rule, touch: touch)
    }

    /// AI4, AL1, AD2: a view got ACTION_CANCEL instead of the event.
    public static func cancel(to: String, cause: String, rule: Rule, touch: EventID) -> AndroidStep {
        AndroidStep(.cancel, [("to", .string(to)), ("cause", .string(cause))], rule: rule, touch: touch)
    }

    /// AI5, AS7: requestDisallowInterceptTouchEvent(true) from a view, and the groups it reached.
    public static func disallow(from: String, groups: [String], rule: Rule, touch: EventID) -> AndroidStep {
        AndroidStep(
            .disallow, [("from", .string(from)), ("groups", .array(groups.map(JSON.string)))], rule: rule, touch: touch)
    }

    /// AS5: a view starting a nested scroll along `axes` asked an ancestor's onStartNestedScroll, and its answer.
    public static func nestedScroll(
        child: String, parent: String, axes: String, accepted: Bool, rule: Rule, touch: EventID
    ) -> AndroidStep {
        AndroidStep(
            .nestedScroll,
            [
                ("child", .string(child)), ("parent", .string(parent)), ("axes", .string(axes)),
                ("accepted", .bool(accepted))
            ],
            rule: rule, touch: touch)
    }

    /// AC5–AC8: a view's pressed state changed.
    public static func press(view: String, state: String, rule: Rule, touch: EventID?) -> AndroidStep {
        AndroidStep(.press, [("view", .string(view)), ("state", .string(state))], rule: rule, touch: touch)
    }

    /// AC7, AC9, AC10, AX1, AX2: a click or long click performed, and the listener it called.
    public static func click(
        long: Bool, view: String, listener: String, action: String?, target: String?, performed: Bool, rule: Rule,
        touch: EventID?
    ) -> AndroidStep {
        var m: [(key: String, value: JSON)] = [("view", .string(view)), ("listener", .string(listener))]
        if let action { m.append(("action", .string(action))) }
        if action != nil { m.append(("target", text(target))) }
        m.append(("performed", .bool(performed)))
        return AndroidStep(long ? .longClick : .click, m, rule: rule, touch: touch)
    }

    /// AC9, AX4: a long press no listener consumed showed the context menu built from the view and its parents
    /// (a `longClick` step, handled).
    public static func contextMenu(view: String, items: [String], touch: EventID?) -> AndroidStep {
        AndroidStep(
            .longClick,
            [
                ("view", .string(view)), ("listener", .string("contextMenu")),
                ("items", .array(items.map(JSON.string))),
                ("performed", .bool(true))
            ],
            rule: .ax4, touch: touch)
    }

    /// AK1–AK6, AK11, AC7: the window's focused view changed (`touch`, `request`, `clear`, `removed`, `touch-mode`,
    /// `default`, `navigation`).
    public static func focus(
        window: String, from: String?, to: String?, reason: String, rule: Rule, touch: EventID? = nil
    )
        -> AndroidStep
    {
        AndroidStep(
            .focus,
            [("window", .string(window)), ("from", text(from)), ("to", text(to)), ("reason", .string(reason))],
            rule: rule, touch: touch)
    }

    /// A focus step as the `<session>/focus` topic publishes every focus change.
    var focusChange: FocusChange? {
        guard kind == .focus, let window = self["window"]?.stringValue, let reason = self["reason"]?.stringValue
        else { return nil }
        guard let focusReason = FocusReason(rawValue: reason) else { return nil }
        return FocusChange(
            window: window, from: self["from"]?.stringValue, to: self["to"]?.stringValue, reason: focusReason)
    }

    /// AR7: nothing consumed the event.
    public static func discard(action: String, reason: String, rule: Rule, touch: EventID?) -> AndroidStep {
        AndroidStep(.discard, [("action", .string(action)), ("reason", .string(reason))], rule: rule, touch: touch)
    }
}

extension AndroidStep {
    /// `{"step": kind, members…, "rule": …, "touch"?: …}`.
    func write(to w: inout JSONWriter) {
        w.beginObject()
        w.key(static: "step"); w.string(kind.rawValue)
        for (key, value) in members {
            w.key(key); w.value(value)
        }
        w.key(static: "rule"); w.string(rule)
        if let touch { w.key(static: "touch"); touch.write(to: &w) }
        if let press { w.key(static: "press"); press.write(to: &w) }
        w.endObject()
    }

    private struct MemberKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: MemberKey.self)
        try c.encode(kind.rawValue, forKey: MemberKey(stringValue: "step"))
        for (key, value) in members { try c.encode(value, forKey: MemberKey(stringValue: key)) }
        try c.encode(rule, forKey: MemberKey(stringValue: "rule"))
        if let touch { try c.encode(touch, forKey: MemberKey(stringValue: "touch")) }
        if let press { try c.encode(press, forKey: MemberKey(stringValue: "press")) }
    }

    /// Reads an android step, or nil when `decoder` holds another kind (a UIKit `discard` has a `message`).
    static func decodeIfAndroid(from decoder: any Decoder) throws -> AndroidStep? {
        let c = try decoder.container(keyedBy: MemberKey.self)
        guard let kind = AndroidStepKind(rawValue: try c.decode(String.self, forKey: MemberKey(stringValue: "step")))
        else { return nil }
        if kind == .discard, c.contains(MemberKey(stringValue: "message")) { return nil }
        var members: [(key: String, value: JSON)] = []
        var rule = Rule.ar7
        var touch: EventID?
        var press: EventID?
        guard case .object(let all) = try JSON(from: decoder) else { return nil }
        for (key, value) in all {
            switch key {
            case "step": continue
            case "rule": rule = try c.decode(Rule.self, forKey: MemberKey(stringValue: key))
            case "touch": touch = try c.decode(EventID.self, forKey: MemberKey(stringValue: key))
            case "press": press = try c.decode(EventID.self, forKey: MemberKey(stringValue: key))
            default: members.append((key, value))
            }
        }
        var step = AndroidStep(kind, members, rule: rule, touch: touch)
        step.press = press
        return step
    }
}
