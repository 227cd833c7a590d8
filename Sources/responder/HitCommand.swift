import ArgumentParser
import ResponderProtocol

struct HitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hit",
        abstract: "Hit-test a point in screen coordinates: which view a touch there would go to (hitTest).",
        discussion: "With --explain lists every node asked, whether it was hit, missed or skipped, why, and the rule."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions

    @Argument(help: "Screen x.") var x: Double
    @Argument(help: "Screen y.") var y: Double

    @Flag(help: "List every node visited and why it was passed over, with the rule id.")
    var explain = false

    func run() throws {
        try global.run { client in
            let reply = try client.call("hitTest", ["session": .string(session.session), "point": DispatchReply.point(x, y)])
            if global.json { return Output.printJSON(reply) }
            if let view = reply["view"], !view.isNull {
                Output.line("hit \(Describe.id(view)) in window \(Describe.id(reply["window"])) at local \(Output.point(reply["localPoint"]))")
            } else {
                Output.line("no view at (\(Output.number(x)), \(Output.number(y)))")
            }
            guard explain else { return }
            let rows = (reply["visited"]?.arrayValue ?? []).map { v -> [String] in
                [Describe.id(v["id"]), v["result"]?.stringValue ?? "?", v["rule"]?.stringValue ?? "", v["reason"]?.stringValue ?? ""]
            }
            Table.print(header: ["NODE", "RESULT", "RULE", "REASON"], rows: rows)
        }
    }
}
