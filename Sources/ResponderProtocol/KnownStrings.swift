/// The short strings requests repeat — the envelope's keys, method names, node fields and kinds, touch phases,
/// a request's common members — made once. The parser takes a string from here when its bytes are one of
/// them, instead of validating and copying them again: a small request is mostly such strings, and a world
/// of a million nodes has four million keys.
///
/// Read-only once built, so any thread may look up. Strings of at most 16 bytes only: two overlapping 8-byte
/// words and the length then say exactly which bytes a string has, so a lookup compares three integers.
enum KnownStrings {
    static let table = Table(words)

    static var words: [String] {
        ["jsonrpc", "id", "method", "params", "result", "error", "2.0",
         "session", "point", "points", "trace", "touches", "touch", "phase", "tapCount", "time", "window", "action", "target",
         "sender", "dryRun", "owner", "tree", "ops", "op", "parent", "index", "node", "fields", "detached", "subtype", "press",
         "key", "to", "by", "since", "limit", "none", "full", "x", "y", "children", "kind"]
            + MethodRegistry.all.map { $0.method }
            + NodeField.all.map(\.name)
            + NodeKind.allCases.map(\.rawValue)
            + TouchPhase.allCases.map(\.rawValue)
    }

    struct Table: Sendable {
        private struct Entry {
            var length: Int
            var first: UInt64
            var last: UInt64
            var string: String
        }
        private let entries: [Entry?]
        private let shift: UInt64

        init(_ words: [String]) {
            var size = 64
            while size < words.count * 4 { size *= 2 }
            shift = UInt64(64 - size.trailingZeroBitCount)
            var entries = [Entry?](repeating: nil, count: size)
            for word in words where word.utf8.count <= 16 && word.utf8.allSatisfy({ $0 < 0x80 && $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C }) {
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
        @inline(__always)
        func lookup(_ bytes: UnsafePointer<UInt8>, _ length: Int) -> String? {
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

        @inline(__always)
        private static func slot(_ length: Int, _ first: UInt64, _ last: UInt64, _ shift: UInt64) -> Int {
            Int(truncatingIfNeeded: ((first &* 0x9E37_79B9_7F4A_7C15) ^ (last &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(length)) >> shift)
        }

        /// The first and the last eight bytes (overlapping when fewer than sixteen; for fewer than eight, the
        /// first and last four, two or one): with the length, exactly the bytes, read without a byte loop.
        @inline(__always)
        static func words(_ bytes: UnsafePointer<UInt8>, _ n: Int) -> (UInt64, UInt64) {
            let raw = UnsafeRawPointer(bytes)
            if n >= 8 { return (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)) }
            if n >= 4 { return (UInt64(raw.loadUnaligned(as: UInt32.self)), UInt64(raw.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self))) }
            if n >= 2 { return (UInt64(raw.loadUnaligned(as: UInt16.self)), UInt64(raw.loadUnaligned(fromByteOffset: n - 2, as: UInt16.self))) }
            return (UInt64(bytes[0]), 0)
        }
    }
}
