import ResponderJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A node tree read straight from its text, without a `JSON` tree: for a million-node tree.load, parsing the
/// document into `JSON`, reading the nodes out of it and freeing it would be most of the load's work.
///
/// Only the common shape is read here, as `PlainRequest` does for small requests: keys and the strings `id` and
/// `kind` plain ASCII without escapes, no key twice in a node, every other member's value one that
/// `PlainScanner.skipValue` accepts. Each node is checked by the same rules as `NodeTree.read`, each field read by
/// its `NodeField`. Anything else — a shape it does not read, or any error — is nil, and the general reader reads
/// the whole document, so every refusal and its message stay that reader's (`PlainTreeTests` compare the two on
/// generated and mutated trees).
public enum PlainTree {
    /// The node object starting at `start` in `b` and everything under it, as `NodeTree(document:path:)` reads
    /// it, and where its text ends. nil for anything that reader should read, and for a tree deeper than
    /// `maxDepth` (which the world refuses in its own words).
    public static func read(_ b: UnsafeBufferPointer<UInt8>, from start: Int, path: String, maxDepth: Int) -> (
        tree: NodeTree, end: Int
    )? {
        read(b, from: start, path: path, maxDepth: maxDepth, revisions: nil, emit: nil).map { ($0.tree, $0.end) }
    }

    /// The node object starting at `start` in `b` and everything under it, read node by node in document order as
    /// `streamSnapshot` reads a snapshot's (each node handed to `node` when its children open, with its parent's
    /// place in that order), and where its text ends. A `revision` member is a field here, as in `read`. nil
    /// for anything `read` leaves to the general reader, for a member after `children`, and when `node` answers
    /// false; the nodes handed on until then are then to be thrown away.
    public static func streamTree(
        _ b: UnsafeBufferPointer<UInt8>, from start: Int, maxDepth: Int,
        node: (_ spec: inout NodeSpec, _ parent: Int) -> Bool
    ) -> Int? {
        withoutActuallyEscaping(node) { node in
            read(
                b, from: start, path: "", maxDepth: maxDepth, revisions: nil,
                emit: { spec, parent, _ in node(&spec, parent) }, snapshot: false)?.end
        }
    }

    /// At least as many nodes as `text` holds, and no more than its `{` bytes (see `nodeBound`): what to make
    /// room for before nodes read from it are stored one by one.
    public static func nodeBound(of text: [UInt8]) -> Int {
        text.withUnsafeBufferPointer { nodeBound($0, from: 0) }
    }

    /// A state snapshot's tree read node by node in document order (each node before its children, its parent
    /// before it), each handed to `node` (to be moved out of its argument) as soon as it is whole, with its
    /// parent's place in that order (-1 for the root) and its revision: nothing of the tree is kept here. A
    /// snapshot is written with each node's `children` last, so a node is whole when its children open. False for
    /// anything `readSnapshot` leaves to the general reader, for a member after `children`, and when `node`
    /// answers false; the nodes handed on until then are then to be thrown away.
    public static func streamSnapshot(
        _ text: [UInt8], node: (_ spec: inout NodeSpec, _ parent: Int, _ revision: Int?) -> Bool
    ) -> Bool {
        withoutActuallyEscaping(node) { node in
            text.withUnsafeBufferPointer { b -> Bool in
                var s = PlainScanner(b)
                s.skipWhitespace()
                guard
                    let read = read(b, from: s.i, path: "", maxDepth: .max, revisions: nil, emit: node, snapshot: true)
                else {
                    return false
                }
                var rest = PlainScanner(b)
                rest.i = read.end
                rest.skipWhitespace()
                return rest.atEnd
            }
        }
    }

    /// A state snapshot's tree (`World.encodedChanges`): the nodes as `read` reads them and each node's
    /// `revision` member, in the tree's entry order (nil where a node has none). nil for anything the general
    /// reader should read, as for `read`, and for a revision that is not a plain non-negative integer.
    public static func readSnapshot(_ text: [UInt8], path: String) -> (tree: NodeTree, revisions: [Int?])? {
        text.withUnsafeBufferPointer { b -> (tree: NodeTree, revisions: [Int?])? in
            var revisions: [Int?] = []
            var s = PlainScanner(b)
            s.skipWhitespace()
            guard let read = read(b, from: s.i, path: path, maxDepth: .max, revisions: &revisions, emit: nil) else {
                return nil
            }
            var rest = PlainScanner(b)
            rest.i = read.end
            rest.skipWhitespace()
            guard rest.atEnd else { return nil }
            return (read.tree, revisions)
        }
    }

    /// `revisions`, when given, collects each node's revision (document order while reading, entry order at the end).
    /// `emit`, when given, is handed each node as `streamSnapshot` describes, and the tree returned is empty;
    /// `snapshot`: a node's `revision` member is its saved revision, handed on with it, rather than a field.
    private static func read(
        _ b: UnsafeBufferPointer<UInt8>, from start: Int, path: String, maxDepth: Int,
        revisions: UnsafeMutablePointer<[Int?]>?, emit: ((inout NodeSpec, Int, Int?) -> Bool)?, snapshot: Bool = false
    ) -> (tree: NodeTree, end: Int)? {
        var s = PlainScanner(b)
        s.i = start
        // In document order (depth first): a node's entry is made when its object opens (its parent's place in
        // document order, for now), its spec set when it closes. `NodeTree` lists them breadth first: reordered
        // in place at the end, so that a million specs are not held twice.
        var entries: [NodeTree.Entry] = []
        // Reserved at once: grown by doubling, a million entries are copied about twice over into fresh pages.
        if emit == nil {
            let expected = nodeBound(b, from: start)
            entries.reserveCapacity(expected)
            revisions?.pointee.reserveCapacity(expected)
        }
        var count = 0
        // The open nodes around the innermost one (`current`), outermost first. The innermost is held apart:
        // each of its members changes it, and in the list each change would be checked for room and sole
        // ownership first.
        var open: [Frame] = []
        // The open nodes' other members (key, value), each node's above its parent's.
        var fields: [(key: Range<Int>, value: Range<Int>)] = []

        func begin(parent: Int, childIndex: Int) -> Frame {
            if emit == nil {
                entries.append(
                    NodeTree.Entry(spec: Self.unread, parent: parent < 0 ? nil : parent, childIndex: childIndex))
                revisions?.pointee.append(nil)
            }
            count += 1
            return Frame(node: count - 1, parent: parent, fieldsStart: fields.count)
        }
        // A streamed node, whole: its spec made and handed on.
        func emitted(_ frame: Frame) -> Bool {
            var spec = Self.unread
            return finish(frame, b, fields[frame.fieldsStart...], into: &spec)
                && emit!(&spec, frame.parent, frame.revision)
        }

        let commonKeys = CommonKeys()
        s.skipWhitespace()
        guard s.take(UInt8(ascii: "{")) else { return nil }
        var current = begin(parent: -1, childIndex: 0)
        while true {
            s.skipWhitespace()
            switch current.state {
            case .first:
                // An empty node object has no id: the general reader words that.
                guard !s.peek(UInt8(ascii: "}")) else { return nil }
            case .afterMember:
                if s.take(UInt8(ascii: "}")) {
                    if emit != nil {
                        guard current.emitted || emitted(current) else { return nil }
                    } else {
                        guard finish(current, b, fields[current.fieldsStart...], into: &entries[current.node].spec)
                        else { return nil }
                        revisions?.pointee[current.node] = current.revision
                    }
                    if fields.count > current.fieldsStart { fields.removeLast(fields.count - current.fieldsStart) }
                    guard let parent = open.popLast() else {
                        if emit != nil { return (NodeTree(entries: [], path: path), s.i) }
                        if let revisions {
                            breadthFirst(&entries, alongside: &revisions.pointee)
                        } else {
                            var none: [Int?] = []
                            breadthFirst(&entries, alongside: &none)
                        }
                        return (NodeTree(entries: entries, path: path), s.i)
                    }
                    current = parent
                    continue
                }
                guard s.take(UInt8(ascii: ",")) else { return nil }
                s.skipWhitespace()
            case .inChildren:
                if s.take(UInt8(ascii: ",")) {
                    s.skipWhitespace()
                    guard open.count + 1 < maxDepth, s.take(UInt8(ascii: "{")) else { return nil }
                    current.childCount += 1
                    open.append(current)
                    current = begin(parent: current.node, childIndex: current.childCount - 1)
                    continue
                }
                guard s.take(UInt8(ascii: "]")) else { return nil }
                current.state = .afterMember
                continue
            }
            // A member; when streaming, none after `children` (its node was handed on).
            guard !current.emitted else { return nil }
            let found: (key: Key, text: Range<Int>)
            if let common = commonKeys.take(&s) {
                found = common
            } else {
                guard let text = s.plainString() else { return nil }
                found = (Key(b, text), text)
            }
            guard s.colon() else { return nil }
            let key = found.text
            current.state = .afterMember
            switch found.key {
            case .revision where revisions != nil || snapshot:
                // A snapshot's revision, read as it is passed over: a plain non-negative integer, or the general
                // reader reads the snapshot.
                guard current.revision == nil, let (n, _) = s.number(), n >= 0, n < 1e15, let r = Int(exactly: n)
                else { return nil }
                current.revision = r
            case .id:
                guard current.id == nil, let value = s.plainString() else { return nil }
                current.id = value
            case .kind:
                guard current.kind == nil, let value = s.plainString() else { return nil }
                current.kind = value
            case .children:
                guard !current.sawChildren else { return nil }
                current.sawChildren = true
                if emit != nil {
                    guard emitted(current) else { return nil }
                    current.emitted = true
                }
                if s.literal("null") { continue }
                guard s.take(UInt8(ascii: "[")) else { return nil }
                s.skipWhitespace()
                if s.take(UInt8(ascii: "]")) { continue }
                guard open.count + 1 < maxDepth, s.take(UInt8(ascii: "{")) else { return nil }
                current.state = .inChildren
                current.childCount = 1
                open.append(current)
                current = begin(parent: current.node, childIndex: 0)
            case .field, .revision:
                let isFrame = key.count == 5 && PlainScanner.same(b, key, "frame")
                guard !(isFrame && current.frame != nil),
                    !fields[current.fieldsStart...].contains(where: { sameBytes(b, $0.key, key) })
                else { return nil }
                let valueStart = s.i
                // A plain frame is read as it is passed over (nearly every node has one), not scanned twice, and
                // kept with its node rather than among the other members.
                if isFrame, let frame = readFrame(&s) {
                    current.frame = frame
                    continue
                }
                s.i = valueStart
                guard s.skipValue() else { return nil }
                fields.append((key, valueStart..<s.i))
            }
        }
    }

    /// A node whose object is open.
    private struct Frame {
        enum State { case first, afterMember, inChildren }
        /// Its place in document order, and its parent's (-1 for the root).
        let node: Int
        let parent: Int
        let fieldsStart: Int
        /// Streaming: it has been handed on (its `children` opened).
        var emitted = false
        var state = State.first
        var id: Range<Int>?
        var kind: Range<Int>?
        var sawChildren = false
        var childCount = 0
        /// Its `frame` member when that is one `NodeTree.plainFrame` takes (a frame that is not is among the node's
        /// other members).
        var frame: Rect?
        /// Its `revision` member (a snapshot's): nil until read, as one that is not a plain integer ends the read.
        var revision: Int?

        init(node: Int, parent: Int, fieldsStart: Int) {
            self.node = node
            self.parent = parent
            self.fieldsStart = fieldsStart
        }
    }

    /// The node's spec, checked as `NodeTree.read` checks it, made in `spec` (in its place in the list: a spec
    /// is large, and a returned one is copied there); false where that reader would refuse it.
    private static func finish(
        _ f: Frame, _ b: UnsafeBufferPointer<UInt8>, _ fields: ArraySlice<(key: Range<Int>, value: Range<Int>)>,
        into spec: inout NodeSpec
    ) -> Bool {
        guard let idRange = f.id, let kindRange = f.kind else { return false }
        let s = PlainScanner(b)
        let id = s.string(idRange)
        guard !id.isEmpty, idRange.count <= NodeTree.maxIDLength, let kind = kind(b, kindRange) else { return false }
        spec = NodeSpec(id: id, kind: kind)
        if let frame = f.frame {
            // Only a view has a frame: for any other kind the general reader words the refusal.
            guard kind.isView else { return false }
            spec.frame = frame
        }
        for (keyRange, valueRange) in fields {
            let key = s.string(keyRange)
            guard !NodeField.isStructural(key) else { continue }
            guard let field = NodeField.named(key), field.applies(to: kind),
                let value = try? JSONCodec.decode(
                    Array(UnsafeBufferPointer(rebasing: b[valueRange])), strings: KnownStrings.table)
            else { return false }
            do throws(RPCError) { try field.read(value, into: &spec, path: "") } catch { return false }
        }
        return spec.classFieldError() == nil
    }

    /// `[x, y, width, height]` of four plain numbers that `NodeTree.plainFrame` takes, read from the scanner's
    /// place to the array's end; nil otherwise (the scanner then anywhere).
    private static func readFrame(_ s: inout PlainScanner) -> Rect? {
        guard s.take(UInt8(ascii: "[")) else { return nil }
        var v: (Double, Double, Double, Double) = (0, 0, 0, 0)
        for k in 0..<4 {
            s.skipWhitespace()
            if k > 0 {
                guard s.take(UInt8(ascii: ",")) else { return nil }
                s.skipWhitespace()
            }
            guard let (n, _) = s.number() else { return nil }
            switch k {
            case 0: v.0 = n
            case 1: v.1 = n
            case 2: v.2 = n
            default: v.3 = n
            }
        }
        s.skipWhitespace()
        guard s.take(UInt8(ascii: "]")) else { return nil }
        return NodeTree.plainFrame(x: v.0, y: v.1, width: v.2, height: v.3)
    }

    /// An entry's spec until its node's object closes.
    private static let unread = NodeSpec(id: "", kind: .view)

    /// Document order (each node's children after it, in order; each parent a document-order index) to
    /// `NodeTree`'s: breadth first, each parent an entry index. The entries are moved in place, following each
    /// cycle of the permutation, and `alongside` with them when it is not empty (one value per entry). The working
    /// lists hold 32-bit indices (a tree has fewer nodes than that): at a million nodes they are pages the kernel
    /// must clear, and as 64-bit ones twice as many.
    private static func breadthFirst(_ entries: inout [NodeTree.Entry], alongside values: inout [Int?]) {
        let n = entries.count
        // Each node's children, in order: in document order they come after it, in their order.
        var firstChild = [Int32](repeating: 0, count: n + 1)
        for i in 0..<n { if let p = entries[i].parent { firstChild[p + 1] += 1 } }
        for i in 0..<n { firstChild[i + 1] += firstChild[i] }
        var children = [Int32](repeating: 0, count: max(n - 1, 0))
        var filled = firstChild
        for i in 1..<max(n, 1) {
            guard let p = entries[i].parent else { continue }
            children[Int(filled[p])] = Int32(i)
            filled[p] += 1
        }
        filled = []
        var order = [Int32](repeating: 0, count: n)
        var newIndex = [Int32](repeating: 0, count: n)
        var tail = 1
        for head in 0..<n {
            let old = Int(order[head])
            newIndex[old] = Int32(head)
            for c in Int(firstChild[old])..<Int(firstChild[old + 1]) {
                order[tail] = children[c]
                tail += 1
            }
        }
        children = []
        firstChild = []
        let moveValues = !values.isEmpty
        precondition(!moveValues || values.count == n)
        entries.withUnsafeMutableBufferPointer { e in
            guard let base = e.baseAddress else { return }
            for i in 0..<n {
                if let p = base[i].parent { base[i].parent = Int(newIndex[p]) }
            }
            // Entry `head` takes the one at `order[head]`: each cycle is moved along once, its first entry held
            // aside (a move, not a copy: nothing is retained or released).
            var placed = [Bool](repeating: false, count: n)
            for start in 0..<n where !placed[start] {
                placed[start] = true
                guard Int(order[start]) != start else { continue }
                let first = (base + start).move()
                let firstValue = moveValues ? values[start] : nil
                var head = start
                while Int(order[head]) != start {
                    let from = Int(order[head])
                    (base + head).moveInitialize(from: base + from, count: 1)
                    if moveValues { values[head] = values[from] }
                    placed[from] = true
                    head = from
                }
                (base + head).initialize(to: first)
                if moveValues { values[head] = firstValue }
            }
        }
    }

    /// At least as many nodes as the text from `start` on can hold: the `{` bytes there (more where a field's
    /// value is an object or a string holds the byte), and no more than the shortest node object fits
    /// (`{"id":"a","kind":"view"}`, 24 bytes), so that text full of braces reserves no more than a tree of such
    /// nodes would take. A bound to reserve by: pages reserved and never written are never made resident.
    public static func nodeBound(_ b: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = b.baseAddress, start < b.count else { return 0 }
        let most = (b.count - start) / 24
        var count = 0
        var p = UnsafeRawPointer(base + start)
        let end = UnsafeRawPointer(base + b.count)
        while count < most, let found = memchr(p, Int32(UInt8(ascii: "{")), end - p) {
            count += 1
            p = UnsafeRawPointer(found) + 1
        }
        return count
    }

    private static func sameBytes(_ b: UnsafeBufferPointer<UInt8>, _ x: Range<Int>, _ y: Range<Int>) -> Bool {
        x.count == y.count && memcmp(b.baseAddress! + x.lowerBound, b.baseAddress! + y.lowerBound, x.count) == 0
    }

    /// The kind whose raw value the bytes are, compared as bytes: `NodeKind(rawValue:)` matched a string against
    /// each case's in turn, a fifth of reading a plain node.
    private static func kind(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> NodeKind? {
        for kind in kinds
        where kind.text.count == range.count
            && kind.text.withUnsafeBufferPointer({
                memcmp($0.baseAddress!, b.baseAddress! + range.lowerBound, range.count)
            }) == 0
        {
            return kind.kind
        }
        return nil
    }

    private static let kinds: [(kind: NodeKind, text: [UInt8])] = NodeKind.allCases.map {
        ($0, Array($0.rawValue.utf8))
    }

    /// The keys nearly every node has, each matched with its quotes by one or two loads of the text and a
    /// compare, rather than scanned byte by byte and then compared: in a large tree they are most of the text
    /// outside the values.
    private struct CommonKeys {
        /// A key's quoted text as the first eight bytes (masked to its length) and the two after them.
        struct Pattern {
            let key: Key
            let length: Int
            let mask: UInt64
            let first: UInt64
            let rest: UInt16

            init(_ key: Key, _ quoted: StaticString) {
                self.key = key
                length = quoted.utf8CodeUnitCount
                var bytes = [UInt8](repeating: 0, count: 10)
                for k in 0..<length { bytes[k] = quoted.utf8Start[k] }
                mask = length >= 8 ? .max : (1 << (8 * UInt64(length))) - 1
                first = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) } & mask
                rest = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 8, as: UInt16.self) }
            }
        }

        let patterns = [
            Pattern(.id, "\"id\""), Pattern(.kind, "\"kind\""), Pattern(.field, "\"frame\""),
            Pattern(.children, "\"children\""), Pattern(.revision, "\"revision\"")
        ]

        /// The key at the scanner's place when it is one of the patterns, with the range of its text between the
        /// quotes, the scanner moved past it; nil (the scanner unmoved) otherwise.
        func take(_ s: inout PlainScanner) -> (key: Key, text: Range<Int>)? {
            // Ten bytes are read whatever the key: nearer the end, the plain way.
            guard s.i + 10 <= s.b.count, let base = s.b.baseAddress else { return nil }
            let at = UnsafeRawPointer(base + s.i)
            let word = at.loadUnaligned(as: UInt64.self)
            for p in patterns where word & p.mask == p.first {
                if p.length > 8, at.loadUnaligned(fromByteOffset: 8, as: UInt16.self) != p.rest { continue }
                let start = s.i + 1
                s.i += p.length
                return (p.key, start..<(s.i - 1))
            }
            return nil
        }
    }

    private enum Key {
        case id, kind, children, revision, field

        init(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
            switch range.count {
            case 2: self = PlainScanner.same(b, range, "id") ? .id : .field
            case 4: self = PlainScanner.same(b, range, "kind") ? .kind : .field
            case 8:
                self =
                    PlainScanner.same(b, range, "children")
                    ? .children : PlainScanner.same(b, range, "revision") ? .revision : .field
            default: self = .field
            }
        }
    }
}

extension PlainTree {
    /// A request of one of `methods` whose `params.tree` is read here: its method, that tree, and the request with
    /// the tree's text replaced by `standIn`, for the general reader to read the rest (the envelope, the other
    /// params and every refusal of them). nil when anything is not read here: the general reader then reads it all.
    public static func split(request body: [UInt8], methods: [String], standIn: [UInt8], maxDepth: Int) -> (
        method: String, request: [UInt8], tree: NodeTree
    )? {
        split(request: body, methods: methods, standIn: standIn) { b, start in
            read(b, from: start, path: "tree", maxDepth: maxDepth)
        }
    }

    /// The same, the tree read by `readTree` from its first byte in the body: what it made of the tree and where
    /// the tree's text ends, or nil to leave the request to the general reader.
    public static func split<Tree>(
        request body: [UInt8], methods: [String], standIn: [UInt8],
        readTree: (_ body: UnsafeBufferPointer<UInt8>, _ start: Int) -> (tree: Tree, end: Int)?
    ) -> (method: String, request: [UInt8], tree: Tree)? {
        var method = ""
        let found = body.withUnsafeBufferPointer { b -> (tree: Tree, text: Range<Int>)? in
            var s = PlainScanner(b)
            var sawMethod = false, sawParams = false
            var tree: (tree: Tree, text: Range<Int>)?
            s.skipWhitespace()
            guard s.take(UInt8(ascii: "{")) else { return nil }
            repeat {
                s.skipWhitespace()
                guard let key = s.plainString(), s.colon() else { return nil }
                if PlainScanner.Key(b, key) == .method {
                    guard !sawMethod, let m = s.plainString() else { return nil }
                    method = s.string(m)
                    guard methods.contains(method) else { return nil }
                    sawMethod = true
                } else if PlainScanner.Key(b, key) == .params {
                    guard !sawParams, s.take(UInt8(ascii: "{")) else { return nil }
                    sawParams = true
                    s.skipWhitespace()
                    if !s.take(UInt8(ascii: "}")) {
                        repeat {
                            s.skipWhitespace()
                            guard let member = s.plainString(), s.colon() else { return nil }
                            if PlainScanner.same(b, member, "tree") {
                                let start = s.i
                                guard tree == nil, let read = readTree(b, start) else { return nil }
                                s.i = read.end
                                tree = (read.tree, start..<read.end)
                            } else {
                                guard s.skipValue() else { return nil }
                            }
                            s.skipWhitespace()
                        } while s.take(UInt8(ascii: ","))
                        guard s.take(UInt8(ascii: "}")) else { return nil }
                    }
                } else {
                    guard s.skipValue() else { return nil }
                }
                s.skipWhitespace()
            } while s.take(UInt8(ascii: ","))
            guard s.take(UInt8(ascii: "}")) else { return nil }
            s.skipWhitespace()
            guard s.atEnd, sawMethod else { return nil }
            return tree
        }
        guard let found else { return nil }
        var rest: [UInt8] = []
        rest.reserveCapacity(body.count - found.text.count + standIn.count)
        rest += body[..<found.text.lowerBound]
        rest += standIn
        rest += body[found.text.upperBound...]
        return (method, rest, found.tree)
    }
}
