import ResponderCore
import ResponderJSON
import ResponderProtocol

extension SessionState {
    /// `hitTest(at:)`'s reply, byte for byte, written without building its trace (the steps restate the visits).
    public func hitTestReply(at point: Point) -> [UInt8] {
        let outcome = hitTestOutcome(at: point)
        return outcome.tracedReply(trailing: Self.hitTestEnd(outcome))
    }
}

/// hitTest's reply over the core's outcome: the `Traced<HitTestOutcome>` of `hitTestReply(at:)`, or with
/// `trace: "none"` the untraced reply. Written straight from the outcome, with no trace built.
struct HitTestBody: ResponseBody {
    typealias Response = Traced<HitTestOutcome>
    let outcome: HitTestOutcome
    let withTrace: Bool

    var room: Int { withTrace ? outcome.tracedReplyRoom : 96 }

    func write(to w: inout JSONWriter, typed _: (Response, inout JSONWriter) -> Bool) -> Bool {
        if withTrace {
            outcome.writeTracedReply(trailing: SessionState.hitTestEnd(outcome), to: &w)
        } else {
            outcome.writeUntracedReply(to: &w)
        }
        return true
    }
}
