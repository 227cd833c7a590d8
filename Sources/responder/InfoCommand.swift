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
        let info = try client.call("engine.info")
        if global.json { return Output.printJSON(info) }
        Output.line("engine    \(Output.plain(info["name"] ?? "?"))  (responderd \(Output.plain(info["version"] ?? "?")), protocol \(Output.number(info["protocol"])))")
        Output.line("pid       \(Output.number(info["pid"]))")
        Output.line("started   \(Output.plain(info["startedAt"] ?? "?"))")
        Output.line("rpc       \(Output.plain(info["rpc"] ?? "?"))")
        Output.line("events    \(Output.plain(info["events"] ?? "?"))")
        Output.line("sessions  \(Output.number(info["sessions"]))")
        if let limits = info["limits"]?.objectMembers {
            Output.line("limits    " + limits.map { "\($0.key) \(Output.number($0.value))" }.joined(separator: ", "))
        }
        if let methods = info["methods"]?.arrayValue {
            Output.line("methods   " + methods.map(Output.plain).joined(separator: " "))
        }
    }
}
