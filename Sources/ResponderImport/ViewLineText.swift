/// The parts of one `recursiveDescription` line: `<Class: 0xADDRESS; key = value; …> trailing text`.
///
/// `-[UIView description]` prints its keys between `<` and the matching `>`; some classes append text after it
/// (a `UIVisualEffectView` prints `effect=<UIBlurEffect …> style=…`, an image view ` - (null)` or its image).
/// Values nest `()`, `[]`, `{}` and `<>`. Quoted text (`text = '…'`) is printed as it is, not escaped, so it may
/// hold apostrophes, quotes, `;` and `>`: a quote opens at the start of a value and closes only at a `'` followed
/// by the end of an item (`;`, the closing `>`, or the end of the line).
package struct ViewLineText {
    /// `Class: 0xADDRESS`.
    package var head: String
    /// The `key = value` items after the head, trimmed, empty ones left out.
    package var items: [String]
    /// What follows the closing `>`, trimmed (often empty).
    package var trailing: String

    /// Nil when the line has no `>` closing its first `<` (a truncated line).
    package init?(_ text: Substring) {
        let chars = Array(text)
        guard chars.first == "<" else { return nil }
        var parts: [String] = []
        var current = ""
        var depth = 0
        var quoted = false
        var end: Int?
        var i = 1
        func closesQuote(_ at: Int) -> Bool {
            var j = at + 1
            while j < chars.count, chars[j] == " " { j += 1 }
            return j == chars.count || chars[j] == ";" || (chars[j] == ">" && depth == 0)
        }
        scan: while i < chars.count {
            let c = chars[i]
            defer { i += 1 }
            if quoted {
                current.append(c)
                if c == "'" && closesQuote(i) { quoted = false }
                continue
            }
            switch c {
            case "'" where Self.startsValue(current): quoted = true
            case "(", "[", "{", "<": depth += 1
            case ")", "]", "}": depth = max(0, depth - 1)
            case ">":
                if depth == 0 {
                    end = i
                    break scan
                }
                depth -= 1
            case ";" where depth == 0:
                parts.append(current)
                current = ""
                continue
            default: break
            }
            current.append(c)
        }
        guard let end else { return nil }
        parts.append(current)
        head = parts[0].trimmingCharacters(in: .whitespaces)
        items = parts.dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        trailing = String(chars[(end + 1)...]).trimmingCharacters(in: .whitespaces)
    }

    /// Whether a quote here starts a value: the item so far ends with `=` or `:` (and spaces).
    private static func startsValue(_ item: String) -> Bool {
        guard let last = item.last(where: { $0 != " " }) else { return false }
        return last == "=" || last == ":"
    }

    /// The trailing text as annotations: `key=value` tokens (values may nest brackets) by their keys, other
    /// words together as `trailing`.
    package static func trailingAnnotations(_ trailing: String) -> [(String, String)] {
        guard !trailing.isEmpty else { return [] }
        var tokens: [String] = []
        var current = ""
        var depth = 0
        for c in trailing {
            switch c {
            case "(", "[", "{", "<": depth += 1
            case ")", "]", "}", ">": depth = max(0, depth - 1)
            case " " where depth == 0:
                if !current.isEmpty { tokens.append(current) }
                current = ""
                continue
            default: break
            }
            current.append(c)
        }
        if !current.isEmpty { tokens.append(current) }
        var out: [(String, String)] = []
        var words: [String] = []
        for token in tokens {
            if let eq = token.firstIndex(of: "="), eq != token.startIndex,
                token[..<eq].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." })
            {
                out.append((String(token[..<eq]), String(token[token.index(after: eq)...])))
            } else {
                words.append(token)
            }
        }
        if !words.isEmpty { out.append(("trailing", words.joined(separator: " "))) }
        return out
    }
}
