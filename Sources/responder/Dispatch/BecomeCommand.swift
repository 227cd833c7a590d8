import ArgumentParser
import ResponderOutput
import ResponderProtocol

struct BecomeCommand: EngineCommand {
    static let configuration = CommandConfiguration(
        commandName: "become",
        abstract: "Ask a responder to become first responder (responder.become).",
        discussion: "Prints whether it did, why not if it did not, and which responder resigned."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions
    @OptionGroup var dryRun: DryRunOption

    @Argument(help: "Id of the responder.") var id: String

    func run(_ client: Client) throws {
        try client.send(BecomeRequest(session: session.session, id: id).dry(dryRun)) {
            FirstResponderReply.print($0, verb: .become, id: id, names: try client.names(session: session.session))
        }
    }
}
