import ArgumentParser
import ResponderProtocol

struct ResignCommand: EngineCommand {
    static let configuration = CommandConfiguration(
        commandName: "resign",
        abstract: "Ask a responder to resign first responder (responder.resign).",
        discussion: "Prints whether it did and why not if it refused (canResignFirstResponder)."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions

    @Argument(help: "Id of the responder.") var id: String

    func run(_ client: Client) throws {
        let reply = try client.call("responder.resign", ["session": .string(session.session), "id": .string(id)])
        FirstResponderReply.print(reply, verb: "resign", id: id, json: global.json)
    }
}
