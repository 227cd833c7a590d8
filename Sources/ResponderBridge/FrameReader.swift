/// Splits a byte stream framed as LSP frames its messages (`Content-Length: N`, other headers, an empty line, then
/// N bytes of body) into message bodies, however the bytes arrive: one at a time, several messages at once, a body
/// of any size. Pure (no IO), so every way of slicing the input can be tested without a process.
///
/// A malformed header cannot tell where its body ends, so after one the reader skips to the next
/// `Content-Length:` it sees: one broken frame costs that frame, not the rest of the stream.
package struct FrameReader {
    package enum Item: Equatable {
        case message([UInt8])
        /// A framing error, for stderr; the reader has already moved past it.
        case error(String)
    }

    /// Bodies larger than this are skipped (reported, never held in memory).
    package var maxBodyBytes = 1 << 30
    /// A header block longer than this is garbage rather than a header still arriving.
    package var maxHeaderBytes = 8192

    private enum State {
        case header
        case body(length: Int)
        case skipBody(remaining: Int)
        /// After a malformed header: looking for the next `Content-Length:`.
        case resync
    }

    private var state = State.header
    private var buffer: [UInt8] = []
    /// Where the unread bytes of `buffer` start; compacted once the read part is large.
    private var start = 0

    /// True while a message has begun but not ended: stdin closing now cuts it short.
    package var isMidMessage: Bool {
        switch state {
        case .header: return start < buffer.count && !buffer[start...].allSatisfy(Self.isBlank)
        case .body, .skipBody: return true
        case .resync: return false
        }
    }

    package mutating func append(_ bytes: some Collection<UInt8>) {
        if start > 0, start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next body or error, or nil when more bytes are needed.
    package mutating func next() -> Item? {
        while true {
            switch state {
            case .header:
                switch readHeader() {
                case .needMore: return nil
                case .ready: continue
                case .error(let message): return .error(message)
                }
            case .body(let length):
                guard buffer.count - start >= length else { return nil }
                let body = Array(buffer[start..<start + length])
                start += length
                state = .header
                return .message(body)
            case .skipBody(let remaining):
                let n = min(remaining, buffer.count - start)
                start += n
                if n < remaining {
                    state = .skipBody(remaining: remaining - n)
                    return nil
                }
                state = .header
            case .resync:
                guard resync() else { return nil }
            }
        }
    }

    private enum HeaderOutcome {
        case needMore, ready
        case error(String)
    }

    /// Reads a header block once it is complete and sets the state to read (or skip) its body; after an
    /// error the state is `.resync` or `.skipBody`.
    private mutating func readHeader() -> HeaderOutcome {
        // Blank lines between messages are tolerated.
        while start < buffer.count, Self.isBlank(buffer[start]) { start += 1 }
        guard start < buffer.count else { return .needMore }
        var length: Int?
        var lineStart = start
        while true {
            guard let newline = buffer[lineStart...].firstIndex(of: UInt8(ascii: "\n")) else {
                if buffer.count - start > maxHeaderBytes {
                    return fail("a header longer than \(maxHeaderBytes) bytes without an empty line")
                }
                return .needMore
            }
            var line = buffer[lineStart..<newline]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            lineStart = newline + 1
            if line.isEmpty { break }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
                return fail("a header line without a colon: \(Self.show(line))")
            }
            let name = String(decoding: line[..<colon], as: UTF8.self).trimmingSpaces.lowercased()
            let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingSpaces
            // Other headers (Content-Type) are allowed by the framing and carry nothing the bridge needs.
            guard name == "content-length" else { continue }
            guard !value.isEmpty, value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                let n = Int(value)
            else {
                return fail("Content-Length is not a byte count: \(Self.show(line))")
            }
            length = n
        }
        guard let length else {
            // The block itself was read; its body, of unknown length, is what the search skips.
            start = lineStart
            state = .resync
            return .error("a header without Content-Length; skipping to the next Content-Length")
        }
        start = lineStart
        if length > maxBodyBytes {
            state = .skipBody(remaining: length)
            return .error("a message of \(length) bytes is larger than \(maxBodyBytes) bytes; skipped")
        }
        state = .body(length: length)
        return .ready
    }

    private mutating func fail(_ message: String) -> HeaderOutcome {
        state = .resync
        // Past the block's first byte, so that the search does not find this broken header's own
        // Content-Length again.
        start = min(start + 1, buffer.count)
        return .error(message + "; skipping to the next Content-Length")
    }

    /// Moves to the next `Content-Length:` (any case); false when more bytes are needed.
    private mutating func resync() -> Bool {
        let key = Array("content-length:".utf8)
        var i = start
        while i + key.count <= buffer.count {
            if zip(buffer[i..<i + key.count], key).allSatisfy({ Self.lower($0) == $1 }) {
                start = i
                state = .header
                return true
            }
            i += 1
        }
        // Keep a tail that could be the start of the key.
        start = max(start, buffer.count - (key.count - 1))
        return false
    }

    private static func isBlank(_ b: UInt8) -> Bool { b == UInt8(ascii: "\r") || b == UInt8(ascii: "\n") }
    private static func lower(_ b: UInt8) -> UInt8 { b >= 65 && b <= 90 ? b + 32 : b }
    private static func show(_ line: some Collection<UInt8>) -> String {
        let text = String(decoding: line.prefix(80), as: UTF8.self)
        return "\"\(text)\"" + (line.count > 80 ? "…" : "")
    }
}

extension String {
    package var trimmingSpaces: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        return String(s)
    }
}
