import ArgumentParser
import ResponderOutput
import ResponderProtocol

struct WhyCommand: EngineCommand {
    static let configuration = CommandConfiguration(
        commandName: "why",
        abstract: "Ask why a view does not get a touch, an action or the first responder (whyNot).",
        discussion:
            "A touch anywhere on the view by default, or at --at X Y; --action asks about a nil-targeted action, --become about becoming first responder. Prints the decisive cause with its rule id, then the others, then where a tap is the view's own, then what each rule cited means. Nothing changes. Exit status 1 when the answer is not ok."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions

    @Argument(help: "The view's id.") var view: String

    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp("A touch at this screen point instead of anywhere on the view.", valueName: "x y"))
    var at: [Coordinate] = []

    @Option(help: ArgumentHelp("Ask about this action, sent with a nil target.", valueName: "selector"))
    var action: String?

    @Option(help: ArgumentHelp("The action's sender. Default: where the walk starts (A3).", valueName: "id"))
    var sender: String?

    @Flag(help: "Ask whether the view can become first responder.") var become = false

    func validate() throws {
        guard at.isEmpty || at.count == 2 else { throw ValidationError("--at takes two numbers, x and y") }
    }

    func run(_ client: Client) throws {
        let point = at.count == 2 ? Point(at[0].value, at[1].value) : nil
        let request = WhyNotRequest(
            session: session.session, view: view, point: point, action: action, sender: sender,
            become: become ? true : nil)
        let answer = try client.answer(request) { answer in
            let name = try client.names(session: session.session).label(view)
            for line in WhyNotText.report(answer, view: name) { Output.line(line) }
        }
        // A script or CI step asks "does this view get it?": the status answers.
        if !answer.ok { throw ExitCode.failure }
    }
}
