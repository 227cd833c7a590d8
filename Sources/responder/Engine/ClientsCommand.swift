import ArgumentParser
import ResponderOutput
import ResponderProtocol

struct ClientsCommand: EngineCommand {
    static let configuration = CommandConfiguration(
        commandName: "clients",
        abstract: "List the clients attached to a session: name, kind, last seen (session.clients).",
        discussion: """
            Lists the tools that stay attached (watch, inspectors, recorders): one-shot commands such as `responder \
            tap` say so when they connect (client.hello kind \(Client.oneShotKind)) and are left out, since they have \
            finished by the time anyone looks. --all lists them too. A client that sends nothing for the engine's \
            --client-idle-seconds (default 600) is no longer listed.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions

    @Flag(help: "Also list one-shot commands (responder tap, info, …) that addressed the session recently.")
    var all = false

    func run(_ client: Client) throws {
        try client.send(SessionClientsRequest(session: session.session)) { reply in
            let listed = all ? reply.clients : reply.clients.filter { $0.kind != Client.oneShotKind }
            let rows = listed.map { c in [c.name ?? "(unnamed)", c.kind ?? "-", c.client, c.lastSeen] }
            Table.print(header: ["NAME", "KIND", "CLIENT", "LAST SEEN"], rows: rows)
        }
    }
}
