/// Bearer secrets (owner tokens, client tokens, the inspector's token) are compared here: without stopping at the
/// first difference, so timing tells nothing about a token.
public enum Secrets {
    public static func equal(_ a: some StringProtocol, _ b: some StringProtocol) -> Bool {
        let (x, y) = (Array(a.utf8), Array(b.utf8))
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for i in x.indices { difference |= x[i] ^ y[i] }
        return difference == 0
    }
}
