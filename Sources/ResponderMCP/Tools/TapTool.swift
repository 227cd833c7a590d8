import ResponderJSON
import ResponderOutput
import ResponderProtocol

/// `tap` → `event.tap`.
package enum TapTool: MCPTool {
    package static let name = "tap"
    package static let title = "Tap a point"
    package static let description = """
        Tap the screen at a point: one UITouch that begins and ends there, delivered as UIKit would. It is hit-tested \
        once at began (H rules); touchesBegan/touchesEnded go to the hit view and up the responder chain until a \
        responder handles them (T2); a UIControl on the way takes the touch over and sends its target-actions for \
        touchDown and touchUpInside (T3, A1-A4; a nil target walks the chain from the first responder); gesture \
        recognizers see each phase first and may recognize, fail, delay or cancel the view's touches (G1-G11); a \
        text field that gets touchUpInside becomes first responder (F5). The trace is published to every watcher of \
        the session. Returns each delivery as a path (who was asked, who handled it) with control events, actions \
        and recognizer decisions, citing rules.
        """
    package static let properties: [(key: String, value: JSON)] = [
        ("x", ToolSchema.number("Screen x, in points.")),
        ("y", ToolSchema.number("Screen y, in points."))
    ]
    package static let required = ["x", "y"]
    package static let readOnly = false
    package static let renamedFields = ["point": "x"]

    package static func request(_ arguments: inout ToolArguments, session: String) throws(RPCError) -> EngineRequest {
        let x = try arguments.number("x"), y = try arguments.number("y")
        return EngineRequest(
            method: TapRequest.method, params: ["session": .string(session), "point": [.number(x), .number(y)]],
            subject: "(\(Output.number(x)), \(Output.number(y)))")
    }

    package static func text(_ reply: JSON, for request: EngineRequest) -> String {
        guard let tap = typed(TapRequest.Response.self, reply) else { return "tapped at \(request.subject ?? "")" }
        let traced = tap.base
        let lines = traced.outcome.lines(message: nil, trace: traced.trace) + DispatchReply.focusLines(traced.trace)
        return (["tap at \(request.subject ?? "?")\(Describe.seqRange(tap.seqRange)):"] + lines).joined(separator: "\n")
    }
}
