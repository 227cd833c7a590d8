import ResponderJSON

/// A `WireEnum` written from text made once per case (`QuotedCases`): a rule tag, a phase, a reason. Written as
/// its raw value, each would be the raw value's `switch`, then a string's check and copy, and a hit test's
/// reply has three per view asked.
public protocol QuotedWireEnum: WireEnum {
    static var quoted: QuotedCases { get }
    /// The case's position in `allCases`: a `switch` listing the cases in declaration order, which the compiler
    /// reduces to the case's own stored value. `QuotedCases.init` checks it against `allCases`.
    var quotedIndex: Int { get }
}

/// Each case of an enum as its JSON string, quotes and all, found by the case's `quotedIndex`.
public struct QuotedCases: @unchecked Sendable {
    // Sendable: both allocations are written only by `init` and never freed or changed afterwards.

    /// Per case, where its text starts in `text` and how long it is. Invariant: `spans` holds one initialised
    /// entry per case and `text` every case's text, both allocated here and never freed (the tables are static),
    /// so a `quotedIndex` (checked in range by `init`) always reads initialised memory.
    private let spans: UnsafeMutablePointer<(start: Int32, length: Int32)>
    private let text: UnsafeMutablePointer<UInt8>
    /// The most any case's text takes, quotes included.
    public let longest: Int

    public init<E: QuotedWireEnum>(_ type: E.Type) {
        var texts: [[UInt8]] = []
        var longest = 0
        for (index, c) in E.allCases.enumerated() {
            precondition(c.quotedIndex == index, "\(E.self).\(c): quotedIndex \(c.quotedIndex), position \(index)")
            var w = JSONWriter()
            w.string(c.rawValue)
            let text = w.takeBytes()
            longest = max(longest, text.count)
            texts.append(text)
        }
        self.longest = longest
        let spans = UnsafeMutablePointer<(start: Int32, length: Int32)>.allocate(capacity: max(texts.count, 1))
        let all = texts.flatMap { $0 }
        let text = UnsafeMutablePointer<UInt8>.allocate(capacity: max(all.count, 1))
        text.initialize(from: all, count: all.count)
        var start = 0
        for (index, t) in texts.enumerated() {
            (spans + index).initialize(to: (Int32(start), Int32(t.count)))
            start += t.count
        }
        self.spans = spans
        self.text = text
    }

    /// The text of `value`.
    @inline(__always)
    func text<E: QuotedWireEnum>(of value: E) -> (start: UnsafePointer<UInt8>, count: Int) {
        let span = spans[value.quotedIndex]
        return (UnsafePointer(text + Int(span.start)), Int(span.length))
    }
}

extension JSONWriter {
    /// A case as its raw value's string.
    @inline(__always)
    public mutating func string<E: QuotedWireEnum>(_ value: E) {
        let t = E.quoted.text(of: value)
        raw(quoted: t.start, t.count)
    }

    @inline(__always)
    public mutating func string<E: QuotedWireEnum>(orNull value: E?) {
        if let value { string(value) } else { null() }
    }
}

extension JSONCursor {
    @inline(__always)
    public mutating func string<E: QuotedWireEnum>(_ value: E) {
        let t = E.quoted.text(of: value)
        raw(quoted: t.start, t.count)
    }

    /// The most a case of `E` takes.
    @inline(__always)
    public static func room<E: QuotedWireEnum>(for value: E) -> Int { E.quoted.longest }

    @inline(__always)
    public static func room<E: QuotedWireEnum>(for value: E?) -> Int { max(E.quoted.longest, 4) }

    /// An array of cases, each as its raw value's string (a delivery's control events), with no array of
    /// strings made first.
    @inline(__always)
    public mutating func strings<E: QuotedWireEnum>(_ values: [E]) {
        raw("[")
        for (i, v) in values.enumerated() {
            if i > 0 { raw(",") }
            string(v)
        }
        raw("]")
    }

    /// The most an array of cases of `E` takes.
    @inline(__always)
    public static func room<E: QuotedWireEnum>(for values: [E]) -> Int { 2 + values.count * (E.quoted.longest + 1) }
}

extension Rule: QuotedWireEnum {
    public static let quoted = QuotedCases(Self.self)
    @inline(__always)
    public var quotedIndex: Int {
        switch self {
        case .h1: 0
        case .h2: 1
        case .h3: 2
        case .h4: 3
        case .h5: 4
        case .h6: 5
        case .h7: 6
        case .h8: 7
        case .n1: 8
        case .n2: 9
        case .n3: 10
        case .n4: 11
        case .t1: 12
        case .t2: 13
        case .t3: 14
        case .t4: 15
        case .t5: 16
        case .t6: 17
        case .g1: 18
        case .g2: 19
        case .g3: 20
        case .g4: 21
        case .g5: 22
        case .g6: 23
        case .g7: 24
        case .g8: 25
        case .g9: 26
        case .g10: 27
        case .g11: 28
        case .g12: 29
        case .e1: 30
        case .e2: 31
        case .e3: 32
        case .e4: 33
        case .e5: 34
        case .f1: 35
        case .f2: 36
        case .f3: 37
        case .f4: 38
        case .f5: 39
        case .f6: 40
        case .f7: 41
        case .f8: 42
        case .f9: 43
        case .a1: 44
        case .a2: 45
        case .a3: 46
        case .a4: 47
        case .a5: 48
        case .k1: 49
        case .k2: 50
        case .k3: 51
        case .k4: 52
        case .k5: 53
        case .k6: 54
        case .k7: 55
        case .k8: 56
        case .k9: 57
        case .k10: 58
        case .k11: 59
        case .k12: 60
        case .k13: 61
        case .k14: 62
        case .k15: 63
        case .k16: 64
        case .k17: 65
        case .k18: 66
        case .k19: 67
        case .k20: 68
        case .k21: 69
        case .ar1: 70
        case .ar2: 71
        case .ar3: 72
        case .ar4: 73
        case .ar5: 74
        case .ar6: 75
        case .ar7: 76
        case .ad1: 77
        case .ad2: 78
        case .ad3: 79
        case .ad4: 80
        case .ad5: 81
        case .ad6: 82
        case .ad7: 83
        case .ad8: 84
        case .ad9: 85
        case .ad10: 86
        case .ad11: 87
        case .ad12: 88
        case .ad13: 89
        case .ai1: 90
        case .ai2: 91
        case .ai3: 92
        case .ai4: 93
        case .ai5: 94
        case .ai6: 95
        case .ai7: 96
        case .am1: 97
        case .am2: 98
        case .am3: 99
        case .am4: 100
        case .av1: 101
        case .av2: 102
        case .av3: 103
        case .av4: 104
        case .av5: 105
        case .ac1: 106
        case .ac2: 107
        case .ac3: 108
        case .ac4: 109
        case .ac5: 110
        case .ac6: 111
        case .ac7: 112
        case .ac8: 113
        case .ac9: 114
        case .ac10: 115
        case .ac11: 116
        case .ac12: 117
        case .ac13: 118
        case .ac14: 119
        case .as1: 120
        case .as2: 121
        case .as3: 122
        case .as4: 123
        case .as5: 124
        case .as6: 125
        case .as7: 126
        case .as8: 127
        case .al1: 128
        case .al2: 129
        case .al3: 130
        case .al4: 131
        case .ak1: 132
        case .ak2: 133
        case .ak3: 134
        case .ak4: 135
        case .ak5: 136
        case .ak6: 137
        case .ak7: 138
        case .ak8: 139
        case .ak9: 140
        case .ak10: 141
        case .ak11: 142
        case .ak12: 143
        case .ax1: 144
        case .ax2: 145
        case .ax3: 146
        case .ax4: 147
        case .ax5: 148
        case .ax6: 149
        }
    }
}
extension HitResult: QuotedWireEnum {
    public static let quoted = QuotedCases(Self.self)
    @inline(__always)
    public var quotedIndex: Int {
        switch self {
        case .hit: 0
        case .miss: 1
        case .skipped: 2
        }
    }
}
extension HitReason: QuotedWireEnum {
    public static let quoted = QuotedCases(Self.self)
    @inline(__always)
    public var quotedIndex: Int {
        switch self {
        case .hidden: 0
        case .alpha: 1
        case .interactionDisabled: 2
        case .disabledControl: 3
        case .outsideBounds: 4
        case .singularTransform: 5
        case .passThrough: 6
        case .never: 7
        case .redirect: 8
        case .animating: 9
        case .presentedOver: 10
        case .passthroughView: 11
        }
    }
}
extension Disposition: QuotedWireEnum {
    public static let quoted = QuotedCases(Self.self)
    @inline(__always)
    public var quotedIndex: Int {
        switch self {
        case .notHandled: 0
        case .handled: 1
        case .handledAndSuper: 2
        case .consumedByControl: 3
        }
    }
}
extension TouchPhase: QuotedWireEnum {
    public static let quoted = QuotedCases(Self.self)
    @inline(__always)
    public var quotedIndex: Int {
        switch self {
        case .began: 0
        case .moved: 1
        case .stationary: 2
        case .ended: 3
        case .cancelled: 4
        }
    }
}
extension ControlEvent: QuotedWireEnum {
    public static let quoted = QuotedCases(Self.self)
    @inline(__always)
    public var quotedIndex: Int {
        switch self {
        case .touchDown: 0
        case .touchDownRepeat: 1
        case .touchDragInside: 2
        case .touchDragOutside: 3
        case .touchDragEnter: 4
        case .touchDragExit: 5
        case .touchUpInside: 6
        case .touchUpOutside: 7
        case .touchCancel: 8
        case .valueChanged: 9
        case .primaryActionTriggered: 10
        case .editingDidBegin: 11
        case .editingChanged: 12
        case .editingDidEnd: 13
        case .editingDidEndOnExit: 14
        }
    }
}
extension GestureState: QuotedWireEnum {
    public static let quoted = QuotedCases(Self.self)
    @inline(__always)
    public var quotedIndex: Int {
        switch self {
        case .possible: 0
        case .began: 1
        case .changed: 2
        case .ended: 3
        case .cancelled: 4
        case .failed: 5
        case .recognized: 6
        }
    }
}
extension GestureReason: QuotedWireEnum {
    public static let quoted = QuotedCases(Self.self)
    @inline(__always)
    public var quotedIndex: Int {
        switch self {
        case .disabled: 0
        case .shouldReceiveTouchFalse: 1
        case .tapsCompleted: 2
        case .movedTooFar: 3
        case .timedOut: 4
        case .durationElapsed: 5
        case .releasedEarly: 6
        case .threshold: 7
        case .endedBeforeThreshold: 8
        case .swiped: 9
        case .wrongDirection: 10
        case .tooSlow: 11
        case .tooManyTouches: 12
        case .tooFewTouches: 13
        case .moved: 14
        case .touchesEnded: 15
        case .touchCancelled: 16
        case .reset: 17
        case .removed: 18
        case .excluded: 19
        case .requiredFailed: 20
        case .requiredRecognized: 21
        case .shouldBeginFalse: 22
        case .controlDefaultAction: 23
        case .contentTracking: 24
        case .controlKeepsTouch: 25
        case .cannotScroll: 26
        case .touchesShouldCancelFalse: 27
        }
    }
}
extension DiscardReason: QuotedWireEnum {
    public static let quoted = QuotedCases(Self.self)
    @inline(__always)
    public var quotedIndex: Int {
        switch self {
        case .endOfChain: 0
        case .cycle: 1
        case .noHit: 2
        case .multipleTouchDisabled: 3
        case .exclusiveTouch: 4
        case .noView: 5
        case .noKeyWindow: 6
        case .noFirstResponder: 7
        case .noResponder: 8
        case .notReceivingRemoteControlEvents: 9
        case .viewLeftWindow: 10
        case .cancelledByGesture: 11
        case .takenByGesture: 12
        case .dimmed: 13
        }
    }
}
extension ActionFailure: QuotedWireEnum {
    public static let quoted = QuotedCases(Self.self)
    @inline(__always)
    public var quotedIndex: Int {
        switch self {
        case .notImplemented: 0
        case .targetMissing: 1
        case .endOfChain: 2
        case .unrecognizedSelector: 3
        }
    }
}
extension FocusCheck: QuotedWireEnum {
    public static let quoted = QuotedCases(Self.self)
    @inline(__always)
    public var quotedIndex: Int {
        switch self {
        case .inWindow: 0
        case .isFirstResponder: 1
        case .canBecomeFirstResponder: 2
        case .canResignFirstResponder: 3
        case .shouldBeginEditing: 4
        case .shouldEndEditing: 5
        case .shouldReturn: 6
        case .shouldChangeCharacters: 7
        case .firstResponderInside: 8
        case .isModalInPresentation: 9
        case .presentationControllerShouldDismiss: 10
        }
    }
}
extension TraceKind: QuotedWireEnum {
    public static let quoted = QuotedCases(Self.self)
    @inline(__always)
    public var quotedIndex: Int {
        switch self {
        case .touch: 0
        case .motion: 1
        case .remoteControl: 2
        case .press: 3
        case .action: 4
        case .become: 5
        case .resign: 6
        case .treeChange: 7
        case .clock: 8
        case .hitTest: 9
        case .responderChain: 10
        case .canPerform: 11
        case .makeKey: 12
        }
    }
}
extension DeliverReason: QuotedWireEnum {
    public static let quoted = QuotedCases(Self.self)
    @inline(__always)
    public var quotedIndex: Int {
        switch self {
        case .vetoed: 0
        }
    }
}
extension TouchDeliveryReason: QuotedWireEnum {
    public static let quoted = QuotedCases(Self.self)
    @inline(__always)
    public var quotedIndex: Int {
        switch self {
        case .stationary: 0
        case .viewLeftWindow: 1
        case .noHit: 2
        case .multipleTouchDisabled: 3
        case .exclusiveTouch: 4
        case .noView: 5
        case .held: 6
        case .released: 7
        case .cancelledByGesture: 8
        case .takenByGesture: 9
        case .dimmed: 10
        case .crashed: 11
        case .unhandled: 12
        }
    }
}
extension FocusReason: QuotedWireEnum {
    public static let quoted = QuotedCases(Self.self)
    @inline(__always)
    public var quotedIndex: Int {
        switch self {
        case .become: 0
        case .tap: 1
        case .resign: 2
        case .leftWindow: 3
        case .endEditing: 4
        case .hidden: 5
        case .returnKey: 6
        case .touch: 7
        case .request: 8
        case .clear: 9
        case .removed: 10
        case .touchMode: 11
        case .defaultFocus: 12
        case .navigation: 13
        }
    }
}
