import ArgumentParser
import ResponderOutput
import ResponderProtocol

struct TapCommand: EngineCommand {
    static let configuration = CommandConfiguration(
        commandName: "tap",
        abstract: "Tap at a screen point: a touch that begins and ends there (event.tap).",
        discussion: """
            Prints each delivery as a path, e.g. `touchesBegan: E → C → W → App → AD, handled by C`, and below it \
            what gesture recognizers decided meanwhile, e.g. `gesture dismissTap: possible → recognized (G2, \
            taps-completed)` and `action dismissKeyboard: dismissTap → rootVC, performed (G3)`.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions
    @OptionGroup var dryRun: DryRunOption
    @OptionGroup var explain: ExplainOption

    @Argument(help: "Screen x; may be negative (responder \(Self.configuration.commandName!) -5 10).") var x: Coordinate
    @Argument(help: "Screen y.") var y: Coordinate

    func run(_ client: Client) throws {
        try client.send(TapRequest(session: session.session, point: Point(x.value, y.value)).dry(dryRun)) {
            DispatchReply.print($0, explain: explain.explain, names: try client.names(session: session.session))
        }
        client.noteDryRun(dryRun)
    }
}
