import ResponderJSON
import ResponderProtocol
import Testing

/// A dry run's reply (1.5) is its method's typed `Response`: `dryRun` and a dry tree.apply's treeChange trace are
/// members of `Published`, where the wire has them (the trace after `seqRange`, `dryRun` last), written alike by
/// both encoders and read back by a client.
@Suite struct PublishedDryRunTests {
    let consequences = Traced(
        TreeChangeOutcome(touches: [], presses: [], resigned: [ForcedResign(window: "w", from: "field")]),
        trace: Trace(kind: .treeChange))

    /// The reply's text, the same from the byte writer and the tree encoder.
    func text<T: Encodable>(_ value: T) -> String {
        let bytes = WireByteEncoder.encode(value)
        let tree = JSONCodec.encode(WireEncoder.encode(value))
        #expect(bytes == tree, "\(String(decoding: bytes, as: UTF8.self)) != \(String(decoding: tree, as: UTF8.self))")
        return String(decoding: bytes, as: UTF8.self)
    }

    func read<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try WireDecoder.decode(type, from: try JSONCodec.decode(Array(text.utf8)), strict: false)
    }

    @Test func liveReplyHasNeitherMember() throws {
        let text = text(Published(Empty(), revision: 3, seq: 7, seqRange: [6, 7]))
        #expect(text == #"{"revision":3,"seq":7,"seqRange":[6,7]}"#)
        let reply = try read(Published<Empty>.self, text)
        #expect(!reply.dryRun && reply.consequences == nil)
    }

    @Test func dryTreeApplyHasItsTraceThenDryRun() throws {
        let text = text(
            Published(Empty(), revision: 4, seq: 7, seqRange: nil, consequences: consequences, dryRun: true))
        #expect(
            text == #"{"revision":4,"seq":7,"seqRange":null,"trace":{"kind":"treeChange","steps":[],"#
                + #""outcome":{"touches":[],"presses":[],"resigned":[{"window":"w","from":"field"}]}},"dryRun":true}"#)
        let reply = try read(Published<Empty>.self, text)
        #expect(reply.dryRun && reply.consequences == consequences && reply.seqRange == nil)
    }

    /// A dispatch's `trace` is its traced base's, never a tree change's consequences.
    @Test func dryDispatchKeepsItsTraceInItsBase() throws {
        let traced = Traced(
            FocusOutcome(result: true, reason: .became, resigned: nil), trace: Trace(kind: .become))
        let text = text(Published(traced, seq: 2, seqRange: nil, dryRun: true))
        #expect(
            text == #"{"result":true,"reason":"became","resigned":null,"trace":{"kind":"become","steps":[],"#
                + #""outcome":{"result":true,"reason":"became","resigned":null}},"seq":2,"seqRange":null,"dryRun":true}"#
        )
        let reply = try read(Published<Traced<FocusOutcome>>.self, text)
        #expect(reply.dryRun && reply.consequences == nil && reply.base == traced)
    }
}
