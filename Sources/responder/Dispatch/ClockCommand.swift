import ArgumentParser
import ResponderOutput
import ResponderProtocol

struct ClockCommand: EngineCommand {
    static let configuration = CommandConfiguration(
        commandName: "clock",
        abstract: "Show the session's clock and its recognizers, or move the clock forward (clock.advance).",
        discussion: """
            The engine has no wall clock (G11): time passes only in the times touches carry and in clock.advance. \
            Without --by or --to, prints the clock, every gesture recognizer's state with the touches it observes \
            and whom it waits for, and the live touches (session.snapshot). With --by or --to, advances the clock: \
            a long press held still recognizes, a tap waiting for a second tap gives up; prints what that decided.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions
    @OptionGroup var dryRun: DryRunOption
    @OptionGroup var explain: ExplainOption

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Advance the clock by this many seconds (0 or more).", valueName: "seconds"))
    var by: Double?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Advance the clock to this time, in seconds (not before the clock).", valueName: "seconds"))
    var to: Double?

    func validate() throws {
        if by != nil, to != nil { throw ValidationError("give --by or --to, not both") }
        if let by {
            guard by.isFinite, by >= 0 else {
                throw ValidationError("--by must be 0 or more seconds, got \(Output.number(by))")
            }
        }
        if let to {
            guard to.isFinite, to >= 0 else {
                throw ValidationError("--to must be 0 or more seconds, got \(Output.number(to))")
            }
        }
        if explain.explain, by == nil, to == nil {
            throw ValidationError("--explain applies to --by or --to (an advance has a trace)")
        }
    }

    func run(_ client: Client) throws {
        if by != nil || to != nil {
            return try client.send(ClockAdvanceRequest(session: session.session, to: to, by: by).dry(dryRun)) {
                DispatchReply.print($0, explain: explain.explain, names: try client.names(session: session.session))
            }
        }
        try client.send(SessionSnapshotRequest(session: session.session)) { s in
            Output.line("clock \(Output.number(s.clock)) s")
            if s.recognizers.isEmpty {
                Output.line("no gesture recognizers")
            } else {
                Output.line()
                let rows = s.recognizers.map { r in
                    [
                        r.recognizer, r.kind.rawValue, r.view, r.state.rawValue,
                        r.touches.map(Describe.id).joined(separator: ", "),
                        r.waitingFor.joined(separator: ", ")
                    ]
                }
                Table.print(header: ["RECOGNIZER", "KIND", "VIEW", "STATE", "TOUCHES", "WAITING FOR"], rows: rows)
            }
            guard !s.liveTouches.isEmpty else { return }
            Output.line()
            let rows = s.liveTouches.map { t in
                [
                    Describe.id(t.touch), t.phase.rawValue, Describe.id(t.view), t.client,
                    (t.heldBy ?? []).joined(separator: ", ")
                ]
            }
            Table.print(header: ["TOUCH", "PHASE", "VIEW", "CLIENT", "HELD BY"], rows: rows)
        }
    }
}
