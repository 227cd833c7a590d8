import ResponderCore
import ResponderProtocol
import Testing

/// Parses JSON text written in a test.
func json(_ text: String) -> JSON {
    do { return try JSONCodec.decode(text) } catch { fatalError("bad test JSON: \(error)\n\(text)") }
}

/// A node as JSON text: `v("A", 0, 0, 300, 300, children: [...])`; `extra` is more members, e.g.
/// `"\"hidden\": true"`.
func v(_ id: String, _ x: Double, _ y: Double, _ w: Double, _ h: Double, kind: String = "view", _ extra: String = "", children: [String] = []) -> String {
    let more = extra.isEmpty ? "" : ", \(extra)"
    return #"{"id": "\#(id)", "kind": "\#(kind)", "frame": [\#(x), \#(y), \#(w), \#(h)]\#(more), "children": [\#(children.joined(separator: ", "))]}"#
}

/// Fixture F of the scenarios: App > AD, key window W(0,0,400,800) > RVC > R(0,0,400,800) > `r`.
/// The other arguments add members to those nodes; `windows` adds more application children.
func fixtureF(_ r: [String] = [], rExtra: String = "", rvc: String = "", w: String = "", ad: String = "", app: String = "", windows: [String] = []) -> String {
    func more(_ s: String) -> String { s.isEmpty ? "" : ", \(s)" }
    let root = v("R", 0, 0, 400, 800, rExtra, children: r)
    let window = #"{"id": "W", "kind": "window", "key": true, "frame": [0, 0, 400, 800]\#(more(w)), "children": [{"id": "RVC", "kind": "viewController"\#(more(rvc)), "children": [\#(root)]}]}"#
    let children = [#"{"id": "AD", "kind": "appDelegate"\#(more(ad))}"#, window] + windows
    return #"{"id": "app", "kind": "application"\#(more(app)), "children": [\#(children.joined(separator: ", "))]}"#
}

/// Tree T1 of the scenarios: R > A(0,0,300,300); A > B(0,0,100,100), C(100,100,200,200);
/// C > D(0,0,50,50), E(100,100,100,100).
let treeT1: [String] = [
    v("A", 0, 0, 300, 300, children: [
        v("B", 0, 0, 100, 100),
        v("C", 100, 100, 200, 200, children: [v("D", 0, 0, 50, 50), v("E", 100, 100, 100, 100)]),
    ])
]

func session(_ tree: String, detached: [String] = [], profile: Profile = .uikit) throws -> SessionState {
    var s = SessionState(profile: profile)
    _ = try s.load(tree: json(tree), detached: detached.map(json), limits: .default)
    return s
}

/// The strings of a JSON array (ids in `visited`, `handledBy`, `chain`…).
func strings(_ value: JSON?) -> [String] {
    (value?.arrayValue ?? []).map { $0.stringValue ?? "<\($0)>" }
}

/// Steps of a dispatch's trace with `step == kind`.
func steps(_ d: Dispatch, _ kind: String) -> [JSON] {
    (d.trace["steps"]?.arrayValue ?? []).filter { $0["step"]?.stringValue == kind }
}

func point(_ x: Double, _ y: Double) -> JSON { [.number(x), .number(y)] }

/// A query's reply without its `trace` member.
func withoutTrace(_ reply: JSON) -> JSON {
    .object((reply.objectMembers ?? []).filter { $0.key != "trace" })
}

extension SessionState {
    /// One phase of one touch from client "c".
    mutating func phase(_ touch: String, _ phase: String, _ x: Double, _ y: Double, client: String = "c") throws -> JSON {
        let d = try self.touch(["touches": [["touch": .string(touch), "phase": .string(phase), "point": point(x, y)]]], client: client)
        return d.result["deliveries"]!.arrayValue![0]
    }

    mutating func tap(_ x: Double, _ y: Double) throws -> Dispatch {
        try tap(["point": point(x, y)], client: "c")
    }

    func hit(_ x: Double, _ y: Double) throws -> JSON {
        try hitTest(["point": point(x, y)])
    }

    func chain(_ id: String) throws -> [String] {
        strings(try responderChain(["id": .string(id)])["chain"])
    }

    /// Applies op objects written as JSON text, as one batch.
    mutating func ops(_ texts: String...) throws -> TreeChange {
        var parsed: [GuardedOp] = []
        for (i, t) in texts.enumerated() { parsed.append(try GuardedOp.parse(json(t), index: i)) }
        return try apply(parsed, ifRevision: nil, limits: .default)
    }

    mutating func become(_ id: String) throws -> Dispatch { try become(["id": .string(id)]) }
    mutating func resign(_ id: String) throws -> Dispatch { try resign(["id": .string(id)]) }
    var keyFR: JSON { (try? firstResponder(["session": "s"])) ?? "<error>" }
}

/// The `visited` ids of a hit-test answer, and the visit for one id.
func visitedIDs(_ hit: JSON) -> [String] { (hit["visited"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue } }
func visit(_ hit: JSON, _ id: String) -> JSON? { hit["visited"]?.arrayValue?.first { $0["id"]?.stringValue == id } }

/// Expects `body` to throw an RPCError named `name`.
func expectError(_ name: ErrorName, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) {
    do {
        try body()
        Issue.record("expected \(name.rawValue), nothing was thrown", sourceLocation: sourceLocation)
    } catch let e as RPCError {
        #expect(e.name == name, "got \(e)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
    }
}

extension JSON {
    /// Element `index` of an array (nil when out of range or not an array).
    subscript(index: Int) -> JSON? {
        guard let a = arrayValue, a.indices.contains(index) else { return nil }
        return a[index]
    }
}
