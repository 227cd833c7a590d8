import ArgumentParser
import ResponderOutput
import ResponderProtocol

struct HitCommand: EngineCommand {
    static let configuration = CommandConfiguration(
        commandName: "hit",
        abstract: "Hit-test a point in screen coordinates: which view a touch there would go to (hitTest).",
        discussion: """
            With --explain lists every node asked, whether it was hit, missed or skipped, why, and the rule, then \
            what each rule cited means. A node with a display name (an imported one) shows it beside its id: \
            `0x7f8a5c514000 (UIButton "Sign in")`. With --view ID it hit-tests where a tap is the view's own \
            (whyNot's hittable point); when there is no such point it prints why (as `responder why ID`) and exits 1.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions

    @Argument(help: "Screen x; may be negative (responder \(Self.configuration.commandName!) -5 10).") var x:
        Coordinate?
    @Argument(help: "Screen y.") var y: Coordinate?

    @Option(help: ArgumentHelp("Hit-test where a tap on this view is its own, instead of at x y.", valueName: "id"))
    var view: String?

    @Flag(
        help:
            "List every view asked, in order: hit, miss or skipped, the rule, the point in its bounds, and why; then what each rule means."
    )
    var explain = false

    func validate() throws { try ViewPoint.validate(x, y, view: view) }

    func run(_ client: Client) throws {
        var point = x.flatMap { x in y.map { Point(x.value, $0.value) } }
        if let view {
            point = try ViewPoint.hittable(view, verb: "hit", session: session.session, json: global.json, client)
            guard point != nil else { throw ExitCode.failure }
        }
        guard let point else { return }
        try client.send(HitTestRequest(session: session.session, point: point)) { reply in
            let names = try client.names(session: session.session)
            let hit = reply.outcome
            if let view = hit.view {
                Output.line(
                    "hit \(names.label(view)) in window \(names.label(hit.window)) at local \(Output.point(hit.localPoint))"
                )
            } else {
                Output.line("no view at \(Output.point(point))")
            }
            guard explain else { return }
            let rows = hit.visited.map { v in
                [
                    names.label(v.id), v.result.rawValue, v.rule.rawValue, Output.point(v.point),
                    (v.reason?.rawValue ?? "") + (v.to.map { " → \(names.label($0))" } ?? "")
                ]
            }
            Table.print(header: ["NODE", "RESULT", "RULE", "POINT", "REASON"], rows: rows)
            if let discard = TraceFormatter.discard(in: reply.trace) { Output.line("discarded (\(discard))") }
            let cited = Set(hit.visited.map(\.rule) + StepFormatter.rules(reply.trace)).sorted()
            for line in StepFormatter.legend(cited) { Output.line(line) }
        }
    }
}
