import ResponderJSON
import Testing

@testable import ResponderProtocol

/// Enum cases written from tables made once (`QuotedCases`) are written as their raw values are.
@Suite struct QuotedCasesTests {
    func check<E: QuotedWireEnum>(_ type: E.Type) {
        #expect(E.allCases.map(\.quotedIndex) == Array(0..<E.allCases.count), "\(E.self)")
        for c in E.allCases {
            var quoted = JSONWriter()
            quoted.string(c)
            var plain = JSONWriter()
            plain.string(c.rawValue)
            #expect(quoted.takeBytes() == plain.takeBytes(), "\(E.self).\(c)")
        }
        // Through a cursor: every case in turn, in room summed from `room(for:)`.
        var w = JSONWriter()
        w.beginArray()
        let cases = Array(E.allCases)
        w.members(atMost: cases.reduce(0) { $0 + JSONCursor.room(for: $1) + 1 }) { c in
            for (i, value) in cases.enumerated() {
                if i > 0 { c.raw(",") }
                c.string(value)
            }
        }
        w.endArray()
        #expect(w.takeBytes() == JSONCodec.encode(.array(cases.map { .string($0.rawValue) })), "\(E.self)")
    }

    @Test func everyTabledEnumWritesItsRawValues() {
        check(Rule.self)
        check(HitResult.self)
        check(HitReason.self)
        check(Disposition.self)
        check(TouchPhase.self)
        check(ControlEvent.self)
        check(GestureState.self)
        check(GestureReason.self)
        check(DiscardReason.self)
        check(ActionFailure.self)
        check(FocusCheck.self)
        check(TraceKind.self)
        check(TouchDeliveryReason.self)
        check(FocusReason.self)
        check(DeliverReason.self)
    }
}
