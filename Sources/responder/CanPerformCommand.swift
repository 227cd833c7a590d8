import ArgumentParser
import ResponderProtocol

struct CanPerformCommand: EngineCommand {
    static let configuration = CommandConfiguration(
        commandName: "can-perform",
        abstract: "Ask who would perform an action, without performing it (action.canPerform).",
        discussion: "The editing-menu question (A5): the walk starts at the key window's first responder with the application as sender, and nothing changes."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions

    @Argument(help: "Action selector, e.g. copy: or paste:.") var action: String

    @Option(help: ArgumentHelp("Sender id. Default: the application.", valueName: "id"))
    var sender: String?

    func run(_ client: Client) throws {
        var params: JSON = ["session": .string(session.session), "action": .string(action)]
        if let sender { params = params.setting("sender", .string(sender)) }
        let reply = try client.call("action.canPerform", params)
        if global.json {
            Output.printJSON(reply)
            return
        }
        let visited = reply["visited"]?.arrayValue ?? []
        let walk = visited.isEmpty ? "(no responders)" : Describe.path(visited)
        let verdict = reply["available"]?.boolValue == true ? "available, performed by \(Describe.id(reply["by"]))" : "not available"
        Output.line("\(action) \(walk): \(verdict)")
    }
}
