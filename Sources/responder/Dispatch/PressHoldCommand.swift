import ArgumentParser
import ResponderOutput
import ResponderProtocol

struct PressHoldCommand: EngineCommand {
    static let configuration = CommandConfiguration(
        commandName: "press-hold",
        abstract: "Touch a point, hold it still for a while, then lift: event.touch, clock.advance, event.touch.",
        discussion: """
            Three requests, each printed as it is answered: the touch begins at X Y at the session's clock; the \
            clock advances by --duration seconds with the finger down (G11: a long press recognizes once its \
            minimumPressDuration has passed, and its view may get touchesCancelled, G7); the touch ends where it \
            began. The touch id is hold-1 unless that one is live (then hold-2, …).
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions
    @OptionGroup var explain: ExplainOption

    @Argument(help: "Screen x; may be negative (responder press-hold -5 10).") var x: Coordinate
    @Argument(help: "Screen y.") var y: Coordinate

    @Option(
        parsing: .unconditional, help: ArgumentHelp("Seconds to hold the touch down (0 or more).", valueName: "seconds")
    )
    var duration = 1.0

    @Option(
        name: .customLong("touch"),
        help: ArgumentHelp("Touch id to use. Default: hold-1, or the next hold-N not live.", valueName: "id"))
    var touchID: String?

    func validate() throws {
        try TouchScript.requireFinite([("X", x.value), ("Y", y.value), ("--duration", duration)])
        guard duration >= 0 else {
            throw ValidationError("--duration must be 0 or more seconds, got \(Output.number(duration))")
        }
        if let touchID, touchID.isEmpty { throw ValidationError("--touch must not be empty") }
    }

    func run(_ client: Client) throws {
        let touch: EventID
        if let touchID {
            touch = DispatchReply.identifier(touchID)
        } else {
            touch = TouchScript.freshID(
                "hold", live: try client.send(SessionSnapshotRequest(session: session.session)).liveTouches)
        }
        let point = Point(x.value, y.value)
        // One read of the names for the three replies: the press neither adds nor renames nodes.
        let names = global.json ? NodeNames.none : try client.names(session: session.session)
        try client.send(
            TouchRequest(session: session.session, touches: [TouchInput(touch: touch, phase: .began, point: point)])
        ) {
            DispatchReply.print($0, explain: explain.explain, names: names)
        }
        try client.send(ClockAdvanceRequest(session: session.session, by: duration)) {
            DispatchReply.print($0, explain: explain.explain, names: names)
        }
        try client.send(
            TouchRequest(session: session.session, touches: [TouchInput(touch: touch, phase: .ended, point: point)])
        ) {
            DispatchReply.print($0, explain: explain.explain, names: names)
        }
    }
}
