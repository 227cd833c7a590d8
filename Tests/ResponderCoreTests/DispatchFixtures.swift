import ResponderCore
import ResponderJSON
import ResponderProtocol
import ResponderServer
import Testing

/// Parses JSON text written in a test.
func json(_ text: String) -> JSON {
    do { return try JSONCodec.decode(text) } catch { fatalError("bad test JSON: \(error)\n\(text)") }
}

/// A node as JSON text: `v("A", 0, 0, 300, 300, children: [...])`; `extra` is more members, e.g.
/// `"\"hidden\": true"`.
func v(
    _ id: String, _ x: Double, _ y: Double, _ w: Double, _ h: Double, kind: String = "view", _ extra: String = "",
    children: [String] = []
) -> String {
    let more = extra.isEmpty ? "" : ", \(extra)"
    return
        #"{"id": "\#(id)", "kind": "\#(kind)", "frame": [\#(x), \#(y), \#(w), \#(h)]\#(more), "children": [\#(children.joined(separator: ", "))]}"#
}

/// Fixture F of the scenarios: App > AD, key window W(0,0,400,800) > RVC > R(0,0,400,800) > `r`.
/// The other arguments add members to those nodes; `windows` adds more application children.
func fixtureF(
    _ r: [String] = [], rExtra: String = "", rvc: String = "", w: String = "", ad: String = "", app: String = "",
    windows: [String] = []
) -> String {
    func more(_ s: String) -> String { s.isEmpty ? "" : ", \(s)" }
    let root = v("R", 0, 0, 400, 800, rExtra, children: r)
    let window =
        #"{"id": "W", "kind": "window", "key": true, "frame": [0, 0, 400, 800]\#(more(w)), "children": [{"id": "RVC", "kind": "viewController"\#(more(rvc)), "children": [\#(root)]}]}"#
    let children = [#"{"id": "AD", "kind": "appDelegate"\#(more(ad))}"#, window] + windows
    return #"{"id": "app", "kind": "application"\#(more(app)), "children": [\#(children.joined(separator: ", "))]}"#
}

/// Tree T1 of the scenarios: R > A(0,0,300,300); A > B(0,0,100,100), C(100,100,200,200);
/// C > D(0,0,50,50), E(100,100,100,100).
let treeT1: [String] = [
    v(
        "A", 0, 0, 300, 300,
        children: [
            v("B", 0, 0, 100, 100),
            v("C", 100, 100, 200, 200, children: [v("D", 0, 0, 50, 50), v("E", 100, 100, 100, 100)])
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

/// A typed value as it goes on the wire.
func wire<T: Encodable>(_ value: T) -> JSON { WireEncoder.encode(value) }

/// Steps of a dispatch's trace with `step == kind`.
func steps<O>(_ d: Traced<O>, _ kind: String) -> [JSON] {
    d.trace.steps.filter { $0.name == kind }.map(wire)
}

func point(_ x: Double, _ y: Double) -> JSON { [.number(x), .number(y)] }

/// A query's reply without its `trace` member.
func withoutTrace(_ reply: JSON) -> JSON {
    .object((reply.objectMembers ?? []).filter { $0.key != "trace" })
}

/// The wire view of a typed dispatch, for tests written against the protocol's shapes (12.3–12.6).
extension Traced {
    /// The outcome members, as a reply holds them.
    var result: JSON { wire(outcome) }
    /// One `{window, from, to, reason}` per first-responder change, as `<session>/focus` publishes them.
    var focus: [JSON] { trace.focusChanges.map(wire) }
    /// `{kind, steps, outcome}`, as `<session>/trace` publishes it.
    var traceJSON: JSON { wire(traceBody) }
}

/// The requests as a client sends them: params decoded by the protocol's request types (as the engine does),
/// then the typed core. Tests written this way check the wire contract in memory, with no sockets.
extension SessionState {
    mutating func load(tree: JSON, detached: [JSON], limits: Limits) throws(RPCError) -> TreeChange {
        let world = try WireDecoder.decode(TreeLoadRequest.self, from: ["tree": tree, "detached": .array(detached)])
            .world()
        return try asClient { () throws(CoreError) in
            try load(tree: world.tree, detached: world.detached, limits: limits)
        }
    }
    mutating func touch(_ params: JSON, client: String) throws(RPCError) -> Traced<TouchOutcome> {
        let r = try WireDecoder.decode(TouchRequest.self, from: params)
        return try asClient { () throws(CoreError) in try touch(r.touches, tapCount: r.tapCount ?? 1, client: client) }
    }
    mutating func tap(_ params: JSON, client: String) throws(RPCError) -> Traced<TouchOutcome> {
        let r = try WireDecoder.decode(TapRequest.self, from: params)
        return try asClient { () throws(CoreError) in
            try tap(at: r.point, tapCount: r.tapCount ?? 1, time: r.time, client: client)
        }
    }
    mutating func press(_ params: JSON, client: String) throws(RPCError) -> Traced<PressOutcome> {
        let r = try WireDecoder.decode(PressRequest.self, from: params)
        return try asClient { () throws(CoreError) in
            try press(r.press, key: r.key, modifiers: r.modifiers ?? [], phase: r.phase, client: client)
        }
    }
    mutating func motion(_ params: JSON) throws(RPCError) -> Traced<MotionOutcome> {
        let r = try WireDecoder.decode(MotionRequest.self, from: params)
        return motion(r.subtype ?? .shake, phase: r.phase)
    }
    mutating func remoteControl(_ params: JSON) throws(RPCError) -> Traced<RemoteControlOutcome> {
        remoteControl(try WireDecoder.decode(RemoteControlRequest.self, from: params).subtype)
    }
    mutating func become(_ params: JSON) throws(RPCError) -> Traced<FocusOutcome> {
        let id = try WireDecoder.decode(BecomeRequest.self, from: params).id
        return try asClient { () throws(CoreError) in try become(id) }
    }
    mutating func resign(_ params: JSON) throws(RPCError) -> Traced<FocusOutcome> {
        let id = try WireDecoder.decode(ResignRequest.self, from: params).id
        return try asClient { () throws(CoreError) in try resign(id) }
    }
    mutating func sendAction(_ params: JSON) throws(RPCError) -> Traced<ActionOutcome> {
        let r = try WireDecoder.decode(SendActionRequest.self, from: params)
        return try asClient { () throws(CoreError) in try sendAction(r.action, target: r.target, sender: r.sender) }
    }
    func canPerformAction(_ params: JSON) throws(RPCError) -> JSON {
        let r = try WireDecoder.decode(CanPerformRequest.self, from: params)
        return wire(try asClient { () throws(CoreError) in try canPerformAction(r.action, sender: r.sender) })
    }
    func hitTest(_ params: JSON) throws(RPCError) -> JSON {
        wire(hitTest(at: try WireDecoder.decode(HitTestRequest.self, from: params).point))
    }
    func responderChain(_ params: JSON) throws(RPCError) -> JSON {
        let id = try WireDecoder.decode(ResponderChainRequest.self, from: params).id
        return wire(try asClient { () throws(CoreError) in try responderChain(from: id) })
    }
    func firstResponder(_ params: JSON) throws(RPCError) -> JSON {
        let window = try WireDecoder.decode(FirstResponderRequest.self, from: params).window
        return JSON(try asClient { () throws(CoreError) in try firstResponder(window: window) })
    }
    mutating func makeKey(_ params: JSON) throws(RPCError) -> TreeChange {
        let id = try WireDecoder.decode(MakeKeyRequest.self, from: params).id
        return try asClient { () throws(CoreError) in try makeKey(id).change }
    }

    /// One phase of one touch from client "c".
    mutating func phase(_ touch: String, _ phase: String, _ x: Double, _ y: Double, client: String = "c") throws -> JSON
    {
        let d = try self.touch(
            ["touches": [["touch": .string(touch), "phase": .string(phase), "point": point(x, y)]]], client: client)
        return d.result["deliveries"]![0]!
    }

    mutating func tap(_ x: Double, _ y: Double) throws -> Traced<TouchOutcome> {
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
        for (i, t) in texts.enumerated() { parsed.append(try GuardedOp(wire: json(t), index: i)) }
        return try asClient { () throws(CoreError) in try apply(parsed, ifRevision: nil, limits: .default) }
    }

    var keyFR: JSON { (try? firstResponder(["session": "s"])) ?? "<error>" }
}

extension World {
    mutating func load(tree: JSON, detached: [JSON] = [], limits: Limits = .default) throws(RPCError) {
        let world = try WireDecoder.decode(TreeLoadRequest.self, from: ["tree": tree, "detached": .array(detached)])
            .world()
        try asClient { () throws(CoreError) in try load(tree: world.tree, detached: world.detached, limits: limits) }
    }
}

/// What a client reads: `body`'s core error as the server's edge answers it.
func asClient<T>(_ body: () throws(CoreError) -> T) throws(RPCError) -> T {
    do { return try body() } catch { throw RPCError(error) }
}

extension GuardedOp {
    static func parse(_ json: JSON, index: Int) throws(RPCError) -> GuardedOp {
        try GuardedOp(wire: json, index: index)
    }
}

/// The `visited` ids of a hit-test answer, and the visit for one id.
func visitedIDs(_ hit: JSON) -> [String] { (hit["visited"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue } }
func visit(_ hit: JSON, _ id: String) -> JSON? { hit["visited"]?.arrayValue?.first { $0["id"]?.stringValue == id } }

/// Expects `body` to throw an error a client reads as `name`.
func expectError(_ name: ErrorName, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) {
    do {
        try body()
        Issue.record("expected \(name.rawValue), nothing was thrown", sourceLocation: sourceLocation)
    } catch let e as RPCError {
        #expect(e.name == name, "got \(e)", sourceLocation: sourceLocation)
    } catch let e as CoreError {
        #expect(RPCError(e).name == name, "got \(e)", sourceLocation: sourceLocation)
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
