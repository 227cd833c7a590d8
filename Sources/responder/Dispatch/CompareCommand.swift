import ArgumentParser
import ResponderJSON
import ResponderOutput
import ResponderProtocol

struct CompareCommand: EngineCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Run the same input under UIKit's and Android's dispatch on one tree and print both side by side.",
        discussion: """
            Takes the tree of --session (tree.get) or of --world FILE, creates two scratch sessions with it, one \
            with profile uikit and one with profile android, sends both the same input (--tap X Y: event.tap; \
            --drag X1 Y1 X2 Y2: one event.touch that begins, moves --steps times and ends over --duration \
            seconds; --touches FILE: event.touch with the entries in FILE) and deletes them again, whatever \
            happened. Prints one row per input (began/DOWN, moved/MOVE, ended/UP) in two columns, uikit | \
            android: who got it and who handled it, control events (uikit), actions and clicks, cancels, and \
            `unhandled` where nobody did. The first row where the two differ is marked ≠ and named below the \
            table, e.g. `first difference: began/DOWN — uikit: Btn (touchDown), android: Veil consumed`. Then a \
            line per model cites the rules that decided: UIKit's hit view and the views hit-testing passed over \
            (H rules), Android's candidates and handlers (`Veil offered (AD5: alpha is not tested), consumed \
            (AC4)`). The source session is not changed. With --json it prints {"uikit": …, "android": …, \
            "firstDifference": N} (both replies as they came; null when the models agree); with --explain each \
            side's whole trace follows, a step a line. Example: \
            `responder compare --world docs/examples/compare-alpha-zero.json --tap 50 50`.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions
    @OptionGroup var explain: ExplainOption

    @Option(
        help: ArgumentHelp(
            "World file to compare on ({\"tree\": …} or a bare application node, as `session create` reads), instead of --session's tree.",
            valueName: "file"))
    var world: String?

    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp("Tap at this screen point (event.tap).", valueName: "x y"))
    var tap: [Coordinate] = []

    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp(
            "Drag one finger from (X1, Y1) to (X2, Y2) in one event.touch.", valueName: "x1 y1 x2 y2"))
    var drag: [Coordinate] = []

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("With --drag: moved phases between began and ended (at least 1).", valueName: "n"))
    var steps = 10

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("With --drag: seconds from began to ended (0 or more).", valueName: "seconds"))
    var duration = 0.25

    @Option(
        help: ArgumentHelp(
            "A JSON file holding event.touch's touches: an array of {touch, phase, point?, time?}; - reads stdin.",
            valueName: "file"))
    var touches: String?

    func validate() throws {
        let inputs = [!tap.isEmpty, !drag.isEmpty, touches != nil].filter { $0 }.count
        guard inputs == 1 else {
            throw ValidationError("give one input: --tap X Y, --drag X1 Y1 X2 Y2 or --touches FILE")
        }
        if !tap.isEmpty, tap.count != 2 { throw ValidationError("--tap takes two numbers, X Y") }
        if !drag.isEmpty, drag.count != 4 { throw ValidationError("--drag takes four numbers, X1 Y1 X2 Y2") }
        try TouchScript.requireFinite((tap + drag).map { ("coordinate", $0.value) } + [("--duration", duration)])
        guard steps >= 1 else { throw ValidationError("--steps must be at least 1, got \(steps)") }
        guard duration >= 0 else {
            throw ValidationError("--duration must be 0 or more seconds, got \(Output.number(duration))")
        }
        if world != nil, session.session != SessionOptions.defaultSession {
            throw ValidationError("give the tree once: --session or --world, not both")
        }
    }

    /// The request each scratch session gets: its method and params less `session`.
    func input() throws -> (method: String, params: [(key: String, value: JSON)]) {
        if tap.count == 2 { return (TapRequest.method, [("point", [.number(tap[0].value), .number(tap[1].value)])]) }
        if drag.count == 4 {
            let entries = ProfileComparison.drag(
                touch: "drag-1", from: (drag[0].value, drag[1].value), to: (drag[2].value, drag[3].value),
                steps: steps, duration: duration)
            return (TouchRequest.method, [("touches", entries)])
        }
        var json = try InputFile.read(touches ?? "-")
        if let inner = json["touches"] { json = inner }
        guard json.arrayValue != nil else {
            throw CLIError(
                "\(touches ?? "-"): expected an array of event.touch entries ({touch, phase, point?, time?})")
        }
        return (TouchRequest.method, [("touches", json)])
    }

    func run(_ client: Client) throws {
        let sent = try input()
        var tree: JSON
        var detached: JSON?
        if let world {
            (tree, detached) = try InputFile.world(world)
        } else {
            tree =
                try client.connection.call(TreeGetRequest.method, ["session": .string(session.session)])["tree"]
                ?? .null
        }
        var replies: [JSON] = []
        for profile in ProfileComparison.profiles {
            let name = ProfileComparison.scratchSession(profile)
            let create = ProfileComparison.createParams(name, profile: profile, tree: tree, detached: detached)
            _ = try client.connection.call(SessionCreateRequest.method, create)
            // The scratch session goes whatever happens next; a failure to delete it is not the answer's.
            defer { _ = try? client.connection.call(SessionDeleteRequest.method, ["session": .string(name)]) }
            replies.append(try client.connection.call(sent.method, .object([("session", .string(name))] + sent.params)))
        }
        let names = NodeNames(trees: [tree] + (detached?.arrayValue ?? []))
        let comparison = ProfileComparison(uikit: replies[0], android: replies[1], names: names)
        if global.json {
            Output.printJSON(
                ProfileComparison.json(
                    uikit: replies[0], android: replies[1], firstDifference: comparison.firstDifference))
            return
        }
        for line in comparison.lines() { Output.line(line) }
        guard explain.explain else { return }
        for (profile, reply) in zip(ProfileComparison.profiles, replies) {
            guard let value = reply["trace"],
                let trace = try? WireDecoder.decode(Trace.self, from: value, strict: false)
            else { continue }
            Output.line("\(profile) trace (\(trace.steps.count) step\(trace.steps.count == 1 ? "" : "s")):")
            for line in StepFormatter.lines(trace, names: names) { Output.line("  " + line) }
            for line in StepFormatter.legend(StepFormatter.rules(trace)) { Output.line(line) }
        }
    }
}
