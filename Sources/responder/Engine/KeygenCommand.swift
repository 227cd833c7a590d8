import ArgumentParser
import Foundation
import ResponderClient
import ResponderJSON
import ResponderLocal
import ResponderOutput
import ResponderProtocol

/// `responder keygen`: the client's CURVE keypair, for engines bound to tcp (Protocol/README.md §2.1).
struct KeygenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keygen",
        abstract: "Make this user's CURVE client keypair, used for engines on tcp.",
        discussion: """
            Writes the keypair to $RESPONDER_CLIENT_KEY, else $XDG_CONFIG_HOME/responder/client.key, else \
            ~/.config/responder/client.key (mode 0600); an existing key is kept. The CLI, the MCP server, the bridge \
            and the sample clients use it whenever an engine's discovery file names a curveServerKey. The engine admits \
            the keys listed in its authorized_clients file: --authorize adds this one for the engine --name (on this \
            machine, same user); otherwise add the printed line to that file yourself.
            """
    )

    @Option(help: ArgumentHelp("Where to write the keypair. Default: see above.", valueName: "file"))
    var output: String?

    @Flag(
        help:
            "Add the public key to authorized_clients in the state directory of the engine --name ($XDG_STATE_HOME/responder/<name>/)."
    )
    var authorize = false

    // --name (the engine whose authorized_clients --authorize adds to) is the global option.
    @ParentCommand var responder: Responder
    @OptionGroup var global: GlobalOptions

    @Option(
        help: ArgumentHelp(
            "The engine's state directory, for --authorize. Default: $XDG_STATE_HOME/responder/<name>, else ~/.local/state/responder/<name>.",
            valueName: "dir"))
    var stateDir: String?

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let path = output ?? ClientKeys.defaultPath(environment: environment)
        let exists =
            FileManager.default.fileExists(atPath: path)
            || (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil
        let publicKey = exists ? try ClientKeys.load(path).public.z85 : try ClientKeys.generate(at: path).z85
        let line = "\(publicKey) \(Self.comment())"
        var authorized: (file: String, added: Bool)?
        if authorize {
            let dir = stateDir ?? Discovery.defaultStateDirectory(name: global.name, environment: environment)
            authorized = (
                "\(dir)/authorized_clients", try AuthorizedClientsFile.add(line, key: publicKey, directory: dir)
            )
        }
        if global.json {
            var members: [(key: String, value: JSON)] = [
                ("keyFile", .string(path)), ("publicKey", .string(publicKey)), ("created", .bool(!exists))
            ]
            if let authorized {
                members += [("authorizedClients", .string(authorized.file)), ("added", .bool(authorized.added))]
            }
            Output.line(JSONCodec.encodeString(.object(members)))
            return
        }
        Output.line(exists ? "keeping the existing key \(path)" : "wrote \(path)")
        Output.line("public key: \(publicKey)")
        if let authorized {
            Output.line(authorized.added ? "added to \(authorized.file)" : "already in \(authorized.file)")
        } else {
            Output.line(
                "to admit it, add this line to the engine's authorized_clients (e.g. ~/.local/state/responder/<name>/authorized_clients):"
            )
            Output.line(line)
        }
    }

    /// `user@host`, so that a line in authorized_clients says whose key it is.
    static func comment() -> String {
        let user = getpwuid(getuid()).map { String(cString: $0.pointee.pw_name) } ?? "uid\(getuid())"
        return "\(user)@\(ProcessInfo.processInfo.hostName)"
    }
}

/// Appends to an engine's authorized_clients: the file (and its directory) must be this user's alone.
enum AuthorizedClientsFile {
    static func add(_ line: String, key: String, directory: String) throws -> Bool {
        if !FileManager.default.fileExists(atPath: directory) {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        try OwnedFile.checkDirectory(directory, what: "state directory")
        let path = "\(directory)/authorized_clients"
        let existing: [UInt8]
        // A final catch: swift-frontend 6.3.1 crashes on a typed throw caught only `where` (BRIEF).
        do { existing = try OwnedFile.contents(path, what: "authorized_clients file") } catch  where error.isMissing {
            existing = []
        } catch { throw error }
        if String(decoding: existing, as: UTF8.self).split(separator: "\n").contains(where: {
            $0.split(separator: " ").first.map(String.init) == key
        }) {
            return false
        }
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw ValidationError("cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let text = (existing.isEmpty || existing.last == 0x0A ? "" : "\n") + line + "\n"
        let written = text.withCString { write(fd, $0, strlen($0)) }
        guard written == text.utf8.count else { throw ValidationError("cannot write \(path)") }
        return true
    }
}
