import ArgumentParser
import ResponderProtocol

struct FirstCommand: EngineCommand {
    static let configuration = CommandConfiguration(
        commandName: "first",
        abstract: "Show the first responder of the key window, or of a given window (responder.first)."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions

    @Option(help: ArgumentHelp("Window to ask about. Default: the key window.", valueName: "id"))
    var window: String?

    func run(_ client: Client) throws {
        var params: [(key: String, value: JSON)] = [("session", .string(session.session))]
        if let window { params.append(("window", .string(window))) }
        let reply = try client.call("responder.first", .object(params))
        if global.json { return Output.printJSON(reply) }
        // The result is the first responder's id or null (older shapes wrapped it in an object).
        let first = reply.objectMembers == nil ? reply : (reply["firstResponder"] ?? reply["responder"] ?? reply["id"] ?? .null)
        let where_ = (reply["window"]?.stringValue ?? window).map { " in window \($0)" } ?? ""
        Output.line(first.isNull ? "no first responder\(where_)" : "first responder\(where_): \(Describe.id(first))")
    }
}
