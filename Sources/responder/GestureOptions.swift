import ArgumentParser
import ResponderProtocol

/// `--explain` on the commands that dispatch touches or move the clock.
struct ExplainOption: ParsableArguments {
    @Flag(help: "After the deliveries, list every step of the trace in order with its rule: hit-testing, each responder asked, control events, which recognizers observe the touch, their state changes, waits, held and released phases.")
    var explain = false
}

/// Helpers of the commands that script a touch over time (drag, press-hold).
enum TouchScript {
    /// `drag-1`, or the next such id that no live touch of the session uses.
    static func freshID(_ prefix: String, live: [LiveTouchInfo]) -> EventID {
        let used = Set(live.map(\.touch))
        var n = 1
        while used.contains(.string("\(prefix)-\(n)")) { n += 1 }
        return .string("\(prefix)-\(n)")
    }

    /// `start + offset`, with the offset rounded to the microsecond so that the times sent read cleanly.
    static func time(_ start: Double, plus offset: Double) -> Double {
        start + (offset * 1_000_000).rounded() / 1_000_000
    }

    static func requireFinite(_ values: [(String, Double)]) throws {
        for (name, value) in values where !value.isFinite {
            throw ValidationError("\(name) must be a finite number, got \(value)")
        }
    }
}
