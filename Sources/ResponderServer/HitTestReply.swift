import ResponderCore
import ResponderJSON
import ResponderProtocol

extension SessionState {
    /// `hitTest(at:)`'s reply, byte for byte, written without building its trace (the steps restate the visits).
    public func hitTestReply(at point: Point) -> [UInt8] {
        hitTestAnswer(at: point).tracedReply
    }
}

/// hitTest's reply over the core's answer: the `Traced<HitTestOutcome>` of `hitTestReply(at:)`, or with
/// `trace: "none"` the untraced reply. Written straight from the answer's visits by slot, with no trace built.
struct HitTestBody: ResponseBody {
    typealias Response = Traced<HitTestOutcome>
    let answer: HitTestAnswer
    let withTrace: Bool

    var room: Int { withTrace ? answer.tracedReplyRoom : 96 }

    func write(to w: inout JSONWriter, typed _: (Response, inout JSONWriter) -> Bool) -> Bool {
        if withTrace {
            answer.writeTracedReply(to: &w)
        } else {
            answer.writeUntracedReply(to: &w)
        }
        return true
    }
}
