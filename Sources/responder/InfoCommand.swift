import ArgumentParser
import ResponderProtocol

struct InfoCommand: SessionlessCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show the engine's name, version, endpoints, limits and methods (engine.info)."
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
            Output.line("sessions  \(info.sessions)")
            // By the names the protocol gives them, in its order.
            let limits = WireEncoder.encode(info.limits).objectMembers ?? []
            Output.line("limits    " + limits.map { "\($0.key) \(Output.number($0.value))" }.joined(separator: ", "))
            Output.line("methods   " + info.methods.joined(separator: " "))
        }
    }
}
