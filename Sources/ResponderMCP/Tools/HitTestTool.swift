import ResponderJSON
import ResponderOutput
import ResponderProtocol

/// `hit_test` → `hitTest`.
package enum HitTestTool: MCPTool {
    package static let name = "hit_test"
    package static let title = "Hit-test a point"
    package static let description = """
        Which view would a touch at this screen point go to? Runs UIKit's hitTest(_:with:) on the simulated world: \
        windows by windowLevel (H1), then each view front-most subview first, skipping hidden views, alpha < 0.01, \
        userInteractionEnabled = false, disabled controls and points outside bounds (H2-H7); hitTest overrides \
        (insets, pass-through, redirect) apply (H6). Changes nothing. Returns the hit view and window, the point in \
        the view's bounds, and every view asked with why it was hit, missed or skipped, each citing its rule.
        """
    package static let properties: [(key: String, value: JSON)] = [
        ("x", ToolSchema.number("Screen x, in points (a window's frame is in screen coordinates).")),
        ("y", ToolSchema.number("Screen y, in points."))
    ]
    package static let required = ["x", "y"]
    package static let readOnly = true
    package static let renamedFields = ["point": "x"]

    package static func request(_ arguments: inout ToolArguments, session: String) throws(RPCError) -> EngineRequest {
        let x = try arguments.number("x"), y = try arguments.number("y")
        return EngineRequest(
            method: HitTestRequest.method, params: ["session": .string(session), "point": [.number(x), .number(y)]],
            subject: "(\(Output.number(x)), \(Output.number(y)))")
    }

    package static func text(_ reply: JSON, for request: EngineRequest) -> String {
        guard let hit = typed(HitTestOutcome.self, reply) else { return "hit-tested \(request.subject ?? "")" }
        let names = ToolNames.current
        var lines: [String] = []
        if let view = hit.view {
            lines.append(
                "hit \(names.label(view)) in window \(names.label(hit.window)), at \(Output.point(hit.localPoint)) in its bounds"
            )
        } else {
            lines.append("no view at \(request.subject ?? "that point"): every window passed it over (H1)")
        }
        let asked = hit.visited.map { v in
            var text = "\(names.label(v.id)) \(v.result.rawValue)"
            if let reason = v.reason { text += " (\(reason.rawValue))" }
            if let to = v.to { text += " → \(names.label(to))" }
            return text + " \(v.rule.rawValue)"
        }
        if !asked.isEmpty { lines.append("asked, in order: " + asked.joined(separator: "; ")) }
        return lines.joined(separator: "\n")
    }
}
