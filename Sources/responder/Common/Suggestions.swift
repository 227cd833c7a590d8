import ArgumentParser
import Foundation
import ResponderClient
import ResponderJSON
import ResponderOutput
import ResponderProtocol

/// "Did you mean …?" for what a person mistypes: a subcommand, a method of `call`, a node id, a field name. The
/// engine's errors name the bad method, id or field (`data.method`, `data.id`, `data.field`); the nearest known
/// one is found here, on the client, so the engine's replies stay as the protocol writes them.
enum Suggestions {
    /// The candidate nearest to `word` by edit distance (letters' case ignored), if it is near enough to be a
    /// slip of the fingers: at most a third of the word's length, at least one and at most three edits.
    static func nearest(_ word: String, in candidates: some Sequence<String>) -> String? {
        let typed = Array(word.lowercased())
        let allowed = max(1, min(3, typed.count / 3))
        var best: (name: String, distance: Int)?
        for candidate in candidates where candidate != word {
            let d = distance(typed, Array(candidate.lowercased()), limit: allowed)
            if d <= allowed, d < (best?.distance ?? .max) { best = (candidate, d) }
        }
        return best?.name
    }

    /// Edit distance counting a swap of two neighbouring letters as one edit (optimal string alignment), given
    /// up (limit + 1) once it cannot be within `limit`.
    static func distance(_ a: [Character], _ b: [Character], limit: Int) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var before: [Int] = []
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + [Int](repeating: 0, count: b.count)
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], before[j - 2] + 1)
                }
            }
            if current.min()! > limit { return limit + 1 }
            before = previous
            previous = current
        }
        return previous[b.count]
    }

    /// The line to print under an engine error, or nil: the method, node id or field the engine could not find,
    /// and the known one nearest to it. `session` is where a node id is looked up.
    static func hint(for error: RPCError, connection: ResponderConnection, session: String) -> String? {
        switch error.name {
        case .methodNotFound:
            guard let method = error.detail("method")?.stringValue else { return nil }
            return nearest(method, in: MethodRegistry.names).map { "did you mean the method \"\($0)\"?" }
        case .nodeNotFound:
            guard let id = error.detail("id")?.stringValue,
                var tree = try? connection.call(TreeGetRequest.method, .object([("session", .string(session))]))
            else { return nil }
            defer { JSON.release(&tree) }
            return nearest(id, in: ids(tree["tree"])).map { "did you mean the node \"\($0)\"?" }
        case .sessionNotFound:
            guard let name = error.detail("session")?.stringValue,
                let list = try? connection.call(SessionListRequest.method, .object([]))
            else { return nil }
            let names = (list["sessions"]?.arrayValue ?? []).compactMap { $0["session"]?.stringValue ?? $0.stringValue }
            return nearest(name, in: names).map { "did you mean the session \"\($0)\"?" }
        default:
            guard let field = error.detail("field")?.stringValue, error.message.contains("unknown field") else {
                return nil
            }
            let name = lastComponent(field)
            return nearest(name, in: knownFields).map { "did you mean the field \"\($0)\"?" }
        }
    }

    /// `ops[0].set.hiden` → `hiden`.
    static func lastComponent(_ path: String) -> String {
        String(path.split(whereSeparator: { $0 == "." || $0 == "[" || $0 == "]" }).last ?? Substring(path))
    }

    /// Every node field, and the members a node has besides its fields.
    static var knownFields: [String] {
        NodeField.all.map(\.name) + ["id", "kind", "children", "revision"]
    }

    /// Every id of a nested tree (iterative: an imported tree may nest deeply).
    static func ids(_ root: JSON?) -> [String] {
        var out: [String] = []
        var stack = root.map { [$0] } ?? []
        while let node = stack.popLast() {
            if let id = node["id"]?.stringValue { out.append(id) }
            stack.append(contentsOf: node["children"]?.arrayValue ?? [])
        }
        return out
    }

    /// The session the command line addresses: `--session NAME` or `--session=NAME`, else the default.
    static func session(in arguments: [String]) -> String {
        for (i, a) in arguments.enumerated() {
            if a == "--session", i + 1 < arguments.count { return arguments[i + 1] }
            if a.hasPrefix("--session=") { return String(a.dropFirst("--session=".count)) }
        }
        return SessionOptions.defaultSession
    }

    /// For a command line the parser refused: the first word that should name a subcommand and does not, with
    /// the nearest subcommand (`responder tapp 1 2` → tapp, tap). Options before it and their values are
    /// skipped; a subcommand's own subcommands are looked in.
    static func subcommand(_ arguments: [String], root: any ParsableCommand.Type) -> (
        typed: String, nearest: String, command: String
    )? {
        let valued: Set<String> = [
            "--name", "--dir", "--connect", "--timeout", "--client-id", "--owner", "--session"
        ]
        var command: any ParsableCommand.Type = root
        var path = [root.configuration.commandName ?? "responder"]
        var i = 0
        while i < arguments.count {
            let a = arguments[i]
            if a == "--" { return nil }
            if a.hasPrefix("-") {
                i += valued.contains(a) ? 2 : 1
                continue
            }
            let children = command.configuration.subcommands
            guard !children.isEmpty else { return nil }
            let names = children.compactMap { $0.configuration.commandName }
            guard let child = children.first(where: { $0.configuration.commandName == a }) else {
                return nearest(a, in: names).map { (a, $0, path.joined(separator: " ")) }
            }
            command = child
            path.append(a)
            i += 1
        }
        return nil
    }
}
