import ArgumentParser
import ResponderOutput
import ResponderProtocol

struct MakeKeyCommand: EngineCommand {
    static let configuration = CommandConfiguration(
        commandName: "make-key",
        abstract: "Make a window the key window (window.makeKey)."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions
    @OptionGroup var dryRun: DryRunOption

    @Argument(help: "Id of the window.") var id: String

    func run(_ client: Client) throws {
        try client.send(MakeKeyRequest(session: session.session, id: id).dry(dryRun)) { reply in
            let outcome = reply.base.outcome
            let names = try client.names(session: session.session)
            Output.line(
                "\(names.label(outcome.key ?? id)) is the key window"
                    + (outcome.previous.map { $0 == id ? " (it already was)" : " (was \(names.label($0)))" }
                        ?? " (there was none)")
                    + ": revision \(Describe.number(reply.revision))\(Describe.seqRange(reply.seqRange))")
        }
    }
}
