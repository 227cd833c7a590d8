import ArgumentParser
import ResponderProtocol

struct SessionListCommand: SessionlessCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the engine's sessions with their revision, last event seq and node count (session.list)."
    )

    @ParentCommand var responder: Responder
    @OptionGroup var global: GlobalOptions

    func run(_ client: Client) throws {
        let reply = try client.call("session.list")
        if global.json { return Output.printJSON(reply) }
        let sessions = reply["sessions"]?.arrayValue ?? []
        let rows = sessions.map { s in
            [Output.plain(s["session"] ?? "?"), Output.number(s["revision"]), Output.number(s["seq"]), Output.number(s["nodes"])]
        }
        Table.print(header: ["SESSION", "REVISION", "SEQ", "NODES"], rows: rows)
    }
}
