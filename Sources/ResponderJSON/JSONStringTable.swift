/// Short strings made once, found again by their bytes: a parser given a table takes a string from it when the
/// bytes are one of its words, instead of validating and copying them again.
///
/// Read-only once built, so any thread may look up. Strings of at most 16 bytes only: two overlapping 8-byte
/// words and the length then say exactly which bytes a string has, so a lookup compares three integers.
public struct JSONStringTable: Sendable {
    @usableFromInline struct Entry: Sendable {
        @usableFromInline var length: Int
        @usableFromInline var first: UInt64
        @usableFromInline var last: UInt64
        @usableFromInline var string: String
    }
    @usableFromInline let entries: [Entry?]
    @usableFromInline let shift: UInt64

    public init(_ words: [String]) {
        var size = 64
        while size < words.count * 4 { size *= 2 }
        shift = UInt64(64 - size.trailingZeroBitCount)
        var entries = [Entry?](repeating: nil, count: size)
        for word in words
        where word.utf8.count <= 16 && word.utf8.allSatisfy({ $0 < 0x80 && $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C }) {
            var word = word
            let (first, last) = word.withUTF8 { Self.words($0.baseAddress!, $0.count) }
            let length = word.utf8.count
            var slot = Self.slot(length, first, last, shift)
            while let e = entries[slot] {
                if e.length == length && e.first == first && e.last == last { break }
                slot = (slot + 1) & (size - 1)
            }
            entries[slot] = Entry(length: length, first: first, last: last, string: word)
        }
        self.entries = entries
    }

    /// The known string with exactly these bytes, if there is one.
    @inlinable @inline(__always)
    public func lookup(_ bytes: UnsafePointer<UInt8>, _ length: Int) -> String? {
        guard length <= 16, length > 0 else { return nil }
        let (first, last) = Self.words(bytes, length)
        var slot = Self.slot(length, first, last, shift)
        return entries.withUnsafeBufferPointer { entries in
            while let e = entries[slot] {
                if e.length == length && e.first == first && e.last == last { return e.string }
                slot = (slot + 1) & (entries.count - 1)
            }
            return nil
        }
    }

    @inlinable @inline(__always)
    static func slot(_ length: Int, _ first: UInt64, _ last: UInt64, _ shift: UInt64) -> Int {
        Int(
            truncatingIfNeeded: ((first &* 0x9E37_79B9_7F4A_7C15) ^ (last &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(length))
                >> shift)
    }

    /// The first and the last eight bytes (overlapping when fewer than sixteen; for fewer than eight, the
    /// first and last four, two or one): with the length, exactly the bytes, read without a byte loop.
    /// Invariant: `bytes[0..<n]` is readable and `n` ≥ 1; every load lies within it.
    @inlinable @inline(__always)
    static func words(_ bytes: UnsafePointer<UInt8>, _ n: Int) -> (UInt64, UInt64) {
        let raw = UnsafeRawPointer(bytes)
        if n >= 8 {
            return (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self))
        }
        if n >= 4 {
            return (
                UInt64(raw.loadUnaligned(as: UInt32.self)),
                UInt64(raw.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self))
            )
        }
        if n >= 2 {
            return (
                UInt64(raw.loadUnaligned(as: UInt16.self)),
                UInt64(raw.loadUnaligned(fromByteOffset: n - 2, as: UInt16.self))
            )
        }
        return (UInt64(bytes[0]), 0)
    }
}
