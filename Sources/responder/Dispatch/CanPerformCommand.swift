import ArgumentParser
import ResponderOutput
import ResponderProtocol

struct CanPerformCommand: EngineCommand {
    static let configuration = CommandConfiguration(
        commandName: "can-perform",
        abstract: "Ask who would perform an action, without performing it (action.canPerform).",
        discussion:
            "The editing-menu question (A5): the walk starts at the key window's first responder with the application as sender, and nothing changes."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions

    @Argument(help: "Action selector, e.g. copy: or paste:.") var action: String

    @Option(help: ArgumentHelp("Sender id. Default: the application.", valueName: "id"))
    var sender: String?

    func run(_ client: Client) throws {
        try client.send(CanPerformRequest(session: session.session, action: action, sender: sender)) { reply in
            let outcome = reply.outcome
            let names = try client.names(session: session.session)
            let walk = outcome.visited.isEmpty ? "(no responders)" : names.path(outcome.visited)
            let verdict = outcome.available ? "available: \(names.label(outcome.by)) would perform it" : "not available"
            Output.line("\(action) \(walk): \(verdict)")
        }
    }
}
