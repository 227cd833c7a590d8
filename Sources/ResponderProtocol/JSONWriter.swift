#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Appends JSON text to a byte buffer. Containers are opened and closed explicitly so that a caller
/// can stream a structure of any depth (the world's tree) without building a nested value first.
///
/// Replies and trace events are written here, on every request's path, so each call is a capacity check and
/// stores through a pointer: no `Array.append` per byte, with its uniqueness and capacity check each time, and
/// commas kept in bits, not in a `[Bool]` stack.
///
/// The writer owns its buffer outright (`~Copyable`): every append is a capacity check and a store, with no
/// uniqueness check of a shared array (two per key, with a closure call, would be most of a short write).
public struct JSONWriter: ~Copyable, @unchecked Sendable {
    /// The text is `base[0..<count]`; the rest, up to `capacity`, is room made ahead (never read).
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Where `base` points. A short text (a reply, an event) is written in memory the writer allocated
    /// (`mallocked`) and copied out at the end. A long one (a world: a million views are 424 MB) is written in
    /// the elements of `storage`, handed over by `takeBytes` without a copy — a copy would double the pages it
    /// touches and take a second. That array is never shared (the writer cannot be copied, `bytes` copies, and
    /// `takeBytes` lets it go) and never resized or changed through the array while it is held, so the address
    /// of its elements, taken once when it is made, stays valid until it is replaced.
    private var storage: [UInt8] = []
    private var mallocked: Bool
    /// From this size on, the text is written in an array.
    private static let longText = 1 << 16
    /// Bytes written so far.
    public private(set) var count = 0
    /// Per open container, innermost in bit 0: whether a member has been written (so the next needs a comma).
    /// Containers deeper than 64 keep the outer bits in `spilled`.
    private var commas: UInt64 = 0
    private var depth = 0
    private var spilled: [Bool] = []
    private var afterKey = false

    /// The text is not kept (`handOver`): from `handOverFrom` bytes of room it is written in an array too.
    private let handsOver: Bool
    /// A shorter text is copied out even when it is not kept: an array made for it costs more than the copy.
    private static let handOverFrom = 1 << 10

    /// `handOver`: the text is not kept — a reply, sent and dropped at once, not an event in the replay ring —
    /// so from 1 KB it is handed over as written, in an array with room to spare, rather than copied to one of
    /// its exact size (an allocation and a copy of every byte).
    public init(reservingCapacity capacity: Int = 256, handOver: Bool = false) {
        self.capacity = max(capacity, 16)
        handsOver = handOver
        if Self.inArray(self.capacity, handOver) {
            mallocked = false
            (storage, base) = Self.arrayRoom(self.capacity)
        } else {
            mallocked = true
            base = Self.mallocRoom(self.capacity)
        }
    }

    deinit { if mallocked { free(base) } }

    /// `malloc`, not `allocate`: for bytes `allocate` asks the runtime for the default alignment, which it
    /// serves with `posix_memalign`, twice the instructions of `malloc`, and this is on every reply's path.
    private static func mallocRoom(_ size: Int) -> UnsafeMutablePointer<UInt8> {
        guard let room = malloc(size) else { fatalError("JSONWriter: out of memory for \(size) bytes") }
        return room.assumingMemoryBound(to: UInt8.self)
    }

    /// Whether room of `size` bytes is made in an array (handed over by `takeBytes`) rather than allocated.
    private static func inArray(_ size: Int, _ handOver: Bool) -> Bool {
        size >= longText || (handOver && size >= handOverFrom)
    }

    /// An array of `size` bytes that are never read before they are written (no need to fill them), and the
    /// address of its elements.
    private static func arrayRoom(_ size: Int) -> ([UInt8], UnsafeMutablePointer<UInt8>) {
        var storage = [UInt8](unsafeUninitializedCapacity: size) { _, initialized in initialized = size }
        let base = storage.withUnsafeMutableBufferPointer { $0.baseAddress! }
        return (storage, base)
    }

    /// A copy of the text written so far.
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// The text written so far; the writer is empty afterwards. A long text is handed over without a copy.
    public mutating func takeBytes() -> [UInt8] {
        defer { count = 0 }
        if mallocked { return bytes }
        storage.removeSubrange(count...)
        let text = storage
        // No room until something is written again: `base` is the handed-over array's, but with no capacity
        // every write grows first, and nothing is read below `count`.
        storage = []
        capacity = 0
        return text
    }

    /// The byte at `offset` of the text written so far.
    public func byte(at offset: Int) -> UInt8 {
        precondition(offset < count, "offset past the text written")
        return base[offset]
    }

    @inline(never)
    private mutating func grow(to needed: Int) {
        let larger = max(needed, capacity * 2, 64)
        let moved: UnsafeMutablePointer<UInt8>
        var movedStorage: [UInt8] = []
        let inArray = Self.inArray(larger, handsOver)
        if inArray {
            (movedStorage, moved) = Self.arrayRoom(larger)
        } else {
            moved = Self.mallocRoom(larger)
        }
        if count > 0 { moved.update(from: base, count: count) }
        if mallocked { free(base) }
        mallocked = !inArray
        (storage, base, capacity) = (movedStorage, moved, larger)
    }

    /// Makes room for at most `maximum` bytes and lets `body` write them at the end; it returns how many it wrote.
    @inline(__always)
    private mutating func append(atMost maximum: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        if count &+ maximum > capacity { grow(to: count + maximum) }
        count += body(base + count)
    }

    @inline(__always)
    private mutating func append(_ byte: UInt8) {
        append(atMost: 1) { out in
            out[0] = byte
            return 1
        }
    }

    @inline(__always)
    private mutating func append(_ source: UnsafeRawBufferPointer) {
        guard let base = source.baseAddress, source.count > 0 else { return }
        append(atMost: source.count) { out in
            UnsafeMutableRawPointer(out).copyMemory(from: base, byteCount: source.count)
            return source.count
        }
    }

    @inline(__always)
    private mutating func separate() {
        if afterKey {
            afterKey = false
            return
        }
        guard depth > 0 else { return }
        if commas & 1 != 0 { append(UInt8(ascii: ",")) } else { commas |= 1 }
    }

    @inline(__always)
    private mutating func open(_ bracket: UInt8) {
        separate()
        append(bracket)
        if depth >= 64 { spilled.append(commas >> 63 != 0) }
        commas <<= 1
        depth += 1
    }

    @inline(__always)
    private mutating func close(_ bracket: UInt8) {
        precondition(depth > 0, "closing a container that is not open")
        commas >>= 1
        depth -= 1
        if depth >= 64, spilled.removeLast() { commas |= 1 << 63 }
        append(bracket)
    }

    public mutating func beginObject() { open(UInt8(ascii: "{")) }
    public mutating func endObject() { close(UInt8(ascii: "}")) }
    public mutating func beginArray() { open(UInt8(ascii: "[")) }
    public mutating func endArray() { close(UInt8(ascii: "]")) }

    public mutating func key(_ key: String) {
        separate()
        writeString(key)
        append(UInt8(ascii: ":"))
        afterKey = true
    }
    /// A key known when the program was compiled (no character that needs escaping): its bytes are copied.
    public mutating func key(static key: StaticString) {
        separate()
        let length = key.utf8CodeUnitCount
        let start = key.utf8Start
        append(atMost: length + 3) { out in
            out[0] = UInt8(ascii: "\"")
            Self.copy(start, length, to: out + 1)
            out[length + 1] = UInt8(ascii: "\"")
            out[length + 2] = UInt8(ascii: ":")
            return length + 3
        }
        afterKey = true
    }
    public mutating func string(_ s: String) {
        separate()
        writeString(s)
    }
    /// A string already quoted and escaped (`QuotedCases`), as a value.
    @inline(__always)
    mutating func raw(quoted start: UnsafePointer<UInt8>, _ count: Int) {
        separate()
        append(UnsafeRawBufferPointer(start: start, count: count))
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
        if b { appendStatic("true") } else { appendStatic("false") }
    }
    public mutating func null() {
        separate()
        appendStatic("null")
    }

    @inline(__always)
    private mutating func appendStatic(_ text: StaticString) {
        append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
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
        encoded.withUnsafeBytes { append($0) }
    }

    /// Appends already-encoded members (`"a":1,"b":2`, without braces) to the open object.
    public mutating func rawMembers(_ encoded: ArraySlice<UInt8>) {
        guard !encoded.isEmpty else { return }
        separate()
        encoded.withUnsafeBytes { append($0) }
    }

    /// Appends members this writer has already written (`range` of its text, without braces) to the open
    /// object: a value that appears twice in one document is written once and copied.
    public mutating func copyMembers(_ range: Range<Int>) {
        precondition(range.upperBound <= count, "copying text not written yet")
        guard !range.isEmpty else { return }
        separate()
        let length = range.count
        if count + length > capacity { grow(to: count + length) }
        (base + count).update(from: base + range.lowerBound, count: length)
        count += length
    }

    /// Appends members (`"a":1,"b":2`, without braces) to the open object, written by `body` through a cursor
    /// into room for at most `maximum` bytes: one capacity check for all of them, where each member's key and
    /// value were two (a hit test's visits, a trace's steps).
    @inline(__always)
    public mutating func members(atMost maximum: Int, _ body: (inout JSONCursor) -> Void) {
        separate()
        if count &+ maximum > capacity { grow(to: count + maximum) }
        var cursor = JSONCursor(base + count, room: maximum)
        body(&cursor)
        count += cursor.written
    }

    /// `{`, the members `body` writes through a cursor (at most `maximum` bytes), `}`: one value, with one
    /// capacity check for all of it. Returns where the members are in the text, for a document that repeats them.
    @inline(__always)
    @discardableResult
    public mutating func object(atMost maximum: Int, _ body: (inout JSONCursor) -> Void) -> Range<Int> {
        separate()
        if count &+ maximum &+ 2 > capacity { grow(to: count + maximum + 2) }
        base[count] = UInt8(ascii: "{")
        let start = count + 1
        var cursor = JSONCursor(base + start, room: maximum)
        body(&cursor)
        count = start + cursor.written
        base[count] = UInt8(ascii: "}")
        count += 1
        return start..<(count - 1)
    }

    /// `{`, `prefix` (members ending in a comma), the members already written at `range` of this text, `}`: a
    /// value that repeats members written before, with a member of its own in front (a hit test's steps).
    public mutating func object(prefix: StaticString, copying range: Range<Int>) {
        precondition(range.upperBound <= count && !range.isEmpty, "copying members not written yet")
        separate()
        let length = prefix.utf8CodeUnitCount + range.count + 2
        if count &+ length > capacity { grow(to: count + length) }
        base[count] = UInt8(ascii: "{")
        count += 1 + Self.writeStatic(prefix, at: base + count + 1)
        (base + count).update(from: base + range.lowerBound, count: range.count)
        count += range.count
        base[count] = UInt8(ascii: "}")
        count += 1
    }

    private mutating func writeNumber(_ n: Double) {
        append(atMost: JSONCursor.numberRoom) { Self.writeNumber(n, at: $0) }
    }

    /// `n` as JSON text at `out` (at most `JSONCursor.numberRoom` bytes); returns its length. Integers are
    /// written as decimal digits without going through `String` (the same text as `String(Int64)`).
    static func writeNumber(_ n: Double, at out: UnsafeMutablePointer<UInt8>) -> Int {
        guard n.isFinite else {
            // JSON has no NaN or infinity; the engine never produces them, but do not emit invalid text.
            return writeStatic("null", at: out)
        }
        // `Int64(exactly:)` is a conversion and a compare, where `rounded()` called libm first.
        guard abs(n) < 1e15, let value = Int64(exactly: n) else {
            // The shortest text that reads back as `n`: 24 bytes at most ("-2.2250738585072014e-308").
            var text = n.description
            return text.withUTF8 { utf8 in
                out.update(from: utf8.baseAddress!, count: utf8.count)
                return utf8.count
            }
        }
        var magnitude = value.magnitude
        // Coordinates are mostly below 10,000: their length by comparison, two digits per division by 100 (a
        // division per digit, twice over, would be most of writing a hit visit's point).
        var digits: Int
        if magnitude < 100 {
            digits = magnitude < 10 ? 1 : 2
        } else if magnitude < 10_000 {
            digits = magnitude < 1000 ? 3 : 4
        } else {
            digits = 4
            var probe = magnitude / 10_000
            while probe > 0 {
                digits += 1
                probe /= 10
            }
        }
        let length = digits + (value < 0 ? 1 : 0)
        if value < 0 { out[0] = UInt8(ascii: "-") }
        let pairs = Self.digitPairs.utf8Start
        var i = length
        while magnitude >= 100 {
            let pair = Int(magnitude % 100) * 2
            magnitude /= 100
            i -= 2
            out[i] = pairs[pair]
            out[i + 1] = pairs[pair + 1]
        }
        if magnitude >= 10 {
            out[i - 2] = pairs[Int(magnitude) * 2]
            out[i - 1] = pairs[Int(magnitude) * 2 + 1]
        } else {
            out[i - 1] = UInt8(ascii: "0") + UInt8(magnitude)
        }
        return length
    }

    /// "00" to "99", for writing integers two digits at a time.
    private static let digitPairs: StaticString = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    @inline(__always)
    static func writeStatic(_ text: StaticString, at out: UnsafeMutablePointer<UInt8>) -> Int {
        let length = text.utf8CodeUnitCount
        copy(text.utf8Start, length, to: out)
        return length
    }

    private static let hex: StaticString = "0123456789abcdef"

    /// Runs of bytes that need no escape are copied at once; only `"`, `\` and control bytes are rewritten.
    private mutating func writeString(_ s: String) {
        Self.withUTF8(s) { utf8 in
            let length = utf8.count
            // Ids, names and rule tags need no escape: room for them and the quotes, not for the worst case.
            let clean = length == 0 || Self.isClean(utf8.baseAddress!, length)
            append(atMost: clean ? length + 2 : length * 6 + 2) { Self.writeString(utf8, clean: clean, at: $0) }
        }
    }

    /// A native string's bytes are read where they are; only another kind is copied first.
    @inline(__always)
    static func withUTF8<R>(_ s: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let r = s.utf8.withContiguousStorageIfAvailable(body) { return r }
        var copy = s
        return copy.withUTF8(body)
    }

    /// `utf8` quoted, escaped unless `clean` (then it needs no escape), at `out`: at most `count + 2` bytes when
    /// clean, `count * 6 + 2` (\u00XX per byte) otherwise. Returns the length written.
    @inline(__always)
    static func writeString(_ utf8: UnsafeBufferPointer<UInt8>, clean: Bool, at out: UnsafeMutablePointer<UInt8>) -> Int {
        let length = utf8.count
        out[0] = UInt8(ascii: "\"")
        if clean {
            if length > 0 { copy(utf8.baseAddress!, length, to: out + 1) }
            out[length + 1] = UInt8(ascii: "\"")
            return length + 2
        }
        var n = 1
        var runStart = 0
        for i in 0..<length {
            let b = utf8[i]
            guard b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") else { continue }
            if runStart < i {
                (out + n).update(from: utf8.baseAddress! + runStart, count: i - runStart)
                n += i - runStart
            }
            n += writeEscape(b, to: out + n)
            runStart = i + 1
        }
        if runStart < length {
            (out + n).update(from: utf8.baseAddress! + runStart, count: length - runStart)
            n += length - runStart
        }
        out[n] = UInt8(ascii: "\"")
        return n + 1
    }

    /// Whether no byte of `bytes[0..<n]` needs an escape (`"`, `\`, a control byte), eight bytes at a time:
    /// a byte loop would be a large part of writing a short string, and a trace writes a few hundred of them.
    /// Exact: `hasZero` flags a word only when one of its bytes is zero.
    @inline(__always)
    static func isClean(_ bytes: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        @inline(__always) func hasZero(_ w: UInt64) -> Bool { (w &- 0x0101_0101_0101_0101) & ~w & 0x8080_8080_8080_8080 != 0 }
        // A byte below 0x20 is one whose top three bits are zero (bytes ≥ 0x80 are never flagged).
        @inline(__always) func needsEscape(_ w: UInt64) -> Bool {
            hasZero(w & 0xE0E0_E0E0_E0E0_E0E0) || hasZero(w ^ 0x2222_2222_2222_2222) || hasZero(w ^ 0x5C5C_5C5C_5C5C_5C5C)
        }
        let raw = UnsafeRawPointer(bytes)
        if n >= 8 {
            var i = 0
            while i + 8 <= n {
                if needsEscape(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) { return false }
                i += 8
            }
            // The last eight bytes again, overlapping: no read past the end.
            return i == n || !needsEscape(raw.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self))
        }
        // Fewer than eight: one word of the string's own bytes, two overlapping loads repeated (a byte loop would
        // be most of writing a rule tag or a short id).
        let word: UInt64
        if n >= 4 {
            word = UInt64(raw.loadUnaligned(as: UInt32.self)) | UInt64(raw.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)) << 32
        } else if n >= 2 {
            let half = UInt64(raw.loadUnaligned(as: UInt16.self)) | UInt64(raw.loadUnaligned(fromByteOffset: n - 2, as: UInt16.self)) << 16
            word = half | half << 32
        } else if n == 1 {
            word = UInt64(bytes[0]) &* 0x0101_0101_0101_0101
        } else {
            return true
        }
        return !needsEscape(word)
    }

    /// `memcpy` for the short runs a writer copies (keys, ids, rule tags): eight bytes at a time, the last
    /// eight overlapping, where a call to `memcpy` costs more than copying.
    @inline(__always)
    static func copy(_ source: UnsafePointer<UInt8>, _ n: Int, to out: UnsafeMutablePointer<UInt8>) {
        let from = UnsafeRawPointer(source), to = UnsafeMutableRawPointer(out)
        guard n >= 8, n <= 32 else {
            if n >= 8 {
                out.update(from: source, count: n)
            } else if n >= 4 {
                // Two overlapping halves, as for eight and more.
                let last = from.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)
                to.storeBytes(of: from.loadUnaligned(as: UInt32.self), as: UInt32.self)
                to.storeBytes(of: last, toByteOffset: n - 4, as: UInt32.self)
            } else if n >= 2 {
                let last = from.loadUnaligned(fromByteOffset: n - 2, as: UInt16.self)
                to.storeBytes(of: from.loadUnaligned(as: UInt16.self), as: UInt16.self)
                to.storeBytes(of: last, toByteOffset: n - 2, as: UInt16.self)
            } else if n == 1 {
                out[0] = source[0]
            }
            return
        }
        var i = 0
        while i + 8 <= n {
            to.storeBytes(of: from.loadUnaligned(fromByteOffset: i, as: UInt64.self), toByteOffset: i, as: UInt64.self)
            i += 8
        }
        if i < n { to.storeBytes(of: from.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self), toByteOffset: n - 8, as: UInt64.self) }
    }

    /// Writes the escape of `b` at `out`; returns its length.
    private static func writeEscape(_ b: UInt8, to out: UnsafeMutablePointer<UInt8>) -> Int {
        out[0] = 0x5C
        switch b {
        case UInt8(ascii: "\""): out[1] = 0x22
        case UInt8(ascii: "\\"): out[1] = 0x5C
        case 0x0A: out[1] = UInt8(ascii: "n")
        case 0x0D: out[1] = UInt8(ascii: "r")
        case 0x09: out[1] = UInt8(ascii: "t")
        default:
            out[1] = UInt8(ascii: "u")
            out[2] = UInt8(ascii: "0")
            out[3] = UInt8(ascii: "0")
            out[4] = hex.utf8Start[Int(b >> 4)]
            out[5] = hex.utf8Start[Int(b & 0xF)]
            return 6
        }
        return 2
    }
}
