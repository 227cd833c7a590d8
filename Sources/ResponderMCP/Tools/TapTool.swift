import ResponderClient
import ResponderJSON
import ResponderOutput
import ResponderProtocol

/// `tap` → `event.tap`; on a view, `whyNot` first for a point where a tap is the view's own.
package enum TapTool: MCPTool {
    package static let name = "tap"
    package static let title = "Tap a point or a view"
    package static let description = """
        Tap the screen at a point, or on a view: one UITouch that begins and ends there, delivered as UIKit would. \
        With view instead of x and y, the tap lands where a tap is the view's own (why_not's hittable point); when \
        no point of the view is (it is covered, hidden, outside its superview, inside a view with interaction off…), \
        nothing is tapped and the answer is why_not's: the decisive cause with its rule and culprit. It is \
        hit-tested once at began (H rules); touchesBegan/touchesEnded go to the hit view and up the responder chain \
        until a responder handles them (T2); a UIControl on the way takes the touch over and sends its \
        target-actions for touchDown and touchUpInside (T3, A1-A4; a nil target walks the chain from the first \
        responder); gesture recognizers see each phase first and may recognize, fail, delay or cancel the view's \
        touches (G1-G11); a text field that gets touchUpInside becomes first responder (F5). The trace is published \
        to every watcher of the session. Returns each delivery as a path (who was asked, who handled it) with \
        control events, actions and recognizer decisions, citing rules.
        """
    package static let properties: [(key: String, value: JSON)] = [
        ("x", ToolSchema.number("Screen x, in points (with y).")),
        ("y", ToolSchema.number("Screen y, in points (with x).")),
        ("view", ToolSchema.nodeID("Instead of x and y: the view to tap, where a tap is its own."))
    ]
    package static let required: [String] = []
    package static let readOnly = false
    package static let renamedFields = ["point": "x"]

    package static func request(_ arguments: inout ToolArguments, session: String) throws(RPCError) -> EngineRequest {
        let point = try arguments.optionalPoint("x", "y")
        let view = try arguments.optionalString("view")
        switch (point, view) {
        case (let (x, y)?, nil): return tap(session: session, x: x, y: y, subject: nil)
        case (nil, let view?):
            return EngineRequest(
                method: WhyNotRequest.method, params: ["session": .string(session), "view": .string(view)],
                subject: view)
        case (nil, nil): throw ToolArguments.invalid("x", "and y, or view, are required")
        case (.some, .some): throw ToolArguments.invalid("view", "cannot be given with x and y: give one")
        }
    }

    private static func tap(session: String, x: Double, y: Double, subject view: String?) -> EngineRequest {
        let at = "(\(Output.number(x)), \(Output.number(y)))"
        return EngineRequest(
            method: TapRequest.method, params: ["session": .string(session), "point": [.number(x), .number(y)]],
            subject: view.map { "\(at) on \($0)" } ?? at)
    }

    /// On a view: whyNot says where; without a hittable point the tool declines with that answer.
    package static func perform(_ request: EngineRequest, on engine: EngineThread) async -> ToolCall {
        guard request.method == WhyNotRequest.method else {
            return ToolCall(reply: await engine.call(request.method, request.sentParams), request: request)
        }
        let asked = await engine.call(request.method, request.params)
        guard case .success(let reply) = asked, let answer = typed(WhyNotAnswer.self, reply),
            let point = answer.hittable.point
        else { return ToolCall(reply: asked, request: request, declined: true) }
        let session = request.params["session"]?.stringValue ?? ""
        var tap = tap(session: session, x: point.x, y: point.y, subject: request.subject)
        tap.dryRun = request.dryRun
        return ToolCall(reply: await engine.call(tap.method, tap.sentParams), request: tap)
    }

    package static func text(_ reply: JSON, for request: EngineRequest) -> String {
        if request.method == WhyNotRequest.method {
            let view = request.subject.map(ToolNames.current.label) ?? "?"
            guard let answer = typed(WhyNotAnswer.self, reply) else { return "did not tap \(view)" }
            return (["did not tap \(view): no point of it is a tap its own"] + WhyNotText.lines(answer, view: view))
                .joined(separator: "\n")
        }
        guard let tap = typed(TapRequest.Response.self, reply) else { return "tapped at \(request.subject ?? "")" }
        let traced = tap.base
        let names = ToolNames.current
        let lines =
            traced.outcome.lines(message: nil, trace: traced.trace, names: names)
            + DispatchReply.focusLines(traced.trace, names: names)
        return (["tap at \(request.subject ?? "?")\(Describe.seqRange(tap.seqRange)):"] + lines).joined(separator: "\n")
    }
}
