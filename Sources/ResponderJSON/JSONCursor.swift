/// Writes JSON text into room a `JSONWriter` made ahead (`JSONWriter.members(atMost:)`): the caller adds up
/// the most each part can take (`room(for:)`, `numberRoom`, a literal's length) and the writes in between are
/// stores through a pointer. Every write checks the room left, so a wrong sum stops the engine rather than
/// writing past the buffer.
public struct JSONCursor: ~Copyable {
    /// Invariant: `start...end` lies inside the writer's allocation, which outlives the cursor (a cursor exists
    /// only inside `JSONWriter.members` and `object`, which made the room and keep the writer alive), and
    /// `start <= at <= end` (every write claims its bytes first).
    @usableFromInline let start: UnsafeMutablePointer<UInt8>
    @usableFromInline var at: UnsafeMutablePointer<UInt8>
    @usableFromInline let end: UnsafeMutablePointer<UInt8>

    @inlinable init(_ start: UnsafeMutablePointer<UInt8>, room: Int) {
        self.start = start
        at = start
        end = start + room
    }

    /// Bytes written so far.
    @inlinable var written: Int { at - start }

    /// Where the next write goes. Text written after reading it lies from there to the `position` read afterwards,
    /// readable for as long as the cursor lives: for a caller that keeps a copy of text it writes again.
    @inlinable package var position: UnsafePointer<UInt8> { UnsafePointer(at) }

    /// The most a number takes (the longest shortest text of a `Double` is 24 bytes).
    @inlinable public static var numberRoom: Int { 32 }

    /// Room for one member's key, its quotes, colon and comma (the longest written through a cursor,
    /// `"step":"controlEvent","control":`, counts as two).
    @inlinable public static var memberRoom: Int { 24 }

    /// The most `s` takes as a JSON string: its quotes and six bytes (`\u00XX`) per byte.
    @inline(__always)
    @inlinable public static func room(for s: String) -> Int { s.utf8.count * 6 + 2 }

    @inline(__always)
    @inlinable func claim(_ n: Int) {
        precondition(end - at >= n, "JSONCursor: more written than the room made")
    }

    /// Text known when the program was compiled, copied as it is (keys with their quotes, commas, brackets).
    @inline(__always)
    @inlinable public mutating func raw(_ text: StaticString) {
        claim(text.utf8CodeUnitCount)
        at += JSONWriter.writeStatic(text, at: at)
    }

    /// Text already quoted and escaped (`QuotedCases`).
    @inline(__always)
    @inlinable package mutating func raw(quoted start: UnsafePointer<UInt8>, _ count: Int) {
        claim(count)
        JSONWriter.copy(start, count, to: at)
        at += count
    }

    @inline(__always)
    @inlinable public mutating func string(_ s: String) {
        let at = self.at, left = end - at
        self.at += JSONWriter.withUTF8(s) { utf8 in
            let length = utf8.count
            let clean = length == 0 || JSONWriter.isClean(utf8.baseAddress!, length)
            precondition(left >= (clean ? length + 2 : length * 6 + 2), "JSONCursor: more written than the room made")
            return JSONWriter.writeString(utf8, clean: clean, at: at)
        }
    }

    /// `s`, known to need no escape (`JSONWriter.needsNoEscape`, checked where it is kept): copied between its
    /// quotes with no check of its bytes.
    @inline(__always)
    @inlinable package mutating func string(plain s: String) {
        let at = self.at, left = end - at
        self.at += JSONWriter.withUTF8(s) { utf8 in
            precondition(left >= utf8.count + 2, "JSONCursor: more written than the room made")
            return JSONWriter.writeString(utf8, clean: true, at: at)
        }
    }

    @inline(__always)
    @inlinable public mutating func number(_ n: Double) {
        claim(Self.numberRoom)
        at += JSONWriter.writeNumber(n, at: at)
    }

    /// A string or null.
    @inline(__always)
    @inlinable public mutating func string(orNull s: String?) {
        if let s { string(s) } else { raw("null") }
    }

    @inline(__always)
    @inlinable public mutating func bool(_ b: Bool) {
        if b { raw("true") } else { raw("false") }
    }

    /// The most `s` or null takes.
    @inline(__always)
    @inlinable public static func room(for s: String?) -> Int { s.map { room(for: $0) } ?? 4 }

    /// An array of strings.
    @inline(__always)
    @inlinable public mutating func strings(_ values: [String]) {
        raw("[")
        for (i, v) in values.enumerated() {
            if i > 0 { raw(",") }
            string(v)
        }
        raw("]")
    }

    /// The most an array of these strings takes.
    public static func room(for values: [String]) -> Int { values.reduce(2) { $0 + room(for: $1) + 1 } }
}
