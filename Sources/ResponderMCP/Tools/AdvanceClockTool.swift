import ResponderClient
import ResponderJSON
import ResponderOutput
import ResponderProtocol

/// `advance_clock` → `clock.advance`.
package enum AdvanceClockTool: MCPTool {
    package static let name = "advance_clock"
    package static let title = "Let time pass"
    package static let description = """
        Move the session's clock forward without a touch (G11), as if the person waited: by seconds, or to a \
        time. The recognizers' deadlines up to the new time fire in time order, each followed by what it \
        causes: a long press held still begins, a double-tap recognizer gives up and the single tap waiting on \
        it (G5) is recognized, touches held back by a recognizer (G8, G9) or a scroll view's delay (K8) are \
        released to their views, and the actions recognizers send are performed. Every session's clock starts \
        at 0. Returns the clock before and after and what fired, with display names and rules; the full trace \
        is the traces resource.
        """
    package static let properties: [(key: String, value: JSON)] = [
        ("by", ["type": "number", "minimum": 0, "description": "Seconds to add to the clock."]),
        ("to", ["type": "number", "minimum": 0, "description": "Instead of by: the new time, not before the clock."])
    ]
    package static let required: [String] = []
    package static let readOnly = false

    package static func request(_ arguments: inout ToolArguments, session: String) throws(RPCError) -> EngineRequest {
        var params: JSON = ["session": .string(session)]
        switch (try arguments.optionalNumber("by"), try arguments.optionalNumber("to")) {
        case (let by?, nil): params = params.setting("by", .number(by))
        case (nil, let to?): params = params.setting("to", .number(to))
        case (nil, nil): throw ToolArguments.invalid("by", "or to is required: seconds")
        case (.some, .some): throw ToolArguments.invalid("to", "cannot be given with by: give one")
        }
        return EngineRequest(method: ClockAdvanceRequest.method, params: params, subject: nil)
    }

    package static func perform(_ request: EngineRequest, on engine: EngineThread) async -> ToolCall {
        ToolCall(reply: await engine.call(request.method, request.sentParams), request: request)
    }

    package static func text(_ reply: JSON, for request: EngineRequest) -> String {
        let from = reply["from"]?.doubleValue.map(Output.number) ?? "?"
        let time = reply["time"]?.doubleValue.map(Output.number) ?? "?"
        let seq = Describe.seqRange(reply["seqRange"]?.arrayValue?.compactMap(\.intValue))
        var lines = InputText.lines(reply, request: request)
        if reply["trace"]?["steps"]?.arrayValue?.isEmpty ?? true { lines.insert("no deadline fell due", at: 0) }
        return (["clock \(from) s → \(time) s\(seq):"] + lines).joined(separator: "\n")
    }
}
