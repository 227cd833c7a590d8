/// JSON values inside Codable protocol types (a trace's `change` step carries a field's old and new value).
extension JSON: Codable {
    private struct MemberKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var c = encoder.singleValueContainer()
            try c.encodeNil()
        case .bool(let b):
            var c = encoder.singleValueContainer()
            try c.encode(b)
        case .number(let n):
            var c = encoder.singleValueContainer()
            try c.encode(n)
        case .string(let s):
            var c = encoder.singleValueContainer()
            try c.encode(s)
        case .array(let a):
            var c = encoder.unkeyedContainer()
            for v in a { try c.encode(v) }
        case .object(let members):
            var c = encoder.container(keyedBy: MemberKey.self)
            for (k, v) in members { try c.encode(v, forKey: MemberKey(stringValue: k)) }
        }
    }

    public init(from decoder: any Decoder) throws {
        if let c = try? decoder.container(keyedBy: MemberKey.self) {
            self = .object(try c.allKeys.map { ($0.stringValue, try c.decode(JSON.self, forKey: $0)) })
        } else if var c = try? decoder.unkeyedContainer() {
            var out: [JSON] = []
            while !c.isAtEnd { out.append(try c.decode(JSON.self)) }
            self = .array(out)
        } else {
            let c = try decoder.singleValueContainer()
            if c.decodeNil() {
                self = .null
            } else if let b = try? c.decode(Bool.self) {
                self = .bool(b)
            } else if let n = try? c.decode(Double.self) {
                self = .number(n)
            } else {
                self = .string(try c.decode(String.self))
            }
        }
    }
}
