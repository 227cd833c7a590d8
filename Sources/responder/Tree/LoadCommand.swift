import ArgumentParser
import ResponderJSON
import ResponderOutput
import ResponderProtocol

struct LoadCommand: EngineCommand {
    static let configuration = CommandConfiguration(
        commandName: "load",
        abstract: "Replace a session's whole world with the one in a file (tree.load).",
        discussion: "FILE holds {\"tree\": …, \"detached\"?: […]} or a bare application node; - reads stdin."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions

    @Argument(help: "World file, or - for stdin.")
    var file: String

    @Option(
        help: ArgumentHelp(
            "Only load if the session is still at this revision (else REVISION_CONFLICT).", valueName: "revision"))
    var ifRevision: Int?

    func run(_ client: Client) throws {
        var world = try InputFile.world(file)
        var members: [(key: String, value: JSON)] = [("session", .string(session.session)), ("tree", world.tree)]
        if let detached = world.detached { members.append(("detached", detached)) }
        if let ifRevision { members.append(("ifRevision", JSON(ifRevision))) }
        var params: JSON = .object(members)
        members = []
        // The file may nest deeply: every holder lets go, the last frees it without recursion.
        defer {
            JSON.release(&params)
            InputFile.release(&world)
        }
        try client.send(TreeLoadRequest.self, params: params) { reply in
            let count =
                InputFile.countNodes(world.tree)
                + (world.detached?.arrayValue ?? []).reduce(0) { $0 + InputFile.countNodes($1) }
            Output.line(
                "loaded \(count) node\(count == 1 ? "" : "s") into \(session.session): revision \(Describe.number(reply.revision))\(Describe.seqRange(reply.seqRange))"
            )
        }
    }
}
