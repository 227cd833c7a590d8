import ArgumentParser
import ResponderOutput
import ResponderProtocol

struct TapCommand: EngineCommand {
    static let configuration = CommandConfiguration(
        commandName: "tap",
        abstract: "Tap at a screen point, or on a view: a touch that begins and ends there (event.tap).",
        discussion: """
            Prints each delivery as a path, e.g. `touchesBegan: E → C → W → App → AD, handled by C`, and below it \
            what gesture recognizers decided meanwhile, e.g. `gesture dismissTap: possible → recognized (G2, \
            taps-completed)` and `action dismissKeyboard: dismissTap → rootVC, performed (G3)`. With --view ID it \
            taps where a tap is the view's own (whyNot's hittable point); when there is no such point it taps \
            nothing, prints why (as `responder why ID`) and exits 1.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions
    @OptionGroup var dryRun: DryRunOption
    @OptionGroup var explain: ExplainOption

    @Argument(help: "Screen x; may be negative (responder \(Self.configuration.commandName!) -5 10).") var x:
        Coordinate?
    @Argument(help: "Screen y.") var y: Coordinate?

    @Option(help: ArgumentHelp("Tap this view where a tap is its own, instead of at x y.", valueName: "id"))
    var view: String?

    func validate() throws { try ViewPoint.validate(x, y, view: view) }

    func run(_ client: Client) throws {
        var point = x.flatMap { x in y.map { Point(x.value, $0.value) } }
        if let view {
            point = try ViewPoint.hittable(view, verb: "tap", session: session.session, json: global.json, client)
            guard point != nil else { throw ExitCode.failure }
        }
        guard let point else { return }
        try client.send(TapRequest(session: session.session, point: point).dry(dryRun)) {
            DispatchReply.print($0, explain: explain.explain, names: try client.names(session: session.session))
        }
        client.noteDryRun(dryRun)
    }
}
