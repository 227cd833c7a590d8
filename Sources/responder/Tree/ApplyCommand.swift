import ArgumentParser
import ResponderJSON
import ResponderOutput
import ResponderProtocol

struct ApplyCommand: EngineCommand {
    static let configuration = CommandConfiguration(
        commandName: "apply",
        abstract: "Apply a batch of tree ops atomically (tree.apply).",
        discussion:
            "FILE holds {\"ops\": […], \"ifRevision\"?: N} or a bare array of ops; - reads stdin. Either every op applies or none does."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions
    @OptionGroup var dryRun: DryRunOption

    @Argument(help: "Ops file, or - for stdin.")
    var file: String

    @Option(
        help: ArgumentHelp(
            "Only apply if the session is still at this revision (overrides the file's ifRevision).",
            valueName: "revision"))
    var ifRevision: Int?

    func run(_ client: Client) throws {
        var input = try InputFile.read(file)
        var ops: JSON
        var revision: JSON? = ifRevision.map { JSON($0) }
        if input.arrayValue != nil {
            ops = input
        } else if let o = input["ops"] {
            ops = o
            if revision == nil { revision = input["ifRevision"] }
        } else {
            throw CLIError("\(file): expected {\"ops\": […]} or an array of ops")
        }
        var params: JSON = .object([("session", .string(session.session)), ("ops", ops)])
        if let revision { params = params.setting("ifRevision", revision) }
        if dryRun.on { params = params.setting("dryRun", true) }
        // The file may nest deeply: every holder lets go, the last frees it without recursion.
        defer {
            JSON.release(&params)
            JSON.release(&ops)
            JSON.release(&input)
        }
        try client.send(TreeApplyRequest.self, params: params) { reply in
            let count = ops.arrayValue?.count ?? 0
            Output.line(
                "applied \(count) op\(count == 1 ? "" : "s") to \(session.session): revision \(Describe.number(reply.revision))\(Describe.seqRange(reply.seqRange))"
            )
            client.noteDryRun(dryRun)
        }
    }
}
