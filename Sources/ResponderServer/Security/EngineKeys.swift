import Foundation
import ResponderLocal
import ResponderProtocol
import ZMQ

/// The engine's CURVE keypair, `<state dir>/engine.key` (mode 0600, KeyFile format), made on first use and
/// kept across restarts so that clients keep trusting the same public key.
struct EngineKeys {
    let publicKey: CurveKey
    let secretKey: CurveKey

    static let fileName = "engine.key"

    static func loadOrCreate(directory: String) throws -> EngineKeys {
        try SecureDirectory.prepare(directory, what: "state directory")
        let path = "\(directory)/\(fileName)"
        do {
            let bytes = try OwnedFile.contents(path, what: "engine key")
            guard let text = KeyFile.parse(bytes), let pub = CurveKey(z85: text.public),
                let sec = CurveKey(z85: text.secret),
                (try? CurveKey.publicKey(of: sec)) == pub
            else {
                throw EngineError.io(
                    "the engine key \(path) is damaged (not a public and a matching secret Z85 key); move it away to make a new one"
                )
            }
            return EngineKeys(publicKey: pub, secretKey: sec)
        } catch let failure as OwnedFile.Failure where failure.isMissing {
            let pair = try CurveKey.generatePair()
            do {
                try OwnedFile.create(
                    path,
                    KeyFile.format(
                        public: pair.public.z85, secret: pair.secret.z85,
                        comment: "responderd engine key: keep it secret"), what: "engine key")
            } catch { throw EngineError.io(error.message) }
            return EngineKeys(publicKey: pair.public, secretKey: pair.secret)
        } catch let failure as OwnedFile.Failure {
            throw EngineError.io(failure.message)
        }
    }
}

/// `<state dir>/authorized_clients`: one client public key (Z85) per line, optionally followed by a comment
/// (`responder keygen` prints such a line); `#` lines and blank lines are ignored. Read at every CURVE
/// connection, so a key added (or removed) applies to the next connection without a restart.
enum AuthorizedClients {
    static let fileName = "authorized_clients"

    /// The keys, and what was wrong with the file if anything (a missing file authorizes no one).
    static func read(directory: String) -> (keys: Set<CurveKey>, problem: String?) {
        let bytes: [UInt8]
        do { bytes = try OwnedFile.contents("\(directory)/\(fileName)", what: "authorized_clients file") } catch {
            return ([], error.isMissing ? nil : error.message)
        }
        var keys: Set<CurveKey> = []
        var bad: [Int] = []
        for (index, line) in String(decoding: bytes, as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false
        ).enumerated() {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { continue }
            let word = String(trimmed.prefix { $0 != " " && $0 != "\t" })
            if let key = CurveKey(z85: word) { keys.insert(key) } else { bad.append(index + 1) }
        }
        return (
            keys,
            bad.isEmpty
                ? nil
                : "\(directory)/\(fileName): lines \(bad.map(String.init).joined(separator: ", ")) are not Z85 keys (ignored)"
        )
    }
}
