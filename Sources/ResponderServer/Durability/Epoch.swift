/// An engine start's epoch: 16 hex digits, random, so two starts never share one (compare for equality only).
enum Epoch {
    static func make() -> String {
        let n = UInt64.random(in: 1...UInt64.max)
        let hex = String(n, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
