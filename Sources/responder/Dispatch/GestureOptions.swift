import ArgumentParser
import ResponderOutput
import ResponderProtocol

/// `--explain` on the commands that dispatch touches or move the clock.
struct ExplainOption: ParsableArguments {
    @Flag(
        help:
            "After the deliveries, list every step of the trace in order with its rule: hit-testing, each responder asked, control events, which recognizers observe the touch, their state changes, waits, held and released phases; then what each rule cited means."
    )
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

/// `--dry-run`: ask what a request would do without changing anything (the `dryRun` param, section 12.2).
struct DryRunOption: ParsableArguments {
    @Flag(
        name: .customLong("dry-run"),
        help:
            "Only show what would happen: the engine answers on a copy of the session; nothing changes, nothing is published."
    )
    var on = false
}

extension DryRunnable {
    /// The request with `dryRun: true` when `on`.
    func dry(_ on: DryRunOption) -> Self {
        var copy = self
        if on.on { copy.dryRun = true }
        return copy
    }
}

extension Client {
    /// After a dry run's reply, says so (not with --json, whose reply carries `dryRun: true`).
    func noteDryRun(_ option: DryRunOption) {
        if option.on && !options.json { Output.line("(dry run: nothing was changed or published)") }
    }
}
