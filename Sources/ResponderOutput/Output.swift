import Foundation
import ResponderJSON
import ResponderProtocol

/// Writing to stdout and stderr. Stdout is block-buffered when piped; `flush` after each line that must
/// be seen at once (watch).
package enum Output {
    package static func line(_ text: String = "") {
        StatusLine.clear()
        print(text)
    }

    /// Flushes stdout (fflush(nil) flushes every C stream; `stdout` itself is not concurrency-safe to name).
    package static func flush() { fflush(nil) }

    package static func error(_ text: String) {
        StatusLine.clear()
        flush()
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    package static func printJSON(_ value: JSON) { line(PrettyJSON.render(value)) }

    /// `error: NAME (code): message`, then one indented line per detail (field, opIndex, id…).
    package static func describe(_ e: RPCError) -> String {
        var text = "error: \(e.name.rawValue) (\(e.code)): \(e.message)"
        for (key, value) in e.details {
            text += "\n  \(key): \(plain(value))"
        }
        return text
    }

    /// A value for a human: strings without quotes, everything else as compact JSON.
    package static func plain(_ value: JSON) -> String {
        if let s = value.stringValue { return s }
        return JSONCodec.encodeString(value)
    }

    /// A number without a needless ".0".
    package static func number(_ n: Double) -> String {
        if n.isFinite, n.rounded() == n, abs(n) < 1e15 { return String(Int64(n)) }
        return String(n)
    }

    /// A coordinate or length (a frame, a point) to two decimals: what a screen shows, without the tails that
    /// transforms and conversions leave (`33.333333333333336` reads `33.33`).
    package static func coordinate(_ n: Double) -> String {
        guard n.isFinite else { return number(n) }
        let rounded = (n * 100).rounded() / 100
        return number(rounded == 0 ? 0 : rounded)
    }

    package static func coordinate(_ value: JSON?) -> String {
        guard let value else { return "?" }
        if let n = value.doubleValue { return coordinate(n) }
        return plain(value)
    }

    package static func number(_ value: JSON?) -> String {
        guard let value else { return "?" }
        if let n = value.doubleValue { return number(n) }
        return plain(value)
    }

    /// `(x, y)`; `null` when there is no point (a view whose transform cannot be inverted).
    package static func point(_ p: Point?) -> String {
        guard let p else { return "null" }
        return "(\(coordinate(p.x)), \(coordinate(p.y)))"
    }
}
