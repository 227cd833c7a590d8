/// Appends JSON text to a byte buffer. Containers are opened and closed explicitly so that a caller
/// can stream a structure of any depth (the world's tree) without building a nested value first.
public struct JSONWriter: Sendable {
    public private(set) var bytes: [UInt8] = []
    /// Per open container: whether a member has been written (so the next needs a comma).
    private var needsComma: [Bool] = []
    private var afterKey = false

    public init(reservingCapacity capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    private mutating func separate() {
        if afterKey {
            afterKey = false
            return
        }
        if let last = needsComma.last {
            if last { bytes.append(UInt8(ascii: ",")) }
            needsComma[needsComma.count - 1] = true
        }
    }

    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma.append(false)
    }
    public mutating func endObject() {
        needsComma.removeLast()
        bytes.append(UInt8(ascii: "}"))
    }
    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma.append(false)
    }
    public mutating func endArray() {
        needsComma.removeLast()
        bytes.append(UInt8(ascii: "]"))
    }
    public mutating func key(_ key: String) {
        separate()
        writeString(key)
        bytes.append(UInt8(ascii: ":"))
        afterKey = true
    }
    public mutating func string(_ s: String) {
        separate()
        writeString(s)
    }
    public mutating func number(_ n: Double) {
        separate()
        writeNumber(n)
    }
    public mutating func bool(_ b: Bool) {
        separate()
        bytes.append(contentsOf: b ? Array("true".utf8) : Array("false".utf8))
    }
    public mutating func null() {
        separate()
        bytes.append(contentsOf: Array("null".utf8))
    }

    /// Writes a whole value, iteratively.
    public mutating func value(_ root: JSON) {
        enum Work {
            case value(JSON)
            case key(String)
            case endObject
            case endArray
        }
        var work: [Work] = [.value(root)]
        while let item = work.popLast() {
            switch item {
            case .key(let k): key(k)
            case .endObject: endObject()
            case .endArray: endArray()
            case .value(let v):
                switch v {
                case .null: null()
                case .bool(let b): bool(b)
                case .number(let n): number(n)
                case .string(let s): string(s)
                case .array(let elements):
                    beginArray()
                    work.append(.endArray)
                    for e in elements.reversed() { work.append(.value(e)) }
                case .object(let members):
                    beginObject()
                    work.append(.endObject)
                    for m in members.reversed() {
                        work.append(.value(m.value))
                        work.append(.key(m.key))
                    }
                }
            }
        }
    }

    /// Appends already-encoded JSON text as one value (used to embed a pre-serialized tree).
    public mutating func raw(_ encoded: [UInt8]) {
        separate()
        bytes.append(contentsOf: encoded)
    }

    private mutating func writeNumber(_ n: Double) {
        guard n.isFinite else {
            // JSON has no NaN or infinity; the engine never produces them, but do not emit invalid text.
            bytes.append(contentsOf: Array("null".utf8))
            return
        }
        if n.rounded() == n && abs(n) < 1e15 {
            bytes.append(contentsOf: Array(String(Int64(n)).utf8))
        } else {
            bytes.append(contentsOf: Array("\(n)".utf8))
        }
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    private mutating func writeString(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""): bytes.append(0x5C); bytes.append(0x22)
            case UInt8(ascii: "\\"): bytes.append(0x5C); bytes.append(0x5C)
            case 0x0A: bytes.append(0x5C); bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(0x5C); bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(0x5C); bytes.append(UInt8(ascii: "t"))
            case 0..<0x20:
                bytes.append(contentsOf: Array("\\u00".utf8))
                bytes.append(Self.hex[Int(b >> 4)])
                bytes.append(Self.hex[Int(b & 0xF)])
            default: bytes.append(b)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
