import Foundation
import ResponderClient
import ResponderJSON
import ResponderProtocol
import ResponderTestSupport
import Synchronization
import Testing

/// `responder bridge` end to end, as an editor extension would drive it: the built binary on pipes, framed
/// JSON-RPC both ways, against an in-process engine (CLIEngine) that another client shares.
@Suite struct BridgeBinaryTests {
    @Test func relaysRequestsWithTheirIdsAndForwardsEventsUntilStdinCloses() throws {
        let t = try CLIEngine()
        defer { t.stop() }
        let bridge = try FramedBridge(["bridge"] + t.target)
        defer { bridge.kill() }

        // Two requests in one write: replies in order, ids exactly as sent.
        try bridge.write(
            FramedBridge.frame(["jsonrpc": "2.0", "id": "info", "method": "engine.info"])
                + FramedBridge.frame(["jsonrpc": "2.0", "id": 7, "method": "tree.get", "params": ["id": "B"]]))
        let info = try bridge.next()
        #expect(info["id"] == "info" && info["result"]?["name"] == .string(t.name), "\(info)")
        let tree = try bridge.next()
        #expect(tree["id"] == 7 && tree["result"]?["tree"]?["kind"] == "control", "\(tree)")

        let subscribed = try bridge.request([
            "jsonrpc": "2.0", "id": "sub", "method": "bridge.subscribe", "params": ["session": "default"]
        ])
        #expect(subscribed["result"]?["session"] == "default", "\(subscribed)")
        let from = try #require(subscribed["result"]?["seq"]?.intValue)

        // Another client's tap reaches the bridge as an event notification...
        let other = try t.engine.connect()
        _ = try other.call("client.hello", ["name": "other-tool"])
        _ = try other.call("event.tap", ["point": [50, 420]])
        let theirs = try bridge.next { $0["method"] == "event" }
        #expect(theirs["params"]?["topic"] == "default/trace")
        #expect(theirs["params"]?["event"]?["seq"]?.intValue == from + 1)
        #expect(theirs["params"]?["event"]?["cause"]?["client"] == "other-tool")

        // ... and the bridge's own tap names the bridge and the editor's request id as its cause.
        try bridge.write(
            FramedBridge.frame(["jsonrpc": "2.0", "id": "tap-9", "method": "event.tap", "params": ["point": [50, 420]]])
        )
        let ours = try bridge.next { $0["method"] == "event" }
        #expect(ours["params"]?["event"]?["seq"]?.intValue == from + 2)
        #expect(ours["params"]?["event"]?["cause"] == ["client": "responder-bridge", "request": "tap-9"])
        let tapped = try bridge.next { $0["id"] == "tap-9" }
        #expect(tapped["result"]?["deliveries"]?[0]?["view"] == "B", "\(tapped)")

        // A framing error is reported on stderr and the stream goes on.
        try bridge.write(Array("Content-Type: text/plain\r\n\r\nnot a message".utf8))
        let after = try bridge.request(["jsonrpc": "2.0", "id": "after", "method": "session.list"])
        #expect(after["result"]?["sessions"] != nil, "\(after)")

        bridge.closeStdin()
        #expect(bridge.waitForExit() == 0)
        #expect(bridge.stderr.contains("a header without Content-Length"), "\(bridge.stderr)")
    }
}

extension JSON {
    /// The element at `index` of an array.
    subscript(index: Int) -> JSON? {
        guard let items = arrayValue, items.indices.contains(index) else { return nil }
        return items[index]
    }
}

/// The built `responder bridge` on pipes, with a Content-Length framed reader on its stdout.
final class FramedBridge: @unchecked Sendable {
    // @unchecked: `buffer` and `errors` are guarded by `lock`; the process and pipes are only used by the test.
    private let process: Process
    private let input = Pipe()
    private let lock = NSLock()
    private var buffer: [UInt8] = []
    private var errors = Data()
    private var outputReader: PipeReader?
    private var errorReader: PipeReader?

    init(_ arguments: [String]) throws {
        process = try CLIRunner.process(arguments)
        let output = Pipe(), error = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()
        outputReader = PipeReader(output) { [weak self] data in
            guard let self else { return }
            self.lock.withLock { self.buffer.append(contentsOf: data) }
        }
        errorReader = PipeReader(error) { [weak self] data in
            guard let self else { return }
            self.lock.withLock { self.errors.append(data) }
        }
    }

    static func frame(_ message: JSON) -> [UInt8] {
        let body = JSONCodec.encode(message)
        return Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
    }

    func write(_ bytes: [UInt8]) throws { try input.fileHandleForWriting.write(contentsOf: Data(bytes)) }

    func request(_ message: JSON) throws -> JSON {
        try write(Self.frame(message))
        return try next { $0["id"] == message["id"] && $0["method"] == nil }
    }

    var stderr: String { lock.withLock { String(decoding: errors, as: UTF8.self) } }

    /// Messages read but not yet taken by `next`.
    private var held: [JSON] = []

    /// The next message that `matches` (others are held for later calls), within `patienceSeconds`.
    func next(where matches: (JSON) -> Bool = { _ in true }) throws -> JSON {
        if let i = held.firstIndex(where: matches) { return held.remove(at: i) }
        let deadline = Date().addingTimeInterval(patienceSeconds)
        while Date() < deadline {
            if let message = try takeFrame() {
                if matches(message) { return message }
                held.append(message)
                continue
            }
            usleep(5_000)
        }
        throw CLITestError(
            "no matching message from the bridge within \(patienceSeconds) s; held \(held); stderr: \(stderr)")
    }

    /// One complete frame from the buffer, checking its header, or nil if none is complete yet.
    private func takeFrame() throws -> JSON? {
        let body: [UInt8]? = try lock.withLock {
            let separator = Array("\r\n\r\n".utf8)
            guard let end = buffer.indices.first(where: { buffer[$0...].starts(with: separator) }) else { return nil }
            let header = String(decoding: buffer[..<end], as: UTF8.self)
            guard header.hasPrefix("Content-Length: "), let length = Int(header.dropFirst("Content-Length: ".count))
            else {
                throw CLITestError("bad header from the bridge: \(header)")
            }
            let start = end + separator.count
            guard buffer.count - start >= length else { return nil }
            defer { buffer.removeFirst(start + length) }
            return Array(buffer[start..<start + length])
        }
        return try body.map { try JSONCodec.decode($0) }
    }

    func closeStdin() { try? input.fileHandleForWriting.close() }

    func waitForExit() -> Int32? {
        let deadline = Date().addingTimeInterval(patienceSeconds)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        guard !process.isRunning else { return nil }
        process.waitUntilExit()
        // Its output is read on other threads: wait for both ends so `stderr` holds all it wrote.
        outputReader?.waitForEnd(timeout: patienceSeconds)
        errorReader?.waitForEnd(timeout: patienceSeconds)
        return process.terminationStatus
    }

    func kill() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }
}
