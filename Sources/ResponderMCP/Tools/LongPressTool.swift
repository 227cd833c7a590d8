import ResponderClient
import ResponderJSON
import ResponderOutput
import ResponderProtocol

/// `long_press` → `event.touch`: a touch held still at one point for a while, then lifted.
package enum LongPressTool: MCPTool {
    package static let name = "long_press"
    package static let title = "Press and hold"
    package static let description = """
        Touch a point, hold the finger still for duration seconds, then lift it: one UITouch that begins at the \
        session's clock and ends duration seconds later, in one event.touch. The session's clock moves with it \
        (G11): a UILongPressGestureRecognizer whose minimumPressDuration has passed begins before the touch \
        ends, and then ends with it (G2, G3); a tap recognizer fails if the hold is too long; a control gets \
        touchDown, then touchUpInside when the finger lifts inside it (T3). Returns each phase's delivery with \
        the recognizers' decisions and actions, with display names and rules; the full trace is the traces \
        resource. The touch is hold-1, or the next hold-N not in use.
        """
    package static let properties: [(key: String, value: JSON)] = [
        ("x", ToolSchema.number("Screen x.")),
        ("y", ToolSchema.number("Screen y.")),
        ("duration", ["type": "number", "minimum": 0, "description": "Seconds to hold. Default 1."])
    ]
    package static let required = ["x", "y"]
    package static let readOnly = false

    package static func request(_ arguments: inout ToolArguments, session: String) throws(RPCError) -> EngineRequest {
        let x = try arguments.number("x"), y = try arguments.number("y")
        let duration = try arguments.optionalNumber("duration") ?? 1
        guard duration >= 0 else { throw ToolArguments.invalid("duration", "must be 0 or more seconds") }
        return EngineRequest(
            method: TouchRequest.method,
            params: ["session": .string(session), "touches": [.number(x), .number(y), .number(duration)]],
            subject: "at \(InputText.point(x, y)) for \(Output.number(duration)) s")
    }

    package static func perform(_ request: EngineRequest, on engine: EngineThread) async -> ToolCall {
        let p = (request.params["touches"]?.arrayValue ?? []).map { $0.doubleValue ?? 0 }
        let (x, y, duration) = (p[0], p[1], p[2])
        let clock: Double
        switch await InputText.clock(engine, session: InputText.session(of: request)) {
        case .success(let c): clock = c
        case .failure(let e): return ToolCall(reply: .failure(e), request: request)
        }
        let point: JSON = [.number(x), .number(y)]
        return await InputText.touch(engine, request, prefix: "hold") { touch in
            let began: JSON = ["touch": touch, "phase": "began", "point": point, "time": .number(clock)]
            let ended: JSON = ["touch": touch, "phase": "ended", "point": point, "time": .number(clock + duration)]
            return [began, ended]
        }
    }

    package static func text(_ reply: JSON, for request: EngineRequest) -> String {
        let touch = request.params["touches"]?.arrayValue?.first?["touch"].map { Describe.id($0) } ?? "?"
        let seq = Describe.seqRange(reply["seqRange"]?.arrayValue?.compactMap(\.intValue))
        return
            (["long press \(request.subject ?? "") as touch \(touch)\(seq):"]
            + InputText.lines(reply, request: request)).joined(separator: "\n")
    }
}
