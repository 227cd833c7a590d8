import ResponderJSON
import ResponderProtocol

/// One readable line per session event: `#seq stream (cause client) summary`.
package enum EventFormatter {
    package static func line(_ body: JSON, names: NodeNames = .none) -> String {
        let seq = body["seq"]?.intValue.map(String.init) ?? "?"
        let stream = body["stream"]?.stringValue ?? "?"
        let client = body["cause"]?["client"]?.stringValue ?? "?"
        return "#\(seq) \(stream) (\(client)) \(summary(body, names: names))"
    }

    package static func summary(_ body: JSON, names: NodeNames = .none) -> String {
        switch body["stream"]?.stringValue {
        case "tree": return tree(body, names: names)
        case "trace": return TraceFormatter.summary(trace: body["trace"] ?? .null, names: names)
        case "focus":
            if let change = try? WireDecoder.decode(FocusChange.self, from: body["change"] ?? .null, strict: false) {
                return TraceFormatter.focus(change, names: names)
            }
            fallthrough
        default:
            let header: Set<String> = ["session", "stream", "seq", "revision", "cause"]
            let rest = (body.objectMembers ?? []).filter { !header.contains($0.key) }
            return JSONCodec.encodeString(.object(rest))
        }
    }

    /// `load: 12 nodes` or `apply (3 ops): insert v1 into w1; update v2 hidden, alpha; remove v3`.
    package static func tree(_ body: JSON, names: NodeNames = .none) -> String {
        let revision = body["revision"]?.intValue.map { " → revision \($0)" } ?? ""
        switch body["change"]?.stringValue {
        case "load":
            let nodes = InputFile.countNodes(body["tree"])
            let detached = (body["detached"]?.arrayValue ?? []).reduce(0) { $0 + InputFile.countNodes($1) }
            return "load: \(nodes) node\(nodes == 1 ? "" : "s")" + (detached > 0 ? " + \(detached) detached" : "")
                + revision
        case "apply", "dispatch":  // dispatch (1.6): the fields a dispatch changed, K3–K8
            let ops = body["ops"]?.arrayValue ?? []
            let shown = ops.prefix(5).map { op($0, names: names) }.joined(separator: "; ")
            let more = ops.count > 5 ? "; … \(ops.count - 5) more" : ""
            return
                "\(body["change"]!.stringValue!) (\(ops.count) op\(ops.count == 1 ? "" : "s")): \(shown)\(more)\(revision)"
        case let other:
            return "\(other ?? "change")\(revision)"
        }
    }

    package static func op(_ op: JSON, names: NodeNames = .none) -> String {
        let kind = op["op"]?.stringValue ?? "?"
        let index = op["index"]?.intValue.map { " @\($0)" } ?? ""
        func id(_ value: JSON?) -> String {
            let id = Describe.id(value)
            return id == "-" ? id : names.label(id)
        }
        func parent() -> String { op["parent"].map { $0.isNull ? "detached" : "into \(id($0))" } ?? "" }
        switch kind {
        case "insert":
            let node = op["node"] ?? .null
            let count = InputFile.countNodes(node)
            let extra = count > 1 ? " (+\(count - 1) descendants)" : ""
            return "insert \(id(node)) (\(node["kind"]?.stringValue ?? "?"))\(extra) \(parent())\(index)"
        case "remove": return "remove \(id(op["id"]))"
        case "move": return "move \(id(op["id"])) \(parent())\(index)"
        case "update":
            let fields = (op["set"]?.objectMembers ?? []).map(\.key).joined(separator: ", ")
            return "update \(id(op["id"])) \(fields)"
        default: return kind
        }
    }
}
