extension JSONParseError {
    /// The 1-based line and column (in characters) of the error in the text it was parsed from: a byte offset
    /// alone does not lead an editor to the place.
    public func position(in bytes: [UInt8]) -> (line: Int, column: Int) {
        let end = min(max(offset, 0), bytes.count)
        var line = 1
        var start = 0
        for i in 0..<end where bytes[i] == UInt8(ascii: "\n") {
            line += 1
            start = i + 1
        }
        // Continuation bytes of UTF-8 are not characters of their own.
        let column = bytes[start..<end].reduce(1) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        return (line, column)
    }

    /// `line 3, column 14: expected ':' at byte 40`.
    public func located(in bytes: [UInt8]) -> String {
        let (line, column) = position(in: bytes)
        return "line \(line), column \(column): \(self)"
    }
}
