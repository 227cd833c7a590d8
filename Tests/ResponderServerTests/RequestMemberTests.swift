import ResponderJSON
import ResponderProtocol
import Testing

@testable import ResponderServer

/// A tap's `request` member (13.2) is written directly; it must be the bytes the encoder gives.
@Suite struct RequestMemberTests {
    @Test func aTapsRequestMemberIsWhatTheEncoderGives() {
        var taps = [
            TapRequest(session: nil, point: Point(100, 150)),
            TapRequest(session: "demo", point: Point(-1.5, 2e6), tapCount: 2, time: 0.25, trace: TraceDetail.none),
            TapRequest(session: "s", point: Point(0, 0), tapCount: 3, trace: .full),
            TapRequest(session: nil, point: Point(0.1, 1e21), tapCount: -4, time: 1e-7)
        ]
        var dry = TapRequest(session: nil, point: Point(1, 2), time: 3)
        dry.dryRun = true
        taps.append(dry)
        for tap in taps {
            let direct = DispatchMethods.requestMember("event.tap", tap)
            let encoded = JSONCodec.encode(DispatchMethods.encodedRequestMember("event.tap", tap))
            #expect(
                direct == encoded,
                "\(String(decoding: direct, as: UTF8.self)) is not \(String(decoding: encoded, as: UTF8.self))")
        }
    }

    /// The direct path names TapRequest's members itself: a member added to the request must be added there too
    /// (or be one the recording leaves out), or this fails.
    @Test func theDirectPathKnowsEveryMemberOfATap() {
        let known = Set(["point", "tapCount", "time"]).union(DispatchMethods.notRecorded)
        let members = Mirror(reflecting: TapRequest(session: nil, point: Point(0, 0))).children.compactMap(\.label)
            .map { $0.hasPrefix("_") ? String($0.dropFirst()) : $0 }
        #expect(!members.isEmpty)
        for member in members {
            #expect(known.contains(member), "TapRequest.\(member) is not in the direct request member")
        }
    }
}
