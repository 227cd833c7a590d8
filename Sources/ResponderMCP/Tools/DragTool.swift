import ResponderClient
import ResponderJSON
import ResponderOutput
import ResponderProtocol

/// `drag` → `event.touch`: one finger from one point to another, began, moved in even steps, ended.
package enum DragTool: MCPTool {
    package static let name = "drag"
    package static let title = "Drag a finger"
    package static let description = """
        Drag one finger from (x1, y1) to (x2, y2), as a person pans or swipes: one UITouch that begins at the \
        first point at the session's clock, moves in steps evenly along the straight line and ends at the second \
        point, its phases spread evenly over duration seconds (G11), all in one event.touch. It is hit-tested \
        once at began (H rules), and the view it began on gets every phase (T2) unless a recognizer takes the \
        touch: pans and swipes recognize as they would in the app (G1-G11), and a scroll view takes the touch \
        once it moves (K8). Returns each phase's delivery (who got it, who handled it, recognizer decisions, \
        actions) with display names and rules; the full trace is the traces resource. The touch is drag-1, or \
        the next drag-N not in use.
        """
    package static let properties: [(key: String, value: JSON)] = [
        ("x1", ToolSchema.number("Screen x where the drag begins.")),
        ("y1", ToolSchema.number("Screen y where the drag begins.")),
        ("x2", ToolSchema.number("Screen x where it ends.")),
        ("y2", ToolSchema.number("Screen y where it ends.")),
        (
            "steps",
            ["type": "integer", "minimum": 1, "description": "Moved phases between began and ended. Default 10."]
        ),
        ("duration", ["type": "number", "minimum": 0, "description": "Seconds from began to ended. Default 0.25."])
    ]
    package static let required = ["x1", "y1", "x2", "y2"]
    package static let readOnly = false

    package static func request(_ arguments: inout ToolArguments, session: String) throws(RPCError) -> EngineRequest {
        let x1 = try arguments.number("x1"), y1 = try arguments.number("y1")
        let x2 = try arguments.number("x2"), y2 = try arguments.number("y2")
        let steps = try arguments.optionalInteger("steps") ?? 10
        guard steps >= 1 else { throw ToolArguments.invalid("steps", "must be at least 1") }
        let duration = try arguments.optionalNumber("duration") ?? 0.25
        guard duration >= 0 else { throw ToolArguments.invalid("duration", "must be 0 or more seconds") }
        // The path rides in the params until perform knows the clock and a free touch id.
        let path: JSON = [
            .number(x1), .number(y1), .number(x2), .number(y2), JSON(steps), .number(duration)
        ]
        return EngineRequest(
            method: TouchRequest.method, params: ["session": .string(session), "touches": path],
            subject: "\(InputText.point(x1, y1)) → \(InputText.point(x2, y2)) over \(Output.number(duration)) s")
    }

    package static func perform(_ request: EngineRequest, on engine: EngineThread) async -> ToolCall {
        let p = (request.params["touches"]?.arrayValue ?? []).map { $0.doubleValue ?? 0 }
        let (x1, y1, x2, y2, steps, duration) = (p[0], p[1], p[2], p[3], Int(p[4]), p[5])
        let clock: Double
        switch await InputText.clock(engine, session: InputText.session(of: request)) {
        case .success(let c): clock = c
        case .failure(let e): return ToolCall(reply: .failure(e), request: request)
        }
        return await InputText.touch(engine, request, prefix: "drag") { touch in
            var entries: [JSON] = [
                ["touch": touch, "phase": "began", "point": [.number(x1), .number(y1)], "time": .number(clock)]
            ]
            for k in 1...steps {
                let f = Double(k) / Double(steps)
                entries.append([
                    "touch": touch, "phase": "moved",
                    "point": [.number(x1 + (x2 - x1) * f), .number(y1 + (y2 - y1) * f)],
                    "time": .number(clock + duration * f)
                ])
            }
            entries.append([
                "touch": touch, "phase": "ended", "point": [.number(x2), .number(y2)],
                "time": .number(clock + duration)
            ])
            return .array(entries)
        }
    }

    package static func text(_ reply: JSON, for request: EngineRequest) -> String {
        let touch = request.params["touches"]?.arrayValue?.first?["touch"].map { Describe.id($0) } ?? "?"
        let seq = Describe.seqRange(reply["seqRange"]?.arrayValue?.compactMap(\.intValue))
        return (["drag \(request.subject ?? "") as touch \(touch)\(seq):"] + InputText.lines(reply, request: request))
            .joined(separator: "\n")
    }
}
