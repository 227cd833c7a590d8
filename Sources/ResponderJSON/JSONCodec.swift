/// The one seam through which the engine and its clients turn bytes into JSON and back.
/// Handlers never touch an encoder directly, so a faster codec can replace this one on the hot paths.
public enum JSONCodec {
    /// Default nesting limit; deep enough for a 100,000-deep view tree with room to spare.
    public static let defaultMaxDepth = 1_000_000

    /// `strings`: short strings the document is likely to repeat (keys, names), shared rather than made again.
    public static func decode(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth, strings: JSONStringTable? = nil)
        throws(JSONParseError) -> JSON
    {
        var parser = JSONParser(bytes, maxDepth: maxDepth, strings: strings)
        return try parser.parse()
    }

    /// Decodes, also returning the text of the top-level member `key` when its value is a number (the last
    /// such member, as for lookups): the exact digits a sender used, which a Double may not hold.
    public static func decode(
        _ bytes: [UInt8], maxDepth: Int = defaultMaxDepth, numberTextOf key: String,
        strings: JSONStringTable? = nil
    ) throws(JSONParseError) -> (JSON, [UInt8]?) {
        var parser = JSONParser(bytes, maxDepth: maxDepth, capturingNumberOf: key, strings: strings)
        let value = try parser.parse()
        return (value, parser.capturedNumber.map { Array(bytes[$0]) })
    }

    public static func decode(_ text: String, maxDepth: Int = defaultMaxDepth, strings: JSONStringTable? = nil)
        throws(JSONParseError) -> JSON
    {
        try decode(Array(text.utf8), maxDepth: maxDepth, strings: strings)
    }

    public static func encode(_ value: JSON) -> [UInt8] {
        var writer = JSONWriter()
        writer.value(value)
        return writer.takeBytes()
    }

    public static func encodeString(_ value: JSON) -> String {
        String(decoding: encode(value), as: UTF8.self)
    }
}

extension JSON: CustomStringConvertible {
    public var description: String { JSONCodec.encodeString(self) }
}
