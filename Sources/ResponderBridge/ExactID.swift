import ResponderJSON
import ResponderProtocol
import Synchronization

/// Echoing request ids byte for byte. The engine echoes an id as the JSON value it read, written by its own
/// writer: `1e3` comes back as `1000`, and an integer of 16 digits or more as a double (`…991.0`, or rounded
/// past 2^53), which a client with integer ids cannot match. So a request whose numeric id would not come back
/// as written goes to the engine under a stand-in string id, and the reply gets the client's id back, as
/// written. Ids that round-trip (strings, everyday integers) pass untouched, so events' `cause.request` shows
/// them as the client sent them; a stand-in shows there as `"bridge-id-<n>"`.
package final class ExactID: Sendable {
    private struct State {
        var next = 1
        /// Stand-in (as the engine writes it, quoted) → the client's id, as written.
        var standIns: [[UInt8]: [UInt8]] = [:]
    }

    private let state = Mutex(State())
    private static let prefix = Array("\"bridge-id-".utf8)

    package init() {}

    /// The body to forward: `body` itself, or `body` with its id replaced by a stand-in to undo in `restore`.
    package func protect(_ body: [UInt8], id: JSON?) -> [UInt8] {
        guard let id, id.doubleValue != nil, let range = Self.idRange(in: body) else { return body }
        let written = Array(body[range])
        guard JSONCodec.encode(id) != written else { return body }
        let standIn = state.withLock { s in
            defer { s.next += 1 }
            let standIn = Self.prefix + Array("\(s.next)\"".utf8)
            s.standIns[standIn] = written
            return standIn
        }
        return Array(body[..<range.lowerBound]) + standIn + Array(body[range.upperBound...])
    }

    /// A reply with the client's own id back in place of a stand-in (the engine writes `"id"` right after
    /// `"jsonrpc"`, so only the start of a reply is searched).
    package func restore(_ reply: [UInt8]) -> [UInt8] {
        guard state.withLock({ !$0.standIns.isEmpty }), let range = Self.idRange(in: reply),
            reply[range].starts(with: Self.prefix)
        else { return reply }
        guard let written = state.withLock({ $0.standIns.removeValue(forKey: Array(reply[range])) }) else {
            return reply
        }
        return Array(reply[..<range.lowerBound]) + written + Array(reply[range.upperBound...])
    }

    /// The id of a request as the client wrote it, or nil.
    package static func written(in request: [UInt8]) -> [UInt8]? { idRange(in: request).map { Array(request[$0]) } }

    /// A reply the bridge writes itself (`bridge.*`), with the id as the client wrote it (`written`).
    package static func reply(_ response: JSON, id written: [UInt8]?) -> [UInt8] {
        let encoded = JSONCodec.encode(response)
        guard let written, let range = idRange(in: encoded) else { return encoded }
        return Array(encoded[..<range.lowerBound]) + written + Array(encoded[range.upperBound...])
    }

    /// Where the value of the top-level `"id"` member lies in a JSON object's text (the last one, as the engine
    /// reads duplicates), or nil. Reads only the top level: nested values are skipped by counting brackets.
    package static func idRange(in text: [UInt8]) -> Range<Int>? {
        var i = 0
        func skipSpace() {
            while i < text.count, text[i] == 0x20 || text[i] == 0x0A || text[i] == 0x0D || text[i] == 0x09 { i += 1 }
        }
        /// Moves past a string starting at `i` (a quote); false if it never ends.
        func skipString() -> Bool {
            i += 1
            while i < text.count {
                if text[i] == UInt8(ascii: "\\") { i += 2; continue }
                if text[i] == UInt8(ascii: "\"") { i += 1; return true }
                i += 1
            }
            return false
        }
        /// Moves past any value starting at `i`.
        func skipValue() -> Bool {
            guard i < text.count else { return false }
            switch text[i] {
            case UInt8(ascii: "\""): return skipString()
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var depth = 0
                while i < text.count {
                    switch text[i] {
                    case UInt8(ascii: "\""): if !skipString() { return false }; continue
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if depth == 0 { i += 1; return true }
                    default: break
                    }
                    i += 1
                }
                return false
            default:
                let delimiters: Set<UInt8> = [
                    UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09
                ]
                let start = i
                while i < text.count, !delimiters.contains(text[i]) { i += 1 }
                return i > start
            }
        }
        skipSpace()
        guard i < text.count, text[i] == UInt8(ascii: "{") else { return nil }
        i += 1
        var found: Range<Int>?
        while true {
            skipSpace()
            guard i < text.count, text[i] == UInt8(ascii: "\"") else { return found }
            let keyStart = i
            guard skipString() else { return nil }
            let key = try? JSONCodec.decode(Array(text[keyStart..<i]))
            skipSpace()
            guard i < text.count, text[i] == UInt8(ascii: ":") else { return nil }
            i += 1
            skipSpace()
            let valueStart = i
            guard skipValue() else { return nil }
            if key == .string("id") { found = valueStart..<i }
            skipSpace()
            guard i < text.count, text[i] == UInt8(ascii: ",") else { return found }
            i += 1
        }
    }
}
