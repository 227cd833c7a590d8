import ResponderJSON

/// The texts of one enum's cases (`QuotedCases`), typed so that a case is looked up only in its own table.
struct QuotedTable<E: QuotedWireEnum> {
    let cases: QuotedCases

    @inline(__always)
    init() { cases = E.quoted }

    /// The most a case takes, or null.
    @inline(__always)
    var roomOrNull: Int { max(cases.longest, 4) }

    /// The most `count` cases take as an array.
    @inline(__always)
    func room(forArrayOf count: Int) -> Int { 2 + count * (cases.longest + 1) }
}

/// The texts of the cases a touch's trace and outcome write, read once for all their steps and deliveries:
/// each table is a lazy static, and each read of one (a case's text, or the most a case takes, for the room) is
/// a call that checks it is made, about ninety a tap when read case by case.
struct TraceTexts {
    let rule = QuotedTable<Rule>()
    let disposition = QuotedTable<Disposition>()
    let deliverReason = QuotedTable<DeliverReason>()
    let controlEvent = QuotedTable<ControlEvent>()
    let actionFailure = QuotedTable<ActionFailure>()
    let gestureState = QuotedTable<GestureState>()
    let gestureReason = QuotedTable<GestureReason>()
    let hitResult = QuotedTable<HitResult>()
    let hitReason = QuotedTable<HitReason>()
    let phase = QuotedTable<TouchPhase>()
    let deliveryReason = QuotedTable<TouchDeliveryReason>()

    /// The tables a hit-test visit's members are written from (`HitVisit.write(_:tables:to:)`).
    var visit: HitVisit.AfterIDTables {
        HitVisit.AfterIDTables(result: hitResult.cases, reason: hitReason.cases, rule: rule.cases)
    }
}

extension JSONCursor {
    /// A case as its text in its table.
    @inline(__always)
    mutating func string<E: QuotedWireEnum>(_ value: E, in table: QuotedTable<E>) {
        let t = table.cases.text(of: value)
        raw(quoted: t.start, t.count)
    }

    @inline(__always)
    mutating func string<E: QuotedWireEnum>(orNull value: E?, in table: QuotedTable<E>) {
        if let value { string(value, in: table) } else { raw("null") }
    }

    /// An array of cases (a delivery's control events).
    @inline(__always)
    mutating func strings<E: QuotedWireEnum>(_ values: [E], in table: QuotedTable<E>) {
        raw("[")
        for (i, v) in values.enumerated() {
            if i > 0 { raw(",") }
            string(v, in: table)
        }
        raw("]")
    }
}
