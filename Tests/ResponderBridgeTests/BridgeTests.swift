import Foundation
import ResponderClient
import ResponderJSON
import ResponderProtocol
import ResponderTestSupport
import Testing

@testable import ResponderBridge

/// The bridge without the `responder` executable: its framing, its exact ids, and the relay on its EngineThread
/// against a real engine, writing frames into a pipe read back here.
@Suite struct BridgeTests {
    @Test func framesAreSplitHoweverTheBytesArrive() {
        let messages = [#"{"jsonrpc":"2.0","id":1,"method":"engine.info"}"#, #"{"a":"é"}"#, ""]
        let stream = messages.flatMap { body in
            Array("Content-Length: \(body.utf8.count)\r\n\r\n".utf8) + Array(body.utf8)
        }
        for chunk in [1, 2, 7, stream.count] {
            var reader = FrameReader()
            var bodies: [String] = []
            for start in stride(from: 0, to: stream.count, by: chunk) {
                reader.append(stream[start..<min(start + chunk, stream.count)])
                while let item = reader.next() {
                    guard case .message(let body) = item else {
                        Issue.record("an error in well-formed input (chunks of \(chunk)): \(item)")
                        continue
                    }
                    bodies.append(String(decoding: body, as: UTF8.self))
                }
            }
            #expect(bodies == messages, "chunks of \(chunk)")
            #expect(!reader.isMidMessage)
        }
    }

    @Test func aBrokenHeaderCostsThatFrameAlone() {
        var reader = FrameReader()
        reader.append(
            Array("Content-Type: text/plain\r\n\r\nnot a message".utf8) + Array("Content-Length: 2\r\n\r\n{}".utf8))
        var items: [FrameReader.Item] = []
        while let item = reader.next() { items.append(item) }
        #expect(items.count == 2)
        if case .error(let text)? = items.first {
            #expect(text.contains("without Content-Length"), "\(text)")
        } else {
            Issue.record("\(items)")
        }
        #expect(items.last == .message(Array("{}".utf8)))
    }

    @Test func anIdTheEngineWouldRewriteComesBackAsWritten() throws {
        let ids = ExactID()
        let body = Array(#"{"jsonrpc":"2.0","id":1e3,"method":"engine.info"}"#.utf8)
        let protected = ids.protect(body, id: 1000)
        #expect(protected != body)
        let standIn = try #require(ExactID.written(in: protected))
        let reply = Array(#"{"jsonrpc":"2.0","id":"#.utf8) + standIn + Array(#","result":{}}"#.utf8)
        #expect(String(decoding: ids.restore(reply), as: UTF8.self) == #"{"jsonrpc":"2.0","id":1e3,"result":{}}"#)
        // Everyday ids pass untouched.
        let plain = Array(#"{"jsonrpc":"2.0","id":7,"method":"engine.info"}"#.utf8)
        #expect(ids.protect(plain, id: 7) == plain)
    }

    @Test func theRelayForwardsPipelinedRequestsAndWritesEachReplyInOrder() throws {
        let t = try LiveEngine()
        defer { t.stop() }
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let writer = FrameWriter(fd: fds[1])
        let ids = ExactID()
        let connector = t.connector(clientName: EngineRelay.clientName, kind: "bridge")
        let relay = try EngineRelay(connector: connector, writer: writer, ids: ids) { () throws(ClientError) in
            try t.address()
        }
        defer { relay.stop() }
        // As an editor writes them: a long integer id the engine would rewrite, a notification (no reply).
        let requests = [
            #"{"jsonrpc":"2.0","id":"info","method":"engine.info"}"#,
            #"{"jsonrpc":"2.0","method":"client.hello","params":{"name":"editor"}}"#,
            #"{"jsonrpc":"2.0","id":12345678901234567,"method":"tree.get","params":{"id":"B"}}"#,
            #"{"jsonrpc":"2.0","id":3,"method":"no.such.method"}"#
        ]
        for text in requests {
            let body = Array(text.utf8)
            let id = try JSONCodec.decode(body)["id"]
            relay.submit(ids.protect(body, id: id), expectsReply: id != nil)
        }
        #expect(relay.finish(timeout: patienceSeconds))

        var reader = FrameReader()
        var replies: [String] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while replies.count < 3 {
            let n = chunk.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            reader.append(chunk[..<n])
            while case .message(let body)? = reader.next() { replies.append(String(decoding: body, as: UTF8.self)) }
        }
        try #require(replies.count == 3, "\(replies)")
        #expect(replies[0].contains(#""id":"info""#) && replies[0].contains(#""name":"t""#), "\(replies[0])")
        #expect(
            replies[1].contains(#""id":12345678901234567,"#) && replies[1].contains(#""kind":"control""#),
            "\(replies[1])")
        #expect(replies[2].contains(#""id":3,"#) && replies[2].contains("METHOD_NOT_FOUND"), "\(replies[2])")
    }
}
