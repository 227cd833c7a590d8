import ArgumentParser
import ResponderOutput
import ResponderProtocol

struct ResignCommand: EngineCommand {
    static let configuration = CommandConfiguration(
        commandName: "resign",
        abstract: "Ask a responder to resign first responder (responder.resign).",
        discussion: "Prints whether it did and why not if it refused (canResignFirstResponder)."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions
    @OptionGroup var dryRun: DryRunOption

    @Argument(help: "Id of the responder.") var id: String

    func run(_ client: Client) throws {
        try client.send(ResignRequest(session: session.session, id: id).dry(dryRun)) {
            FirstResponderReply.print($0, verb: .resign, id: id, names: try client.names(session: session.session))
        }
    }
}
