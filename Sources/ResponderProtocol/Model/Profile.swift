import ResponderJSON

/// The dispatch profile of a session: the dispatch model it runs (`name`, `model`) and that model's settings.
/// The only model is UIKit's (`uikit`, the default), whose settings are a switch for each point where the
/// sources disagree and the thresholds UIKit does not document. Wire form (every field optional, defaults shown first):
///
/// ```
/// {
///   "name": "uikit",                          // the only base profile
///   "alphaBoundary": "inclusive" | "exclusive", // H2: is a view with alpha exactly 0.01 hittable?
///   "nilTargetStart": "firstResponderThenSender" | "senderOnly" | "firstResponderOnly", // A3
///   "controlSlop": 70,                        // T3: points beyond a control's bounds that still count
///                                             //     as inside while tracking (any finite number ≥ 0)
///   "noFirstResponder": "keyWindow" | "drop", // E3: where first-responder events go when there is none
///   "becomeOrder": "checkFirst" | "resignFirst", // F2: ask canBecome before (UIKit) or after (docs)
///                                             //     asking the current first responder to resign
///   "touchOnRemoval": "cancel" | "drop",      // T6: a touch whose view leaves its window
///   "hiddenFirstResponder": "stays" | "nextKeyView", // F9: hiding the first responder
///   "returnKeyEditingDidEnd": "sent" | "suppressed", // K13: editingDidEnd after Return resigns
///   "textInputPress": "endOfChain" | "firstResponder", // E4: where a typed press reaches text input
///   "tapSlop": 10, "tapInterval": 0.35,       // G: the thresholds UIKit does not document (points,
///   "panThreshold": 10, "swipeDistance": 50,  //    seconds, radians); any finite number ≥ 0
///   "swipeDuration": 0.5, "pinchThreshold": 0.05, "rotationThreshold": 0.1,
///   "scrollDelay": 0.15,                      // K8: delaysContentTouches, seconds of the session clock
///   "sheetDimmingTap": "byDetent" | "ignore" | "dismiss", // K17: what a tap on a sheet's dimming view does
///   "unrecognizedSelector": "crash" | "ignore", // A2, G3: an explicit target lacking the action
///   "stepperRepeatDelay": 0.5,                // K5: a held stepper's first autorepeat step, seconds after
///   "stepperFastRepeatInterval": 0.1          //     touch-down; the interval after its fifth step
///   "keyCommandClash": "nearest" | "farthest", // E5: which responder's matching key command wins
///   "keyCommandOrder": "textInputFirst" | "keyCommandsFirst" // E5: key commands after or before text input
/// }
/// ```
public struct Profile: Sendable, Equatable {
    /// H2: `inclusive` — alpha ≥ 0.01 is hittable (UIKit); `exclusive` — alpha must exceed 0.01.
    public enum AlphaBoundary: String, Sendable, CaseIterable { case inclusive, exclusive }
    /// A3: where a nil-target action search starts.
    public enum NilTargetStart: String, Sendable, CaseIterable {
        /// The key window's first responder, else the sender, else the application (UIKit).
        case firstResponderThenSender
        /// The sender, else the application.
        case senderOnly
        /// The key window's first responder, else the application.
        case firstResponderOnly
    }
    /// E3: what happens to a motion / remote-control / press event when the key window has no first responder.
    public enum NoFirstResponder: String, Sendable, CaseIterable { case keyWindow, drop }
    /// F2: `checkFirst` — canBecomeFirstResponder is asked before the current one resigns (UIKit);
    /// `resignFirst` — the documented order: the current one is asked to resign first.
    public enum BecomeOrder: String, Sendable, CaseIterable { case checkFirst, resignFirst }
    /// T6: a touch whose view leaves the window gets touchesCancelled (`cancel`) or vanishes (`drop`).
    public enum TouchOnRemoval: String, Sendable, CaseIterable { case cancel, drop }
    /// F9: hiding the first responder changes nothing (`stays`, iOS) or moves it to the next key view.
    public enum HiddenFirstResponder: String, Sendable, CaseIterable { case stays, nextKeyView }
    /// K13: after Return resigns a text field, editingDidEnd is sent (`sent`, UIKit) or not (`suppressed`).
    public enum ReturnKeyEditingDidEnd: String, Sendable, CaseIterable { case sent, suppressed }
    /// E4: a press reaches text input after the responder chain (`endOfChain`, UIKit) or at the field's
    /// pressesBegan, before anything above it (`firstResponder`).
    public enum TextInputPress: String, Sendable, CaseIterable { case endOfChain, firstResponder }
    /// K17: a tap on a sheet's dimming view — a dismissal attempt below the large detent (`byDetent`, UIKit's
    /// bottom-attached sheet), never (`ignore`, a floating sheet), or always (`dismiss`, iPad sheets of iOS 13–14).
    public enum SheetDimmingTap: String, Sendable, CaseIterable { case byDetent, ignore, dismiss }
    /// A2, G3: an action sent to an explicit target that does not implement it crashes the app (`crash`, UIKit's
    /// "unrecognized selector") or fails quietly and the dispatch goes on (`ignore`).
    public enum UnrecognizedSelector: String, Sendable, CaseIterable { case crash, ignore }
    /// E5: when several responders on the chain have a matching key command, the one nearest the first
    /// responder wins (`nearest`, UIKit) or the one furthest up (`farthest`).
    public enum KeyCommandClash: String, Sendable, CaseIterable { case nearest, farthest }
    /// E5: text input takes a press before key commands (`textInputFirst`, iOS 15 and later) or after them
    /// (`keyCommandsFirst`, apps linked before iOS 15).
    public enum KeyCommandOrder: String, Sendable, CaseIterable { case textInputFirst, keyCommandsFirst }

    /// The dispatch model this profile selects; every other member is a setting of the `uikit` model.
    public var model: DispatchModelName = .uikit
    /// The wire name of `model`.
    public var name: String { model.rawValue }
    public var alphaBoundary: AlphaBoundary = .inclusive
    public var nilTargetStart: NilTargetStart = .firstResponderThenSender
    public var controlSlop: Double = 70
    public var noFirstResponder: NoFirstResponder = .keyWindow
    public var becomeOrder: BecomeOrder = .checkFirst
    public var touchOnRemoval: TouchOnRemoval = .cancel
    public var hiddenFirstResponder: HiddenFirstResponder = .stays
    public var returnKeyEditingDidEnd: ReturnKeyEditingDidEnd = .sent
    public var textInputPress: TextInputPress = .endOfChain
    public var sheetDimmingTap: SheetDimmingTap = .byDetent
    public var unrecognizedSelector: UnrecognizedSelector = .crash
    public var keyCommandClash: KeyCommandClash = .nearest
    public var keyCommandOrder: KeyCommandOrder = .textInputFirst
    /// G (tap): how far a touch may move from where it began before a tap fails.
    public var tapSlop: Double = 10
    /// G (tap), G11: how long after a tap ends the next tap of a multi-tap may begin.
    public var tapInterval: Double = 0.35
    /// G (pan): how far the touches' centroid moves before a pan begins.
    public var panThreshold: Double = 10
    /// G (swipe): how far a swipe moves, within `swipeDuration`.
    public var swipeDistance: Double = 50
    public var swipeDuration: Double = 0.5
    /// G (pinch): the change of scale (|scale − 1|) at which a pinch begins.
    public var pinchThreshold: Double = 0.05
    /// G (rotation): the change of angle (radians) at which a rotation begins.
    public var rotationThreshold: Double = 0.1
    /// K8: how long a scroll view holds touchesBegan back from its content (delaysContentTouches).
    public var scrollDelay: Double = 0.15
    /// K5: a held stepper's first autorepeat step comes this long after touch-down (UIKitCore's timer).
    public var stepperRepeatDelay: Double = 0.5
    /// K5: the interval between a held stepper's steps after its fifth. UIKit does not document it; AppKit's
    /// NSStepper.autorepeat documents "ten times per second" after the same 0.5 s delay, so 0.1 s.
    public var stepperFastRepeatInterval: Double = 0.1

    /// The gesture thresholds by wire name, for reading and writing them alike.
    static let thresholds: [(name: String, keyPath: WritableKeyPath<Profile, Double> & Sendable)] = [
        ("tapSlop", \.tapSlop), ("tapInterval", \.tapInterval), ("panThreshold", \.panThreshold),
        ("swipeDistance", \.swipeDistance), ("swipeDuration", \.swipeDuration), ("pinchThreshold", \.pinchThreshold),
        ("rotationThreshold", \.rotationThreshold), ("scrollDelay", \.scrollDelay)
    ]

    /// K5's timer values by wire name (written after the switches that came before them).
    static let stepperTimes: [(name: String, keyPath: WritableKeyPath<Profile, Double> & Sendable)] = [
        ("stepperRepeatDelay", \.stepperRepeatDelay), ("stepperFastRepeatInterval", \.stepperFastRepeatInterval)
    ]

    public init() {}

    /// The documented/observed iOS behaviour.
    public static let uikit = Profile()

    /// Reads a profile object; unknown fields and values are INVALID_PARAMS naming the field
    /// (`path` prefixes field names in errors).
    /// `strict: false` (replies) ignores members a newer engine may have added.
    public init(json: JSON, path: String = "profile.", strict: Bool = true) throws(RPCError) {
        var r = try ParamReader(json, path: path)
        self.init()
        if let name = try r.string("name") {
            guard let model = DispatchModelName(rawValue: name) else {
                let known = DispatchModelName.allCases.map(\.rawValue).joined(separator: ", ")
                throw r.error("name", "unknown profile \"\(name)\" (expected \(known))")
            }
            self.model = model
        }
        func choice<E: RawRepresentable & CaseIterable>(_ key: String, _: E.Type, _ r: inout ParamReader)
            throws(RPCError) -> E? where E.RawValue == String
        {
            guard let text = try r.string(key) else { return nil }
            guard let value = E(rawValue: text) else {
                let all = E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                throw r.error(key, "expected one of \(all), got \"\(text)\"")
            }
            return value
        }
        if let v = try choice("alphaBoundary", AlphaBoundary.self, &r) { alphaBoundary = v }
        if let v = try choice("nilTargetStart", NilTargetStart.self, &r) { nilTargetStart = v }
        if let slop = try r.number("controlSlop") {
            guard slop >= 0 else { throw r.error("controlSlop", "must not be negative") }
            controlSlop = slop
        }
        if let v = try choice("noFirstResponder", NoFirstResponder.self, &r) { noFirstResponder = v }
        if let v = try choice("becomeOrder", BecomeOrder.self, &r) { becomeOrder = v }
        if let v = try choice("touchOnRemoval", TouchOnRemoval.self, &r) { touchOnRemoval = v }
        if let v = try choice("hiddenFirstResponder", HiddenFirstResponder.self, &r) { hiddenFirstResponder = v }
        if let v = try choice("returnKeyEditingDidEnd", ReturnKeyEditingDidEnd.self, &r) { returnKeyEditingDidEnd = v }
        if let v = try choice("textInputPress", TextInputPress.self, &r) { textInputPress = v }
        if let v = try choice("sheetDimmingTap", SheetDimmingTap.self, &r) { sheetDimmingTap = v }
        if let v = try choice("unrecognizedSelector", UnrecognizedSelector.self, &r) { unrecognizedSelector = v }
        if let v = try choice("keyCommandClash", KeyCommandClash.self, &r) { keyCommandClash = v }
        if let v = try choice("keyCommandOrder", KeyCommandOrder.self, &r) { keyCommandOrder = v }
        for (name, keyPath) in Self.thresholds {
            guard let n = try r.number(name) else { continue }
            guard n >= 0 else { throw r.error(name, "must not be negative") }
            self[keyPath: keyPath] = n
        }
        for (name, keyPath) in Self.stepperTimes {
            guard let n = try r.number(name) else { continue }
            // A zero interval would step without end at one instant.
            guard n > 0 else { throw r.error(name, "must be greater than 0") }
            self[keyPath: keyPath] = n
        }
        if strict { try r.finish() }
    }

    public var json: JSON {
        var members: [(String, JSON)] = [
            ("name", .string(name)),
            ("alphaBoundary", .string(alphaBoundary.rawValue)),
            ("nilTargetStart", .string(nilTargetStart.rawValue)),
            ("controlSlop", .number(controlSlop)),
            ("noFirstResponder", .string(noFirstResponder.rawValue)),
            ("becomeOrder", .string(becomeOrder.rawValue)),
            ("touchOnRemoval", .string(touchOnRemoval.rawValue)),
            ("hiddenFirstResponder", .string(hiddenFirstResponder.rawValue)),
            ("returnKeyEditingDidEnd", .string(returnKeyEditingDidEnd.rawValue)),
            ("textInputPress", .string(textInputPress.rawValue))
        ]
        for (name, keyPath) in Self.thresholds { members.append((name, .number(self[keyPath: keyPath]))) }
        members.append(("sheetDimmingTap", .string(sheetDimmingTap.rawValue)))
        members.append(("unrecognizedSelector", .string(unrecognizedSelector.rawValue)))
        for (name, keyPath) in Self.stepperTimes { members.append((name, .number(self[keyPath: keyPath]))) }
        members.append(("keyCommandClash", .string(keyCommandClash.rawValue)))
        members.append(("keyCommandOrder", .string(keyCommandOrder.rawValue)))
        return .object(members)
    }

    /// H2: whether a view's own alpha lets it be hit.
    public func isHittable(alpha: Double) -> Bool {
        switch alphaBoundary {
        case .inclusive: return alpha >= 0.01
        case .exclusive: return alpha > 0.01
        }
    }
}

extension Profile: WireValue, LenientWireValue {
    public init(wire value: JSON, path: String) throws(RPCError) { try self.init(json: value, path: path + ".") }
    public init(lenientWire value: JSON, path: String) throws(RPCError) {
        try self.init(json: value, path: path + ".", strict: false)
    }
    public var wire: JSON { json }
}
