import ArgumentParser
import ResponderProtocol

struct BecomeCommand: EngineCommand {
    static let configuration = CommandConfiguration(
        commandName: "become",
        abstract: "Ask a responder to become first responder (responder.become).",
        discussion: "Prints whether it did, why not if it did not, and which responder resigned."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions

    @Argument(help: "Id of the responder.") var id: String

    func run(_ client: Client) throws {
        let reply = try client.call("responder.become", ["session": .string(session.session), "id": .string(id)])
        FirstResponderReply.print(reply, verb: "become", id: id, json: global.json)
    }
}
