/// How much explanation a reply carries (12.2, revision 1.8). `none` is for callers that want the answer only
/// (editors hit-testing on every keystroke, replays): the reply leaves out `trace` and the members that only
/// restate its steps. What is published does not change.
public enum TraceDetail: String, WireEnum {
    case full
    case none
}

/// A request that takes `trace` (the queries with a trace, the dispatching methods and `window.makeKey`).
/// Its typed `Response` is the full reply: a client that asks for `none` reads the members that are left as
/// JSON (`ResponderConnection.call`), since the explanation the typed reply holds is not there.
public protocol TraceSelecting: SessionRequest {
    var trace: TraceDetail? { get set }
}

extension TraceSelecting {
    /// Absent means `full`, so clients of 1.7 and before get what they always got. (Spelled out: `.none`
    /// next to an optional would be `Optional.none`.)
    public var wantsTrace: Bool { trace != TraceDetail.none }

    /// The request as recorded in its trace event (13.3), where `trace` is left out: clearing it here is
    /// cheaper than encoding it and filtering it out of the params.
    public var withoutTrace: Self {
        var copy = self
        copy.trace = nil
        return copy
    }
}
