import ResponderLocal
import ResponderProtocol

/// A discovery file names the endpoints a client sends everything to: one planted by another user (in a
/// directory they created first, e.g. `/tmp/responder-<uid>`) would point the client at their own engine. Both
/// the directory and the file must be this user's and writable by no one else (Protocol/README.md §3).
enum DiscoveryTrust {
    static func read(_ path: String, directory: String, name: String) throws(ClientError) -> [UInt8] {
        do {
            try OwnedFile.checkDirectory(directory, what: "engine directory")
            return try OwnedFile.contents(path, what: "discovery file")
        } catch  where error.isMissing {
            throw .noEngine(
                "no engine named \"\(name)\" is running (no discovery file \(path)). Start one with `responderd --name \(name)`, or pass --connect RPC,EVENTS"
            )
        } catch {
            throw .noEngine(error.message)
        }
    }
}
