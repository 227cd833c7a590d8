import Testing
import ResponderProtocol
@testable import ResponderServer

/// Issue 15: a tap's `request` member (13.2) is built directly; it must be what the encoder gives.
@Suite struct RequestMemberTests {
    @Test func aTapsRequestMemberIsWhatTheEncoderGives() {
        var taps = [TapRequest(session: nil, point: Point(100, 150)),
                    TapRequest(session: "demo", point: Point(-1.5, 2e6), tapCount: 2, time: 0.25, trace: TraceDetail.none),
                    TapRequest(session: "s", point: Point(0, 0), tapCount: 3, trace: .full)]
        var dry = TapRequest(session: nil, point: Point(1, 2), time: 3)
        dry.dryRun = true
        taps.append(dry)
        for tap in taps {
            let direct = DispatchMethods.requestMember("event.tap", tap)
            #expect(direct == DispatchMethods.encodedRequestMember("event.tap", tap))
            #expect(JSONCodec.encode(direct) == JSONCodec.encode(DispatchMethods.encodedRequestMember("event.tap", tap)))
        }
    }
}
