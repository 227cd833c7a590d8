import ArgumentParser
import ResponderProtocol

struct ClientsCommand: EngineCommand {
    static let configuration = CommandConfiguration(
        commandName: "clients",
        abstract: "List the clients attached to a session: name, kind, last seen (session.clients)."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions

    func run(_ client: Client) throws {
        try client.send(SessionClientsRequest(session: session.session)) { reply in
            let rows = reply.clients.map { c in [c.name ?? "(unnamed)", c.kind ?? "-", c.client, c.lastSeen] }
            Table.print(header: ["NAME", "KIND", "CLIENT", "LAST SEEN"], rows: rows)
        }
    }
}
