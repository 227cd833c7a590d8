import Foundation
import ResponderJSON
import ResponderProtocol

/// Reading JSON given on the command line: a file, `-` for stdin, or (for inline options) `@file`.
package enum InputFile {
    package static func read(_ path: String) throws(CLIError) -> JSON {
        let data: Data
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            if size >= StatusLine.largeBytes { StatusLine.show("reading \(path) (\(StatusLine.megabytes(size)))…") }
            guard let d = FileManager.default.contents(atPath: path) else { throw CLIError("cannot read \(path)") }
            data = d
        }
        do { return try JSONCodec.decode(Array(data)) } catch {
            throw CLIError("\(path == "-" ? "stdin" : path) is not valid JSON: \(error)")
        }
    }

    /// Inline JSON text, or the contents of a file when the text starts with `@`.
    package static func inline(_ text: String, option: String) throws(CLIError) -> JSON {
        if text.hasPrefix("@") { return try read(String(text.dropFirst())) }
        do { return try JSONCodec.decode(text) } catch { throw CLIError("\(option) is not valid JSON: \(error)") }
    }

    /// A world file: `{"tree": …, "detached"?: …}` or a bare application node.
    package static func world(_ path: String) throws(CLIError) -> (tree: JSON, detached: JSON?) {
        var json = try read(path)
        defer { JSON.release(&json) }  // all but what is returned (shared, so it stays whole)
        guard json.objectMembers != nil else {
            throw CLIError("\(path): expected an object ({\"tree\": …} or an application node)")
        }
        if let tree = json["tree"] { return (tree, json["detached"]) }
        return (json, nil)
    }

    /// Frees a world read by `world` without recursion.
    package static func release(_ world: inout (tree: JSON, detached: JSON?)) {
        JSON.release(&world.tree)
        if world.detached != nil { JSON.release(&world.detached!) }
    }

    /// Counts the nodes of a nested tree (`children` arrays), iteratively.
    package static func countNodes(_ root: JSON?) -> Int {
        guard let root else { return 0 }
        var count = 0
        var stack = [root]
        while let node = stack.popLast() {
            guard node.objectMembers != nil else { continue }
            count += 1
            stack.append(contentsOf: node["children"]?.arrayValue ?? [])
        }
        return count
    }
}
