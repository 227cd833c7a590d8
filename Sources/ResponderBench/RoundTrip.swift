import Foundation
import ResponderJSON
import ResponderProtocol
import ZMQ

/// Goals 1 and 2: round trips and pipelined throughput against the raw echo of the same bytes.
enum RoundTrip {
    /// Protocol/examples/demo-world.json of the checkout this executable was built in.
    static let demoWorld: String = {
        var dir = URL(fileURLWithPath: Binaries.directory)
        while dir.path != "/" {
            let candidate = dir.appendingPathComponent("Protocol/examples/demo-world.json").path
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
            dir.deleteLastPathComponent()
        }
        return "Protocol/examples/demo-world.json"
    }()
    static let tapPoint: JSON = [60, 150]

    /// Engine with the 1,110-view world as `default` and the demo world as `demo`.
    static func engine(
        _ transport: Transport, name: String, extra: [String] = [], wrapperFile: String? = nil, wrapper: [String] = []
    ) throws -> EngineProcess {
        let world = Scratch.file("grid.json")
        if !FileManager.default.fileExists(atPath: world) {
            _ = FileManager.default.createFile(atPath: world, contents: Data(Worlds.params(tree: Worlds.grid1110())))
        }
        let engine = try EngineProcess(name: name, transport: transport, world: world, extra: extra, wrapper: wrapper)
        return engine
    }

    static func createDemo(_ c: Connection) throws {
        guard let data = FileManager.default.contents(atPath: demoWorld) else {
            throw BenchError("cannot read \(demoWorld)")
        }
        let file = try JSONCodec.decode(Array(data))
        try c.request("session.create", file.setting("session", "demo"))
    }

    static var hitBody: [UInt8] {
        Requests.body("hitTest", ["point": [JSON(Worlds.hitPoint.x), JSON(Worlds.hitPoint.y)]])
    }
    static var tapBody: [UInt8] { Requests.body("event.tap", ["session": "demo", "point": tapPoint]) }
    /// The same requests asking for no trace in the reply (Protocol 1.8); the tap's event still carries it.
    static var hitNoneBody: [UInt8] {
        Requests.body("hitTest", ["point": [JSON(Worlds.hitPoint.x), JSON(Worlds.hitPoint.y)], "trace": "none"])
    }
    static var tapNoneBody: [UInt8] {
        Requests.body("event.tap", ["session": "demo", "point": tapPoint, "trace": "none"])
    }
    static var lightBody: [UInt8] { Requests.body("responder.first", ["session": "demo"]) }

    /// Our and the echo's round trips of `body`, alternating rounds so both see the same machine, with each
    /// side's CPU per round trip meanwhile.
    struct Compared {
        let ours: Percentiles
        let echo: Percentiles
        let replyBytes: Int
        let ourCPU: ThreadCPU
        let echoCPU: ThreadCPU
    }

    static func compare(
        _ body: [UInt8], engine: Connection, echo: Connection, pids: (engine: Int32, echo: Int32), _ sizes: Sizes
    ) throws -> Compared {
        let reply = try engine.call(body)
        try echo.setEchoReply(reply)
        _ = try engine.roundTrips(body, count: sizes.perRound / 4)
        _ = try echo.roundTrips(body, count: sizes.perRound / 4)
        var ours = [Double](), theirs = [Double]()
        var ourCPU = ThreadCPU(), echoCPU = ThreadCPU()
        for _ in 0..<sizes.rounds {
            ourCPU =
                ourCPU
                + (try ThreadCPU.during(pids.engine) { ours += try engine.roundTrips(body, count: sizes.perRound) })
            echoCPU =
                echoCPU
                + (try ThreadCPU.during(pids.echo) { theirs += try echo.roundTrips(body, count: sizes.perRound) })
        }
        let n = sizes.rounds * sizes.perRound
        return Compared(
            ours: Percentiles(ours), echo: Percentiles(theirs), replyBytes: reply.count, ourCPU: ourCPU.per(n),
            echoCPU: echoCPU.per(n))
    }

    static func run(_ report: Report, _ sizes: Sizes, _ context: ZMQContext) throws {
        for transport in Transport.allCases {
            say("== round trips over \(transport) (\(sizes.rounds) alternating rounds of \(sizes.perRound))")
            let engine = try engine(transport, name: "rt-\(transport)")
            let echo = try EchoProcess(transport: transport)
            defer {
                engine.stop()
                echo.stop()
            }
            let e = try Connection(context, engine.rpc)
            let x = try Connection(context, echo.endpoint)
            try createDemo(e)
            let pids = (engine: engine.pid, echo: echo.pid)
            let hit = try compare(hitBody, engine: e, echo: x, pids: pids, sizes)
            add(report, "hitTest round trip, 1,110 views, \(transport)", hit, goal: 1.10)
            let tap = try compare(tapBody, engine: e, echo: x, pids: pids, sizes)
            add(report, "event.tap round trip, demo world, \(transport)", tap, goal: 1.3)
            // The echo answers each with the engine's own light reply, so the ratio is the engine's cost alone.
            add(
                report, "hitTest trace: none round trip, 1,110 views, \(transport)",
                try compare(hitNoneBody, engine: e, echo: x, pids: pids, sizes), goal: 1.10)
            add(
                report, "event.tap trace: none round trip, demo world, \(transport)",
                try compare(tapNoneBody, engine: e, echo: x, pids: pids, sizes), goal: 1.3)
            add(
                report, "light request round trip (responder.first), \(transport)",
                try compare(lightBody, engine: e, echo: x, pids: pids, sizes), goal: nil)
            if transport == .ipc { try throughput(report, sizes, context, engine: engine, e, x) }
        }
    }

    /// `goal` nil: printed only (the light request's round trip is what every request pays, whatever it asks).
    static func add(_ report: Report, _ name: String, _ r: Compared, goal: Double?) {
        report.add(
            Figure(
                name: "\(name), median (\(r.replyBytes) B reply)", measured: micros(r.ours.median),
                baseline: "echo \(micros(r.echo.median))",
                ratio: r.ours.median / r.echo.median, goal: goal.map { String(format: "≤ %.2f×", $0) } ?? "(printed)",
                met: goal.map { r.ours.median / r.echo.median <= $0 }))
        report.add(
            Figure(
                name: "\(name), p99", measured: micros(r.ours.p99), baseline: "echo \(micros(r.echo.p99))",
                ratio: r.ours.p99 / r.echo.p99, goal: "(printed)", met: nil))
        // Where the difference is: the answering thread's CPU or libzmq's I/O thread's (mean per round trip).
        report.add(
            Figure(
                name: "\(name), CPU per round trip: answering thread(s) + libzmq I/O thread",
                measured: "\(micros(r.ourCPU.own)) + \(micros(r.ourCPU.io))",
                baseline: "echo \(micros(r.echoCPU.own)) + \(micros(r.echoCPU.io))",
                ratio: (r.ourCPU.own + r.ourCPU.io) / (r.echoCPU.own + r.echoCPU.io), goal: "(printed)", met: nil))
    }

    /// Goal 2: 64 in flight; light requests, then event.tap with a subscriber reading every trace.
    static func throughput(
        _ report: Report, _ sizes: Sizes, _ context: ZMQContext, engine: EngineProcess, _ e: Connection, _ x: Connection
    ) throws {
        say("== pipelined throughput, window 64, \(sizes.pipelined) requests")
        let light = lightBody
        try x.setEchoReply(try e.call(light))
        _ = try e.pipelined(light, window: 64, total: sizes.pipelined / 10)
        let ours = try e.pipelined(light, window: 64, total: sizes.pipelined)
        let echoRate = try x.pipelined(light, window: 64, total: sizes.pipelined)
        report.add(
            Figure(
                name: "pipelined light requests (responder.first), ipc", measured: perSecond(ours),
                baseline: "echo \(perSecond(echoRate))",
                ratio: ours / echoRate, goal: "≥ 0.30×", met: ours / echoRate >= 0.30))

        let tap = tapBody
        try x.setEchoReply(try e.call(tap))
        let echoTaps = try x.pipelined(tap, window: 64, total: sizes.pipelined)
        let subscriber = try Subscriber(context, engine.events, topics: ["demo/trace"])
        let total = sizes.pipelined
        let time = try elapsed {
            _ = try e.pipelined(tap, window: 64, total: total)
            try subscriber.receive(count: total, seconds: 120)
        }
        let taps = Double(total) / (time / 1e9)
        report.add(
            Figure(
                name: "pipelined event.tap, trace read by a subscriber, ipc", measured: perSecond(taps),
                baseline: "echo \(perSecond(echoTaps))",
                ratio: taps / echoTaps, goal: "≥ 0.10×", met: taps / echoTaps >= 0.10))
    }
}

/// A SUB socket that has received the engine's welcome (so nothing published after `init` is missed).
final class Subscriber {
    let socket: ZMQSocket

    /// `highWaterMark` 0: unlimited (nothing is dropped on our side).
    init(_ context: ZMQContext, _ endpoint: String, topics: [String], highWaterMark: Int = 0) throws {
        socket = try ZMQSocket(context: context, type: .sub)
        try socket.setLinger(0)
        try socket.setReceiveHWM(highWaterMark)
        for t in topics { try socket.subscribe(t) }
        try socket.subscribe("$sys/welcome")
        try socket.connect(endpoint)
        try socket.setReceiveTimeout(60_000)
        guard let frames = try socket.receiveMultipart(), frames.first == Array("$sys/welcome".utf8) else {
            throw BenchError("no welcome from the engine's events")
        }
    }

    deinit { socket.close() }

    /// Receives `count` messages.
    func receive(count: Int, seconds: Double) throws {
        try socket.setReceiveTimeout(Int(seconds * 1000))
        for _ in 0..<count {
            guard try socket.receiveMultipart() != nil else {
                throw BenchError("a subscriber got no event for \(seconds) s")
            }
        }
    }
}
