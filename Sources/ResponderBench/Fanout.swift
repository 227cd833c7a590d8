import Foundation
import ResponderJSON
import ResponderProtocol
import ZMQ

/// Many subscribers while event.tap is sent at a fixed pace, against the same loop on a raw libzmq ROUTER + XPUB
/// that only answers and publishes the same bytes (what this client and machine can move at all). Each subscriber
/// must end with every event of the session, reading what it missed (past libzmq's default high-water mark of
/// 1000) back with trace.replay; one more subscriber reads nothing while the taps are sent, so it certainly has a
/// gap, and must recover it through trace.replay.
enum Fanout {
    /// The pace the loop asks for; beyond what this machine moves, so both sides send as fast as they can.
    static let targetRate = 20_000.0
    /// The stalled subscriber's receive high-water mark: it holds this many events and loses the rest.
    static let stalledHighWaterMark = 100

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
        let (reply, topic, tail) = try sample(c, engine.events, context)
        let first = try c.request("session.snapshot", ["session": "demo"])["seq"]?.intValue ?? 0
        let subscribers = try (0..<sizes.subscribers).map { _ in
            try Subscriber(context, engine.events, topics: ["demo/"], highWaterMark: 1000)
        }
        let readers = subscribers.map { SeqTracker($0, after: first) }
        let stalled = SeqTracker(
            try Subscriber(context, engine.events, topics: ["demo/"], highWaterMark: stalledHighWaterMark),
            after: first)
        let sendTime = try drive(c, readers, total: total)
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

        // The same loop against a raw libzmq ROUTER + XPUB that does nothing but answer and publish.
        let echo = try EchoProcess(transport: .ipc, publishing: true)
        defer { echo.stop() }
        let x = try Connection(context, echo.endpoint)
        try x.setEchoReply(reply)
        _ = try x.call([2] + topic + [0] + tail)
        let rawReaders = try (0..<sizes.subscribers).map { _ in
            SeqTracker(try Subscriber(context, echo.events!, topics: ["demo/"], highWaterMark: 1000), after: 0)
        }
        let rawTime = try drive(x, rawReaders, total: total)
        try settle(rawReaders, through: total)
        let rawComplete = rawReaders.filter { $0.missing(through: total) == 0 }.count

        let rate = Double(total) / sendTime, rawRate = Double(total) / rawTime
        report.add(
            Figure(
                name:
                    "fanout: taps/s sent with \(sizes.subscribers) subscribers, against a raw libzmq ROUTER+XPUB (same loop, same bytes)",
                measured: perSecond(rate),
                baseline: "raw \(perSecond(rawRate)), \(rawComplete) of \(sizes.subscribers) complete",
                ratio: rate / rawRate, goal: "≥ 1.00×", met: rate >= rawRate * 0.99))
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

    /// One tap through the engine: its reply, and its trace event's topic and the text after `{"seq":N,`.
    private static func sample(_ c: Connection, _ events: String, _ context: ZMQContext) throws -> (
        reply: [UInt8], topic: [UInt8], tail: [UInt8]
    ) {
        let probe = try Subscriber(context, events, topics: ["demo/"], highWaterMark: 0)
        // The subscription is live once an event published after it arrives: tap until one does.
        try probe.socket.setReceiveTimeout(200)
        for _ in 0..<300 {
            let reply = try c.call(RoundTrip.tapBody)
            while let frames = try probe.socket.receiveMultipart(), frames.count == 2 {
                guard frames[0].starts(with: Array("demo/trace".utf8)),
                    let seq = frames[1].firstRange(of: Array("\"seq\":".utf8))
                else { continue }
                var i = seq.upperBound
                while i < frames[1].count, frames[1][i] != UInt8(ascii: ",") { i += 1 }
                return (reply, frames[0], Array(frames[1][min(i + 1, frames[1].count)...]))
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

/// The seqs one subscriber has seen, read cheaply from the front of each event (`…"seq":N,`).
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

    static func seq(_ body: [UInt8]) -> Int? {
        let key = Array("\"seq\":".utf8)
        guard let r = body.firstRange(of: key) else { return nil }
        var n = 0
        var i = r.upperBound
        while i < body.count, body[i] >= 0x30, body[i] <= 0x39 {
            n = n * 10 + Int(body[i] - 0x30)
            i += 1
        }
        return n
    }
}
