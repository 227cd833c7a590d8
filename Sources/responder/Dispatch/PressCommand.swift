import ArgumentParser
import ResponderOutput
import ResponderProtocol

struct PressCommand: EngineCommand {
    static let configuration = CommandConfiguration(
        commandName: "press",
        abstract: "Press a physical key or button (event.press).",
        discussion: """
            Without --phase the press begins and then ends. Phases: began, changed, ended, cancelled. A press belongs \
            to the client that began it: this command connects as responder-<uid> (or --client-id) so that a later \
            invocation can end it.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions
    @OptionGroup var dryRun: DryRunOption

    @Argument(help: "Key or button, e.g. a, return, select, menu.") var key: String

    @Option(
        name: .customLong("phase"),
        help: ArgumentHelp(
            "Phase to send: began, changed, ended, cancelled (repeatable, sent in order). Default: began, then ended.",
            valueName: "phase"))
    var phases: [String] = []

    @Option(help: ArgumentHelp("Press id, to continue a press begun earlier.", valueName: "id"))
    var press = "1"

    var routingID: String? { Client.stableID }

    func run(_ client: Client) throws {
        for phase in phases.isEmpty ? ["began", "ended"] : phases {
            let request = PressRequest(
                session: session.session, press: DispatchReply.identifier(press), key: key,
                phase: try PressPhase(wire: phase, path: "phase")
            ).dry(dryRun)
            try client.send(request) { DispatchReply.print($0, names: try client.names(session: session.session)) }
        }
    }
}
