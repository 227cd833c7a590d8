import ArgumentParser
import ResponderOutput
import ResponderProtocol

struct DragCommand: EngineCommand {
    static let configuration = CommandConfiguration(
        commandName: "drag",
        abstract: "Drag one finger from one point to another: began, moved in even steps, ended, in one event.touch.",
        discussion: """
            Sends one event.touch: the touch begins at X1 Y1 at the session's clock, moves --steps times evenly \
            along the straight line (the last move reaches X2 Y2) and ends there, the times spread evenly over \
            --duration seconds (G11), so pans and swipes recognize as they would in the app. Prints each \
            delivery with what the recognizers decided during it (state changes, actions, touches cancelled \
            or released by a recognizer). The touch id is drag-1 unless that one is live (then drag-2, …).
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions
    @OptionGroup var explain: ExplainOption

    @Argument(help: "Screen x where the drag begins. Coordinates may be negative (responder drag -5 10 100 10).")
    var x1: Coordinate
    @Argument(help: "Screen y where the drag begins.") var y1: Coordinate
    @Argument(help: "Screen x where the drag ends.") var x2: Coordinate
    @Argument(help: "Screen y where the drag ends.") var y2: Coordinate

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Number of moved phases between began and ended (at least 1).", valueName: "n"))
    var steps = 10

    @Option(
        parsing: .unconditional, help: ArgumentHelp("Seconds from began to ended (0 or more).", valueName: "seconds"))
    var duration = 0.25

    @Option(
        name: .customLong("touch"),
        help: ArgumentHelp("Touch id to use. Default: drag-1, or the next drag-N not live.", valueName: "id"))
    var touchID: String?

    func validate() throws {
        try TouchScript.requireFinite([
            ("X1", x1.value), ("Y1", y1.value), ("X2", x2.value), ("Y2", y2.value), ("--duration", duration)
        ])
        guard steps >= 1 else { throw ValidationError("--steps must be at least 1, got \(steps)") }
        guard duration >= 0 else {
            throw ValidationError("--duration must be 0 or more seconds, got \(Output.number(duration))")
        }
        if let touchID, touchID.isEmpty { throw ValidationError("--touch must not be empty") }
    }

    /// The entries of the drag, starting at `clock`.
    func inputs(touch: EventID, clock: Double) -> [TouchInput] {
        var inputs = [TouchInput(touch: touch, phase: .began, point: Point(x1.value, y1.value), time: clock)]
        for k in 1...steps {
            let f = Double(k) / Double(steps)
            inputs.append(
                TouchInput(
                    touch: touch, phase: .moved,
                    point: Point(x1.value + (x2.value - x1.value) * f, y1.value + (y2.value - y1.value) * f),
                    time: TouchScript.time(clock, plus: duration * f)))
        }
        inputs.append(
            TouchInput(
                touch: touch, phase: .ended, point: Point(x2.value, y2.value),
                time: TouchScript.time(clock, plus: duration)))
        return inputs
    }

    func run(_ client: Client) throws {
        let snapshot = try client.send(SessionSnapshotRequest(session: session.session))
        let touch = touchID.map(DispatchReply.identifier) ?? TouchScript.freshID("drag", live: snapshot.liveTouches)
        let request = TouchRequest(session: session.session, touches: inputs(touch: touch, clock: snapshot.clock))
        try client.send(request) {
            DispatchReply.print($0, explain: explain.explain, names: try client.names(session: session.session))
        }
    }
}
