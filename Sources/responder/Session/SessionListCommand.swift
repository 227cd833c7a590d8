import ArgumentParser
import ResponderOutput
import ResponderProtocol

struct SessionListCommand: SessionlessCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the engine's sessions with their revision, last event seq and node count (session.list)."
    )

    @ParentCommand var responder: Responder
    @OptionGroup var global: GlobalOptions

    func run(_ client: Client) throws {
        try client.send(SessionListRequest()) { reply in
            let rows = reply.sessions.map { s in [s.session, String(s.revision), String(s.seq), String(s.nodes)] }
            Table.print(header: ["SESSION", "REVISION", "SEQ", "NODES"], rows: rows)
        }
    }
}
