import ArgumentParser
import ResponderProtocol

struct HitCommand: EngineCommand {
    static let configuration = CommandConfiguration(
        commandName: "hit",
        abstract: "Hit-test a point in screen coordinates: which view a touch there would go to (hitTest).",
        discussion: "With --explain lists every node asked, whether it was hit, missed or skipped, why, and the rule."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions

    @Argument(help: "Screen x (put -- before a negative coordinate: responder \(Self.configuration.commandName!) -- -5 10).") var x: Double
    @Argument(help: "Screen y.") var y: Double

    @Flag(help: "List every view asked, in order: hit, miss or skipped, the rule, the point in its bounds, and why.")
    var explain = false

    func run(_ client: Client) throws {
        let reply = try client.call("hitTest", ["session": .string(session.session), "point": DispatchReply.point(x, y)])
        if global.json { return Output.printJSON(reply) }
        if let view = reply["view"], !view.isNull {
            Output.line("hit \(Describe.id(view)) in window \(Describe.id(reply["window"])) at local \(Output.point(reply["localPoint"]))")
        } else {
            Output.line("no view at (\(Output.number(x)), \(Output.number(y)))")
        }
        guard explain else { return }
        let rows = (reply["visited"]?.arrayValue ?? []).map { v -> [String] in
            let redirect = v["to"].flatMap { $0.isNull ? nil : " → \(Describe.id($0))" } ?? ""
            return [Describe.id(v["id"]), v["result"]?.stringValue ?? "?", v["rule"]?.stringValue ?? "",
                    Output.point(v["point"]), (v["reason"]?.stringValue ?? "") + redirect]
        }
        Table.print(header: ["NODE", "RESULT", "RULE", "POINT", "REASON"], rows: rows)
        if let discard = TraceFormatter.discard(in: reply["trace"]) { Output.line("discarded (\(discard))") }
    }
}
