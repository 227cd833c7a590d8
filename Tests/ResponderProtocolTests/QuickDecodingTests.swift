import ResponderJSON
import Testing

@testable import ResponderProtocol

/// The quick readers of plain params give what the generic decoder gives, and leave everything else
/// (which the generic decoder reads, or refuses naming the field) alone.
@Suite struct QuickDecodingTests {
    static let plain: [JSON] = [
        ["point": [1, 2]], ["session": "demo", "point": [10.5, -3]], ["point": [0, 0], "trace": "none"],
        ["trace": "full", "point": [1e3, 2], "session": "s"]
    ]
    static let notPlain: [JSON] = [
        [:], ["point": [1]], ["point": [1, 2, 3]], ["point": ["1", 2]], ["point": [1, 2], "session": nil],
        ["point": [1, 2], "trace": "some"], ["point": [1, 2], "trace": nil], ["point": [1, 2], "extra": 1],
        .object([("point", [1, 2]), ("point", [3, 4])]), ["point": [1, 2], "tapCount": 2],
        ["point": [1, 2], "dryRun": true],
        ["point": [1, 2], "session": 5]
    ]

    /// The params as a plain request carries them; nil when a plain request would not (then the engine reads
    /// the request as a tree, and no quick reader sees it).
    static func text(_ params: JSON) -> PlainParams? { PlainParams(object: JSONCodec.encode(params)) }

    @Test(arguments: plain)
    func plainParamsReadAsTheGenericDecoderReadsThem(_ params: JSON) throws {
        let text = try #require(Self.text(params))
        let hit = try #require(HitTestRequest(quick: text))
        let generic = try WireDecoder.decode(HitTestRequest.self, from: params)
        #expect(hit.session == generic.session && hit.point == generic.point && hit.trace == generic.trace)
        let tap = try #require(TapRequest(quick: text))
        let genericTap = try WireDecoder.decode(TapRequest.self, from: params)
        #expect(tap.session == genericTap.session && tap.point == genericTap.point && tap.trace == genericTap.trace)
        #expect(tap.tapCount == genericTap.tapCount && tap.time == genericTap.time && tap.dryRun == genericTap.dryRun)
    }

    @Test(arguments: notPlain)
    func otherParamsAreLeftToTheGenericDecoder(_ params: JSON) throws {
        let text = try #require(Self.text(params))
        #expect(HitTestRequest(quick: text) == nil)
        #expect(TapRequest(quick: text) == nil)
    }

    @Test func firstResponder() throws {
        for params: JSON in [[:], ["session": "demo"], ["window": "w", "session": "s"]] {
            let text = try #require(Self.text(params))
            let quick = try #require(FirstResponderRequest(quick: text))
            let generic = try WireDecoder.decode(FirstResponderRequest.self, from: params)
            #expect(quick.session == generic.session && quick.window == generic.window)
        }
        for params: JSON in [
            ["session": nil], ["window": 1], ["sesion": "typo"], .object([("window", "a"), ("window", "b")])
        ] {
            let text = try #require(Self.text(params))
            #expect(FirstResponderRequest(quick: text) == nil)
        }
        #expect(Self.text(.null) == nil && Self.text([1, 2]) == nil)
    }
}

/// A `String?` (responder.first's result) is written by the byte encoder without the Encodable walk;
/// the bytes must be the tree encoder's.
@Suite struct NameOrNullEncodingTests {
    @Test(arguments: [nil, "TF1", "", "quote \" and backslash \\", "line\nbreak\u{01}", "é😀"] as [String?])
    func aNameOrNullIsWrittenAsTheTreeEncoderWritesIt(_ name: String?) {
        #expect(WireByteEncoder.encode(name) == JSONCodec.encode(WireEncoder.encode(name)))
    }

    /// What a request's reader calls once it holds the concrete type: a `ValidatedParams` request's own rules,
    /// nothing for a request without any. Called through a generic function, as the engine's method table does.
    @Test func validateParamsRunsTheRequestsOwnRules() {
        func check<R: RequestType>(_ request: R) -> RPCError? {
            do throws(RPCError) {
                try request.validateParams()
                return nil
            } catch { return error }
        }
        let refused = check(TapRequest(session: nil, point: Point(1, 2), tapCount: 0))
        #expect(refused?.name == .invalidParams && refused?.message.contains("tapCount") == true)
        #expect(check(TapRequest(session: nil, point: Point(1, 2), time: -1))?.message.contains("time") == true)
        #expect(check(TapRequest(session: nil, point: Point(1, 2), tapCount: 2)) == nil)
        // HitTestRequest has no rules beyond its members' types.
        #expect(check(HitTestRequest(session: nil, point: Point(.infinity, 2))) == nil)
    }
}
