import ResponderClient
import ResponderJSON
import ResponderOutput
import ResponderProtocol

/// `compare`: the same tap or drag on one tree under the `uikit` and the `android` profile, side by side, as
/// `responder compare` prints it. Runs on two scratch sessions made from the tree and deleted afterwards.
package enum CompareTool: MCPTool {
    package static let name = "compare"
    package static let title = "Compare UIKit and Android dispatch"
    package static let description = """
        Run the same input on one tree under UIKit's dispatch and under Android's View system and say where they \
        part: "this works on iOS, why not on Android?". The tree is the session's (or world, an application node \
        or {"tree": ..., "detached"?: [...]}, as load_world takes it); two scratch sessions are made from it, \
        profile uikit and profile android, both get the same tap (x, y) or drag (x1, y1, x2, y2, steps?, \
        duration?), and are deleted again; the session itself is not changed. Returns a table with a row per \
        input (began/DOWN, moved/MOVE, ended/UP) in two columns, uikit | android: who got it and who handled it, \
        control events (uikit), actions and clicks, cancels, unhandled; the first row that differs is marked ≠ \
        and named. Then one line per model cites the deciding rules: UIKit's hit view and the views hit-testing \
        passed over (H rules: alpha, userInteractionEnabled, disabled controls), Android's candidates and \
        handlers (AD5: alpha, enabled and clickable of a parent are not tested; AC4: a clickable view consumes; \
        AI rules: intercepts; AX1: click listeners). The structured content is both replies and firstDifference \
        (the row index, or null).
        """
    package static let properties: [(key: String, value: JSON)] = [
        (
            "world",
            [
                "type": "object",
                "description":
                    "The tree to compare on instead of the session's: the application node, or {\"tree\": ..., \"detached\"?: [...]}."
            ]
        ),
        ("x", ToolSchema.number("Tap: screen x, in points (with y).")),
        ("y", ToolSchema.number("Tap: screen y, in points (with x).")),
        ("x1", ToolSchema.number("Drag: screen x where it begins.")),
        ("y1", ToolSchema.number("Drag: screen y where it begins.")),
        ("x2", ToolSchema.number("Drag: screen x where it ends.")),
        ("y2", ToolSchema.number("Drag: screen y where it ends.")),
        (
            "steps",
            ["type": "integer", "minimum": 1, "description": "Drag: moved phases between began and ended. Default 10."]
        ),
        (
            "duration",
            ["type": "number", "minimum": 0, "description": "Drag: seconds from began to ended. Default 0.25."]
        )
    ]
    package static let required: [String] = []
    package static let readOnly = false

    package static func request(_ arguments: inout ToolArguments, session: String) throws(RPCError) -> EngineRequest {
        let world = arguments.take("world")
        if let world, world.objectMembers == nil { throw ToolArguments.invalid("world", "must be an object") }
        let tap = try arguments.optionalPoint("x", "y")
        let from = try arguments.optionalPoint("x1", "y1")
        let to = try arguments.optionalPoint("x2", "y2")
        let steps = try arguments.optionalInteger("steps") ?? 10
        guard steps >= 1 else { throw ToolArguments.invalid("steps", "must be at least 1") }
        let duration = try arguments.optionalNumber("duration") ?? 0.25
        guard duration >= 0 else { throw ToolArguments.invalid("duration", "must be 0 or more seconds") }
        let input: (method: String, key: String, value: JSON)
        let subject: String
        switch (tap, from, to) {
        case (let p?, nil, nil):
            input = (TapRequest.method, "point", [.number(p.x), .number(p.y)])
            subject = "tap at \(InputText.point(p.x, p.y))"
        case (nil, let a?, let b?):
            input = (
                TouchRequest.method, "touches",
                ProfileComparison.drag(touch: "drag-1", from: a, to: b, steps: steps, duration: duration)
            )
            subject =
                "drag \(InputText.point(a.x, a.y)) → \(InputText.point(b.x, b.y)) over \(Output.number(duration)) s"
        case (nil, nil, nil):
            throw ToolArguments.invalid("x", "and y (a tap), or x1, y1, x2 and y2 (a drag), are required")
        case (.some, _, _): throw ToolArguments.invalid("x1", "cannot be given with x and y: give a tap or a drag")
        default: throw ToolArguments.invalid(from == nil ? "x1" : "x2", "a drag needs x1, y1, x2 and y2")
        }
        var params: JSON = [
            "session": .string(session), "method": .string(input.method), input.key: input.value
        ]
        if let world { params = params.setting("world", world) }
        return EngineRequest(method: "compare", params: params, subject: subject)
    }

    package static func perform(_ request: EngineRequest, on engine: EngineThread) async -> ToolCall {
        var sent = request
        var tree: JSON
        var detached: JSON?
        if let world = request.params["world"] {
            tree = world["tree"] ?? world
            detached = world["tree"] != nil ? world["detached"] : nil
        } else {
            switch await engine.call(TreeGetRequest.method, ["session": .string(InputText.session(of: request))]) {
            case .success(let reply): tree = reply["tree"] ?? .null
            case .failure(let e): return ToolCall(reply: .failure(e), request: request)
            }
        }
        sent.params = sent.params.setting("tree", tree)
        let method = request.params["method"]?.stringValue ?? TapRequest.method
        let input = request.params["point"].map { ("point", $0) } ?? ("touches", request.params["touches"] ?? .null)
        var replies: [JSON] = []
        for profile in ProfileComparison.profiles {
            let name = ProfileComparison.scratchSession(profile)
            let create = ProfileComparison.createParams(name, profile: profile, tree: tree, detached: detached)
            if case .failure(let e) = await engine.call(SessionCreateRequest.method, create) {
                return ToolCall(reply: .failure(e), request: sent)
            }
            let reply = await engine.call(method, .object([("session", .string(name)), input]))
            // The scratch session goes whatever the input came to.
            _ = await engine.call(SessionDeleteRequest.method, ["session": .string(name)])
            switch reply {
            case .success(let r): replies.append(r)
            case .failure(let e): return ToolCall(reply: .failure(e), request: sent)
            }
        }
        let names = NodeNames(trees: [tree] + (detached?.arrayValue ?? []))
        let comparison = ProfileComparison(uikit: replies[0], android: replies[1], names: names)
        return ToolCall(
            reply: .success(
                ProfileComparison.json(
                    uikit: replies[0], android: replies[1], firstDifference: comparison.firstDifference)),
            request: sent)
    }

    package static func text(_ reply: JSON, for request: EngineRequest) -> String {
        let names = NodeNames(trees: [request.params["tree"] ?? .null])
        let comparison = ProfileComparison(
            uikit: reply["uikit"] ?? .null, android: reply["android"] ?? .null, names: names)
        return (["\(request.subject ?? "compare"), uikit | android:"] + comparison.lines()).joined(separator: "\n")
    }
}
