import ResponderJSON
import ResponderOutput
import ResponderProtocol

/// `apply_ops` → `tree.apply`.
package enum ApplyOpsTool: MCPTool {
    package static let name = "apply_ops"
    package static let title = "Change the world"
    package static let description = """
        Change the simulated world with a batch of ops, applied atomically: every op or none, and a mistake is an \
        error naming the op and the field (e.g. ops[0].set.hiden) with nothing changed. Ops: \
        {"op": "insert", "parent": <id or null for detached>, "index"?: n, "node": {...}}, \
        {"op": "remove", "id": ...}, {"op": "move", "id": ..., "parent": ..., "index"?: n}, \
        {"op": "update", "id": ..., "set": {<field>: <value or null for the default>}}. A node is {"id", "kind", \
        "children"?, ...fields}: kind is view, control (UIControl: UIButton, UISwitch via "class"), textField, \
        textView, viewController (exactly one root view child), window or appDelegate; fields are UIKit's: class, \
        frame [x, y, w, h] in the superview's bounds, boundsOrigin, transform, hidden, alpha, clipsToBounds, \
        userInteractionEnabled, multipleTouchEnabled, exclusiveTouch, enabled, canBecomeFirstResponder, \
        canResignFirstResponder, handles {"touchesBegan": "handle" | "handle+super", "copy:": "handle", ...}, \
        vetoes [actions], targets [{"event": "touchUpInside", "action": "save:", "target": <id or null>}], \
        gestureRecognizers, key and windowLevel (window), presentedBy (view controller), hitTest {insets, mode, redirect}. The last child is \
        front-most. Everyone watching the session sees the change.
        """
    package static let properties: [(key: String, value: JSON)] = [
        (
            "ops",
            [
                "type": "array", "description": "The ops, applied in order, each seeing the ones before.",
                "items": [
                    "type": "object", "required": ["op"],
                    "properties": ["op": ["type": "string", "enum": ["insert", "remove", "move", "update"]]]
                ]
            ]
        ),
        (
            "ifRevision",
            [
                "type": "integer", "minimum": 0,
                "description":
                    "Apply only if the session is still at this revision (else REVISION_CONFLICT): a guard against other editors."
            ]
        )
    ]
    package static let required = ["ops"]
    package static let readOnly = false

    package static func request(_ arguments: inout ToolArguments, session: String) throws(RPCError) -> EngineRequest {
        guard let ops = arguments.take("ops") else {
            throw ToolArguments.invalid("ops", "is required: an array of ops")
        }
        var params: JSON = ["session": .string(session), "ops": ops]
        if let revision = try arguments.optionalInteger("ifRevision") {
            params = params.setting("ifRevision", JSON(revision))
        }
        return EngineRequest(method: TreeApplyRequest.method, params: params, subject: "\(ops.arrayValue?.count ?? 0)")
    }

    package static func text(_ reply: JSON, for request: EngineRequest) -> String {
        let count = Int(request.subject ?? "") ?? 0
        let session = request.params["session"]?.stringValue ?? "?"
        var text =
            "applied \(count) op\(count == 1 ? "" : "s") to \(session): revision \(Describe.number(reply["revision"]?.intValue))"
        let range = reply["seqRange"]?.arrayValue?.compactMap(\.intValue)
        text += Describe.seqRange(range)
        if let range, range.count == 2, range[1] > range[0] {
            // More than the tree event: a live touch, press or first responder left its window (T6, E2, F6).
            text +=
                "\nthe change disturbed live dispatch state (T6/E2/F6): its treeChange trace and focus events are in responder://\(session)/traces"
        }
        return text
    }
}
