/// The hierarchy lines inside what lldb prints, whichever way it was asked and however the text travelled.
///
/// - Line endings: LF, CRLF (a dump pasted through a ticket or chat) and CR all end a line.
/// - Swift `po` of an `Any?` (`value(forKey: "recursiveDescription")`) prints a `▿ Optional<Any>` line, then the
///   description after `  - some : `; both are wrappers, not hierarchy lines.
/// - A string shown as a value rather than printed (`po` of a `String?`: `- some : "<UIWindow…>\n   | …"`; `p`/`expr`
///   without `-O`: `(String) $R0 = "…"`, `(__NSCFString *) $0 = 0x… @"…"`) holds the whole dump on one line with
///   its newlines and quotes escaped; it is unescaped and read as the lines it holds.
package enum DumpText {
    /// One hierarchy line and the line of the file it came from.
    package struct Line {
        package var number: Int
        package var text: Substring
    }

    /// What a file's line turned out to be.
    package enum Piece {
        case line(Substring)
        /// A wrapper lldb prints around the dump (`▿ Optional<Any>`): nothing to read.
        case wrapper
        /// An escaped string holding lines; `complete` is false when its closing quote is missing (lldb cuts long
        /// summaries short).
        case escaped(String, complete: Bool)
    }

    /// Splits at every line ending: `\r\n` is one Character in Swift, so it is named alongside `\n` and `\r`.
    package static func lines(_ text: some StringProtocol) -> [Substring] {
        Substring(text).split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
    }

    /// Classifies one file line, removing the wrappers lldb puts around a printed dump.
    package static func piece(_ line: Substring) -> Piece {
        let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
        if trimmed.hasPrefix("▿") { return .wrapper }
        var rest = line
        if trimmed.hasPrefix("- some") {
            let afterSome = trimmed.dropFirst(6).drop(while: { $0 == " " })
            guard afterSome.first == ":" else { return .line(line) }
            rest = afterSome.dropFirst().drop(while: { $0 == " " })
        } else if trimmed.hasPrefix("("), let value = valueOfPrintedVariable(trimmed) {
            rest = value
        }
        if let quoted = quotedString(rest) { return .escaped(quoted.text, complete: quoted.complete) }
        return .line(rest)
    }

    /// `(String) $R0 = "…"` / `(NSString *) $1 = 0x600… @"…"`: the part after ` = `, when it is a quoted string.
    private static func valueOfPrintedVariable(_ line: Substring) -> Substring? {
        guard let close = line.firstIndex(of: ")"), let eq = line[close...].range(of: " = ") else { return nil }
        let name = line[line.index(after: close)..<eq.lowerBound].trimmingCharacters(in: .whitespaces)
        guard name.hasPrefix("$") else { return nil }
        var value = line[eq.upperBound...]
        if value.hasPrefix("0x") { value = value.drop(while: { $0 != " " }).dropFirst() }
        return value.hasPrefix("\"") || value.hasPrefix("@\"") ? value : nil
    }

    /// The unescaped text of `"…"` or `@"…"` (Swift and C escapes), or nil when `s` is not a quoted string.
    private static func quotedString(_ s: Substring) -> (text: String, complete: Bool)? {
        var s = s
        if s.hasPrefix("@\"") { s = s.dropFirst() }
        guard s.first == "\"" else { return nil }
        var out = ""
        var i = s.index(after: s.startIndex)
        while i < s.endIndex {
            let c = s[i]
            if c == "\"" { return (out, true) }
            if c == "\\", s.index(after: i) < s.endIndex {
                let e = s[s.index(after: i)]
                i = s.index(i, offsetBy: 2)
                switch e {
                case "n": out.append("\n")
                case "r": out.append("\r")
                case "t": out.append("\t")
                case "0": out.append("\0")
                case "u":
                    // \u{1F600}
                    if i < s.endIndex, s[i] == "{", let close = s[i...].firstIndex(of: "}"),
                        let code = UInt32(s[s.index(after: i)..<close], radix: 16), let scalar = Unicode.Scalar(code)
                    {
                        out.unicodeScalars.append(scalar)
                        i = s.index(after: close)
                    } else {
                        out.append("\\u")
                    }
                default: out.append(e)
                }
                continue
            }
            out.append(c)
            i = s.index(after: i)
        }
        return (out, false)
    }
}
