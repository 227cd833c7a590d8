import ResponderJSON
import ResponderProtocol

/// One readable line per session event: `#seq stream (cause client) summary`.
package enum EventFormatter {
    package static func line(_ body: JSON) -> String {
        let seq = body["seq"]?.intValue.map(String.init) ?? "?"
        let stream = body["stream"]?.stringValue ?? "?"
        let client = body["cause"]?["client"]?.stringValue ?? "?"
        return "#\(seq) \(stream) (\(client)) \(summary(body))"
    }

    package static func summary(_ body: JSON) -> String {
        switch body["stream"]?.stringValue {
        case "tree": return tree(body)
        case "trace": return TraceFormatter.summary(trace: body["trace"] ?? .null)
        case "focus":
            if let change = try? WireDecoder.decode(FocusChange.self, from: body["change"] ?? .null, strict: false) {
                return TraceFormatter.focus(change)
            }
            fallthrough
        default:
            let header: Set<String> = ["session", "stream", "seq", "revision", "cause"]
            let rest = (body.objectMembers ?? []).filter { !header.contains($0.key) }
            return JSONCodec.encodeString(.object(rest))
        }
    }

    /// `load: 12 nodes` or `apply (3 ops): insert v1 into w1; update v2 hidden, alpha; remove v3`.
    package static func tree(_ body: JSON) -> String {
        let revision = body["revision"]?.intValue.map { " → revision \($0)" } ?? ""
        switch body["change"]?.stringValue {
        case "load":
            let nodes = InputFile.countNodes(body["tree"])
            let detached = (body["detached"]?.arrayValue ?? []).reduce(0) { $0 + InputFile.countNodes($1) }
            return "load: \(nodes) node\(nodes == 1 ? "" : "s")" + (detached > 0 ? " + \(detached) detached" : "")
                + revision
        case "apply", "dispatch":  // dispatch (1.6): the fields a dispatch changed, K3–K8
            let ops = body["ops"]?.arrayValue ?? []
            let shown = ops.prefix(5).map(op).joined(separator: "; ")
            let more = ops.count > 5 ? "; … \(ops.count - 5) more" : ""
            return
                "\(body["change"]!.stringValue!) (\(ops.count) op\(ops.count == 1 ? "" : "s")): \(shown)\(more)\(revision)"
        case let other:
            return "\(other ?? "change")\(revision)"
        }
    }

    package static func op(_ op: JSON) -> String {
        let kind = op["op"]?.stringValue ?? "?"
        let index = op["index"]?.intValue.map { " @\($0)" } ?? ""
        func parent() -> String { op["parent"].map { $0.isNull ? "detached" : "into \(Describe.id($0))" } ?? "" }
        switch kind {
        case "insert":
            let node = op["node"] ?? .null
            let count = InputFile.countNodes(node)
            let extra = count > 1 ? " (+\(count - 1) descendants)" : ""
            return "insert \(Describe.id(node)) (\(node["kind"]?.stringValue ?? "?"))\(extra) \(parent())\(index)"
        case "remove": return "remove \(Describe.id(op["id"]))"
        case "move": return "move \(Describe.id(op["id"])) \(parent())\(index)"
        case "update":
            let fields = (op["set"]?.objectMembers ?? []).map(\.key).joined(separator: ", ")
            return "update \(Describe.id(op["id"])) \(fields)"
        default: return kind
        }
    }
}
