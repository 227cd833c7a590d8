import ResponderCore
import ResponderJSON
import ResponderProtocol

extension SessionState {
    /// `hitTest(at:)`'s reply, byte for byte, written without building its trace (the steps restate the visits).
    public func hitTestReply(at point: Point) -> [UInt8] {
        hitTestAnswer(at: point).tracedReply
    }
}

extension SessionHost {
    /// H1–H8 into the buffers the session keeps between hit tests (`hitScratch`), the answer left there by slot
    /// for `HitTestBody` to write.
    func hitTest(at point: Point) {
        query { $0.hitTest(at: point, keeping: &hitScratch) }
    }

    /// The reply to the hit test `hitTest(at:)` left in `hitScratch`, written into `w`.
    func writeHitTest(traced: Bool, to w: inout JSONWriter) {
        query { $0.writeHitTest(&hitScratch, traced: traced, to: &w) }
    }
}

/// hitTest's reply: the `Traced<HitTestOutcome>` of `hitTestReply(at:)`, or with `trace: "none"` the untraced
/// reply, written from the answer the session's host keeps by slot (`SessionHost.hitTest(at:)`), with no trace,
/// id list or copy of the node table made.
///
/// Kept for what it saves (callgrind, release, inside request processing): 18.3k a `hitTest` over 1,110 views,
/// against 51.6k for the general answer (`SessionState.hitTest(at:)`, a `Traced<HitTestOutcome>` written by the
/// hand-written visit writers). `HitTestAnswerTests` compares the two replies byte for byte.
///
/// Why the kept slots still name the views asked when it is written: a handler's body is written into its reply
/// as soon as the handler returns (`MethodTable.run`), before anything else reaches the session.
struct HitTestBody: ResponseBody {
    typealias Response = Traced<HitTestOutcome>
    let host: SessionHost
    let withTrace: Bool

    var room: Int { withTrace ? host.hitScratch.tracedReplyRoom : 96 }

    func write(to w: inout JSONWriter, typed _: (Response, inout JSONWriter) -> Bool) -> Bool {
        host.writeHitTest(traced: withTrace, to: &w)
        return true
    }
}
