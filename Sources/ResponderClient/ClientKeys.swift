import Foundation
import ResponderLocal
import ResponderProtocol
import ZMQ

/// The client's CURVE keypair (`responder keygen`), used whenever an engine's address carries a server key:
/// `$RESPONDER_CLIENT_KEY`, else `$XDG_CONFIG_HOME/responder/client.key`, else `~/.config/responder/client.key`.
public enum ClientKeys {
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let path = environment["RESPONDER_CLIENT_KEY"], !path.isEmpty { return path }
        let config =
            environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()) + "/.config")
        return config + "/responder/client.key"
    }

    /// The keypair at `path` (a file of this user's, writable by no one else).
    public static func load(_ path: String) throws(ClientError) -> (public: CurveKey, secret: CurveKey) {
        let bytes: [UInt8]
        do { bytes = try OwnedFile.contents(path, what: "client key") } catch  where error.isMissing {
            throw .noEngine(
                "the engine uses CURVE (tcp) and this client has no key: run `responder keygen`, then add the public key it prints to the engine's authorized_clients (or set RESPONDER_CLIENT_KEY)"
            )
        } catch {
            throw .noEngine(error.message)
        }
        guard let text = KeyFile.parse(bytes), let pub = CurveKey(z85: text.public),
            let sec = CurveKey(z85: text.secret)
        else {
            throw .noEngine("the client key \(path) is not a keypair written by `responder keygen`")
        }
        return (pub, sec)
    }

    /// Writes a new keypair to `path` (its directory made 0700 if missing); refuses to replace an existing file.
    public static func generate(at path: String) throws(ClientError) -> CurveKey {
        let dir = (path as NSString).deletingLastPathComponent
        do {
            if !dir.isEmpty, !FileManager.default.fileExists(atPath: dir) {
                try FileManager.default.createDirectory(
                    atPath: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            }
        } catch { throw .transport("cannot create \(dir): \(error)") }
        let pair: (public: CurveKey, secret: CurveKey)
        do { pair = try CurveKey.generatePair() } catch { throw .transport("cannot make a keypair: \(error)") }
        do {
            try OwnedFile.create(
                path,
                KeyFile.format(
                    public: pair.public.z85, secret: pair.secret.z85, comment: "responder client key: keep it secret"),
                what: "client key")
        } catch { throw .transport(error.message) }
        return pair.public
    }

    /// What a connection to `address` needs for CURVE: nil when the address has no server key (ipc, insecure tcp).
    static func credentials(
        for address: EngineAddress, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ClientError) -> (server: CurveKey, public: CurveKey, secret: CurveKey)? {
        guard let text = address.serverKey else { return nil }
        guard let server = CurveKey(z85: text) else {
            throw .noEngine("the engine's CURVE key \"\(text)\" is not 40 Z85 characters")
        }
        let keys = try load(defaultPath(environment: environment))
        return (server, keys.public, keys.secret)
    }
}
