import ArgumentParser
import ResponderOutput
import ResponderProtocol

struct ChainCommand: EngineCommand {
    static let configuration = CommandConfiguration(
        commandName: "chain",
        abstract: "Print the responder chain from a responder up to the app delegate (responderChain)."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions

    @Argument(help: "Id of the responder to start from.") var id: String

    func run(_ client: Client) throws {
        try client.send(ResponderChainRequest(session: session.session, id: id)) { reply in
            Output.line(try client.names(session: session.session).path(reply.outcome.chain))
        }
    }
}
