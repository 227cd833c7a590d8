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
            or released by a recognizer). The touch id is drag-1 unless that one is live (then drag-2, …). \
            With --view ID the drag begins where a tap on the view is its own (whyNot's hittable point) and ends at \
            the two coordinates given (`responder drag --view list 200 100`); when the view has no such point \
            nothing is sent, why is printed (as `responder why ID`) and the status is 1.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions
    @OptionGroup var explain: ExplainOption

    @Argument(help: "Screen x where the drag begins. Coordinates may be negative (responder drag -5 10 100 10).")
    var x1: Coordinate
    @Argument(help: "Screen y where the drag begins.") var y1: Coordinate
    @Argument(help: "Screen x where the drag ends.") var x2: Coordinate?
    @Argument(help: "Screen y where the drag ends.") var y2: Coordinate?

    @Option(
        help: ArgumentHelp(
            "Begin on this view, where a tap is its own; the two coordinates are then where the drag ends.",
            valueName: "id"))
    var view: String?

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
        switch (x2, y2, view) {
        case (.some, .some, nil), (nil, nil, .some): break
        case (.some, .some, .some): throw ValidationError("with --view ID give only where the drag ends (x y)")
        case (.some, nil, _): throw ValidationError("Missing expected argument '<y2>'")
        case (nil, _, nil): throw ValidationError("Missing expected argument '<x2>'")
        default: throw ValidationError("give X1 Y1 X2 Y2, or --view ID and X Y")
        }
        try TouchScript.requireFinite([
            ("X1", x1.value), ("Y1", y1.value), ("X2", x2?.value ?? 0), ("Y2", y2?.value ?? 0), ("--duration", duration)
        ])
        guard steps >= 1 else { throw ValidationError("--steps must be at least 1, got \(steps)") }
        guard duration >= 0 else {
            throw ValidationError("--duration must be 0 or more seconds, got \(Output.number(duration))")
        }
        if let touchID, touchID.isEmpty { throw ValidationError("--touch must not be empty") }
    }

    /// The entries of a drag from `from` to `to`, starting at `clock`.
    func inputs(touch: EventID, from: Point, to: Point, clock: Double) -> [TouchInput] {
        var inputs = [TouchInput(touch: touch, phase: .began, point: from, time: clock)]
        for k in 1...steps {
            let f = Double(k) / Double(steps)
            inputs.append(
                TouchInput(
                    touch: touch, phase: .moved,
                    point: Point(from.x + (to.x - from.x) * f, from.y + (to.y - from.y) * f),
                    time: TouchScript.time(clock, plus: duration * f)))
        }
        inputs.append(TouchInput(touch: touch, phase: .ended, point: to, time: TouchScript.time(clock, plus: duration)))
        return inputs
    }

    func run(_ client: Client) throws {
        var from = Point(x1.value, y1.value)
        var to = from
        if let x2, let y2 {
            to = Point(x2.value, y2.value)
        } else if let view {
            guard
                let point = try ViewPoint.hittable(
                    view, verb: "drag from", session: session.session, json: global.json, client)
            else { throw ExitCode.failure }
            from = point
        }
        let snapshot = try client.send(SessionSnapshotRequest(session: session.session))
        let touch = touchID.map(DispatchReply.identifier) ?? TouchScript.freshID("drag", live: snapshot.liveTouches)
        let request = TouchRequest(
            session: session.session, touches: inputs(touch: touch, from: from, to: to, clock: snapshot.clock))
        try client.send(request) {
            DispatchReply.print($0, explain: explain.explain, names: try client.names(session: session.session))
        }
    }
}
