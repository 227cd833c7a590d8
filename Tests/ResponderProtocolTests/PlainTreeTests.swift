import Foundation
import ResponderJSON
import Testing

@testable import ResponderProtocol

/// A large tree.load's tree is read from its text (`PlainTree`) without a `JSON` tree. It may
/// leave a tree to the general reader (`NodeTree(wire:path:)`), but what it reads must be what that reader
/// reads — the same nodes, in the same order, with the same parents — and it must never accept a tree that
/// reader refuses (the refusal and its words belong to that reader).
@Suite struct PlainTreeTests {
    static func general(_ text: [UInt8]) -> NodeTree? {
        guard var json = try? JSONCodec.decode(text, maxDepth: 1_000_000) else { return nil }
        defer { JSON.release(&json) }
        return try? NodeTree(wire: json, path: "tree")
    }

    /// The plain reader over a whole text (the node object and nothing after it but whitespace).
    static func plain(_ text: [UInt8], maxDepth: Int = 1_000_000) -> NodeTree? {
        text.withUnsafeBufferPointer { b -> NodeTree? in
            var s = PlainScanner(b)
            s.skipWhitespace()
            guard let read = PlainTree.read(b, from: s.i, path: "tree", maxDepth: maxDepth) else { return nil }
            var rest = PlainScanner(b)
            rest.i = read.end
            rest.skipWhitespace()
            return rest.atEnd ? read.tree : nil
        }
    }

    /// The implication the engine relies on: read here means read there, the same way.
    static func agrees(_ text: [UInt8]) -> Bool {
        guard let plain = plain(text) else { return true }
        return general(text) == plain
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The example worlds' trees, as written (indented) and compact.
    static func exampleTrees() throws -> [[UInt8]] {
        var trees: [[UInt8]] = []
        for name in ["demo-world.json", "p13-world.json"] {
            let data = try Data(contentsOf: repository.appendingPathComponent("Protocol/examples/\(name)"))
            let file = try JSONCodec.decode(Array(data))
            let tree = try #require(file["tree"])
            trees.append(JSONCodec.encode(tree))
            // As written: the "tree" member's text cut out of the file, indentation and all.
            let text = String(decoding: data, as: UTF8.self)
            let start = try #require(text.range(of: "\"tree\":"))
            var cut = String(text[start.upperBound...]).trimmingCharacters(in: .whitespacesAndNewlines)
            // The file's other members follow the tree: keep the tree's object only (balanced braces, no braces in strings here).
            var depth = 0, end = cut.startIndex
            for i in cut.indices {
                if cut[i] == "{" { depth += 1 }
                if cut[i] == "}" { depth -= 1; if depth == 0 { end = cut.index(after: i); break } }
            }
            cut = String(cut[..<end])
            trees.append(Array(cut.utf8))
        }
        return trees
    }

    @Test func theExampleWorldsAreReadAsTheGeneralReaderReadsThem() throws {
        for text in try Self.exampleTrees() {
            let plain = Self.plain(text)
            #expect(plain != nil, "\(String(decoding: text.prefix(200), as: UTF8.self))")
            #expect(plain == Self.general(text))
        }
    }

    /// Trees of windows, views and controls with frames and a few other fields, members in any order, whitespace
    /// anywhere a token may be separated.
    static func generated(_ seed: UInt64, nodes: Int) -> [UInt8] {
        var rng = XorShift(seed: seed &* 2 &+ 1)
        let spaces = [" ", "\n  ", "\t", ""]
        func ws() -> String { rng.next() % 3 == 0 ? spaces[Int(rng.next() % 4)] : "" }
        func number() -> String {
            switch rng.next() % 6 {
            case 0: return "\(Int(rng.next() % 2000))"
            case 1: return "\(Double(rng.next() % 100_000) / 8)"
            case 2: return "0"
            case 3: return "1.5e2"
            case 4: return "\(Int(rng.next() % 500))E-1"
            default: return "-\(Int(rng.next() % 100))"
            }
        }
        // Sizes are not negative: a negative one is the frame field's to word.
        func size() -> String { rng.next() % 4 == 0 ? "12.25" : "\(Int(rng.next() % 900))" }
        var counter = 0
        func node(kind: String, depth: Int) -> String {
            counter += 1
            var members = ["\"id\":\(ws())\"n\(counter)\"", "\"kind\":\(ws())\"\(kind)\""]
            if kind != "application" {
                members.append(
                    "\"frame\":\(ws())[\(ws())\(number()),\(ws())\(number())\(ws()),\(size()),\(ws())\(size())\(ws())]")
            }
            if kind == "view" || kind == "control" {
                if rng.next() % 3 == 0 { members.append("\"hidden\":\(rng.next() % 2 == 0 ? "true" : "false")") }
                if rng.next() % 3 == 0 { members.append("\"alpha\":\(ws())0.5") }
                if rng.next() % 5 == 0 { members.append("\"revision\":\(ws())7") }
                if rng.next() % 5 == 0 {
                    members.append("\"frame\":null".replacingOccurrences(of: "frame", with: "boundsOrigin"))
                }
            }
            var children: [String] = []
            if depth < 4 {
                let n = counter < nodes ? Int(rng.next() % 5) : 0
                for _ in 0..<n where counter < nodes {
                    children.append(
                        node(
                            kind: kind == "application" ? "window" : (rng.next() % 3 == 0 ? "control" : "view"),
                            depth: depth + 1))
                }
            }
            switch rng.next() % 4 {
            case 0: members.append("\"children\":\(ws())[\(children.joined(separator: ",\(ws())"))]")
            case 1 where children.isEmpty: members.append("\"children\":null")
            case 1, 2:
                members.insert(
                    "\"children\":[\(ws())\(children.joined(separator: "\(ws()),"))\(ws())]",
                    at: Int(rng.next() % UInt64(members.count + 1)))
            default: if !children.isEmpty { members.append("\"children\":[\(children.joined(separator: ","))]") }
            }
            // Any order: the general reader reads by key, and so must this one.
            for i in members.indices.reversed() where i > 0 && rng.next() % 2 == 0 {
                members.swapAt(i, Int(rng.next() % UInt64(i + 1)))
            }
            return "{\(ws())" + members.map { "\($0)\(ws())" }.joined(separator: ",\(ws())") + "}"
        }
        return Array(node(kind: "application", depth: 0).utf8)
    }

    @Test func generatedTreesAreReadAsTheGeneralReaderReadsThem() {
        var read = 0
        for seed in 0..<300 as Range<UInt64> {
            let text = Self.generated(seed, nodes: 40)
            let plain = Self.plain(text)
            if plain != nil { read += 1 }
            #expect(plain == Self.general(text), "seed \(seed): \(String(decoding: text, as: UTF8.self))")
        }
        // The generator writes only the common shape: every tree is read here.
        #expect(read == 300)
    }

    /// A snapshot's revisions as the general path reads them: the tree by the general reader, each node's
    /// `revision` member by its id. nil where the plain reader must leave the snapshot to it: a tree it leaves, or a
    /// revision that is not a plain non-negative integer.
    static func generalSnapshot(_ text: [UInt8]) -> (tree: NodeTree, revisions: [Int?])? {
        guard plain(text) != nil, let tree = general(text), let document = try? JSONCodec.decode(text) else {
            return nil
        }
        var byID: [String: Int] = [:]
        var stack = [document]
        while let node = stack.popLast() {
            stack.append(contentsOf: node["children"]?.arrayValue ?? [])
            guard let member = node["revision"] else { continue }
            guard case .number(let n) = member, n >= 0, n < 1e15, let r = Int(exactly: n) else { return nil }
            byID[node["id"]?.stringValue ?? ""] = r
        }
        return (tree, tree.entries.map { byID[$0.spec.id] })
    }

    /// A snapshot's revisions are read with its tree, as the general path reads them, whatever their text: a plain
    /// integer anywhere among a node's members, or text that leaves the snapshot to the general reader.
    @Test func aSnapshotsRevisionsAreReadAsTheGeneralPathReadsThem() {
        let revisions = [
            "7", "0", "-0", " 12 ", "999999999999999", "1000000000000000", "1.5", "2.0", "-1", "1e3",
            "\"7\"", "null", "[7]", "7,\"revision\":8"
        ]
        var read = 0, left = 0
        for seed in 0..<120 as Range<UInt64> {
            let revision = revisions[Int(seed) % revisions.count]
            // Each `"revision":<whitespace>7` the generator writes, its value replaced.
            var text: [UInt8] = []
            let generated = Self.generated(seed, nodes: 40), key = Array("\"revision\":".utf8)
            var i = 0
            while i < generated.count {
                guard generated[i...].starts(with: key) else {
                    text.append(generated[i])
                    i += 1
                    continue
                }
                text += key
                i += key.count
                while generated[i] != UInt8(ascii: "7") { i += 1 }
                text += Array(revision.utf8)
                i += 1
            }
            let plain = PlainTree.readSnapshot(text, path: "tree")
            let general = Self.generalSnapshot(text)
            if plain == nil { left += 1 } else { read += 1 }
            #expect(plain?.tree == general?.tree, "seed \(seed): \(String(decoding: text, as: UTF8.self))")
            #expect(plain?.revisions == general?.revisions, "seed \(seed): \(String(decoding: text, as: UTF8.self))")
        }
        // Both outcomes happen: the comparison is not only of nils, nor only of plain revisions.
        #expect(read > 40 && left > 20, "\(read) read, \(left) left")
    }

    @Test(.tags(.slow)) func slowEveryMutationIsReadTheGeneralReadersWayOrLeftToIt() throws {
        let texts = [Self.generated(7, nodes: 8), Self.generated(11, nodes: 6), try Self.exampleTrees()[0]]
        let replacements = Array("{}[],:\"\\01-eatn x".utf8) + [0xC3, 0x0A]
        var failures = 0, readMutants = 0
        for text in texts {
            for i in text.indices {
                var mutants: [[UInt8]] = []
                for r in replacements where r != text[i] {
                    var m = text
                    m[i] = r
                    mutants.append(m)
                }
                var deleted = text
                deleted.remove(at: i)
                mutants.append(deleted)
                var doubled = text
                doubled.insert(text[i], at: i)
                mutants.append(doubled)
                for m in mutants {
                    if Self.plain(m) != nil { readMutants += 1 }
                    if !Self.agrees(m) {
                        failures += 1
                        if failures < 5 { Issue.record("disagrees: \(String(decoding: m, as: UTF8.self))") }
                    }
                }
            }
        }
        #expect(failures == 0)
        // Whitespace, digits and the like leave a tree readable: the comparison above is not only of nils.
        #expect(readMutants > 100)
    }

    @Test(arguments: [
        #"{"id":"a","kind":"view","id":"b"}"#,  // twice: the general reader takes the last
        #"{"id":"a","kind":"view","frame":[0,0,1,1],"frame":[0,0,2,2]}"#,
        #"{"id":"a","kind":"view","frame":[0,0,1,1],"frame":"x"}"#,  // a plain frame, then another
        #"{"id":"a","kind":"view","frame":"x","frame":[0,0,1,1]}"#,
        #"{"id":"a","kind":"view","frames":[0,0,1,1]}"#,  // a common key's text with more after it
        #"{"identifier":"a","id":"a","kind":"view"}"#,
        #"{"id":"a","kind":"view","childrenX":[]}"#,
        #"{"id":"a","kind":"view","children":[],"children":[]}"#,
        #"{"id":"caf\u00e9","kind":"view"}"#,  // an escape
        #"{"id":"","kind":"view"}"#,  // refused by the general reader
        #"{"id":"a","kind":"windoww"}"#,
        #"{"id":"a","kind":"application","frame":[0,0,1,1]}"#,  // frame does not apply
        #"{"id":"a","kind":"view","frame":[0,0,-1,1]}"#,
        #"{"id":"a","kind":"view","nope":1}"#,
        #"{"id":"a","kind":"view","children":{}}"#,
        #"{"id":"a","kind":"view","children":[1]}"#,
        #"{}"#, #"[]"#, ""
    ])
    func anythingElseIsLeftToTheGeneralReader(_ text: String) {
        #expect(Self.plain(Array(text.utf8)) == nil)
    }

    /// The common keys are matched by words of the text: in any order, spaced, and too near the text's end for a
    /// word, they are read as the general reader reads them.
    @Test(arguments: [
        #"{"kind":"view","id":"a"}"#,
        #"{"kind":"view","frame":[1,2,3,4],"id":"a"}"#,
        #"{"children":[{"kind":"view","id":"c"}],"frame":[0,0,5,5],"kind":"view","id":"a"}"#,
        #"{ "id" : "a" , "kind" : "window" , "frame" : [0, 0, 1, 1] , "children" : null }"#,
        #"{"id":"a","kind":"view","children":[{"id":"b","kind":"control","enabled":false}],"frame":[0,0,1,1]}"#
    ])
    func commonKeysAreReadWhereverTheyStand(_ text: String) {
        let bytes = Array(text.utf8)
        #expect(Self.plain(bytes) != nil)
        #expect(Self.plain(bytes) == Self.general(bytes))
    }

    @Test func aDeepChainIsReadWithoutRecursionAndDeeperThanTheLimitIsLeft() {
        let depth = 20_000
        var text = ""
        for i in 0..<depth { text += #"{"id":"d\#(i)","kind":"view","frame":[0,0,10,10],"children":["# }
        text += #"{"id":"leaf","kind":"view"}"#
        text += String(repeating: "]}", count: depth)
        let bytes = Array(text.utf8)
        let plain = Self.plain(bytes)
        #expect(plain?.entries.count == depth + 1)
        #expect(plain == Self.general(bytes))
        #expect(Self.plain(bytes, maxDepth: depth) == nil)
        #expect(Self.plain(bytes, maxDepth: depth + 1) != nil)
    }

    @Test func aTreeLoadIsSplitIntoItsTreeAndTheRestForTheGeneralReader() throws {
        let tree = Self.generated(3, nodes: 30)
        let standIn = Array(#"{"id":"app","kind":"application"}"#.utf8)
        let head = Array(#"{"jsonrpc":"2.0","id":12,"method":"tree.load","params":{"session":"s","tree":"#.utf8)
        let body = head + tree + Array(#","ifRevision":3},"extra":[1,{"a":null}]}"#.utf8)
        let split = try #require(
            PlainTree.split(request: body, methods: ["tree.load"], standIn: standIn, maxDepth: 1000))
        #expect(split.tree == Self.general(tree))
        #expect(split.request == head + standIn + Array(#","ifRevision":3},"extra":[1,{"a":null}]}"#.utf8))
        // Not a tree.load, the tree twice, or nothing after the object but whitespace: the general reader's.
        let other = Array(
            String(decoding: body, as: UTF8.self).replacingOccurrences(of: "tree.load", with: "tree.get").utf8)
        #expect(PlainTree.split(request: other, methods: ["tree.load"], standIn: standIn, maxDepth: 1000) == nil)
        let twice = head + tree + Array(#","tree":{"id":"x","kind":"application"}}}"#.utf8)
        #expect(PlainTree.split(request: twice, methods: ["tree.load"], standIn: standIn, maxDepth: 1000) == nil)
        #expect(
            PlainTree.split(request: body + Array(" x".utf8), methods: ["tree.load"], standIn: standIn, maxDepth: 1000)
                == nil)
    }
}
