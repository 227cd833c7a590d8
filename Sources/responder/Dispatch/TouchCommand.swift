import ArgumentParser
import Foundation
import ResponderOutput
import ResponderProtocol

struct TouchCommand: EngineCommand {
    static let configuration = CommandConfiguration(
        commandName: "touch",
        abstract: "Deliver one touch event with one or more touches in given phases (event.touch).",
        discussion: """
            Give touches as ID:PHASE:X,Y groups (e.g. `responder touch 1:began:100,100 2:began:200,200`), or \
            ID:PHASE:on=VIEW for where a tap on that view is its own (whyNot's hittable point; when there is none, \
            nothing is sent, why is printed and the status is 1), or \
            with repeated --touch/--phase/--at options taken in order. Phases: began, moved, stationary, ended, cancelled; \
            a later phase may omit the point (ID:PHASE) to keep the last one. A group may end with @SECONDS, the time \
            of that phase on the session's clock (G11; e.g. `1:ended@0.6`); without it, the clock's time. A touch belongs to the client that began \
            it: this command connects as responder-<uid> (or --client-id) so that a later invocation can move and end it. \
            Each delivery is followed by what gesture recognizers decided during it (indented); a phase a recognizer \
            holds back reads `touchesEnded held by doubleTap (G9)`.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions
    @OptionGroup var dryRun: DryRunOption
    @OptionGroup var explain: ExplainOption

    @Argument(
        help: ArgumentHelp(
            "Touches as ID:PHASE:X,Y, each optionally followed by @SECONDS (its time).", valueName: "id:phase:x,y"))
    var specs: [String] = []

    @Option(
        name: .customLong("touch"),
        help: ArgumentHelp("Touch id (repeatable; pairs with --phase and --at in order).", valueName: "id"))
    var touchIDs: [String] = []

    @Option(
        name: .customLong("phase"),
        help: ArgumentHelp("Phase of the touch: began, moved, stationary, ended, cancelled.", valueName: "phase"))
    var phases: [String] = []

    @Option(
        name: .customLong("at"),
        help: ArgumentHelp("Screen point of the touch, or on=ID: the view's hittable point.", valueName: "x,y"))
    var points: [String] = []

    func validate() throws {
        guard touchIDs.count == phases.count, phases.count == points.count else {
            throw ValidationError(
                "give as many --touch as --phase and --at (got \(touchIDs.count), \(phases.count), \(points.count))")
        }
        guard !specs.isEmpty || !touchIDs.isEmpty else {
            throw ValidationError("give at least one touch (ID:PHASE:X,Y or --touch/--phase/--at)")
        }
        _ = try touches()
    }

    /// The touches as given, in order: id, phase, point (nil: keep the last one, or the view's), the view whose
    /// hittable point it is (`on=ID`), time (nil: the clock's).
    func touches() throws -> [(id: String, phase: String, point: Point?, view: String?, time: Double?)] {
        var groups: [(String, String, String, Double?)] = zip(touchIDs, zip(phases, points)).map {
            ($0, $1.0, $1.1, nil)
        }
        for var spec in specs {
            // A trailing @SECONDS is the phase's time (G11); an @ followed by anything else is part of the group.
            var time: Double?
            if let at = spec.lastIndex(of: "@"), let t = Double(spec[spec.index(after: at)...]) {
                guard t.isFinite, t >= 0 else {
                    throw ValidationError("\"\(spec)\": the time after @ must be 0 or more seconds")
                }
                time = t
                spec = String(spec[..<at])
            }
            let parts = spec.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            guard parts.count >= 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw ValidationError("\"\(spec)\": expected ID:PHASE:X,Y")
            }
            groups.append((parts[0], parts[1], parts.count == 3 ? parts[2] : "", time))
        }
        return try groups.map { id, phase, at, time in
            if at.isEmpty { return (id, phase, nil, nil, time) }
            if at.hasPrefix("on=") {
                let view = String(at.dropFirst(3))
                guard !view.isEmpty else { throw ValidationError("\"\(at)\": expected on=ID, a view's id") }
                return (id, phase, nil, view, time)
            }
            let xy = at.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard xy.count == 2, let x = xy[0], let y = xy[1] else {
                throw ValidationError("\"\(at)\": expected X,Y or on=ID")
            }
            return (id, phase, Point(x, y), nil, time)
        }
    }

    var routingID: String? { Client.stableID }

    func run(_ client: Client) throws {
        var inputs: [TouchInput] = []
        var viewPoints: [String: Point] = [:]
        for (i, touch) in try touches().enumerated() {
            let phase = try TouchPhase(wire: touch.phase, path: "touches[\(i)].phase")
            var point = touch.point
            if let view = touch.view {
                if viewPoints[view] == nil {
                    let json = global.json
                    guard
                        let p = try ViewPoint.hittable(
                            view, verb: "touch", session: session.session, json: json, client)
                    else { throw ExitCode.failure }
                    viewPoints[view] = p
                }
                point = viewPoints[view]
            }
            inputs.append(
                TouchInput(touch: DispatchReply.identifier(touch.id), phase: phase, point: point, time: touch.time))
        }
        try client.send(TouchRequest(session: session.session, touches: inputs).dry(dryRun)) {
            DispatchReply.print($0, explain: explain.explain, names: try client.names(session: session.session))
        }
        client.noteDryRun(dryRun)
    }
}
