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
        let reply = try client.call("session.clients", ["session": .string(session.session)])
        if global.json { return Output.printJSON(reply) }
        let rows = (reply["clients"]?.arrayValue ?? []).map { c -> [String] in
            let name = c["name"]?.stringValue ?? "(unnamed)"
            return [name, c["kind"]?.stringValue ?? "-", c["client"]?.stringValue ?? "?", c["lastSeen"]?.stringValue ?? "?"]
        }
        Table.print(header: ["NAME", "KIND", "CLIENT", "LAST SEEN"], rows: rows)
    }
}
