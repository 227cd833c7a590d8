import ArgumentParser
import ResponderOutput
import ResponderProtocol

struct ActionCommand: EngineCommand {
    static let configuration = CommandConfiguration(
        commandName: "action",
        abstract: "Send an action up the responder chain, like UIApplication.sendAction (action.send).",
        discussion:
            "Without --target the action goes to the first responder and travels up the chain until a responder can perform it."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions
    @OptionGroup var dryRun: DryRunOption

    @Argument(help: "Action selector, e.g. copy: or save:.") var action: String

    @Option(
        help: ArgumentHelp(
            "Target responder id. Default: nil (the first responder, then up the chain).", valueName: "id"))
    var target: String?

    @Option(help: ArgumentHelp("Sender id. Default: nil.", valueName: "id"))
    var sender: String?

    func run(_ client: Client) throws {
        try client.send(
            SendActionRequest(session: session.session, action: action, target: target, sender: sender).dry(dryRun)
        ) {
            DispatchReply.print($0, message: action, names: try client.names(session: session.session))
        }
    }
}
