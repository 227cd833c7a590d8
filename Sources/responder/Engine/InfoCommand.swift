import ArgumentParser
import ResponderOutput
import ResponderProtocol

struct InfoCommand: SessionlessCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract:
            "Show the engine's name, version, endpoints, sessions, limits and methods (engine.info, session.list).",
        discussion:
            "Each session is listed with its size (nodes, detached ones included), revision and last event seq. --json prints engine.info's reply."
    )

    @ParentCommand var responder: Responder
    @OptionGroup var global: GlobalOptions

    func run(_ client: Client) throws {
        try client.send(EngineInfoRequest()) { info in
            Output.line("engine    \(info.name)  (responderd \(info.version), protocol \(info.protocol))")
            Output.line("pid       \(info.pid)")
            Output.line("started   \(info.startedAt)")
            Output.line("rpc       \(info.rpc)")
            Output.line("events    \(info.events)")
            // The sessions by name, with their sizes (session.list), aligned under one another.
            let sessions = (try? client.send(SessionListRequest()).sessions) ?? []
            if sessions.isEmpty {
                Output.line("sessions  \(info.sessions)")
            } else {
                let width = sessions.map(\.session.count).max() ?? 0
                for (i, s) in sessions.enumerated() {
                    let name = s.session.padding(toLength: width, withPad: " ", startingAt: 0)
                    let size = "\(s.nodes) node\(s.nodes == 1 ? "" : "s"), revision \(s.revision), seq \(s.seq)"
                    Output.line((i == 0 ? "sessions  " : "          ") + name + "  " + size)
                }
            }
            // By the names the protocol gives them, in its order.
            let limits = WireEncoder.encode(info.limits).objectMembers ?? []
            Output.line("limits    " + limits.map { "\($0.key) \(Output.number($0.value))" }.joined(separator: ", "))
            Output.line("methods   " + info.methods.joined(separator: " "))
        }
    }
}
