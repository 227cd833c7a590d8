import ArgumentParser
import ResponderOutput
import ResponderProtocol

/// The point a command acting "on a view" uses: where a tap is the view's own (whyNot's hittable point), so
/// `tap --view`, `hit --view` and `drag --view` cannot disagree with `responder why` about where that is.
enum ViewPoint {
    /// The view's hittable point, said in a line (`<verb> B at (x, y): hittable over …`); nil when there is none,
    /// after printing why not on stderr (with --json, whyNot's answer on stdout).
    static func hittable(
        _ view: String, verb: String, session: String?, json: Bool, _ client: Client
    ) throws -> Point? {
        let answer = try client.connection.send(WhyNotRequest(session: session, view: view))
        let name = json ? view : try client.names(session: session).label(view)
        guard let point = answer.hittable.point else {
            if json { Output.printJSON(WireEncoder.encode(answer)) }
            for line in WhyNotText.lines(answer, view: name) { Output.error(line) }
            return nil
        }
        if !json { Output.line("\(verb) \(name) at \(Output.point(point)): \(WhyNotText.hittable(answer.hittable))") }
        return point
    }

    /// A command that takes a point (x y) or `--view ID`: exactly one of them.
    static func validate(_ x: Coordinate?, _ y: Coordinate?, view: String?) throws {
        switch (x, y, view) {
        case (nil, nil, nil): throw ValidationError("give a point (x y) or --view ID")
        case (.some, nil, _): throw ValidationError("Missing expected argument '<y>'")
        case (.some, .some, .some): throw ValidationError("give a point (x y) or --view ID, not both")
        default: break
        }
    }
}
