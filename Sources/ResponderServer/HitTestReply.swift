import ResponderCore
import ResponderJSON
import ResponderProtocol

extension SessionState {
    /// `hitTest(at:)`'s reply, byte for byte, written without building its trace (the steps restate the visits).
    public func hitTestReply(at point: Point) -> [UInt8] {
        let outcome = hitTestOutcome(at: point)
        return outcome.tracedReply(trailing: Self.hitTestEnd(outcome))
    }

    /// The hitTest reply of `outcome` (`hitTestReply(at:)`), written into `w`: a reply's envelope.
    static func writeHitTestReply(_ outcome: HitTestOutcome, to w: inout JSONWriter) {
        outcome.writeTracedReply(trailing: hitTestEnd(outcome), to: &w)
    }
}
