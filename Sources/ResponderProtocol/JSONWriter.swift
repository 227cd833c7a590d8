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
    /// A key known when the program was compiled (no character that needs escaping): its bytes are copied.
    public mutating func key(static key: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        afterKey = true
    }
    public mutating func string(_ s: String) {
        separate()
        writeString(s)
    }
    /// `encodeIfPresent`'s nil on the wire is null.
    public mutating func string(orNull s: String?) {
        if let s { string(s) } else { null() }
    }
    public mutating func number(_ n: Double) {
        separate()
        writeNumber(n)
    }
    public mutating func bool(_ b: Bool) {
        separate()
        bytes.append(contentsOf: b ? Self.trueBytes : Self.falseBytes)
    }
    public mutating func null() {
        separate()
        bytes.append(contentsOf: Self.nullBytes)
    }

    private static let trueBytes: [UInt8] = Array("true".utf8)
    private static let falseBytes: [UInt8] = Array("false".utf8)
    private static let nullBytes: [UInt8] = Array("null".utf8)

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

    /// Appends already-encoded members (`"a":1,"b":2`, without braces) to the open object.
    public mutating func rawMembers(_ encoded: ArraySlice<UInt8>) {
        guard !encoded.isEmpty else { return }
        separate()
        bytes.append(contentsOf: encoded)
    }

    private mutating func writeNumber(_ n: Double) {
        guard n.isFinite else {
            // JSON has no NaN or infinity; the engine never produces them, but do not emit invalid text.
            bytes.append(contentsOf: Self.nullBytes)
            return
        }
        if n.rounded() == n && abs(n) < 1e15 {
            writeInteger(Int64(n))
        } else {
            bytes.append(contentsOf: n.description.utf8)
        }
    }

    /// Decimal digits without going through `String` (the same text as `String(Int64)`).
    private mutating func writeInteger(_ value: Int64) {
        if value >= 0 && value < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var magnitude = value.magnitude
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            while magnitude > 0 {
                count += 1
                buffer[24 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            }
            if value < 0 {
                count += 1
                buffer[24 - count] = UInt8(ascii: "-")
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[(24 - count)...]))
        }
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// Runs of bytes that need no escape are copied at once; only `"`, `\` and control bytes are rewritten.
    private mutating func writeString(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { utf8 in
            var runStart = 0
            for (i, b) in utf8.enumerated() where b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") {
                if runStart < i { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i])) }
                writeEscape(b)
                runStart = i + 1
            }
            if runStart < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func writeEscape(_ b: UInt8) {
        switch b {
        case UInt8(ascii: "\""): bytes.append(0x5C); bytes.append(0x22)
        case UInt8(ascii: "\\"): bytes.append(0x5C); bytes.append(0x5C)
        case 0x0A: bytes.append(0x5C); bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(0x5C); bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(0x5C); bytes.append(UInt8(ascii: "t"))
        default:
            bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
            bytes.append(Self.hex[Int(b >> 4)])
            bytes.append(Self.hex[Int(b & 0xF)])
        }
    }
}
