import ResponderJSON

/// The kinds of gesture recognizer the engine models (section G of the reference), with UIKit's names.
public enum GestureKind: String, WireEnum {
    case tap, longPress, pan, swipe, pinch, rotation

    /// G2: discrete recognizers go possible → recognized; continuous ones go possible → began → changed* → ended.
    public var isDiscrete: Bool { self == .tap || self == .swipe }

    /// The kind's own parameters (UIKit's property names), in the order they are written.
    public var parameters: [GestureParameter] {
        switch self {
        case .tap: return [.numberOfTapsRequired, .numberOfTouchesRequired]
        case .longPress: return [.minimumPressDuration, .numberOfTouchesRequired, .allowableMovement]
        case .pan: return [.minimumNumberOfTouches, .maximumNumberOfTouches]
        case .swipe: return [.direction, .numberOfTouchesRequired]
        case .pinch, .rotation: return []
        }
    }
}

public enum GestureParameter: String, Sendable, CaseIterable {
    case numberOfTapsRequired, numberOfTouchesRequired, minimumPressDuration, allowableMovement
    case minimumNumberOfTouches, maximumNumberOfTouches, direction
}

/// G2: a recognizer's states. `recognized` is a discrete recognizer's end state (UIKit's `.ended`).
public enum GestureState: String, WireEnum {
    case possible, began, changed, ended, cancelled, failed, recognized

    /// Past possible: the recognizer has recognized or is recognizing (G4, G7).
    public var isActive: Bool { self == .began || self == .changed || self == .recognized || self == .ended }
    /// Nothing more happens until it is reset (G2).
    public var isFinal: Bool { self == .ended || self == .cancelled || self == .failed || self == .recognized }
}

/// UISwipeGestureRecognizer.Direction: a set of directions.
public enum SwipeDirection: String, WireEnum {
    case right, left, up, down
}

/// A recognizer's target-action (G3): sent straight to `target`, never up a chain.
public struct GestureTarget: Sendable, Equatable {
    public var target: String
    public var action: String
    public init(target: String, action: String) {
        self.target = target
        self.action = action
    }
}

/// One gesture recognizer of a view or window (node field `gestureRecognizers`). Defaults are UIKit's.
public struct GestureRecognizerSpec: Sendable, Equatable {
    public var id: String
    public var kind: GestureKind
    public var enabled = true
    /// G7.
    public var cancelsTouchesInView = true
    /// G8.
    public var delaysTouchesBegan = false
    /// G9.
    public var delaysTouchesEnded = true
    public var targets: [GestureTarget] = []
    /// G5: recognizers that must fail before this one may leave possible.
    public var requireToFail: [String] = []
    /// G4: recognizers this one may recognize simultaneously with.
    public var simultaneousWith: [String] = []
    /// G6: the delegate's gestureRecognizerShouldBegin answer.
    public var shouldBegin = true
    /// G1: the delegate's gestureRecognizer(_:shouldReceive:) answer.
    public var shouldReceiveTouch = true
    public var numberOfTapsRequired = 1
    public var numberOfTouchesRequired = 1
    public var minimumPressDuration = 0.5
    public var allowableMovement = 10.0
    public var minimumNumberOfTouches = 1
    /// Nil: unlimited (UIKit's Int.max).
    public var maximumNumberOfTouches: Int?
    public var direction: [SwipeDirection] = [.right]

    public init(id: String, kind: GestureKind) {
        self.id = id
        self.kind = kind
    }

    /// The ids this recognizer names in `requireToFail` and `simultaneousWith`, with their member names.
    public var references: [(member: String, index: Int, id: String)] {
        requireToFail.enumerated().map { ("requireToFail", $0.offset, $0.element) }
            + simultaneousWith.enumerated().map { ("simultaneousWith", $0.offset, $0.element) }
    }
}

extension GestureRecognizerSpec {
    /// Reads one recognizer object; errors are INVALID_NODE naming the member by its full path (`path` ends
    /// with "."), e.g. "ops[0].set.gestureRecognizers[1].kind".
    public init(json: JSON, path: String) throws(RPCError) {
        var r = try ParamReader(json, path: path, errorName: .invalidNode)
        let id = try r.requiredString("id")
        guard !id.isEmpty else { throw r.error("id", "must not be empty") }
        let kindName = try r.requiredString("kind")
        guard let kind = GestureKind(rawValue: kindName) else {
            let all = GestureKind.allCases.map(\.rawValue).joined(separator: ", ")
            throw r.error("kind", "unknown recognizer kind \"\(kindName)\" (expected one of \(all))")
        }
        self.init(id: id, kind: kind)
        if let v = try r.bool("enabled") { enabled = v }
        if let v = try r.bool("cancelsTouchesInView") { cancelsTouchesInView = v }
        if let v = try r.bool("delaysTouchesBegan") { delaysTouchesBegan = v }
        if let v = try r.bool("delaysTouchesEnded") { delaysTouchesEnded = v }
        if let v = try r.bool("shouldBegin") { shouldBegin = v }
        if let v = try r.bool("shouldReceiveTouch") { shouldReceiveTouch = v }
        if let entries = try r.array("targets") {
            for (i, entry) in entries.enumerated() {
                var t = try ParamReader(entry, path: "\(path)targets[\(i)].", errorName: .invalidNode)
                let target = try t.requiredString("target")
                guard !target.isEmpty else {
                    throw t.error("target", "must not be empty (a recognizer's target is never nil, G3)")
                }
                let action = try t.requiredString("action")
                guard !action.isEmpty else { throw t.error("action", "must not be empty") }
                try t.finish()
                targets.append(GestureTarget(target: target, action: action))
            }
        }
        requireToFail = try Self.ids("requireToFail", &r, own: id)
        simultaneousWith = try Self.ids("simultaneousWith", &r, own: id)
        for parameter in GestureParameter.allCases where r.has(parameter.rawValue) {
            guard kind.parameters.contains(parameter) else {
                throw r.error(parameter.rawValue, "is not a parameter of a \(kind.rawValue) recognizer")
            }
            try read(parameter, &r)
        }
        try r.finish()
    }

    private mutating func read(_ parameter: GestureParameter, _ r: inout ParamReader) throws(RPCError) {
        let key = parameter.rawValue
        func count(atLeast minimum: Int) throws(RPCError) -> Int? {
            guard let n = try r.int(key) else { return nil }
            guard n >= minimum else { throw r.error(key, "must be at least \(minimum)") }
            return n
        }
        func nonNegative() throws(RPCError) -> Double? {
            guard let n = try r.number(key) else { return nil }
            guard n >= 0 else { throw r.error(key, "must not be negative") }
            return n
        }
        switch parameter {
        case .numberOfTapsRequired: if let n = try count(atLeast: 1) { numberOfTapsRequired = n }
        case .numberOfTouchesRequired: if let n = try count(atLeast: 1) { numberOfTouchesRequired = n }
        case .minimumNumberOfTouches: if let n = try count(atLeast: 1) { minimumNumberOfTouches = n }
        case .maximumNumberOfTouches: maximumNumberOfTouches = try count(atLeast: 1)
        case .minimumPressDuration: if let n = try nonNegative() { minimumPressDuration = n }
        case .allowableMovement: if let n = try nonNegative() { allowableMovement = n }
        case .direction:
            guard let v = r.raw(key), !v.isNull else { return }
            let names: [JSON] = v.stringValue != nil ? [v] : (v.arrayValue ?? [])
            var out: [SwipeDirection] = []
            for name in names {
                guard let d = name.stringValue.flatMap(SwipeDirection.init(rawValue:)) else {
                    throw r.error(key, "expected right, left, up or down, or an array of them")
                }
                if !out.contains(d) { out.append(d) }
            }
            guard !out.isEmpty else { throw r.error(key, "expected right, left, up or down, or an array of them") }
            direction = out
        }
        if let maximum = maximumNumberOfTouches, maximum < minimumNumberOfTouches, kind == .pan {
            throw r.error(
                key, "maximumNumberOfTouches (\(maximum)) is below minimumNumberOfTouches (\(minimumNumberOfTouches))")
        }
    }

    private static func ids(_ key: String, _ r: inout ParamReader, own: String) throws(RPCError) -> [String] {
        guard let a = try r.array(key) else { return [] }
        var out: [String] = []
        for (i, element) in a.enumerated() {
            guard let s = element.stringValue, !s.isEmpty else {
                throw r.error("\(key)[\(i)]", "expected a recognizer id")
            }
            guard s != own else { throw r.error("\(key)[\(i)]", "a recognizer cannot name itself") }
            out.append(s)
        }
        return out
    }

    public func write(to w: inout JSONWriter) {
        w.beginObject()
        w.key("id"); w.string(id)
        w.key("kind"); w.string(kind.rawValue)
        w.key("enabled"); w.bool(enabled)
        w.key("cancelsTouchesInView"); w.bool(cancelsTouchesInView)
        w.key("delaysTouchesBegan"); w.bool(delaysTouchesBegan)
        w.key("delaysTouchesEnded"); w.bool(delaysTouchesEnded)
        w.key("targets")
        w.beginArray()
        for t in targets {
            w.beginObject()
            w.key("target"); w.string(t.target)
            w.key("action"); w.string(t.action)
            w.endObject()
        }
        w.endArray()
        w.key("requireToFail"); w.strings(requireToFail)
        w.key("simultaneousWith"); w.strings(simultaneousWith)
        w.key("shouldBegin"); w.bool(shouldBegin)
        w.key("shouldReceiveTouch"); w.bool(shouldReceiveTouch)
        for parameter in kind.parameters {
            w.key(parameter.rawValue)
            switch parameter {
            case .numberOfTapsRequired: w.number(Double(numberOfTapsRequired))
            case .numberOfTouchesRequired: w.number(Double(numberOfTouchesRequired))
            case .minimumNumberOfTouches: w.number(Double(minimumNumberOfTouches))
            case .maximumNumberOfTouches: if let m = maximumNumberOfTouches { w.number(Double(m)) } else { w.null() }
            case .minimumPressDuration: w.number(minimumPressDuration)
            case .allowableMovement: w.number(allowableMovement)
            case .direction: w.strings(direction.map(\.rawValue))
            }
        }
        w.endObject()
    }
}

extension JSONWriter {
    mutating func strings(_ values: [String]) {
        beginArray()
        for v in values { string(v) }
        endArray()
    }
}
