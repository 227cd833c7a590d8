import Foundation
import ResponderCore
import ResponderJSON
import ResponderProtocol

// libFuzzer target (built and run by fuzz/run): one rpc frame through everything the engine does with a request
// short of IO — the JSON reader, the JSON-RPC envelope, the typed params of its method and, for tree.load,
// tree.apply and session.create, the tree validator against a session holding the demo world; the dispatch
// methods run on that session too. Besides "never
// crash, never hang", it checks properties that can fail:
// - what the reader accepts, the writer writes as JSON that reads back to the same text;
// - a refused tree.apply / tree.load leaves the world exactly as it was (revision, tree, detached subtrees);
// - every error encodes to JSON whose `field` is 1…256 bytes and whose `id` is a node id;
// - the plain readers (PlainRequest, PlainTree) read only what the general reader reads, and the same way.

let limits = Limits(maxNodes: 5_000, maxDepth: 300, maxMessageBytes: 1 << 20, maxOpsPerBatch: 500)

/// The demo world (Protocol/examples/demo-world.json, read from the working directory fuzz/run sets).
let demo: SessionState = {
    var state = SessionState()
    do {
        guard let data = FileManager.default.contents(atPath: "Protocol/examples/demo-world.json") else {
            fatalError("fuzz/run runs this from the repository root: Protocol/examples/demo-world.json is needed")
        }
        // A world file holds the params of tree.load.
        let world = try WireDecoder.decode(TreeLoadRequest.self, from: try JSONCodec.decode(Array(data))).world()
        _ = try state.load(tree: world.tree, detached: world.detached, limits: limits)
    } catch {
        fatalError("cannot load the demo world: \(error)")
    }
    return state
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data!, count: size))
    guard bytes.count <= limits.maxMessageBytes else { return 0 }
    if var value = try? JSONCodec.decode(bytes, maxDepth: 2 * limits.maxDepth + 64) {
        // Compared as text: JSON's == reads objects as maps, and a document may repeat a key.
        let written = JSONCodec.encode(value)
        let again = try? JSONCodec.decode(written, maxDepth: 2 * limits.maxDepth + 64)
        check(again.map(JSONCodec.encode) == written, "the writer's output of an accepted document reads differently")
        JSON.release(&value)
    }
    checkPlainReaders(bytes)
    switch RPCRequest.parse(bytes, maxDepth: 2 * limits.maxDepth + 64) {
    case .failure(let failure):
        checkConforms(failure.error)
    case .success(var request):
        do throws(RPCError) { try run(request) } catch { checkConforms(error) }
        JSON.release(&request.params)
    }
    return 0
}

/// What `PlainRequest` or `PlainTree` reads, the general reader reads, and the same way (the engine leaves to the
/// general reader whatever they do not read, so that every refusal is its own).
func checkPlainReaders(_ bytes: [UInt8]) {
    if let plain = PlainRequest.read(bytes) {
        guard case .success(var general) = RPCRequest.parse(bytes, maxDepth: 2 * limits.maxDepth + 64) else {
            return check(false, "PlainRequest read a request the general reader refuses")
        }
        let params = try? plain.params.json()
        check(
            general.method == plain.method && general.idText == plain.idText
                && params.map(JSONCodec.encode) == JSONCodec.encode(general.params),
            "PlainRequest read a request otherwise than the general reader")
        JSON.release(&general.params)
    }
    let standIn = Array(#"{"id":"app","kind":"application"}"#.utf8)
    guard
        let split = PlainTree.split(
            request: bytes, methods: [TreeLoadRequest.method, SessionCreateRequest.method],
            standIn: standIn, maxDepth: limits.maxDepth)
    else { return }
    // The engine takes the split only when the general reader reads the rest (its envelope is not checked by
    // the split): then the whole request must read, with the same tree.
    guard case .success(var rest) = RPCRequest.parse(split.request, maxDepth: 2 * limits.maxDepth + 64) else { return }
    guard case .success(var general) = RPCRequest.parse(bytes, maxDepth: 2 * limits.maxDepth + 64) else {
        return check(false, "PlainTree read a request the general reader refuses")
    }
    let tree = general.params["tree"].flatMap { try? NodeTree(wire: $0, path: "tree") }
    check(tree == split.tree, "PlainTree read a tree otherwise than the general reader")
    check(
        rest.method == general.method && rest.idText == general.idText
            && rest.params["tree"] == (try? JSONCodec.decode(standIn)),
        "the rest of a request split by PlainTree reads otherwise than the request")
    JSON.release(&general.params)
    JSON.release(&rest.params)
}

func run(_ request: RPCRequest) throws(RPCError) {
    for type in MethodRegistry.all where type.method == request.method {
        _ = try decode(type, request.params)
    }
    switch request.method {
    case TreeLoadRequest.method:
        let r = try WireDecoder.decode(TreeLoadRequest.self, from: request.params)
        let world = try r.world()
        try unchangedOnFailure { (s: inout SessionState) throws(RPCError) in
            _ = try core { () throws(CoreError) in
                try s.load(tree: world.tree, detached: world.detached, limits: limits)
            }
        }
    case TreeApplyRequest.method:
        let r = try WireDecoder.decode(TreeApplyRequest.self, from: request.params)
        let ops = try r.ops.read()
        try unchangedOnFailure { (s: inout SessionState) throws(RPCError) in
            _ = try core { () throws(CoreError) in try s.apply(ops, ifRevision: r.ifRevision, limits: limits) }
        }
    case SessionCreateRequest.method:
        let r = try WireDecoder.decode(SessionCreateRequest.self, from: request.params)
        var state = SessionState(world: World(), profile: r.profile ?? .uikit)
        if let tree = r.tree {
            _ = try core { () throws(CoreError) in
                try state.load(tree: tree, detached: r.detached ?? [], limits: limits)
            }
        }
    default:
        try dispatch(request)
    }
}

/// The dispatch methods on a copy of the demo session, as the engine runs them (DispatchMethods.swift); their
/// outcomes are encoded as a reply would be.
func dispatch(_ request: RPCRequest) throws(RPCError) {
    let p = request.params
    let client = "fuzz"
    func on<R: RequestType, Outcome: Encodable>(
        _ type: R.Type, _ body: (R, inout SessionState) throws(RPCError) -> Outcome
    ) throws(RPCError) {
        let r = try WireDecoder.decode(type, from: p)
        try unchangedOnFailure { (s: inout SessionState) throws(RPCError) in _ = WireEncoder.encode(try body(r, &s)) }
    }
    switch request.method {
    case HitTestRequest.method: try on(HitTestRequest.self) { r, s in s.hitTest(at: r.point) }
    case ResponderChainRequest.method:
        try on(ResponderChainRequest.self) { (r, s) throws(RPCError) in
            try core { () throws(CoreError) in try s.responderChain(from: r.id) }
        }
    case FirstResponderRequest.method:
        try on(FirstResponderRequest.self) { (r, s) throws(RPCError) in
            try core { () throws(CoreError) in try s.firstResponder(window: r.window) }
        }
    case CanPerformRequest.method:
        try on(CanPerformRequest.self) { (r, s) throws(RPCError) in
            try core { () throws(CoreError) in try s.canPerformAction(r.action, sender: r.sender) }
        }
    case TouchRequest.method:
        try on(TouchRequest.self) { (r, s) throws(RPCError) in
            try core { () throws(CoreError) in try s.touch(r.touches, tapCount: r.tapCount ?? 1, client: client) }
        }
    case TapRequest.method:
        try on(TapRequest.self) { (r, s) throws(RPCError) in
            try core { () throws(CoreError) in
                try s.tap(at: r.point, tapCount: r.tapCount ?? 1, time: r.time, client: client)
            }
        }
    case ClockAdvanceRequest.method:
        try on(ClockAdvanceRequest.self) { (r, s) throws(RPCError) in
            try core { () throws(CoreError) in try s.advanceClock(to: r.to, by: r.by) }
        }
    case PressRequest.method:
        try on(PressRequest.self) { (r, s) throws(RPCError) in
            try core { () throws(CoreError) in try s.press(r.press, key: r.key, phase: r.phase, client: client) }
        }
    case MotionRequest.method: try on(MotionRequest.self) { r, s in s.motion(r.subtype ?? .shake, phase: r.phase) }
    case RemoteControlRequest.method: try on(RemoteControlRequest.self) { r, s in s.remoteControl(r.subtype) }
    case BecomeRequest.method:
        try on(BecomeRequest.self) { (r, s) throws(RPCError) in try core { () throws(CoreError) in try s.become(r.id) }
        }
    case ResignRequest.method:
        try on(ResignRequest.self) { (r, s) throws(RPCError) in try core { () throws(CoreError) in try s.resign(r.id) }
        }
    case SendActionRequest.method:
        try on(SendActionRequest.self) { (r, s) throws(RPCError) in
            try core { () throws(CoreError) in try s.sendAction(r.action, target: r.target, sender: r.sender) }
        }
    case MakeKeyRequest.method:
        try on(MakeKeyRequest.self) { (r, s) throws(RPCError) in
            try core { () throws(CoreError) in try s.makeKey(r.id).outcome }
        }
    default: break
    }
}

func decode<R: RequestType>(_ type: R.Type, _ params: JSON) throws(RPCError) -> R {
    try WireDecoder.decode(type, from: params)
}

/// Runs `change` on a copy of the demo session; when it throws, the copy must still equal the demo world.
func unchangedOnFailure(_ change: (inout SessionState) throws(RPCError) -> Void) throws(RPCError) {
    var state = demo
    do throws(RPCError) { try change(&state) } catch {
        check(picture(state) == picture(demo), "a refused change altered the world: \(error)")
        throw error
    }
}

/// The world as the engine would send it: revision, tree and detached subtrees.
func picture(_ s: SessionState) -> [UInt8] {
    var w = JSONWriter()
    w.beginArray()
    w.number(Double(s.world.revision))
    s.world.write(World.rootID, to: &w)
    w.raw(s.world.encodedDetached())
    w.endArray()
    return w.bytes
}

func checkConforms(_ error: RPCError) {
    let encoded = JSONCodec.encode(error.conformed.json)
    guard let data = (try? JSONCodec.decode(encoded))?["data"] else {
        return check(false, "an error does not encode to JSON")
    }
    if let field = data["field"] {
        let n = field.stringValue?.utf8.count ?? 0
        check(n >= 1 && n <= RPCError.maxFieldBytes, "data.field is \(n) bytes")
    }
    for key in ["id", "parent"] {
        if let id = data[key]?.stringValue {
            check(!id.isEmpty && id.utf8.count <= NodeTree.maxIDLength, "data.\(key) is \(id.utf8.count) bytes")
        }
    }
}

func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition {
        FileHandle.standardError.write(Data("fuzz property failed: \(message())\n".utf8))
        abort()
    }
}
