import ResponderJSON
import ResponderProtocol

/// Indented JSON text, written iteratively so that any depth prints. Indentation stops growing past
/// `maxIndentLevels` (whitespace only: the text stays valid JSON and lines stay short).
package enum PrettyJSON {
    package static let maxIndentLevels = 40

    package static func render(_ root: JSON) -> String {
        enum Work {
            case value(JSON, depth: Int, last: Bool)
            case key(String)
            case close(String, depth: Int, last: Bool)
        }
        var out = ""
        func indent(_ depth: Int) -> String { String(repeating: "  ", count: min(depth, maxIndentLevels)) }
        func quoted(_ s: String) -> String { JSONCodec.encodeString(.string(s)) }
        var work: [Work] = [.value(root, depth: 0, last: true)]
        var pendingKey: String?
        while let item = work.popLast() {
            switch item {
            case .key(let k):
                pendingKey = k
            case .close(let bracket, let depth, let last):
                out += "\n" + indent(depth) + bracket + (last ? "" : ",")
            case .value(let v, let depth, let last):
                if !out.isEmpty { out += "\n" }
                out += indent(depth)
                if let k = pendingKey {
                    out += quoted(k) + ": "
                    pendingKey = nil
                }
                let comma = last ? "" : ","
                switch v {
                case .array(let elements) where !elements.isEmpty && !isShortScalarArray(elements):
                    out += "["
                    work.append(.close("]", depth: depth, last: last))
                    for (i, e) in elements.enumerated().reversed() {
                        work.append(.value(e, depth: depth + 1, last: i == elements.count - 1))
                    }
                case .object(let members) where !members.isEmpty:
                    out += "{"
                    work.append(.close("}", depth: depth, last: last))
                    for (i, m) in members.enumerated().reversed() {
                        work.append(.value(m.value, depth: depth + 1, last: i == members.count - 1))
                        work.append(.key(m.key))
                    }
                case .array(let elements) where !elements.isEmpty:
                    out += "[" + elements.map { JSONCodec.encodeString($0) }.joined(separator: ", ") + "]" + comma
                default:
                    out += JSONCodec.encodeString(v) + comma
                }
            }
        }
        return out
    }

    /// Arrays of a few numbers, booleans or short strings (frames, points) print on one line.
    private static func isShortScalarArray(_ elements: [JSON]) -> Bool {
        guard elements.count <= 8 else { return false }
        var length = 0
        for e in elements {
            switch e {
            case .number, .bool, .null: length += 8
            case .string(let s): length += s.utf8.count + 4
            default: return false
            }
        }
        return length <= 60
    }
}
