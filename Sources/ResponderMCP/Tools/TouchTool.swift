import ResponderClient
import ResponderJSON
import ResponderOutput
import ResponderProtocol

/// `touch` → `event.touch`: the phases of one or more fingers, as given.
package enum TouchTool: MCPTool {
    package static let name = "touch"
    package static let title = "Touch phases"
    package static let description = """
        Send touch phases exactly as given, for what tap, drag and long_press do not cover: several fingers, a \
        touch that stays down between calls, a cancelled touch. touches is a list of {touch, phase, point?, \
        time?}: touch an id you choose (a string or an integer), phase began, moved, stationary, ended or \
        cancelled, point the screen point (required at began; later phases keep the last one), time seconds on \
        the session's clock (default: its time; deadlines before it fire first, G11). A touch is hit-tested once \
        at began (H rules) and its phases go to that view and up the responder chain (T2), to a control that \
        takes it over (T3) and to the recognizers first (G1-G11). A touch left down stays live for a later call \
        (TOUCH_IN_USE if it is begun again). Returns each entry's delivery with display names and rules; the \
        full trace is the traces resource.
        """
    package static let properties: [(key: String, value: JSON)] = [
        (
            "touches",
            [
                "type": "array", "minItems": 1,
                "items": [
                    "type": "object",
                    "properties": [
                        "touch": ["type": ["string", "integer"], "description": "The touch id, chosen by you."],
                        "phase": [
                            "type": "string", "enum": ["began", "moved", "stationary", "ended", "cancelled"]
                        ],
                        "point": [
                            "type": "array", "items": ["type": "number"], "minItems": 2, "maxItems": 2,
                            "description": "[x, y] on the screen."
                        ],
                        "time": ["type": "number", "minimum": 0, "description": "Seconds on the session's clock."]
                    ],
                    "required": ["touch", "phase"]
                ],
                "description": "The entries, carried out in order."
            ]
        ),
        ("tapCount", ["type": "integer", "minimum": 1, "description": "The touches' tap count. Default 1."])
    ]
    package static let required = ["touches"]
    package static let readOnly = false

    package static func request(_ arguments: inout ToolArguments, session: String) throws(RPCError) -> EngineRequest {
        guard let touches = arguments.take("touches") else {
            throw ToolArguments.invalid("touches", "is required: a list of {touch, phase, point?, time?}")
        }
        var params: JSON = ["session": .string(session), "touches": touches]
        if let count = try arguments.optionalInteger("tapCount") { params = params.setting("tapCount", JSON(count)) }
        return EngineRequest(method: TouchRequest.method, params: params, subject: nil)
    }

    package static func perform(_ request: EngineRequest, on engine: EngineThread) async -> ToolCall {
        ToolCall(reply: await engine.call(request.method, request.sentParams), request: request)
    }

    package static func text(_ reply: JSON, for request: EngineRequest) -> String {
        let count = request.params["touches"]?.arrayValue?.count ?? 0
        let seq = Describe.seqRange(reply["seqRange"]?.arrayValue?.compactMap(\.intValue))
        return (["touch: \(count) entr\(count == 1 ? "y" : "ies")\(seq):"] + InputText.lines(reply, request: request))
            .joined(separator: "\n")
    }
}
