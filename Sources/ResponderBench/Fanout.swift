import Foundation
import ResponderJSON
import ResponderProtocol
import ZMQ

/// Many subscribers while event.tap is sent at a fixed pace, against the same loop on a raw libzmq ROUTER + XPUB
/// that only answers and publishes the same bytes (what this client and machine can move at all), and on a second
/// one that also spends the engine's own CPU per tap (whether that work is what the engine's rate lacks), in rounds
/// that alternate between the three. Each subscriber
/// must end with every event of the session, reading what it missed (past libzmq's default high-water mark of
/// 1000) back with trace.replay; one more subscriber reads nothing while the taps are sent, so it certainly has a
/// gap, and must recover it through trace.replay.
enum Fanout {
    /// The pace the loop asks for; beyond what this machine moves, so both sides send as fast as they can.
    static let targetRate = 20_000.0
    /// The stalled subscriber's receive high-water mark: it holds this many events and loses the rest.
    static let stalledHighWaterMark = 100
    /// The engine, the raw publisher and the raw publisher with the engine's work take turns, this many times.
    static let fanoutRounds = 4

    static func run(_ report: Report, _ sizes: Sizes, _ context: ZMQContext) throws {
        say(
            "== fanout: \(sizes.subscribers) subscribers and a stalled one, event.tap paced at \(Int(targetRate))/s for \(sizes.fanoutSeconds) s"
        )
        let total = Int(targetRate * sizes.fanoutSeconds)
        // The ring holds every event of the run, so that the stalled subscriber's whole gap can be read back; each
        // subscriber's queue in the engine stops at libzmq's default high-water mark, so a stalled one loses events.
        let engine = try RoundTrip.engine(
            .ipc, name: "fanout",
            extra: ["--replay-buffer", "1000000", "--replay-bytes", "\(1 << 30)", "--publish-hwm", "1000"])
        defer { engine.stop() }
        let c = try Connection(context, engine.rpc)
        try RoundTrip.createDemo(c)
        // A tap's reply and its event as a subscriber gets them: what the raw publisher sends.
        let (reply, topic, head, tail) = try sample(c, engine.events, context)
        let first = try c.request("session.snapshot", ["session": "demo"])["seq"]?.intValue ?? 0
        let subscribers = try (0..<sizes.subscribers).map { _ in
            try Subscriber(context, engine.events, topics: ["demo/"], highWaterMark: 1000)
        }
        let readers = subscribers.map { SeqTracker($0, after: first) }
        let stalled = SeqTracker(
            try Subscriber(context, engine.events, topics: ["demo/"], highWaterMark: stalledHighWaterMark),
            after: first)
        // The same loop against a raw libzmq ROUTER + XPUB that does nothing but answer and publish, and against a
        // second one that also spends, before each answer, the CPU the engine's own thread spent per tap beyond the
        // first's (measured in the rounds so far): what the loop moves when only the engine's work is added.
        let echo = try EchoProcess(transport: .ipc, publishing: true)
        defer { echo.stop() }
        let worked = try EchoProcess(transport: .ipc, publishing: true)
        defer { worked.stop() }
        let x = try Connection(context, echo.endpoint), w = try Connection(context, worked.endpoint)
        for side in [x, w] {
            try side.setEchoReply(reply)
            _ = try side.call([2] + topic + [0] + head + [0] + tail)
        }
        let rawReaders = try (0..<sizes.subscribers).map { _ in
            SeqTracker(try Subscriber(context, echo.events!, topics: ["demo/"], highWaterMark: 1000), after: 0)
        }
        let workedReaders = try (0..<sizes.subscribers).map { _ in
            SeqTracker(try Subscriber(context, worked.events!, topics: ["demo/"], highWaterMark: 1000), after: 0)
        }
        // Rounds alternate between the three, so that the machine's other load falls on each alike.
        var sendTime = 0.0, rawTime = 0.0, workedTime = 0.0, extraWork = 0.0, sent = 0
        var engineCPU = ThreadCPU(), clientCPU = ThreadCPU(), echoCPU = ThreadCPU(), rawClientCPU = ThreadCPU()
        for round in 0..<fanoutRounds {
            let count = total * (round + 1) / fanoutRounds - sent
            // Each side's CPU and this process's (the loop and its readers) while the round runs.
            var client = ThreadCPU()
            engineCPU =
                engineCPU
                + (try ThreadCPU.during(engine.pid) {
                    client = try ThreadCPU.during(getpid()) { sendTime += try drive(c, readers, total: count) }
                })
            clientCPU = clientCPU + client
            echoCPU =
                echoCPU
                + (try ThreadCPU.during(echo.pid) {
                    client = try ThreadCPU.during(getpid()) { rawTime += try drive(x, rawReaders, total: count) }
                })
            rawClientCPU = rawClientCPU + client
            sent += count
            extraWork = max(0, (engineCPU.own - echoCPU.own) / Double(sent))
            _ = try w.call([3] + Array(String(Int(extraWork)).utf8))
            workedTime += try drive(w, workedReaders, total: count)
        }
        let last = try c.request("session.snapshot", ["session": "demo"])["seq"]?.intValue ?? 0
        try settle(readers, through: last)
        var recovered = 0
        for reader in readers { recovered += try reader.recover(through: last, c) }
        let complete = readers.filter { $0.missing(through: last) == 0 }.count
        // The stalled subscriber reads what its queue kept, then the rest from the replay ring.
        try stalled.drainUntilQuiet()
        let gap = stalled.missing(through: last)
        guard gap > 0 else {
            throw BenchError("the stalled subscriber missed nothing of \(last - first) events: no gap to recover")
        }
        let stalledRecovered = try stalled.recover(through: last, c)
        let stalledComplete = stalled.missing(through: last) == 0
        try settle(rawReaders, through: total)
        let rawComplete = rawReaders.filter { $0.missing(through: total) == 0 }.count
        try settle(workedReaders, through: total)

        let rate = Double(total) / sendTime, rawRate = Double(total) / rawTime
        report.add(
            Figure(
                name:
                    "fanout: taps/s sent with \(sizes.subscribers) subscribers, against a raw libzmq ROUTER+XPUB (same loop, same bytes)",
                measured: perSecond(rate),
                baseline: "raw \(perSecond(rawRate)), \(rawComplete) of \(sizes.subscribers) complete",
                ratio: rate / rawRate, goal: "≥ 1.00×", met: rate >= rawRate * 0.99))
        // Both runs share the machine's cores between the server, its libzmq thread and this process's loop and
        // readers. Where the raw run already keeps every core busy, a tap can go no faster than the CPU all
        // sides spend on it allows: the bound below is the raw rate times raw CPU per tap over the engine's.
        let cores = Double(ProcessInfo.processInfo.activeProcessorCount)
        let rawBusy = (echoCPU.own + echoCPU.io + rawClientCPU.own + rawClientCPU.io) / 1e9 / rawTime / cores
        let rawPerTap = (echoCPU.own + echoCPU.io + rawClientCPU.own + rawClientCPU.io) / Double(total)
        let enginePerTap = (engineCPU.own + engineCPU.io + clientCPU.own + clientCPU.io) / Double(total)
        report.add(
            Figure(
                name:
                    "fanout: CPU a tap costs, every side together (server, its libzmq thread, this loop and its readers); the server's share in brackets",
                measured: String(
                    format: "engine %.1f µs (%.1f µs)", enginePerTap / 1e3,
                    (engineCPU.own + engineCPU.io) / Double(total) / 1e3),
                baseline: String(
                    format: "raw %.1f µs (%.1f µs); the raw run kept %.0f%% of %.0f cores busy", rawPerTap / 1e3,
                    (echoCPU.own + echoCPU.io) / Double(total) / 1e3, rawBusy * 100, cores),
                ratio: rawPerTap / enginePerTap, goal: "(printed: the rate's bound when the cores are busy)",
                met: nil))
        let workedRate = Double(total) / workedTime
        report.add(
            Figure(
                name: String(
                    format:
                        "fanout: the raw publisher spending the engine's own CPU per tap beyond its own (%.1f µs of busy work before each answer), same loop",
                    extraWork / 1e3),
                measured: "engine \(perSecond(rate))", baseline: "raw with that work \(perSecond(workedRate))",
                ratio: rate / workedRate, goal: "(printed: near 1.00× when the engine's work per tap is the gap)",
                met: nil))
        report.add(
            Figure(
                name: "fanout: the same rate against the paced target", measured: perSecond(rate),
                baseline: "target \(perSecond(targetRate))", ratio: rate / targetRate, goal: "(printed)", met: nil))
        report.add(
            Figure(
                name: "fanout: subscribers with every event (\(last - first) events each)",
                measured: "\(complete) of \(sizes.subscribers)",
                baseline: "\(recovered) events recovered by trace.replay", ratio: nil, goal: "all",
                met: complete == sizes.subscribers))
        report.add(
            Figure(
                name: "fanout: a subscriber stalled while the taps ran (high-water mark \(stalledHighWaterMark))",
                measured: "\(stalledComplete ? "complete" : "\(stalled.missing(through: last)) missing")",
                baseline: "gap of \(gap) of \(last - first) events, \(stalledRecovered) recovered by trace.replay",
                ratio: nil, goal: "gap recovered", met: stalledComplete))
    }

    /// One tap through the engine: its reply, and its trace event's topic, the text up to `"seq":` and the text
    /// after the seq's digits.
    private static func sample(_ c: Connection, _ events: String, _ context: ZMQContext) throws -> (
        reply: [UInt8], topic: [UInt8], head: [UInt8], tail: [UInt8]
    ) {
        let probe = try Subscriber(context, events, topics: ["demo/"], highWaterMark: 0)
        // The subscription is live once an event published after it arrives: tap until one does.
        try probe.socket.setReceiveTimeout(200)
        for _ in 0..<300 {
            let reply = try c.call(RoundTrip.tapBody)
            while let frames = try probe.socket.receiveMultipart(), frames.count == 2 {
                guard frames[0].starts(with: Array("demo/trace".utf8)), let digits = SeqTracker.seqDigits(frames[1])
                else { continue }
                return (
                    reply, frames[0], Array(frames[1][..<digits.lowerBound]), Array(frames[1][digits.upperBound...])
                )
            }
        }
        throw BenchError("no trace event of a tap reached a subscriber")
    }

    /// Sends `total` taps paced at the target rate with up to 64 in flight, reading every subscriber in between;
    /// the seconds that took.
    private static func drive(_ c: Connection, _ readers: [SeqTracker], total: Int) throws -> Double {
        let tap = RoundTrip.tapBody
        let start = DispatchTime.now().uptimeNanoseconds
        var sent = 0, replied = 0
        let items = [PollItem.socket(c.socket, .readable)] + readers.map { PollItem.socket($0.socket, .readable) }
        while replied < total {
            let due = min(total, Int(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 * targetRate) + 1)
            while sent < due && sent - replied < 64 {
                _ = try c.socket.send([tap])
                sent += 1
            }
            for ready in try ZMQ.poll(items: items, timeoutMs: 1) {
                if ready.index == 0 {
                    while try c.socket.receiveMultipart(dontWait: true) != nil { replied += 1 }
                } else {
                    try readers[ready.index - 1].drain()
                }
            }
        }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// Lets the subscribers' queues empty (at most 10 s).
    private static func settle(_ readers: [SeqTracker], through last: Int) throws {
        let items = readers.map { PollItem.socket($0.socket, .readable) }
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, readers.contains(where: { $0.highest < last }) {
            for ready in try ZMQ.poll(items: items, timeoutMs: 10) { try readers[ready.index].drain() }
        }
    }
}

/// The seqs one subscriber has seen, read from each event's `"seq":N`.
final class SeqTracker {
    /// Held here: the subscriber closes its socket when it goes away.
    let subscriber: Subscriber
    var socket: ZMQSocket { subscriber.socket }
    private var seen: [Bool]
    private let base: Int
    private(set) var highest: Int

    init(_ subscriber: Subscriber, after: Int) {
        self.subscriber = subscriber
        base = after
        highest = after
        seen = []
    }

    func drain() throws {
        while let frames = try socket.receiveMultipart(dontWait: true) {
            guard frames.count == 2, let seq = Self.seq(frames[1]) else { continue }
            mark(seq)
        }
    }

    private func mark(_ seq: Int) {
        guard seq > base else { return }
        let i = seq - base - 1
        if i >= seen.count { seen += [Bool](repeating: false, count: i - seen.count + 1) }
        seen[i] = true
        highest = max(highest, seq)
    }

    /// Reads what is queued until nothing has come for 200 ms.
    func drainUntilQuiet() throws {
        let item = [PollItem.socket(socket, .readable)]
        while try !ZMQ.poll(items: item, timeoutMs: 200).isEmpty { try drain() }
    }

    func missing(through last: Int) -> Int {
        (base + 1...max(base + 1, last)).filter { $0 <= last && !($0 - base - 1 < seen.count && seen[$0 - base - 1]) }
            .count
    }

    /// Reads the gaps back with trace.replay; returns how many events that recovered.
    func recover(through last: Int, _ c: Connection) throws -> Int {
        let before = missing(through: last)
        guard before > 0 else { return 0 }
        var after = base
        while after < last {
            let result = try c.request("trace.replay", ["session": "demo", "after": JSON(after)])
            let events = result["events"]?.arrayValue ?? []
            for e in events { if let seq = e["event"]?["seq"]?.intValue { mark(seq) } }
            guard let next = events.last?["event"]?["seq"]?.intValue, next > after else { break }
            after = next
        }
        return before - missing(through: last)
    }

    /// The event's seq. Read by a plain scan: this loop reads every event of every subscriber, and a generic
    /// search (`firstRange(of:)`) spent more of the client's time the later in the event the seq sits (the engine's
    /// comes after `session` and `stream`), which the raw publisher's copy must not be spared.
    static func seq(_ body: [UInt8]) -> Int? {
        guard let digits = seqDigits(body) else { return nil }
        var n = 0
        for i in digits { n = n * 10 + Int(body[i] - 0x30) }
        return n
    }

    /// Where the digits of the first `"seq":` member's value are.
    static func seqDigits(_ body: [UInt8]) -> Range<Int>? {
        body.withUnsafeBufferPointer { b -> Range<Int>? in
            // `"seq":`, six bytes.
            let key: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0x22, 0x73, 0x65, 0x71, 0x22, 0x3A)
            var i = 0
            while i + 6 <= b.count {
                if b[i] == key.0, b[i + 1] == key.1, b[i + 2] == key.2, b[i + 3] == key.3, b[i + 4] == key.4,
                    b[i + 5] == key.5
                {
                    var end = i + 6
                    while end < b.count, b[end] >= 0x30, b[end] <= 0x39 { end += 1 }
                    return end > i + 6 ? (i + 6)..<end : nil
                }
                i += 1
            }
            return nil
        }
    }
}
