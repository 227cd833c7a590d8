/// The text form of a CURVE keypair file (the engine's `engine.key`, a client's `client.key`, mode 0600):
///
///     # <comment>
///     public <40 Z85 characters>
///     secret <40 Z85 characters>
///
/// Lines starting with `#` and blank lines are ignored. Keys are checked by whoever turns them into sockets.
public enum KeyFile {
    public static func parse(_ bytes: [UInt8]) -> (public: String, secret: String)? {
        var pub: String?, sec: String?
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            guard words.count == 2 else { continue }
            if words[0] == "public" { pub = String(words[1]) }
            if words[0] == "secret" { sec = String(words[1]) }
        }
        guard let pub, let sec, pub.utf8.count == 40, sec.utf8.count == 40 else { return nil }
        return (pub, sec)
    }

    public static func format(public pub: String, secret: String, comment: String) -> [UInt8] {
        Array("# \(comment)\npublic \(pub)\nsecret \(secret)\n".utf8)
    }
}
