import MCP
import ResponderJSON
import ResponderProtocol

/// Conversions between the engine's `JSON` and the MCP SDK's `Value`.
package enum ValueBridge {
    /// Deepest nesting put into structured content. The SDK writes `Value`s recursively, and common JSON
    /// readers refuse or overflow beyond a few hundred levels (Foundation's decoder stops at 512), so a reply
    /// deeper than this (a world nested hundreds of views deep) is cut, and the text says where to read it whole.
    package static let maxDepth = 400

    /// `value` as a Value; members nested deeper than `maxDepth` are replaced by a note. Iterative: a reply
    /// can nest as deep as the world.
    package static func value(_ json: JSON) -> (value: Value, truncated: Bool) {
        // Post-order build: a container is a frame until its last member is done, then a member of its parent.
        // Frames are objects so that appending to the top one never copies its members.
        final class Frame {
            let isObject: Bool
            let key: String?
            var pending: [(key: String?, json: JSON)]
            var keys: [String] = []
            var values: [Value] = []
            init(isObject: Bool, key: String?, pending: [(key: String?, json: JSON)]) {
                self.isObject = isObject
                self.key = key
                self.pending = pending
            }
        }
        var truncated = false
        var stack: [Frame] = []
        var result: Value = .null

        func finish(_ value: Value, key: String?) {
            guard let top = stack.last else { result = value; return }
            top.keys.append(key ?? "")
            top.values.append(value)
        }

        func open(_ json: JSON, key: String?) {
            if stack.count >= maxDepth, json.arrayValue != nil || json.objectMembers != nil {
                truncated = true
                finish(.string("(nested deeper than \(maxDepth) levels: not shown here)"), key: key)
                return
            }
            switch json {
            case .null: finish(.null, key: key)
            case .bool(let b): finish(.bool(b), key: key)
            case .string(let s): finish(.string(s), key: key)
            case .number(let n):
                if let i = json.intValue { finish(.int(i), key: key) } else { finish(.double(n), key: key) }
            case .array(let items):
                stack.append(Frame(isObject: false, key: key, pending: items.reversed().map { (nil, $0) }))
            case .object(let members):
                stack.append(Frame(isObject: true, key: key, pending: members.reversed().map { ($0.key, $0.value) }))
            }
        }

        open(json, key: nil)
        while let top = stack.last {
            if let next = top.pending.popLast() {
                open(next.json, key: next.key)
                continue
            }
            stack.removeLast()
            let value: Value =
                top.isObject
                ? .object(Dictionary(zip(top.keys, top.values), uniquingKeysWith: { _, last in last }))
                : .array(top.values)
            finish(value, key: top.key)
        }
        return (result, truncated)
    }

    /// A tool's arguments as JSON. The SDK has already decoded them (recursively, so they are shallow enough
    /// to convert recursively here). A string the SDK read as a data URL goes back to being that string.
    package static func json(_ value: Value) -> JSON {
        switch value {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .number(Double(i))
        case .double(let d): return .number(d)
        case .string(let s): return .string(s)
        case .data(let mimeType, let data): return .string(data.dataURLEncoded(mimeType: mimeType))
        case .array(let items): return .array(items.map(json))
        case .object(let members): return .object(members.sorted { $0.key < $1.key }.map { ($0.key, json($0.value)) })
        }
    }
}
