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
/// The writer owns its buffer outright (`~Copyable`): one `malloc` allocation, freed by `deinit` and moved by
/// `grow`, never shared — the writer cannot be copied, and `bytes` and `takeBytes` copy the text out. So
/// every write is a capacity check and a store, with no uniqueness check of a shared array.
public struct JSONWriter: ~Copyable, @unchecked Sendable {
    // Sendable: the allocation is reachable only through this writer, which cannot be copied.

    /// The text is `base[0..<written]`; the rest, up to `capacity`, is room made ahead (never read before it
    /// is written). Invariant: `base` is this writer's own `malloc` allocation of `capacity` (≥ 16) bytes — or,
    /// once the text is handed over (`handOver`), `capacity` is 0 and `base` is not the writer's: never read or
    /// freed, and the next write makes a new allocation.
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var capacity: Int
    @usableFromInline var written = 0
    /// Per open container, innermost in bit 0: whether a member has been written (so the next needs a comma).
    /// Containers deeper than 64 keep the outer bits in `spilled`.
    @usableFromInline var commas: UInt64 = 0
    @usableFromInline var depth = 0
    @usableFromInline var spilled: [Bool] = []
    @usableFromInline var afterKey = false

    /// A writer whose buffer `takeBytes` leaves larger than this gives it back and starts small again (a world's
    /// text can be hundreds of megabytes).
    @usableFromInline static var keptAfterTake: Int { 1 << 16 }

    /// Bytes written so far.
    @inlinable public var count: Int { written }

    public init(reservingCapacity capacity: Int = 256) {
        self.capacity = max(capacity, 16)
        base = Self.mallocRoom(self.capacity)
    }

    deinit { if capacity > 0 { free(base) } }

    /// `malloc`, not `allocate`: for bytes `allocate` asks the runtime for the default alignment, which it
    /// serves with `posix_memalign`, twice the instructions of `malloc`, and this is on every reply's path.
    @usableFromInline
    static func mallocRoom(_ size: Int) -> UnsafeMutablePointer<UInt8> {
        guard let room = malloc(size) else { fatalError("JSONWriter: out of memory for \(size) bytes") }
        return room.bindMemory(to: UInt8.self, capacity: size)
    }

    /// A copy of the text written so far.
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: written)) }

    /// The text written so far; the writer is empty afterwards.
    public mutating func takeBytes() -> [UInt8] {
        let text = bytes
        written = 0
        if capacity > Self.keptAfterTake {
            free(base)
            capacity = 256
            base = Self.mallocRoom(capacity)
        }
        return text
    }

    /// The byte at `offset` of the text written so far.
    public func byte(at offset: Int) -> UInt8 {
        precondition(offset < written, "offset past the text written")
        return base[offset]
    }

    /// Moves the text to an allocation of at least `needed` bytes (doubling, so appends stay amortised O(1)).
    @inline(never) @usableFromInline
    mutating func grow(to needed: Int) {
        let larger = max(needed, capacity * 2, 64)
        guard let moved = capacity == 0 ? malloc(larger) : realloc(base, larger) else {
            fatalError("JSONWriter: out of memory for \(larger) bytes")
        }
        base = moved.bindMemory(to: UInt8.self, capacity: larger)
        capacity = larger
    }

    /// Makes room for at most `maximum` bytes and lets `body` write them at the end; it returns how many it wrote.
    /// Invariant: after the capacity check `base + written ..< base + written + maximum` lies in the allocation,
    /// and `body` writes no more than `maximum` bytes there.
    @inline(__always)
    @inlinable mutating func append(atMost maximum: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        if written &+ maximum > capacity { grow(to: written + maximum) }
        written += body(base + written)
    }

    @inline(__always)
    @inlinable mutating func append(_ byte: UInt8) {
        append(atMost: 1) { out in
            out[0] = byte
            return 1
        }
    }

    @inline(__always)
    @inlinable mutating func append(_ source: UnsafeRawBufferPointer) {
        guard let base = source.baseAddress, source.count > 0 else { return }
        append(atMost: source.count) { out in
            UnsafeMutableRawPointer(out).copyMemory(from: base, byteCount: source.count)
            return source.count
        }
    }

    @inline(__always)
    @inlinable mutating func separate() {
        if afterKey {
            afterKey = false
            return
        }
        guard depth > 0 else { return }
        if commas & 1 != 0 { append(UInt8(ascii: ",")) } else { commas |= 1 }
    }

    @inline(__always)
    @inlinable mutating func open(_ bracket: UInt8) {
        separate()
        append(bracket)
        if depth >= 64 { spilled.append(commas >> 63 != 0) }
        commas <<= 1
        depth += 1
    }

    @inline(__always)
    @inlinable mutating func close(_ bracket: UInt8) {
        precondition(depth > 0, "closing a container that is not open")
        commas >>= 1
        depth -= 1
        if depth >= 64, spilled.removeLast() { commas |= 1 << 63 }
        append(bracket)
    }

    @inlinable public mutating func beginObject() { open(UInt8(ascii: "{")) }
    @inlinable public mutating func endObject() { close(UInt8(ascii: "}")) }
    @inlinable public mutating func beginArray() { open(UInt8(ascii: "[")) }
    @inlinable public mutating func endArray() { close(UInt8(ascii: "]")) }

    @inlinable public mutating func key(_ key: String) {
        separate()
        writeString(key)
        append(UInt8(ascii: ":"))
        afterKey = true
    }
    /// A key known when the program was compiled (no character that needs escaping): its bytes are copied.
    @inlinable public mutating func key(static key: StaticString) {
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
    @inlinable public mutating func string(_ s: String) {
        separate()
        writeString(s)
    }
    /// A string already quoted and escaped (`QuotedCases`), as a value.
    @inline(__always)
    @inlinable package mutating func raw(quoted start: UnsafePointer<UInt8>, _ count: Int) {
        separate()
        append(UnsafeRawBufferPointer(start: start, count: count))
    }
    /// `encodeIfPresent`'s nil on the wire is null.
    @inlinable public mutating func string(orNull s: String?) {
        if let s { string(s) } else { null() }
    }
    @inlinable public mutating func number(_ n: Double) {
        separate()
        writeNumber(n)
    }
    @inlinable public mutating func bool(_ b: Bool) {
        separate()
        if b { appendStatic("true") } else { appendStatic("false") }
    }
    @inlinable public mutating func null() {
        separate()
        appendStatic("null")
    }

    @inline(__always)
    @inlinable mutating func appendStatic(_ text: StaticString) {
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
    @inlinable public mutating func raw(_ encoded: [UInt8]) {
        separate()
        encoded.withUnsafeBytes { append($0) }
    }

    /// Appends already-encoded members (`"a":1,"b":2`, without braces) to the open object.
    @inlinable public mutating func rawMembers(_ encoded: ArraySlice<UInt8>) {
        encoded.withUnsafeBytes { rawMembers($0) }
    }

    /// `rawMembers` of bytes held elsewhere.
    @inlinable public mutating func rawMembers(_ encoded: UnsafeRawBufferPointer) {
        guard !encoded.isEmpty else { return }
        separate()
        append(encoded)
    }

    /// Appends members known when the program was compiled (`"step":"check"`, without braces) to the open
    /// object: one capacity check and one copy where a key and a value were two of each.
    @inlinable public mutating func members(static text: StaticString) {
        separate()
        appendStatic(text)
    }

    /// Appends members this writer has already written (`range` of its text, without braces) to the open
    /// object: a value that appears twice in one document is written once and copied.
    @inlinable public mutating func copyMembers(_ range: Range<Int>) {
        // The source is written text (`range` ends at or before `written`) and the destination the room after it,
        // made by `grow` before either address is taken: the two never overlap and both lie in the allocation.
        precondition(range.upperBound <= written, "copying text not written yet")
        guard !range.isEmpty else { return }
        separate()
        let length = range.count
        if written + length > capacity { grow(to: written + length) }
        (base + written).update(from: base + range.lowerBound, count: length)
        written += length
    }

    /// Appends members (`"a":1,"b":2`, without braces) to the open object, written by `body` through a cursor
    /// into room for at most `maximum` bytes: one capacity check for all of them, where each member's key and
    /// value were two (a hit test's visits, a trace's steps).
    @inline(__always)
    @inlinable public mutating func members(atMost maximum: Int, _ body: (inout JSONCursor) -> Void) {
        separate()
        if written &+ maximum > capacity { grow(to: written + maximum) }
        var cursor = JSONCursor(base + written, room: maximum)
        body(&cursor)
        written += cursor.written
    }

    /// `{`, the members `body` writes through a cursor (at most `maximum` bytes), `}`: one value, with one
    /// capacity check for all of it. Returns where the members are in the text, for a document that repeats them.
    @inline(__always)
    @discardableResult
    @inlinable public mutating func object(atMost maximum: Int, _ body: (inout JSONCursor) -> Void) -> Range<Int> {
        separate()
        if written &+ maximum &+ 2 > capacity { grow(to: written + maximum + 2) }
        base[written] = UInt8(ascii: "{")
        let start = written + 1
        var cursor = JSONCursor(base + start, room: maximum)
        body(&cursor)
        written = start + cursor.written
        base[written] = UInt8(ascii: "}")
        written += 1
        return start..<(written - 1)
    }

    /// `{`, `prefix` (members ending in a comma), the members already written at `range` of this text, `}`: a
    /// value that repeats members written before, with a member of its own in front (a hit test's steps).
    @inlinable public mutating func object(prefix: StaticString, copying range: Range<Int>) {
        // As in `copyMembers`: source in the written text, destination in room made after it.
        precondition(range.upperBound <= written && !range.isEmpty, "copying members not written yet")
        separate()
        let length = prefix.utf8CodeUnitCount + range.count + 2
        if written &+ length > capacity { grow(to: written + length) }
        base[written] = UInt8(ascii: "{")
        written += 1 + Self.writeStatic(prefix, at: base + written + 1)
        (base + written).update(from: base + range.lowerBound, count: range.count)
        written += range.count
        base[written] = UInt8(ascii: "}")
        written += 1
    }

    /// `object(prefix:copying:)` for each of `ranges` in turn, as elements of the open array: one capacity check
    /// and one separator decision for all of them, where a hit test's steps made one of each per step.
    @inlinable public mutating func objects(prefix: StaticString, copying ranges: UnsafeBufferPointer<Range<Int>>) {
        guard !ranges.isEmpty else { return }
        let prefixLength = prefix.utf8CodeUnitCount
        // Each: a comma (none before the first), the braces, the prefix and the copy.
        var length = -1
        for range in ranges {
            // As in `copyMembers`: source in the written text, destination in room made after it.
            precondition(range.upperBound <= written && !range.isEmpty, "copying members not written yet")
            length += range.count + prefixLength + 3
        }
        separate()
        if written &+ length > capacity { grow(to: written + length) }
        var out = base + written
        out[0] = UInt8(ascii: "{")
        for i in ranges.indices {
            if i > 0 {
                out[0] = UInt8(ascii: ",")
                out[1] = UInt8(ascii: "{")
                out += 1
            }
            Self.copy(prefix.utf8Start, prefixLength, to: out + 1)
            out += 1 + prefixLength
            let range = ranges[i]
            out.update(from: base + range.lowerBound, count: range.count)
            out += range.count
            out[0] = UInt8(ascii: "}")
            out += 1
        }
        written = out - base
    }

    @inlinable mutating func writeNumber(_ n: Double) {
        append(atMost: JSONCursor.numberRoom) { Self.writeNumber(n, at: $0) }
    }

    /// `n` as JSON text at `out` (at most `JSONCursor.numberRoom` bytes); returns its length. Integers are
    /// written as decimal digits without going through `String` (the same text as `String(Int64)`).
    @inline(__always)
    @inlinable static func writeNumber(_ n: Double, at out: UnsafeMutablePointer<UInt8>) -> Int {
        // Coordinates are mostly whole and within 10,000 of zero: written where they are asked for, since a call
        // to the general writer, with the registers it saves, costs as much as their digits. A view's point is
        // negative where the point is above or left of it, as it is for most views a hit test misses.
        if abs(n) < 10_000, let small = Int32(exactly: n) {
            guard small < 0 else { return writeSmall(UInt32(small), at: out) }
            out[0] = UInt8(ascii: "-")
            return 1 + writeSmall(small.magnitude, at: out + 1)
        }
        return writeAnyNumber(n, at: out)
    }

    /// `n` (below 10,000) in decimal digits at `out`, two at a time from `digitPairs`; returns its length.
    @inline(__always)
    @inlinable static func writeSmall(_ n: UInt32, at out: UnsafeMutablePointer<UInt8>) -> Int {
        let pairs = UnsafeRawPointer(digitPairs.utf8Start), to = UnsafeMutableRawPointer(out)
        @inline(__always) func pair(_ p: UInt32, at offset: Int) {
            to.storeBytes(
                of: pairs.loadUnaligned(fromByteOffset: Int(p) &* 2, as: UInt16.self), toByteOffset: offset,
                as: UInt16.self)
        }
        if n < 10 {
            out[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: n)
            return 1
        }
        if n < 100 {
            pair(n, at: 0)
            return 2
        }
        let high = n / 100, low = n &- high &* 100
        if n < 1000 {
            out[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: high)
            pair(low, at: 1)
            return 3
        }
        pair(high, at: 0)
        pair(low, at: 2)
        return 4
    }

    /// `writeNumber` for any value.
    @inlinable static func writeAnyNumber(_ n: Double, at out: UnsafeMutablePointer<UInt8>) -> Int {
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
    @inlinable static var digitPairs: StaticString {
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
    }

    @inline(__always)
    @inlinable static func writeStatic(_ text: StaticString, at out: UnsafeMutablePointer<UInt8>) -> Int {
        let length = text.utf8CodeUnitCount
        copy(text.utf8Start, length, to: out)
        return length
    }

    @inlinable static var hex: StaticString { "0123456789abcdef" }

    /// Runs of bytes that need no escape are copied at once; only `"`, `\` and control bytes are rewritten.
    @inlinable mutating func writeString(_ s: String) {
        Self.withUTF8(s) { utf8 in
            let length = utf8.count
            // Ids, names and rule tags need no escape: room for them and the quotes, not for the worst case.
            let clean = length == 0 || Self.isClean(utf8.baseAddress!, length)
            append(atMost: clean ? length + 2 : length * 6 + 2) { Self.writeString(utf8, clean: clean, at: $0) }
        }
    }

    /// Whether `s` is written as it is, between its quotes, with no escape: checked once where text is kept (a
    /// node's id, `HitRecord`) for text written many times (`JSONCursor.string(plain:)`).
    @inlinable package static func needsNoEscape(_ s: String) -> Bool {
        withUTF8(s) { $0.isEmpty || isClean($0.baseAddress!, $0.count) }
    }

    /// A native string's bytes are read where they are; only another kind is copied first.
    @inline(__always)
    @inlinable static func withUTF8<R>(_ s: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let r = s.utf8.withContiguousStorageIfAvailable(body) { return r }
        var copy = s
        return copy.withUTF8(body)
    }

    /// `utf8` quoted, escaped unless `clean` (then it needs no escape), at `out`: at most `count + 2` bytes when
    /// clean, `count * 6 + 2` (\u00XX per byte) otherwise. Returns the length written. Invariant: the caller
    /// made that much room at `out`, and `utf8` is a live view of the string's bytes for the whole call.
    @inline(__always)
    @inlinable static func writeString(
        _ utf8: UnsafeBufferPointer<UInt8>, clean: Bool, at out: UnsafeMutablePointer<UInt8>
    ) -> Int {
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
    /// Exact: `hasZero` flags a word only when one of its bytes is zero. Invariant: `bytes[0..<n]` is readable;
    /// every load below lies within it (the overlapping loads start at `n - 8`, `n - 4` or `n - 2`).
    @inline(__always)
    @inlinable static func isClean(_ bytes: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        @inline(__always) func hasZero(_ w: UInt64) -> Bool {
            (w &- 0x0101_0101_0101_0101) & ~w & 0x8080_8080_8080_8080 != 0
        }
        // A byte below 0x20 is one whose top three bits are zero (bytes ≥ 0x80 are never flagged).
        @inline(__always) func needsEscape(_ w: UInt64) -> Bool {
            hasZero(w & 0xE0E0_E0E0_E0E0_E0E0) || hasZero(w ^ 0x2222_2222_2222_2222)
                || hasZero(w ^ 0x5C5C_5C5C_5C5C_5C5C)
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
            word =
                UInt64(raw.loadUnaligned(as: UInt32.self)) | UInt64(
                    raw.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)) << 32
        } else if n >= 2 {
            let half =
                UInt64(raw.loadUnaligned(as: UInt16.self)) | UInt64(
                    raw.loadUnaligned(fromByteOffset: n - 2, as: UInt16.self)) << 16
            word = half | half << 32
        } else if n == 1 {
            word = UInt64(bytes[0]) &* 0x0101_0101_0101_0101
        } else {
            return true
        }
        return !needsEscape(word)
    }

    /// `memcpy` for the short runs a writer copies (keys, ids, rule tags): eight bytes at a time, the last
    /// eight overlapping, where a call to `memcpy` costs more than copying. Invariant: `source[0..<n]` is
    /// readable, `out[0..<n]` writable room, and the two do not overlap; every load and store lies within them.
    @inline(__always)
    @inlinable static func copy(_ source: UnsafePointer<UInt8>, _ n: Int, to out: UnsafeMutablePointer<UInt8>) {
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
        if i < n {
            to.storeBytes(
                of: from.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self), toByteOffset: n - 8, as: UInt64.self)
        }
    }

    /// Writes the escape of `b` at `out`; returns its length.
    @usableFromInline static func writeEscape(_ b: UInt8, to out: UnsafeMutablePointer<UInt8>) -> Int {
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
